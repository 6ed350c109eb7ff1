import Foundation
import Synchronization

/// A Lightroom look table held by a recipe (`rgbtable`'s node): the table's
/// binary form as Adobe encodes it (its size and zlib stream), and the amount
/// it applies at. The recipe carries the table itself, not a file name, so it
/// renders the same after the packet (or a library file) is gone and moves
/// with the recipe to another library.
public struct LookTableContent: Hashable, Sendable {
    /// Adobe's binary form: the uncompressed size (32-bit little-endian) and the zlib stream.
    public let binary: [UInt8]
    /// How much of the table: 1 whole, 0 nothing, within the table's own range.
    public let amount: Double
    /// The decoded table (checked when the content is made).
    public let table: LightroomRGBTable

    /// Checks the table and the amount.
    public init(binary: [UInt8], amount: Double) throws {
        let table = try LightroomRGBTable.decode(bytes: binary)
        guard amount.isFinite, amount >= 0, amount <= table.maxAmount else {
            throw LightroomRGBTable.fail("amount \(amount) is outside 0…\(table.maxAmount)")
        }
        self.binary = binary
        self.amount = amount
        self.table = table
    }

    public static func == (a: Self, b: Self) -> Bool { a.binary == b.binary && a.amount == b.amount }
    public func hash(into hasher: inout Hasher) { hasher.combine(binary); hasher.combine(amount) }

    /// The binary form as URL-safe base64 without padding (the recipe's and the chain's form).
    var base64: String {
        Data(binary).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The binary form from URL-safe base64 (bounded like Adobe's text).
    static func binary(base64 text: String) throws -> [UInt8] {
        guard text.utf8.count <= LightroomRGBTable.maxTextLength else { throw LightroomRGBTable.fail("longer than 4 MB of text") }
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        s += String(repeating: "=", count: (4 - s.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: s) else { throw LightroomRGBTable.fail("the table is not URL-safe base64") }
        return [UInt8](data)
    }

    /// The amount as the recipe writes it, in percent.
    var percent: Double { (amount * 1000).rounded() / 10 }

    /// Reads `AMOUNT:BASE64` (the chain form) or the recipe's `params`.
    static func parse(chain text: String) throws -> LookTableContent {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let percent = Double(parts[0]), percent.isFinite else {
            throw LightroomRGBTable.fail("the chain form is rgbtable=AMOUNT%:TABLE (URL-safe base64)")
        }
        return try LookTableContent(binary: binary(base64: parts[1]), amount: percent / 100)
    }

    static func decode(_ params: [String: JSONValue]) throws -> LookTableContent {
        if let key = params.keys.sorted().first(where: { $0 != "table" && $0 != "amount" }) {
            throw LightroomRGBTable.fail("unknown key '\(key.prefix(40))' in rgbtable's params (known: amount, table)")
        }
        guard case .string(let text)? = params["table"] else { throw LightroomRGBTable.fail("rgbtable's params need 'table' (a string)") }
        var percent = 100.0
        if let a = params["amount"] {
            guard case .number(let n) = a else { throw LightroomRGBTable.fail("rgbtable's 'amount' must be a number") }
            percent = n
        }
        return try LookTableContent(binary: binary(base64: text), amount: percent / 100)
    }

    /// A cube in sRGB primaries and sRGB gamma: what translation 8 rendered,
    /// on the 16-bit sRGB-encoded image (as the `lut` filter applies a `.cube`).
    var isSRGBCube: Bool { table.dimensions == 3 && table.primaries == .sRGB && table.gamma == .sRGB }

    /// Applies the table at its amount to the linear working image: an sRGB
    /// cube as the `lut` filter applies a `.cube` (as translation 8 did), any
    /// other table in its own space (`LookTableTransform`).
    func apply(to image: Image) throws -> Image {
        if amount == 0 { return image }
        if isSRGBCube {
            let encoded = try image.colourspace("rgb16")
            return try cube.apply(to: encoded, tetrahedral: true, strength: amount).colourspace("scrgb")
        }
        return try LookTableTransform(table).apply(to: image, cube: table.dimensions == 3 ? cube : nil, amount: amount)
    }

    /// The table as a `.cube` LUT, decoded once per process per table.
    var cube: CubeLUT {
        if let hit = Self.cubes.withLock({ $0[table.fingerprint] }) { return hit }
        let cube = table.cubeLUT()
        Self.cubes.withLock { cache in
            if cache.count >= 16 { cache.removeAll() }
            cache[table.fingerprint] = cube
        }
        return cube
    }

    private static let cubes = Mutex<[String: CubeLUT]>([:])
}

extension Filters {
    /// A Lightroom look table (`crs:RGBTable`, a profile's or preset's look),
    /// held in the recipe, applied in the table's own colour space (its
    /// primaries and transfer curve: sRGB, Adobe RGB, ProPhoto, Display P3,
    /// Rec. 2020; linear, sRGB, 1.8, 2.2, Rec. 2020), a cube tetrahedrally or
    /// three curves, mixed by its amount. A cube in sRGB primaries and gamma
    /// is applied as the `lut` filter applies a `.cube` LUT (16-bit sRGB).
    public static let rgbtable: FilterDefinition = {
        var d = FilterDefinition(
            id: "rgbtable", version: 1, stage: .colour, order: 91,
            summary: "a Lightroom look table (crs:RGBTable), held in the recipe, applied in its own colour space (a 3D LUT or three curves) at its amount",
            colourSpace: "the table's: its primaries (sRGB, Adobe RGB, ProPhoto, Display P3, Rec. 2020) and transfer curve, 0…1, back to linear sRGB",
            parameters: [],
            forms: [ChainForm([], "e.g. rgbtable=100:TABLE (the amount in %, the table as URL-safe base64; written by the Lightroom translation)")]
        ) { image, p, _ in
            guard case .table(let look)? = p.content else { return image }
            return try look.apply(to: image)
        }
        d.structure = StructuredFilter(
            decode: { params, _ in .table(try LookTableContent.decode(params)) },
            apply: { parameter, text, _ in
                guard parameter == nil else {
                    throw PhotoEditError.invalidParameter(filter: "rgbtable", parameter: parameter ?? "", problem: "rgbtable has no parameters: rgbtable=AMOUNT:TABLE")
                }
                return .table(try LookTableContent.parse(chain: text))
            },
            format: { content in
                guard case .table(let look) = content else { return [] }
                return ["\(JSONValue.format(look.percent)):\(look.base64)"]
            })
        return d
    }()
}
