import Foundation
import Testing
@testable import PhotoEdit

/// The `lut` filter: `.cube` parsing, trilinear and tetrahedral lookups.
@Suite("3D LUTs")
struct LutTests {
    @Test(arguments: [true, false])
    func lookupsInterpolateAnAffineLUTExactly(_ tetrahedral: Bool) throws {
        // Trilinear and tetrahedral interpolation are exact for an affine map.
        let lut = try CubeLUT.parse(CubeText.make(5) { r, g, b in (0.5 * r + 0.25 * b, g, 1 - b) }, path: "t")
        for (r, g, b) in [(Float(0.1), Float(0.7), Float(0.33)), (0.9, 0.05, 0.6), (0.5, 0.5, 0.5), (0, 1, 1)] {
            let o = lut.lookup(r, g, b, tetrahedral: tetrahedral)
            #expect(abs(o.0 - (0.5 * r + 0.25 * b)) < 1e-5 && abs(o.1 - g) < 1e-5 && abs(o.2 - (1 - b)) < 1e-5, "\(r),\(g),\(b) → \(o)")
        }
    }

    @Test func identityAndSwapLUTsOnAPhoto() throws {
        let temp = TemporaryDirectory("photoedit-lut")
        // LUTs are named, and found in the LUT folders.
        try CubeText.make(2) { r, g, b in (r, g, b) }.write(toFile: temp.file("lut-test-identity.cube"), atomically: true, encoding: .utf8)
        try CubeText.make(2) { r, g, b in (b, g, r) }.write(toFile: temp.file("lut-test-swap.cube"), atomically: true, encoding: .utf8)
        LUTFolders.add([temp.path])
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        try library.apply(chain: "lut=lut-test-identity.cube", to: id)
        #expect(try library.currentRecipe(id).node("lut") != nil)
        func render(_ chain: String?, _ name: String) throws -> Image {
            let recipe = try chain.map { try Chain.apply(Chain.parse($0), to: .empty) } ?? .empty
            let image = try Renderer(registry: .standard).render(recipe: recipe, originalPath: Paths.sample("coffee.jpg"))
            try image.save(to: temp.file(name), format: "png")
            return try Pixels.load(temp.file(name))
        }
        let plain = try render(nil, "plain.png")
        let identity = try render("lut=lut-test-identity.cube", "identity.png")
        let swapped = try render("lut=lut-test-swap.cube", "swapped.png")
        #expect(try Pixels.maxAbsDifference(identity, plain) <= 1, "an identity LUT changes the photo")
        let p = try plain.point(x: 300, y: 200), q = try swapped.point(x: 300, y: 200)
        #expect(abs(p[0] - q[2]) <= 1 && abs(p[2] - q[0]) <= 1 && abs(p[1] - q[1]) <= 1, "\(p) vs \(q)")
    }

    @Test func badCubeFilesAreClearErrors() throws {
        let temp = TemporaryDirectory("photoedit-lut-bad")
        let cases = ["text": "hello\n", "1d": "LUT_1D_SIZE 4\n0 0 0\n", "short": "LUT_3D_SIZE 2\n0 0 0\n1 1 1\n",
                     "nan": "LUT_3D_SIZE 2\n" + String(repeating: "nan 0 0\n", count: 8), "size": "LUT_3D_SIZE 1\n0 0 0\n"]
        for (name, text) in cases {
            let path = temp.file(name + ".cube")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: PhotoEditError.self, "\(name)") { try CubeLUT.parse(text, path: path) }
        }
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        for file in ["text.cube", "missing.cube"] {
            let r = try lib.run(["apply", "--luts", temp.path, "lut=" + file, id])
            #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
            #expect(!r.stderr.contains("hello"), "an error never shows a file's content: \(r)")
        }
        #expect(try lib.history(id).count == 1, "a bad LUT changed the library")
    }

    @Test func shippedFilmPresetUsesItsLUT() throws {
        let presets = PresetLibrary(folders: [Paths.filters.appendingPathComponent("presets").path])
        let recipe = try Chain.apply(Chain.parse("preset:film"), to: .empty, presets: presets)
        #expect(recipe.node("lut")?.parameters["file"] == .text("film.cube"))
        #expect(try CubeLUT.load(LUTFolders.resolve("film.cube")).size == 17)
    }
}
