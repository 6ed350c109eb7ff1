import Foundation
import Testing
@testable import PhotoEdit

/// Runs single filters on working-space images, and makes the flat and
/// stepped test images the filter suites measure. `DetailFilterTests`
/// conforms (its tests call these unqualified); other suites hold a
/// `FilterBench`.
protocol FilterRunning {
    var registry: FilterRegistry { get }
}

extension FilterRunning {
    /// Runs one filter, parsed from chain text, on a working-space image.
    func run(_ chain: String, on image: Image, scale: Double = 1) throws -> Image {
        let node = try #require(try recipe(chain).nodes.first)
        let f = try registry.require(node.filter)
        return try f.render(image, node.parameters, RenderContext(scale: scale))
    }

    /// A sample photo as the renderer's working-space image.
    func working(_ sample: String) throws -> Image {
        try Renderer(registry: registry).workingImage(path: Paths.sample(sample), randomAccess: true)
    }

    /// A w×h float scRGB image of `value` everywhere.
    func flat(_ width: Int, _ height: Int, _ value: Double) throws -> Image {
        try Vips.image("black", [("width", .number(Double(width))), ("height", .number(Double(height))), ("bands", .number(3))])
            .cast("float").linear(multiply: [1, 1, 1], add: [value, value, value])
    }

    /// A w×h image that is `left` on the left half and `right` on the right.
    func step(_ width: Int, _ height: Int, left: Double, right: Double) throws -> Image {
        let l = try flat(width / 2, height, left), r = try flat(width - width / 2, height, right)
        return try Vips.image("join", [("in1", .image(l)), ("in2", .image(r)), ("direction", .string("horizontal"))])
    }

    func mean(_ image: Image) throws -> Double { try image.average() }
    func deviation(_ image: Image) throws -> Double { try Vips.number("deviate", [("in", .image(image))]) }
}

/// The standard registry's filters run one at a time (`FilterRunning`).
struct FilterBench: FilterRunning {
    let registry = FilterRegistry.standard
}

/// Pixels to probe when a point filter's whole-image result is compared
/// with its result on single pixels (libvips' own test suite does so).
enum PixelProbes {
    /// Corners, centre, and a few spread over the image.
    static func spread(width: Int, height: Int) -> [(Int, Int)] {
        [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width / 2, height / 2),
         (width / 3, height / 5), (width * 4 / 5, height * 2 / 3), (17, height - 9)]
    }
}

/// Masks and local adjustments as their tests build them.
enum LocalAdjustmentSupport {
    /// The mask's first band at (x, y), given as fractions of its size.
    static func value(_ mask: Image, _ x: Double, _ y: Double) throws -> Double {
        try mask.point(x: min(mask.width - 1, Int(x * Double(mask.width))), y: min(mask.height - 1, Int(y * Double(mask.height))))[0]
    }

    /// A recipe's JSON holding one filter (`id`, version 1) with `params` (JSON text).
    static func recipeJSON(_ params: String, id: String = "local") -> Data {
        Data(#"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"\#(id)","version":1,"params":\#(params)}]}"#.utf8)
    }
}

/// `.cube` text for the LUT tests.
enum CubeText {
    /// A size-n LUT whose entries are f(r, g, b).
    static func make(_ n: Int, _ f: (Float, Float, Float) -> (Float, Float, Float)) -> String {
        var lines = ["TITLE \"test\"", "LUT_3D_SIZE \(n)"]
        for b in 0..<n { for g in 0..<n { for r in 0..<n {
            let o = f(Float(r) / Float(n - 1), Float(g) / Float(n - 1), Float(b) / Float(n - 1))
            lines.append("\(o.0) \(o.1) \(o.2)")
        } } }
        return lines.joined(separator: "\n") + "\n"
    }
}
