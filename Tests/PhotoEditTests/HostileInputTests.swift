import Foundation
import Testing
@testable import PhotoEdit

/// Issue 10 §1: inputs built to crash or to leak. Each one is refused with one
/// line on stderr and a non-zero exit, and changes nothing.
@Suite("Hostile input")
struct HostileInputTests {
    /// 25 000 `not` overflowed the parser's stack (SIGSEGV).
    @Test func deeplyNestedNotIsRefused() throws {
        let (lib, _, _) = try CLIBadInputTests.makeLibrary()
        let query = String(repeating: "not ", count: 25_000) + "favorite"
        try CLIBadInputTests.expectUnchanged(lib, by: ["list", "--where", query], message: "at most 4096 are accepted")
        let deep = String(repeating: "not ", count: 33) + "favorite"
        try CLIBadInputTests.expectUnchanged(lib, by: ["list", "--where", deep], message: "more than 32 deep")
        // The deepest accepted nestings run (SQLite's parser takes them too).
        for shallow in [String(repeating: "not ", count: 32) + "favorite",
                        String(repeating: "not (", count: 16) + "favorite" + String(repeating: ")", count: 16)] {
            let r = try lib.run(["list", "--where", shallow])
            #expect(r.status == 0, "\(r)")
        }
    }

    /// 60 000 `(` overflowed the parser's stack too.
    @Test func deeplyNestedParenthesesAreRefused() throws {
        #expect(throws: PhotoEditError.self) { try AssetPredicate(parsing: String(repeating: "(", count: 60_000) + "favorite") }
        let deep = String(repeating: "(", count: 33) + "favorite" + String(repeating: ")", count: 33)
        #expect(throws: PhotoEditError.invalidQuery("the query nests 'not' and parentheses more than 32 deep")) { try AssetPredicate(parsing: deep) }
        let fine = String(repeating: "(", count: 32) + "favorite" + String(repeating: ")", count: 32)
        _ = try AssetPredicate(parsing: fine)
        let many = Array(repeating: "favorite", count: 300).joined(separator: " or ")
        #expect(throws: PhotoEditError.invalidQuery("the query has more than 256 conditions")) { try AssetPredicate(parsing: many) }
    }

    /// `"formatVersion": 1e300` in a recipe file trapped (SIGILL) converting Double to Int.
    @Test(arguments: [#""formatVersion":1e300,"base":"original","filters":[]"#,
                      #""formatVersion":1,"base":"original","filters":[{"id":"exposure","version":1e300,"params":{"ev":1}}]"#])
    func recipeWithAHugeVersionIsRefused(_ body: String) throws {
        let (lib, a, _) = try CLIBadInputTests.makeLibrary()
        let file = lib.temp.file("huge.json")
        try Data(#"{"format":"org.photoedit.recipe",\#(body)}"#.utf8).write(to: URL(fileURLWithPath: file))
        try CLIBadInputTests.expectUnchanged(lib, by: ["apply", "--recipe", file, a], message: "is newer than this engine")
    }

    /// File names are printed escaped: a newline or an escape sequence in a
    /// name can neither forge an output line nor drive the terminal.
    @Test func controlCharactersInNamesAreEscaped() throws {
        let lib = CLILibrary()
        let name = "evil\nfake-id\t\u{1B}[31mred\u{7}.jpg"
        let file = lib.temp.file(name)
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: file)
        let imported = try lib.succeed(["import", file])
        #expect(imported.stdoutLines.count == 1, "\(imported)")
        #expect(imported.stdout.contains(#"evil\nfake-id\t\u{1B}[31mred\u{7}.jpg"#), "\(imported)")
        let list = try lib.succeed(["list"])
        #expect(list.stdoutLines.count == 1, "\(list)")
        #expect(!list.stdout.contains("\u{1B}") && !list.stdout.contains("\u{7}"), "\(list)")
        #expect(list.stdoutLines.first?.split(separator: "\t").count == 5, "the name stays one field: \(list)")
        // JSON keeps the name exact (JSON escapes it itself).
        let id = String(imported.stdout.prefix(while: { $0 != "\t" }))
        #expect(try lib.show(id)["originalFilename"]?.string == name)
        let resources = try lib.succeed(["export", id])
        #expect(resources.stdoutLines.count == 1 && !resources.stdout.contains("\u{1B}"), "\(resources)")
    }
}
