import CPhotoEditShim
import CVips
import Foundation
import Synchronization

extension Filters {
    /// The parameters of `lut`, read through these keys.
    enum LutKeys {
        static let file = ParameterKey.text("file", default: "", "the .cube file's name, found in the LUT folders (--luts, $PHOTOEDIT_LUTS, the preset folders)")
        static let strength = ParameterKey.number("strength", 0...100, default: 100, unit: "%", "how much of the LUT's result to use")
        static let interpolation = ParameterKey.choice("interpolation", ["tetrahedral", "trilinear"], default: "tetrahedral",
                                                       "how colours between LUT points are computed")
        static let sha256 = ParameterKey.text("sha256", default: "", "the file's SHA-256 when the LUT was applied (recorded by the engine)")
        /// Version 1's: the file was a path (no recorded hash).
        static let version1: [any AnyParameterKey] = [
            ParameterKey.text("file", default: "", "the .cube file: a path, or a name found beside the presets"), strength, interpolation,
        ]
    }

    /// A 3D look-up table from a `.cube` file (the Adobe/Resolve format),
    /// applied to the sRGB-encoded image, as LUTs are made for display-referred
    /// input, then mixed with the input by `strength`.
    ///
    /// The file is named, never a path: it is looked up in the LUT folders
    /// (`LUTFolders`), and its SHA-256 is recorded in the recipe when a chain
    /// sets it, so `verify` can tell when the file changed since.
    public static let lut = FilterDefinition(
        id: "lut", version: 2, stage: .colour, order: 90,
        summary: "applies a .cube 3D LUT (trilinear or tetrahedral), mixed by strength",
        colourSpace: "sRGB-encoded RGB 0…1 (the LUT's domain), back to linear",
        keys: [LutKeys.file, LutKeys.strength, LutKeys.interpolation, LutKeys.sha256],
        forms: [
            ChainForm(["file"], "e.g. lut=film.cube"),
            ChainForm(["file", "strength"], "e.g. lut=film.cube:60"),
        ],
        legacy: [
            LegacyVersion(
                version: 1,
                keys: LutKeys.version1,
                note: "the file is a name looked up in the LUT folders (a path keeps its last component); its SHA-256 is recorded",
                changesRendering: false,
                migrate: { p in
                    var values = p.values
                    values[LutKeys.file.name] = .text(p[LutKeys.file].split(separator: "/").last.map(String.init) ?? "")
                    values[LutKeys.sha256.name] = .text("")
                    return values
                }),
        ],
        check: { p in
            if let problem = LUTFolders.problem(name: p[LutKeys.file]) { return "file: \(problem)" }
            let hash = p[LutKeys.sha256]
            if !hash.isEmpty && !(hash.count == 64 && hash.allSatisfy { $0.isHexDigit && !$0.isUppercase }) {
                return "sha256 must be 64 lowercase hexadecimal digits"
            }
            return nil
        },
        recorded: [LutKeys.sha256.name],
        bind: { p in
            let file = p[LutKeys.file]
            guard !file.isEmpty else { return p }
            var bound = p
            bound.values[LutKeys.sha256.name] = .text(try FileIO.sha256(of: LUTFolders.resolve(file)))
            return bound
        }
    ) { image, p, _ in
        let file = p[LutKeys.file]
        if file.isEmpty || p[LutKeys.strength] == 0 { return image }
        let cube = try CubeLUT.load(LUTFolders.resolve(file))
        // Linear → sRGB-encoded 16-bit (clipped to the LUT's 0…1 domain).
        let encoded = try image.colourspace("rgb16")
        let out = try cube.apply(to: encoded, tetrahedral: p[LutKeys.interpolation] == "tetrahedral",
                                 strength: p[LutKeys.strength] / 100)
        return try out.colourspace("scrgb")
    }
}

/// Where `.cube` LUTs come from. A recipe names a LUT by file name only (no
/// folder, no `..`): it is looked up, first match wins, in the folders given
/// with `--luts DIR` (`add(_:)`), then `$PHOTOEDIT_LUTS` (folders separated
/// by `:`), then the preset folders (`PresetLibrary.standard()`). Nothing
/// else on the machine can be read through a recipe.
public enum LUTFolders {
    /// The largest `.cube` file read, in bytes (a 129-point LUT is ~60 MB).
    public static let maxFileSize: Int64 = 128 << 20

    private static let extra = LockedList()

    /// Adds folders searched before the others (the CLI's `--luts DIR`).
    public static func add(_ folders: [String]) { extra.append(folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }) }

    /// The folders searched, in order.
    public static func folders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders = extra.all
        if let env = environment["PHOTOEDIT_LUTS"] { folders += env.split(separator: ":").map(String.init).filter { !$0.isEmpty } }
        folders += PresetLibrary.standard(environment: environment).folders
        var seen = Set<String>()
        return folders.filter { seen.insert($0).inserted }
    }

    /// Why `name` is not a LUT name, or nil if it is one (an empty name is
    /// "no LUT"). Names are file names only: letters, digits, ` -_.+`, not
    /// starting with a dot, ending in `.cube`, at most 128 characters.
    public static func problem(name: String) -> String? {
        if name.isEmpty { return nil }
        let allowed = name.count <= 128 && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || " -_.+".unicodeScalars.contains($0)
        }
        guard allowed, name.lowercased().hasSuffix(".cube") else {
            return "'\(name.prefix(128))' is not a LUT name (a .cube file name found in the LUT folders, without folders)"
        }
        return nil
    }

    /// The file a LUT name stands for: a regular file (after symbolic links)
    /// in the first LUT folder that has it, not larger than `maxFileSize`.
    public static func resolve(_ name: String) throws -> String {
        if let problem = problem(name: name) { throw PhotoEditError.invalidParameter(filter: "lut", parameter: "file", problem: problem) }
        let searched = folders()
        for folder in searched {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw PhotoEditError.unreadableFile(path: name, reason: "not a regular file")
            }
            guard Int64(info.st_size) <= maxFileSize else {
                throw PhotoEditError.unreadableFile(path: name, reason: "larger than \(maxFileSize >> 20) MB: not a .cube LUT")
            }
            return path
        }
        throw PhotoEditError.unknownLUT(name: name, searched: searched)
    }
}

/// A list of strings behind a lock.
final class LockedList: Sendable {
    private let items = Mutex<[String]>([])
    func append(_ more: [String]) { items.withLock { items in items += more.filter { !items.contains($0) } } }
    var all: [String] { items.withLock { $0 } }
}

/// A parsed `.cube` 3D LUT.
struct CubeLUT: Sendable {
    let size: Int
    /// size³ RGB triples, red varying fastest.
    let table: [Float]
    let domainMin: [Float]
    let domainMax: [Float]

    private static let cache = LUTCache()

    /// Reads and parses a LUT file (a resolved path: see `LUTFolders.resolve`).
    /// Parsed LUTs are kept per path, size and modification time. Errors name
    /// the file (its last component) and the line number, never its content.
    static func load(_ path: String) throws -> CubeLUT {
        let name = URL(fileURLWithPath: path).lastPathComponent
        var info = stat()
        guard stat(path, &info) == 0 else { throw PhotoEditError.unreadableFile(path: name, reason: String(cString: strerror(errno))) }
        let key = "\(path)\u{0}\(info.st_size)\u{0}\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        if let hit = cache.get(key) { return hit }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PhotoEditError.unreadableFile(path: name, reason: "cannot read the .cube LUT")
        }
        let lut = try parse(String(decoding: data, as: UTF8.self), path: name)
        cache.set(key, lut)
        return lut
    }

    static func parse(_ text: String, path: String) throws -> CubeLUT {
        var size = 0
        var minimum: [Float] = [0, 0, 0], maximum: [Float] = [1, 1, 1]
        var values: [Float] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let at = "line \(number + 1)"
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            switch parts[0].uppercased() {
            case "TITLE": continue
            case "LUT_1D_SIZE": throw PhotoEditError.unreadableFile(path: path, reason: "1D LUTs are not supported (LUT_3D_SIZE expected)")
            case "LUT_3D_SIZE":
                guard parts.count == 2, let n = Int(parts[1]), (2...256).contains(n) else {
                    throw PhotoEditError.unreadableFile(path: path, reason: "\(at): LUT_3D_SIZE must be one number from 2 to 256")
                }
                size = n
            case "DOMAIN_MIN", "DOMAIN_MAX":
                let v = parts.dropFirst().compactMap { Float($0) }
                guard v.count == 3 else { throw PhotoEditError.unreadableFile(path: path, reason: "\(at): a domain line takes three numbers") }
                if parts[0].uppercased() == "DOMAIN_MIN" { minimum = v } else { maximum = v }
            default:
                let v = parts.compactMap { Float($0) }
                guard v.count == 3, parts.count == 3, v.allSatisfy(\.isFinite) else {
                    throw PhotoEditError.unreadableFile(path: path, reason: "\(at) is not three numbers: not a .cube LUT")
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
final class LUTCache: Sendable {
    private let entries = Mutex<[String: CubeLUT]>([:])
    func get(_ path: String) -> CubeLUT? { entries.withLock { $0[path] } }
    func set(_ path: String, _ lut: CubeLUT) { entries.withLock { $0[path] = lut } }
}
