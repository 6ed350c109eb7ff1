// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEdit
import PhotoEditS3
import PhotoEditTestSupport
import Testing

/// Issue 38: an export preset removed and made again on another node of a
/// shared (S3) library is read as it is now, never from this node's cache.
@Suite("Export presets on a shared store: read current, never from a node's cache")
struct ExportPresetStoreTests {
    @Test func presetRecreatedOnAnotherNodeIsReadCurrent() async throws {
        let store = try await SeaweedFS.shared.value.store()
        let cacheA = TemporaryDirectory("photoedit-node-a"), cacheB = TemporaryDirectory("photoedit-node-b")
        let nodeA = try BlobLibraryFiles(store: store, cacheFolder: cacheA.url, cacheCapacity: 1 << 20)
        let nodeB = try BlobLibraryFiles(store: store, cacheFolder: cacheB.url, cacheCapacity: 1 << 20)
        let relative = "export-presets/web.json"
        func publish(_ node: BlobLibraryFiles, _ text: String) throws {
            let staged = cacheB.file("staged-\(UUID().uuidString.prefix(8))")
            try Data(text.utf8).write(to: URL(fileURLWithPath: staged))
            try node.publish(staged, as: relative)
        }
        try publish(nodeB, #"{"settings": {"format": "avif"}}"#)
        // Node A reads it through its cache (as a renderer's path would).
        let cached = try nodeA.localPath(relative)
        #expect(try String(contentsOfFile: cached, encoding: .utf8).contains("avif"))
        // Node B removes it and makes it again with other settings.
        nodeB.remove(relative)
        try publish(nodeB, #"{"settings": {"format": "jpeg"}}"#)
        let current = try #require(try nodeA.currentContents(relative, limit: 1 << 16))
        #expect(String(decoding: current, as: UTF8.self).contains("jpeg"), "node A reads the store, not its cached copy")
        #expect(try ExportPreset.decode(name: "web", data: current).settings.format == .jpeg)
        // (Its cache still holds the old bytes: what the presets no longer read.)
        #expect(try String(contentsOfFile: try nodeA.localPath(relative), encoding: .utf8).contains("avif"))
        nodeB.remove(relative)
        #expect(try nodeA.currentContents(relative, limit: 1 << 16) == nil)
    }
}
#endif
