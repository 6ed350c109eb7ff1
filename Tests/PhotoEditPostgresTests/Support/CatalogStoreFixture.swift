// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit
@testable import PhotoEditPostgres
import PhotoEditTestSupport
import Testing

/// The two catalog stores: SQLite in the library's folder, PostgreSQL on loopback.
enum CatalogStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// A library on `store`, with coffee and chelsea imported (A, B).
final class CatalogStoreFixture: Sendable {
    private let temp: TemporaryDirectory
    let folder: URL
    let library: PhotoLibrary
    let postgres: PostgresCatalogStore?
    let a: String
    let b: String

    init(_ store: CatalogStoreKind) async throws {
        temp = TemporaryDirectory("photoedit-store-\(store.rawValue)")
        folder = temp.url.appendingPathComponent("library")
        switch store {
        case .sqlite:
            postgres = nil
            library = try PhotoLibrary(url: folder)
        case .postgres:
            let catalog = try await PostgresCatalogStore.open(try LocalPostgresServer.shared.get().newDatabase())
            postgres = catalog
            library = try PhotoLibrary(url: folder, catalog: catalog)
        }
        let ids = try await BlockingExecutor.run { [library] in try library.importItems([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")]) }.compactMap(\.id)
        guard ids.count == 2 else { throw PhotoEditError.library("the samples were not imported") }
        (a, b) = (ids[0], ids[1])
    }

    /// Another node: a second library object on the same folder and catalog.
    func otherNode() throws -> PhotoLibrary {
        guard let postgres else { return try PhotoLibrary(url: folder) }
        return try PhotoLibrary(url: folder, catalog: PostgresCatalogStore(postgres.location))
    }

    deinit {
        postgres?.close()
    }

    /// A content edit of `id` made from its current revision, not yet committed.
    func output(for id: String, on library: PhotoLibrary? = nil) throws -> ContentEditingOutput {
        let library = library ?? self.library
        let input = try library.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(displaySize: nil))
        var output = ContentEditingOutput(contentEditingInput: input)
        try library.render(id, version: .current, to: output.renderedContentURL.path)
        output.adjustmentData = AdjustmentData(formatIdentifier: "com.example.other", formatVersion: "1", data: Data("grey".utf8))
        return output
    }
}

extension CatalogStoreFixture {
    /// Runs `body` (synchronous: the engine's synchronous API) on a new fixture on `store`.
    static func on(_ store: CatalogStoreKind, _ body: (CatalogStoreFixture) throws -> Void) async throws {
        try body(try await CatalogStoreFixture(store))
    }
}
#endif
