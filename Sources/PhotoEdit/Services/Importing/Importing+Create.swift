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
        try await createAsset(streaming: filename) { upload in
            var chunk: [UInt8] = []
            chunk.reserveCapacity(1 << 16)
            for try await byte in bytes {
                chunk.append(byte)
                if chunk.count == 1 << 16 {
                    try await upload.append(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            try await upload.append(chunk)
        }
    }

    @discardableResult
    func createAsset<Chunks: AsyncSequence>(fromChunks chunks: Chunks, filename: String? = nil) async throws -> ObjectPlaceholder
    where Chunks.Element: DataProtocol {
        try await createAsset(streaming: filename) { upload in
            for try await chunk in chunks { try await upload.append(chunk) }
        }
    }

    /// Writes what `body` streams into a staging file in `tmp/` (hashed,
    /// counted against the size limit), then imports it. The bytes are
    /// gathered on the caller's task and written 1 MiB at a time on the
    /// ``BlockingExecutor``, and imported on its bulk lane
    /// (``BlockingExecutor/runBulk(_:)``): no file call runs on Swift's
    /// cooperative pool, and no executor thread is held while the body is awaited.
    func createAsset(streaming filename: String?, limit: Int64 = Importer.maxFileBytes,
                     _ body: (StagedUpload) async throws -> Void) async throws -> ObjectPlaceholder {
        try requireWritable()
        let name = try Importer.checkedFilename(filename)
        let staged = layout.temporary(".upload")
        let writer = try await BlockingExecutor.run {
            try FileIO.HashingWriter(path: staged, limit: limit, limitName: "PHOTOEDIT_MAX_FILE_SIZE",
                                     source: name ?? Importer.unnamedUpload)
        }
        do {
            let upload = StagedUpload(writer)
            try await body(upload)
            try await upload.flush()
            // The import (the whole photo decoded, its previews made) on the
            // executor's bulk lane: a burst of uploads never takes every
            // executor thread from short work such as render hits.
            return try await BlockingExecutor.runBulk {
                defer { unlink(staged) }
                let (sha, size) = try writer.finish()
                let placeholder = try self.createAsset(.staged(path: staged, sha256: sha, size: size, filename: name))
                // Lightroom develop settings embedded in the file (no sidecar
                // travels with an upload): a revision of the new photo, as at import.
                if !placeholder.existed && !placeholder.joinedPair {
                    var results = [ImportResult(path: name ?? Importer.unnamedUpload, id: placeholder.localIdentifier, duplicate: false,
                                                error: nil, joinedPair: false)]
                    importDevelopSettings(of: [SystemPath(staged)], results: &results)
                    if !results[0].warnings.isEmpty { placeholder.setWarnings(placeholder.warnings + results[0].warnings) }
                }
                return placeholder
            }
        } catch {
            // Nothing imported: the staging file goes (the writer, never
            // finished, would remove it too when it goes, wherever that is).
            _ = try? await BlockingExecutor.run { unlink(staged) }
            throw error
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

}

/// An upload's bytes on their way to the staging file: gathered in memory
/// 1 MiB at a time, then written (and hashed) on the ``BlockingExecutor``.
/// One task appends, in order.
///
/// One buffer serves the whole upload, written from where it lies: each
/// write is awaited before the next byte is gathered. (A fresh megabyte a
/// piece was an allocation, its pages faulted in and its unmapping each
/// time, and mapping calls wait for the process's memory map lock, which a
/// background-lane thread at a lower priority may be holding.)
final class StagedUpload {
    static let pieceBytes = 1 << 20
    private let writer: FileIO.HashingWriter
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceBytes, alignment: 64)
    private var count = 0

    init(_ writer: FileIO.HashingWriter) {
        self.writer = writer
    }

    deinit {
        buffer.deallocate()
    }

    func append(_ bytes: some DataProtocol) async throws {
        for region in bytes.regions {
            var offset = 0
            while offset < region.count {
                let copied = region.withUnsafeBytes { source -> Int in
                    let room = UnsafeMutableRawBufferPointer(rebasing: buffer[count...])
                    let taken = UnsafeRawBufferPointer(rebasing: source[offset..<min(source.count, offset + room.count)])
                    room.copyMemory(from: taken)
                    return taken.count
                }
                count += copied
                offset += copied
                if count == Self.pieceBytes { try await flush() }
            }
        }
    }

    /// Writes what is gathered.
    func flush() async throws {
        guard count > 0 else { return }
        // Read by the executor's thread while this task waits for it: the
        // buffer is neither changed nor freed before the write has returned.
        nonisolated(unsafe) let piece = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        let writer = writer
        try await BlockingExecutor.run { try writer.append(piece) }
        count = 0
    }
}
