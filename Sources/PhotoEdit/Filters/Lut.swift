import CPhotoEditShim
import CVips
import Foundation

extension Filters {
    /// A 3D look-up table from a `.cube` file (the Adobe/Resolve format),
    /// applied to the sRGB-encoded image, as LUTs are made for display-referred
    /// input, then mixed with the input by `strength`.
    public static let lut = FilterDefinition(
        id: "lut", version: 1, stage: .colour, order: 90,
        summary: "applies a .cube 3D LUT (trilinear or tetrahedral), mixed by strength",
        colourSpace: "sRGB-encoded RGB 0…1 (the LUT's domain), back to linear",
        parameters: [
            .text("file", default: "", "the .cube file: a path, or a name found beside the presets (filters/presets/, --presets)"),
            .number("strength", 0...100, default: 100, unit: "%", "how much of the LUT's result to use"),
            .choice("interpolation", ["tetrahedral", "trilinear"], default: "tetrahedral", "how colours between LUT points are computed"),
        ],
        forms: [
            ChainForm(["file"], "e.g. lut=film.cube"),
            ChainForm(["file", "strength"], "e.g. lut=film.cube:60"),
        ]
    ) { image, p, _ in
        let file = p.text("file")
        if file.isEmpty || p.number("strength") == 0 { return image }
        let cube = try CubeLUT.load(CubeLUT.resolve(file))
        // Linear → sRGB-encoded 16-bit (clipped to the LUT's 0…1 domain).
        let encoded = try image.colourspace("rgb16")
        let out = try cube.apply(to: encoded, tetrahedral: p.text("interpolation") == "tetrahedral",
                                 strength: p.number("strength") / 100)
        return try out.colourspace("scrgb")
    }
}

/// A parsed `.cube` 3D LUT.
struct CubeLUT: Sendable {
    let size: Int
    /// size³ RGB triples, red varying fastest.
    let table: [Float]
    let domainMin: [Float]
    let domainMax: [Float]

    /// A relative name is looked up beside the presets, then in the current folder.
    static func resolve(_ file: String) throws -> String {
        if file.hasPrefix("/") { return file }
        for folder in PresetLibrary.standard().folders {
            let path = folder + "/" + file
            if FileIO.exists(path) { return path }
        }
        return FileManager.default.currentDirectoryPath + "/" + file
    }

    private static let cache = LUTCache()

    static func load(_ path: String) throws -> CubeLUT {
        if let hit = cache.get(path) { return hit }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PhotoEditError.unreadableFile(path: path, reason: "cannot read the .cube LUT")
        }
        let lut = try parse(String(decoding: data, as: UTF8.self), path: path)
        cache.set(path, lut)
        return lut
    }

    static func parse(_ text: String, path: String) throws -> CubeLUT {
        var size = 0
        var minimum: [Float] = [0, 0, 0], maximum: [Float] = [1, 1, 1]
        var values: [Float] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            switch parts[0].uppercased() {
            case "TITLE": continue
            case "LUT_1D_SIZE": throw PhotoEditError.unreadableFile(path: path, reason: "1D LUTs are not supported (LUT_3D_SIZE expected)")
            case "LUT_3D_SIZE":
                guard parts.count == 2, let n = Int(parts[1]), (2...256).contains(n) else {
                    throw PhotoEditError.unreadableFile(path: path, reason: "bad LUT_3D_SIZE line '\(line)'")
                }
                size = n
            case "DOMAIN_MIN", "DOMAIN_MAX":
                let v = parts.dropFirst().compactMap { Float($0) }
                guard v.count == 3 else { throw PhotoEditError.unreadableFile(path: path, reason: "bad line '\(line)'") }
                if parts[0].uppercased() == "DOMAIN_MIN" { minimum = v } else { maximum = v }
            default:
                let v = parts.compactMap { Float($0) }
                guard v.count == 3, parts.count == 3, v.allSatisfy(\.isFinite) else {
                    throw PhotoEditError.unreadableFile(path: path, reason: "bad line '\(line.prefix(40))'")
                }
                values += v
            }
        }
        guard size > 0 else { throw PhotoEditError.unreadableFile(path: path, reason: "no LUT_3D_SIZE: not a 3D .cube LUT") }
        guard values.count == size * size * size * 3 else {
            throw PhotoEditError.unreadableFile(path: path, reason: "\(values.count / 3) table entries, expected \(size * size * size)")
        }
        guard zip(minimum, maximum).allSatisfy({ $0 < $1 }) else {
            throw PhotoEditError.unreadableFile(path: path, reason: "DOMAIN_MIN must be below DOMAIN_MAX")
        }
        return CubeLUT(size: size, table: values, domainMin: minimum, domainMax: maximum)
    }

    /// The LUT at one colour (components in 0…1 of the domain).
    func lookup(_ r: Float, _ g: Float, _ b: Float, tetrahedral: Bool) -> (Float, Float, Float) {
        let n = Float(size - 1)
        func coord(_ v: Float, _ c: Int) -> (Int, Float) {
            let t = min(max((v - domainMin[c]) / (domainMax[c] - domainMin[c]), 0), 1) * n
            let i = min(Int(t), size - 2)
            return (i, t - Float(i))
        }
        let (ri, rf) = coord(r, 0), (gi, gf) = coord(g, 1), (bi, bf) = coord(b, 2)
        func at(_ dr: Int, _ dg: Int, _ db: Int) -> (Float, Float, Float) {
            let k = (((bi + db) * size + (gi + dg)) * size + (ri + dr)) * 3
            return (table[k], table[k + 1], table[k + 2])
        }
        func mix(_ a: (Float, Float, Float), _ b: (Float, Float, Float), _ t: Float) -> (Float, Float, Float) {
            (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
        }
        if !tetrahedral {
            let c00 = mix(at(0, 0, 0), at(1, 0, 0), rf), c10 = mix(at(0, 1, 0), at(1, 1, 0), rf)
            let c01 = mix(at(0, 0, 1), at(1, 0, 1), rf), c11 = mix(at(0, 1, 1), at(1, 1, 1), rf)
            return mix(mix(c00, c10, gf), mix(c01, c11, gf), bf)
        }
        // Tetrahedral: the cube split into six tetrahedra along its diagonal.
        let c000 = at(0, 0, 0), c111 = at(1, 1, 1)
        func combine(_ w0: Float, _ p1: (Float, Float, Float), _ w1: Float, _ p2: (Float, Float, Float), _ w2: Float, _ w3: Float) -> (Float, Float, Float) {
            (w0 * c000.0 + w1 * p1.0 + w2 * p2.0 + w3 * c111.0,
             w0 * c000.1 + w1 * p1.1 + w2 * p2.1 + w3 * c111.1,
             w0 * c000.2 + w1 * p1.2 + w2 * p2.2 + w3 * c111.2)
        }
        if rf > gf {
            if gf > bf { return combine(1 - rf, at(1, 0, 0), rf - gf, at(1, 1, 0), gf - bf, bf) }
            if rf > bf { return combine(1 - rf, at(1, 0, 0), rf - bf, at(1, 0, 1), bf - gf, gf) }
            return combine(1 - bf, at(0, 0, 1), bf - rf, at(1, 0, 1), rf - gf, gf)
        }
        if bf > gf { return combine(1 - bf, at(0, 0, 1), bf - gf, at(0, 1, 1), gf - rf, rf) }
        if bf > rf { return combine(1 - gf, at(0, 1, 0), gf - bf, at(0, 1, 1), bf - rf, rf) }
        return combine(1 - gf, at(0, 1, 0), gf - rf, at(1, 1, 0), rf - bf, bf)
    }

    /// Applies the LUT to a 3-band 16-bit sRGB-encoded image. The pixels are
    /// processed in memory (libvips has no 3D LUT operation).
    func apply(to image: Image, tetrahedral: Bool, strength: Double) throws -> Image {
        let input = try image.cast("ushort")
        var length = 0
        guard let raw = vips_image_write_to_memory(input.pointer, &length) else { throw Vips.error("write_to_memory") }
        defer { g_free(raw) }
        let count = length / 2
        let pixels = raw.assumingMemoryBound(to: UInt16.self)
        let s = Float(strength)
        for i in stride(from: 0, to: count - 2, by: 3) {
            let r = Float(pixels[i]) / 65535, g = Float(pixels[i + 1]) / 65535, b = Float(pixels[i + 2]) / 65535
            let o = lookup(r, g, b, tetrahedral: tetrahedral)
            pixels[i] = UInt16(min(max((r + (o.0 - r) * s) * 65535, 0), 65535).rounded())
            pixels[i + 1] = UInt16(min(max((g + (o.1 - g) * s) * 65535, 0), 65535).rounded())
            pixels[i + 2] = UInt16(min(max((b + (o.2 - b) * s) * 65535, 0), 65535).rounded())
        }
        guard let out = vips_image_new_from_memory_copy(raw, length, Int32(input.width), Int32(input.height), 3, VIPS_FORMAT_USHORT) else {
            throw Vips.error("new_from_memory_copy")
        }
        let result = Image(owning: out)
        return try result.call("copy", [("interpretation", .string("rgb16"))])
    }
}

/// Parsed LUTs by path (a LUT is read once per process).
final class LUTCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: CubeLUT] = [:]
    func get(_ path: String) -> CubeLUT? { lock.lock(); defer { lock.unlock() }; return entries[path] }
    func set(_ path: String, _ lut: CubeLUT) { lock.lock(); entries[path] = lut; lock.unlock() }
}
