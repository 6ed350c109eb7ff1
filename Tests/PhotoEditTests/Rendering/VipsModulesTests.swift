import Foundation
import Testing
@testable import PhotoEdit

/// libvips' optional format modules (HEIF/AVIF, JPEG XL, PDF, ImageMagick's
/// formats, OpenSlide) are loaded on first need, not when libvips starts:
/// a command on JPEGs never links them; one on a HEIF loads them and works.
/// Seen from outside, as the dynamic linker reports what it loads
/// (`LD_DEBUG=files`, glibc).
@Suite("libvips' optional modules load on first need")
struct VipsModulesTests {
    /// The libvips modules the dynamic linker opened during a run.
    static func modulesLoaded(_ result: CLIResult) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(result.stderr)
        while let range = rest.range(of: #"vips-modules-[0-9.]+/[A-Za-z0-9_-]+\.so"#, options: .regularExpression) {
            names.insert(String(rest[range].split(separator: "/").last!))
            rest = rest[range.upperBound...]
        }
        return names
    }

    static func run(_ library: CLILibrary, _ arguments: [String]) throws -> CLIResult {
        let r = try CLI.run([arguments[0], "--library", library.path] + arguments.dropFirst(), environment: ["LD_DEBUG": "files"])
        #expect(r.status == 0, "\(r.arguments) → exit \(r.status)")
        return r
    }

    @Test func jpegCommandsNeverLoadThemAndHEIFLoadsThem() throws {
        let library = CLILibrary()
        let jpeg = try library.importSample("coffee.jpg")
        let out = library.temp.file("out.jpg")
        for command in [["import", Paths.sample("astronaut.jpg")], ["render", jpeg, "-o", out, "--size", "128"],
                        ["apply", "exposure=+0.3", jpeg]] {
            let r = try Self.run(library, command)
            #expect(Self.modulesLoaded(r).isEmpty, "photoedit \(command[0]) loaded \(Self.modulesLoaded(r))")
        }
        // The module of a format is loaded when a file needs it, and the file is read.
        let heif = try Self.run(library, ["import", Paths.sample("coffee.heic")])
        #expect(Self.modulesLoaded(heif).contains("vips-heif.so"), "\(Self.modulesLoaded(heif))")
        let id = try #require(heif.stdoutLines.first?.split(separator: "\t").first.map(String.init))
        let png = library.temp.file("heif.png")
        let render = try Self.run(library, ["render", id, "-o", png])
        #expect(Self.modulesLoaded(render).contains("vips-heif.so"), "\(Self.modulesLoaded(render))")
        #expect(try Image.load(path: png, sequential: false).width == 600)
    }
}
