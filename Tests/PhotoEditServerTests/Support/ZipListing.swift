// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit

/// ZIP files as other tools read them (the export job's download).
enum ZipListing {
    /// Python's zipfile: each entry's name, size and CRC check, as lines.
    static func python(_ path: String) throws -> String {
        let script = """
        import sys, zipfile
        z = zipfile.ZipFile(sys.argv[1])
        bad = z.testzip()
        print("bad" if bad else "ok", len(z.infolist()))
        for i in z.infolist()[:5]: print(i.filename, i.file_size, i.compress_type)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = try FileIO.readToEnd(pipe.fileHandleForReading.fileDescriptor, what: "unzip's listing")
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self)
    }
}
#endif
