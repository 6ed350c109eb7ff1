// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEditServer
import PhotoEditTestSupport
import Testing

/// The export job's ZIP stream, read back by Python's zipfile (CRC checked
/// on every entry) and by `unzip -t` where it is installed.
@Suite("ZIP stream (export downloads)")
struct ZipStreamTests {
    @Test("stored entries with CRC-32 read back whole; unsafe or repeated names are refused")
    func entriesReadBack() throws {
        let temp = TemporaryDirectory("photoedit-zip")
        var zip = ZipStream()
        var bytes: [UInt8] = []
        let photo = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        bytes += try zip.entry(name: "coffee.jpg", data: photo)
        bytes += try zip.entry(name: "sub/empty.txt", data: Data())
        bytes += try zip.entry(name: "été.txt", data: Data("hello".utf8))
        for bad in ["../x.jpg", "/etc/x", "a//b", "coffee.jpg", "a\\b", ""] {
            #expect(throws: PhotoEditZipError.self, "\(bad)") { _ = try zip.entry(name: bad, data: Data()) }
        }
        bytes += zip.finish()
        #expect(UInt64(bytes.count) == zip.offset)
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)   // the standard check value
        let path = temp.url.appendingPathComponent("a.zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let listed = try ZipListing.python(path)
        #expect(listed.hasPrefix("ok 3\n"), "\(listed)")
        #expect(listed.contains("coffee.jpg \(photo.count) 0\n") && listed.contains("sub/empty.txt 0 0\n") && listed.contains("été.txt 5 0\n"), "\(listed)")
        if FileManager.default.fileExists(atPath: "/usr/bin/unzip") {
            let unzip = Process()
            unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
            unzip.arguments = ["-tq", path]
            unzip.standardOutput = FileHandle.nullDevice
            try unzip.run()
            unzip.waitUntilExit()
            #expect(unzip.terminationStatus == 0)
        }
    }

    @Test("more than 65 535 entries: ZIP64 end records, read back by zipfile")
    func zip64EntryCount() throws {
        let temp = TemporaryDirectory("photoedit-zip64")
        var zip = ZipStream()
        var bytes: [UInt8] = []
        for n in 0..<66_000 { bytes += try zip.entry(name: "f\(n)", data: Data([UInt8(n & 0xFF)])) }
        bytes += zip.finish()
        let path = temp.url.appendingPathComponent("many.zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let listed = try ZipListing.python(path)
        #expect(listed.hasPrefix("ok 66000\n"), "\(listed.prefix(200))")
    }
}
#endif
