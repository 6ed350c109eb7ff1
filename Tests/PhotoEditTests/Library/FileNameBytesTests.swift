import Foundation
import Testing
@testable import PhotoEdit

/// Issue 10 §2: a file whose name is not valid UTF-8 (Linux names are
/// bytes) could not be imported: Swift turned the byte into U+FFFD, and no
/// file had that name.
@Suite("File names that are not UTF-8")
struct FileNameBytesTests {
    /// `caf\xE9.jpg` (Latin-1) in `folder`, a copy of `sample`; returns its path's bytes.
    static func latin1File(_ folder: String, stem: String = "caf", sample: String = Paths.sample("coffee.jpg")) throws -> [UInt8] {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + Array(stem.utf8) + [0xE9] + Array(".jpg".utf8)
        let data = try Data(contentsOf: URL(fileURLWithPath: sample))
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) } }
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == data.count)
        return path
    }

    @Test func theCLIImportsALatin1NameByFileAndByFolder() throws {
        let lib = CLILibrary()
        let folder = lib.temp.file("card")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        let file = try Self.latin1File(folder)
        _ = try Self.latin1File(folder + "/sub", stem: "ch", sample: Paths.sample("chelsea.jpg"))
        // The name is passed as bytes, as a shell passes it.
        let r = try runWithRawArgument(["import", "--library", lib.path], file)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasSuffix("\t\(folder)/caf\\xE9.jpg\n"), "printed escaped: \(r)")
        let folderImport = try lib.succeed(["import", folder + "/sub"])
        #expect(folderImport.stdout.hasSuffix("/sub/ch\\xE9.jpg\n"), "\(folderImport)")
        let list = try lib.succeed(["list"]).stdout
        #expect(list.contains("\tcaf\\xE9.jpg\n") && list.contains("\tch\\xE9.jpg\n"), "\(list)")
        let shown = try lib.show(String(r.stdout.prefix(32)))
        #expect(shown["sha256"] == .string(try Hashing.sha256(Paths.sample("coffee.jpg"))), "the original's bytes as they were")
        #expect(try lib.succeed(["verify"]).status == 0)
    }

    /// A refused file with such a name is one line naming it escaped.
    @Test func aRefusalNamesTheFileEscaped() throws {
        let lib = CLILibrary()
        let folder = lib.temp.file("bad")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = try Self.latin1File(folder, sample: Paths.bad("not-an-image.txt"))
        let r = try runWithRawArgument(["import", "--library", lib.path], file)
        #expect(r.status != 0 && r.stderrLines.count == 1 && r.stderr.contains("\(folder)/caf\\xE9.jpg: "), "\(r)")
    }

    @Test func theLibraryAPITakesPathsAsBytes() throws {
        let temp = TemporaryDirectory("photoedit-latin1")
        let library = try PhotoLibrary(url: URL(fileURLWithPath: temp.file("library")))
        let file = try Self.latin1File(temp.path)
        let results = try library.importItems(fileSystemPaths: [file])
        #expect(results.count == 1 && results[0].error == nil && results[0].path == temp.path + "/caf\\xE9.jpg", "\(results)")
        let asset = try library.asset(try #require(results[0].id))
        #expect(asset.originalFilename == "caf\\xE9.jpg")
        // The same name as a String (its byte replaced by U+FFFD) names no file.
        let lossy = try library.importItems([String(decoding: file, as: UTF8.self)])
        #expect(lossy.first?.error != nil)
    }

    /// Runs photoedit with `prefix` arguments and then one argument given as raw bytes.
    func runWithRawArgument(_ prefix: [String], _ raw: [UInt8]) throws -> CLIResult {
        // Process takes Strings: the byte goes through a shell's printf.
        let escaped = raw.map { b -> String in
            b < 0x80 && b != UInt8(ascii: "'") && b != UInt8(ascii: "\\") && b != UInt8(ascii: "%") ? String(UnicodeScalar(b)) : String(format: "\\%03o", b)
        }.joined()
        let binary = try CLI.binary.get().path
        let script = "exec \"$0\" \(prefix.map { "'\($0)'" }.joined(separator: " ")) \"$(printf '\(escaped)')\""
        return try CLI.runExecutable(URL(fileURLWithPath: "/bin/sh"), ["-c", script, binary], display: prefix + [SystemPath.display(raw)])
    }
}
