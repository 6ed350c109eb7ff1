import Foundation
import Testing
@testable import PhotoEdit

/// Presets uploaded to a library (`PhotoLibrary.addPreset`): a folder
/// library's `presets/`, and a distributed library's blobs seen by every node.
@Suite("Presets uploaded to a library")
struct LibraryPresetTests {
    static func corpus(_ name: String) throws -> Data {
        try #require(FileManager.default.contents(atPath: Paths.root.appendingPathComponent("Tests/Fixtures/lightroom/corpus/\(name)").path))
    }

    @Test("a shared library: the preset is a blob every node lists and applies; a second upload of the name is refused; a bad one stores nothing")
    func sharedLibrary() throws {
        let folder = TemporaryDirectory("photoedit-presets")
        let temp = folder.url
        let blobs = temp.appendingPathComponent("blobs")
        let catalog = temp.appendingPathComponent("catalog.sqlite").path
        func node(_ name: String) throws -> PhotoLibrary {
            try PhotoLibrary(workDirectory: temp.appendingPathComponent(name), catalog: SQLiteCatalogStore(path: catalog, readOnly: false),
                             blobs: FolderBlobStore(root: blobs), cacheCapacity: 1 << 24)
        }
        let first = try node("a"), second = try node("b")
        let velvia = try Self.corpus("05-analogfilm-n-fuji-velvia-50.xmp")
        let added = try first.addPreset(named: "velvia.xmp", lightroom: velvia)
        #expect(added.name == "velvia")
        #expect(FileManager.default.contents(atPath: blobs.appendingPathComponent("presets/velvia.xmp").path) == velvia)

        // The other node sees it, and applies it as preset:velvia.xmp does from a folder.
        let seen = try second.presets().preset(named: "velvia.xmp")
        let fromFolder = try PresetLibrary(folders: [Paths.root.appendingPathComponent("Tests/Fixtures/lightroom/corpus").path])
            .preset(named: "05-analogfilm-n-fuji-velvia-50.xmp")
        #expect(seen.chain == fromFolder.chain)
        #expect(!seen.chain.isEmpty)

        #expect(throws: PresetUploadError.self) { try second.addPreset(named: "velvia", lightroom: try Self.corpus("07-analogfilm-n-kodak-portra-400.xmp")) }
        #expect(throws: PresetUploadError.self) { try second.addPreset(named: "broken", lightroom: Data("<x:xmpmeta".utf8)) }
        let stored = try FileManager.default.contentsOfDirectory(atPath: blobs.appendingPathComponent("presets").path).sorted()
        #expect(stored == ["velvia.xmp"])
    }

    @Test("photoedit apply --library L preset:NAME.xmp applies a preset uploaded to L (after --presets folders, before the search path)")
    func cliSeesUploadedPresets() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let photos = try PhotoLibrary(url: URL(fileURLWithPath: lib.path), create: false)
        try photos.addPreset(named: "velvia", lightroom: try Self.corpus("05-analogfilm-n-fuji-velvia-50.xmp"))
        try lib.succeed(["apply", "preset:velvia.xmp", id])
        let expected = try photos.presets().preset(named: "velvia.xmp").recipe(developsRaw: false)?.recipe
        #expect(try photos.currentRecipe(id).nodes.map(\.filter) == expected?.nodes.map(\.filter))
        #expect(expected?.nodes.isEmpty == false)
    }
}
