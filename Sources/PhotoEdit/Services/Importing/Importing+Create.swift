import Foundation

/// Photos from bytes, not paths (a server receiving uploads): PhotoKit's
/// `PHAssetCreationRequest.addResource(with:data:options:)`. The bytes are
/// written to a staging file in the library's `tmp/` while being hashed and
/// counted against the import size limit (`PHOTOEDIT_MAX_FILE_SIZE`), then
/// take the import path of a file: decoded whole, checked, moved into
/// `originals/`, committed with the same all-or-nothing protocol.
extension Importing {
    @discardableResult
    func createAsset(from data: Data, filename: String? = nil) throws -> ObjectPlaceholder {
        try createAsset(.data(data, filename: filename))
    }

    @discardableResult
    func createAsset<Bytes: AsyncSequence>(from bytes: Bytes, filename: String? = nil) async throws -> ObjectPlaceholder
    where Bytes.Element == UInt8 {
        try await createAsset(streaming: filename) { writer in
            var chunk: [UInt8] = []
            chunk.reserveCapacity(1 << 20)
            for try await byte in bytes {
                chunk.append(byte)
                if chunk.count == 1 << 20 {
                    try chunk.withUnsafeBytes { try writer.append($0) }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            try chunk.withUnsafeBytes { try writer.append($0) }
        }
    }

    @discardableResult
    func createAsset<Chunks: AsyncSequence>(fromChunks chunks: Chunks, filename: String? = nil) async throws -> ObjectPlaceholder
    where Chunks.Element: DataProtocol {
        try await createAsset(streaming: filename) { writer in
            for try await chunk in chunks {
                for region in chunk.regions { try region.withUnsafeBytes { try writer.append($0) } }
            }
        }
    }

    /// Writes what `body` streams into a staging file in `tmp/` (hashed,
    /// counted against the size limit), then imports it.
    func createAsset(streaming filename: String?, limit: Int64 = Importer.maxFileBytes,
                     _ body: (FileIO.HashingWriter) async throws -> Void) async throws -> ObjectPlaceholder {
        try requireWritable()
        let name = try Self.checkedFilename(filename)
        let staged = layout.temporary(".upload")
        defer { unlink(staged) }
        let writer = try FileIO.HashingWriter(path: staged, limit: limit, limitName: "PHOTOEDIT_MAX_FILE_SIZE",
                                              source: name ?? Self.unnamedUpload)
        try await body(writer)
        let (sha, size) = try writer.finish()
        return try await BlockingExecutor.run {
            let placeholder = try self.createAsset(.staged(path: staged, sha256: sha, size: size, filename: name))
            // Lightroom develop settings embedded in the file (no sidecar
            // travels with an upload): a revision of the new photo, as at import.
            if !placeholder.existed && !placeholder.joinedPair {
                var results = [ImportResult(path: name ?? Self.unnamedUpload, id: placeholder.localIdentifier, duplicate: false,
                                            error: nil, joinedPair: false)]
                importDevelopSettings(of: [SystemPath(staged)], results: &results)
                if !results[0].warnings.isEmpty { placeholder.setWarnings(placeholder.warnings + results[0].warnings) }
            }
            return placeholder
        }
    }

    /// One creation through `performChanges`, retried when a concurrent
    /// import of the same bytes failed under it.
    func createAsset(_ source: ImportSource, importDate: Date? = nil) throws -> ObjectPlaceholder {
        var attempt = 0
        while true {
            do {
                var placeholder: ObjectPlaceholder?
                try committing.performChanges { changes in
                    changes.importDate = importDate
                    placeholder = changes.createAsset(source)
                }
                guard let placeholder else { throw PhotoEditError.library("the import's change made no photo") }
                return placeholder
            } catch PhotoEditError.library(let message) where message.contains("failed concurrent import") && attempt < 3 {
                attempt += 1
            }
        }
    }

    /// How an upload without a file name is named in errors.
    static let unnamedUpload = "uploaded data"

    static func checkedFilename(_ name: String?) throws -> String? {
        guard let name else { return nil }
        guard !name.isEmpty, name.utf8.count <= 255, name != ".", name != "..", !name.contains("/"),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw PhotoEditError.invalidChange("file name '\(name)' must be one path component of 1–255 bytes without control characters")
        }
        return name
    }
}
