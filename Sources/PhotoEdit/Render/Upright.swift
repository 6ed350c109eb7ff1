import Foundation

/// The modes of `upright`, as Lightroom's Upright buttons.
public enum UprightMode: String, CaseIterable, Hashable, Sendable {
    /// Rotation only, from the near-horizontal and near-vertical lines.
    case level
    /// Vertical perspective and rotation, from the near-vertical lines.
    case vertical
    /// Vertical and horizontal perspective and rotation, from both.
    case full
    /// `full` damped (vertical and horizontal × 0.8, at most ±60, rotation
    /// fitted again); `vertical`, then `level`, when `full` finds no
    /// reliable solution.
    case auto
}

/// What an `upright` chain step asks for: `upright=MODE[:constrain]`.
public struct UprightRequest: Hashable, Sendable {
    /// The mode (`auto` when the step names none).
    public var mode: UprightMode
    /// Also set `scale` so that no empty corner remains (Lightroom's Constrain Crop).
    public var constrain: Bool

    /// A request for `mode`, constrained or not.
    public init(mode: UprightMode = .auto, constrain: Bool = false) {
        self.mode = mode
        self.constrain = constrain
    }
}

/// What the Upright analysis found in a photo: the `perspective` values that
/// make its near-vertical lines vertical and its near-horizontal lines
/// horizontal, or why it found none (then nothing is changed).
public struct UprightAdjustment: Hashable, Sendable {
    /// The mode asked for.
    public let mode: UprightMode
    /// The mode the solution is (`auto` solves as `full`, `vertical` or
    /// `level`); nil when there is no solution.
    public let solvedAs: UprightMode?
    /// Long straight lines found within 30° of vertical.
    public let verticalLines: Int
    /// Long straight lines found within 20° of horizontal.
    public let horizontalLines: Int
    /// The lines the solution agrees with (within 2°), of those its mode uses.
    public let usedLines: Int
    /// The solution, in `perspective`'s parameters (0 when there is none).
    public let vertical: Double
    /// `perspective`'s horizontal (0 unless the solution is `full`).
    public let horizontal: Double
    /// `perspective`'s rotate, in degrees.
    public let rotate: Double
    /// The length-weighted RMS angle, in degrees, of the used lines from
    /// vertical / horizontal after the correction (nil when nothing was fitted).
    public let residual: Double?
    /// Why there is no solution (nil when there is one).
    public let problem: String?
    /// The analysed image's size (its aspect ratio is the photo's as `perspective` sees it).
    let width: Int, height: Int
    /// The smallest `scale` (percent, in tenths) at which the solution leaves
    /// no corner of the picture empty, with the measured recipe's
    /// `perspective` aspect and offsets — what `upright=MODE:constrain`
    /// sets (Lightroom's Constrain Crop) when it is at most 150; nil without
    /// a solution.
    public internal(set) var constrainedScale: Double?

    /// Is there a solution?
    public var isSolved: Bool { problem == nil }

    /// The solution as chain text (`perspective=+12.3:-1.5:+0.42`), "" when
    /// there is none.
    public var chain: String {
        guard isSolved else { return "" }
        let signed = { (v: Double) in (v > 0 ? "+" : "") + JSONValue.format(v) }
        return "perspective=\(signed(vertical)):\(signed(horizontal)):\(signed(rotate))"
    }

    /// One line for the user: what was found and set, or why nothing.
    public var note: String {
        let lines = "\(verticalLines) vertical and \(horizontalLines) horizontal line\(horizontalLines == 1 ? "" : "s")"
        if let problem { return "upright \(mode.rawValue): \(problem) — perspective unchanged" }
        let how = solvedAs.map { $0 == mode ? "" : " (as \($0.rawValue))" } ?? ""
        return "upright \(mode.rawValue)\(how): \(lines), \(usedLines) used; \(chain) (residual \(JSONValue.format(((residual ?? 0) * 100).rounded() / 100))°)"
    }

    /// `constrainedScale` with `recipe`'s `perspective` aspect and offsets.
    func constrained(in recipe: Recipe) -> Double? {
        guard isSolved else { return nil }
        let node = recipe.node(Filters.perspective.id).flatMap { $0.version == Filters.perspective.version ? $0 : nil }
        var values = node?.parameters.values ?? [:]
        values["vertical"] = .number(vertical)
        values["horizontal"] = .number(horizontal)
        values["rotate"] = .number(rotate)
        return Upright.constrainedScale(Parameters(values: values), width: width, height: height)
    }

    /// The result as JSON (`photoedit upright --json`, `GET
    /// /v1/assets/{id}/upright`): `mode`, `solvedAs`, `verticalLines`,
    /// `horizontalLines`, `usedLines`, `perspective` (`vertical`,
    /// `horizontal`, `rotate`; null without a solution), `residual` (degrees),
    /// `constrainedScale`, `chain`, `problem`, `note`.
    public var json: JSONValue {
        .object([
            "mode": .string(mode.rawValue), "solvedAs": solvedAs.map { .string($0.rawValue) } ?? .null,
            "verticalLines": .number(Double(verticalLines)), "horizontalLines": .number(Double(horizontalLines)),
            "usedLines": .number(Double(usedLines)),
            "perspective": isSolved ? .object(["vertical": .number(vertical), "horizontal": .number(horizontal), "rotate": .number(rotate)]) : .null,
            "residual": residual.map { .number(($0 * 1000).rounded() / 1000) } ?? .null,
            "constrainedScale": constrainedScale.map { .number($0) } ?? .null,
            "chain": .string(chain), "problem": problem.map { .string($0) } ?? .null, "note": .string(note),
        ])
    }

    /// `recipe` with `perspective`'s vertical, horizontal and rotate set to
    /// the solution (its aspect, scale and offset kept; the node removed when
    /// it then does nothing); `recipe` itself when there is no solution.
    /// `constrain`: `scale` too, to `constrainedScale(in:)` when that is within the filter's range.
    public func applied(to recipe: Recipe, registry: FilterRegistry = .standard, constrain: Bool = false) throws -> Recipe {
        guard isSolved else { return recipe }
        let definition = try registry.require(Filters.perspective.id)
        var values = recipe.node(definition.id).map { $0.version == definition.version ? $0.parameters.values : [:] } ?? [:]
        values["vertical"] = .number(vertical)
        values["horizontal"] = .number(horizontal)
        values["rotate"] = .number(rotate)
        if constrain, let scale = constrained(in: recipe), scale <= Upright.maximumScale {
            values["scale"] = .number(scale)
        }
        let parameters = try definition.validated(values)
        var out = recipe
        if Perspective.isIdentity(parameters) {
            out.remove(definition.id)
        } else {
            out.set(RecipeNode(filter: definition.id, version: definition.version, parameters: parameters), registry: registry)
        }
        return out
    }
}

/// Automatic perspective correction (`upright` in a chain, `photoedit
/// upright ID`), like Lightroom's Upright and darktable's ashift: finds long
/// straight lines and solves for the `perspective` filter's vertical,
/// horizontal and rotate. Deterministic: the same pixels give the same values.
///
/// 1. On a copy of at most 1200 px on the long edge (luminance, gamma 1/2.2,
///    Gaussian σ 1 px): the gradient of each 2×2 block; pixels whose gradient
///    is above 0.02 are grouped, strongest first, into regions of 8-connected
///    pixels whose edge direction is within 22.5° of the region's mean (as
///    LSD, the line segment detector of von Gioi et al.). A region is a line
///    segment when it is at least 4 % of the long edge long and at most 6 px
///    wide (its extent along and across its principal axis).
/// 2. Segments within 30° of vertical are vertical lines, within 20° of
///    horizontal horizontal lines.
/// 3. The mode's parameters are fitted by Levenberg–Marquardt, minimising the
///    length-weighted squared sine of each line's angle from vertical /
///    horizontal after `Perspective.matrix`, starting from the solution of
///    single lines (`level`) or pairs of vertical lines (the 30 longest) that
///    the most line length agrees with; lines more than 5°, then 3°, then 2°
///    off are dropped, each time followed by a fit.
/// 4. A solution is kept only when: `level` has at least 2 lines; `vertical`
///    at least 2 vertical lines whose midpoints are at least 20 % of the
///    width apart; `full` that and at least 2 horizontal lines at least
///    20 % of the height apart (counted before and after dropping lines);
///    the lines kept are at least 40 % of the length of the lines the mode
///    uses; their residual is at most 1°; the values are within the filter's
///    range (±100, ±10°). Otherwise the result names the reason and nothing changes.
/// Values are rounded to 0.1 (vertical, horizontal) and 0.01° (rotate).
public enum Upright {
    /// The long edge of the analysed copy.
    static let analysisLongEdge = 1200.0
    /// The gradient a pixel needs to take part (luminance 0…1, gamma 1/2.2).
    static let gradientThreshold: Float = 0.02
    /// The angle tolerance of region growing.
    static let regionTolerance = 22.5
    /// A segment's minimum length, as a fraction of the long edge, and maximum width in pixels.
    static let minimumLength = 0.04
    static let maximumWidth = 6.0
    /// How far from vertical / horizontal a line may be, in degrees.
    static let verticalTolerance = 30.0
    static let horizontalTolerance = 20.0
    /// How far apart (fraction of the width / height) two lines must be.
    static let minimumSpread = 0.2
    /// The largest residual, in degrees, of an accepted solution.
    static let maximumResidual = 1.0
    /// The share of the lines' length a solution must agree with.
    static let minimumAgreement = 0.4
    /// The outlier thresholds, in degrees, of the successive fits.
    static let outlierThresholds = [5.0, 3.0, 2.0]
    /// `auto`'s damping of vertical and horizontal, and its limit.
    static let autoDamping = 0.8
    static let autoLimit = 60.0

    /// A straight line segment, in pixels of the analysed copy.
    struct Segment: Hashable, Sendable {
        var x1, y1, x2, y2: Double
        var length: Double { hypot(x2 - x1, y2 - y1) }
        /// Degrees from vertical (0…90).
        var fromVertical: Double { atan2(abs(x2 - x1), abs(y2 - y1)) * 180 / .pi }
    }

    /// Measures a working-space image (linear RGB, three bands) as the
    /// `perspective` filter would receive it, and solves `mode`.
    public static func analyse(_ working: Image, mode: UprightMode) throws -> UprightAdjustment {
        let (grey, width, height) = try luminance(working)
        let found = segments(grey, width: width, height: height)
        return solve(found, width: width, height: height, mode: mode)
    }

    /// The reduced, blurred perceptual luminance, row by row.
    static func luminance(_ working: Image) throws -> (pixels: [Float], width: Int, height: Int) {
        let scale = min(1, analysisLongEdge / Double(max(working.width, working.height)))
        var grey = try working.call("recomb", [("m", .image(try Image.matrix1x3([0.2126, 0.7152, 0.0722])))])
        if scale < 1 { grey = try grey.resized(hscale: scale, vscale: scale) }
        grey = try grey.cast("float").call("gaussblur", [("sigma", .number(1)), ("precision", .string("float"))])
        let floats = try grey.pixelBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (floats.map { powf(min(1, max(0, $0)), 1 / 2.2) }, grey.width, grey.height)
    }

    /// Line segments by region growing on the gradient's direction (see the type's notes).
    static func segments(_ grey: [Float], width w: Int, height h: Int) -> [Segment] {
        guard w >= 8, h >= 8, grey.count == w * h else { return [] }
        let n = w * h
        var magnitude = [Float](repeating: 0, count: n)
        var angle = [Float](repeating: 0, count: n)
        grey.withUnsafeBufferPointer { g in
            for y in 0..<(h - 1) {
                for x in 0..<(w - 1) {
                    let i = y * w + x
                    let (a, b, c, d) = (g[i], g[i + 1], g[i + w], g[i + w + 1])
                    let gx = (b + d - a - c) / 2, gy = (c + d - a - b) / 2
                    magnitude[i] = (gx * gx + gy * gy).squareRoot()
                    // The edge's direction: the gradient turned a quarter.
                    angle[i] = atan2f(gx, -gy)
                }
            }
        }
        // Strongest first: 1024 bins of magnitude, in index order within a bin.
        let peak = max(magnitude.max() ?? 0, gradientThreshold)
        let bins = 1024
        var binned = [[Int32]](repeating: [], count: bins)
        var state = [UInt8](repeating: 2, count: n)  // 0 free, 1 used, 2 below the threshold
        for i in 0..<n where magnitude[i] > gradientThreshold {
            state[i] = 0
            binned[min(bins - 1, Int(magnitude[i] / peak * Float(bins)))].append(Int32(i))
        }
        let tolerance = Float(regionTolerance * .pi / 180)
        let minimumPixels = minimumLength * Double(max(w, h))
        var found: [Segment] = []
        var region: [Int] = []
        for bin in binned.reversed() {
            for seed32 in bin {
                let seed = Int(seed32)
                guard state[seed] == 0 else { continue }
                state[seed] = 1
                region.removeAll(keepingCapacity: true)
                region.append(seed)
                var (sx, sy) = (cosf(angle[seed]), sinf(angle[seed]))
                var theta = angle[seed]
                var k = 0
                while k < region.count {
                    let p = region[k]
                    k += 1
                    let (px, py) = (p % w, p / w)
                    for qy in max(0, py - 1)...min(h - 1, py + 1) {
                        for qx in max(0, px - 1)...min(w - 1, px + 1) {
                            let q = qy * w + qx
                            guard state[q] == 0 else { continue }
                            var d = abs(angle[q] - theta)
                            if d > .pi { d = 2 * .pi - d }
                            guard d < tolerance else { continue }
                            state[q] = 1
                            region.append(q)
                            sx += cosf(angle[q])
                            sy += sinf(angle[q])
                            theta = atan2f(sy, sx)
                        }
                    }
                }
                if Double(region.count) >= minimumPixels, let segment = segment(region, magnitude: magnitude, width: w) {
                    found.append(segment)
                }
            }
        }
        return found
    }

    /// The segment a region of pixels makes: its principal axis (moments
    /// weighted by gradient), if it is long and thin enough.
    static func segment(_ region: [Int], magnitude: [Float], width w: Int) -> Segment? {
        var (sw, sx, sy) = (0.0, 0.0, 0.0)
        for p in region {
            let m = Double(magnitude[p])
            sw += m; sx += m * Double(p % w); sy += m * Double(p / w)
        }
        guard sw > 0 else { return nil }
        let (cx, cy) = (sx / sw, sy / sw)
        var (ixx, iyy, ixy) = (0.0, 0.0, 0.0)
        for p in region {
            let m = Double(magnitude[p]), dx = Double(p % w) - cx, dy = Double(p / w) - cy
            ixx += m * dx * dx; iyy += m * dy * dy; ixy += m * dx * dy
        }
        let phi = 0.5 * atan2(2 * ixy, ixx - iyy)
        let (ux, uy) = (cos(phi), sin(phi))
        var (lo, hi, across0, across1) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
        for p in region {
            let dx = Double(p % w) - cx, dy = Double(p / w) - cy
            let along = dx * ux + dy * uy, across = -dx * uy + dy * ux
            lo = min(lo, along); hi = max(hi, along)
            across0 = min(across0, across); across1 = max(across1, across)
        }
        let length = hi - lo + 1, width = across1 - across0 + 1
        guard length >= minimumLength * Double(max(w, magnitude.count / w)), width <= maximumWidth else { return nil }
        // The direction: a line through the weighted centre of each row (of
        // each column for a flatter region). The principal axis alone leans
        // towards the pixel grid, a band of pixels ending on a row being a
        // parallelogram.
        let steep = abs(uy) > abs(ux)
        let keys = region.map { steep ? $0 / w : $0 % w }
        let first = keys.min() ?? 0
        var rows = [(weight: Double, sum: Double)](repeating: (0, 0), count: (keys.max() ?? 0) - first + 1)
        for (p, key) in zip(region, keys) {
            let m = Double(magnitude[p])
            rows[key - first].weight += m
            rows[key - first].sum += m * Double(steep ? p % w : p / w)
        }
        // Fit across = a + b·along over the rows' centres (weighted least squares).
        var (tw, ta, tc, taa, tac) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for (n, entry) in rows.enumerated() where entry.weight > 0 {
            let along = Double(n + first), across = entry.sum / entry.weight, m = entry.weight
            tw += m; ta += m * along; tc += m * across; taa += m * along * along; tac += m * along * across
        }
        let denominator = tw * taa - ta * ta
        guard tw > 0, denominator > 1e-9 else { return nil }
        let slope = (tw * tac - ta * tc) / denominator
        let norm = (1 + slope * slope).squareRoot()
        // The unit direction, pointing the way the principal axis does.
        var (dx, dy) = steep ? (slope / norm, 1 / norm) : (1 / norm, slope / norm)
        if dx * ux + dy * uy < 0 { (dx, dy) = (-dx, -dy) }
        // Gradients sit at the centre of their 2×2 block.
        let (ox, oy) = (cx + 0.5, cy + 0.5)
        return Segment(x1: ox + lo * dx, y1: oy + lo * dy, x2: ox + hi * dx, y2: oy + hi * dy)
    }

    // MARK: - Solving

    /// A line and the axis it should follow.
    struct Line {
        let segment: Segment
        let isVertical: Bool
        var weight: Double { segment.length }
    }

    /// Solves `mode` for the segments of a `width`×`height` image.
    static func solve(_ segments: [Segment], width: Int, height: Int, mode: UprightMode) -> UprightAdjustment {
        let verticals = segments.filter { $0.fromVertical <= verticalTolerance }.map { Line(segment: $0, isVertical: true) }
        let horizontals = segments.filter { 90 - $0.fromVertical <= horizontalTolerance }.map { Line(segment: $0, isVertical: false) }
        func result(_ solved: UprightMode?, _ used: Int, _ v: Double, _ h: Double, _ r: Double, _ residual: Double?, _ problem: String?) -> UprightAdjustment {
            UprightAdjustment(mode: mode, solvedAs: solved, verticalLines: verticals.count, horizontalLines: horizontals.count, usedLines: used,
                              vertical: v, horizontal: h, rotate: r, residual: residual, problem: problem, width: width, height: height,
                              constrainedScale: problem == nil ? constrainedScale(Parameters(values: ["vertical": .number(v), "horizontal": .number(h), "rotate": .number(r)]),
                                                                                  width: width, height: height) : nil)
        }
        let attempts: [UprightMode] = mode == .auto ? [.full, .vertical, .level] : [mode]
        var problems: [String] = []
        for attempt in attempts {
            switch fit(attempt, verticals: verticals, horizontals: horizontals, width: width, height: height) {
            case .failure(let problem):
                problems.append(problem)
            case .success(var fitted):
                if mode == .auto && attempt != .level {
                    // Balanced: perspective damped and limited, rotation fitted again.
                    let damp = { (x: Double) in max(-autoLimit, min(autoLimit, x * autoDamping)) }
                    fitted.values[0] = damp(fitted.values[0])
                    fitted.values[1] = damp(fitted.values[1])
                    fitted.values = levenberg(fitted.values, free: [2], fitted.lines, width: width, height: height)
                    fitted.residual = rms(fitted.values, fitted.lines, width: width, height: height)
                    if abs(fitted.values[2]) > 10 { problems.append("the rotation needed is beyond ±10°"); continue }
                }
                // Rounded to tenths and hundredths (divided, so -29.4 is the double the text -29.4 reads as).
                let round = { (x: Double, steps: Double) in let r = (x * steps).rounded() / steps; return r == 0 ? 0 : r }
                return result(attempt, fitted.lines.count, round(fitted.values[0], 10), round(fitted.values[1], 10),
                              round(fitted.values[2], 100), fitted.residual, nil)
            }
        }
        // `auto` names each mode's reason: "full: …; vertical: …; level: …".
        let problem = problems.count == attempts.count && attempts.count > 1
            ? zip(attempts, problems).map { "\($0.rawValue): \($1)" }.joined(separator: "; ") : problems.first ?? "no solution"
        return result(nil, 0, 0, 0, 0, nil, problem)
    }

    struct Fitted {
        var values: [Double]  // vertical, horizontal, rotate
        var lines: [Line]
        var residual: Double
    }

    enum Outcome {
        case success(Fitted)
        case failure(String)
    }

    /// Fits one mode (not `auto`), dropping outliers; checks the solution.
    static func fit(_ mode: UprightMode, verticals: [Line], horizontals: [Line], width: Int, height: Int) -> Outcome {
        let free: [Int]
        var lines: [Line]
        switch mode {
        case .level, .auto: free = [2]; lines = verticals + horizontals
        case .vertical: free = [0, 2]; lines = verticals
        case .full: free = [0, 1, 2]; lines = verticals + horizontals
        }
        if let shortage = shortage(mode, lines, width: width, height: height) { return .failure(shortage) }
        let totalLength = lines.reduce(0) { $0 + $1.weight }
        var values = start(mode, lines, width: width, height: height)
        for threshold in outlierThresholds {
            let limit = sin(threshold * .pi / 180)
            let matrix = transform(values, width: width, height: height)
            lines = lines.filter { abs(deviation($0, matrix)) <= limit }
            if let shortage = shortage(mode, lines, width: width, height: height) {
                return .failure(shortage.replacingOccurrences(of: "s found", with: "s agree with a solution")
                    .replacingOccurrences(of: "line found", with: "line agrees with a solution"))
            }
            values = levenberg(values, free: free, lines, width: width, height: height)
        }
        let agreement = lines.reduce(0) { $0 + $1.weight } / totalLength
        if agreement < minimumAgreement {
            return .failure("the lines disagree: the best solution fits \(Int((agreement * 100).rounded())) % of their length, need \(Int(minimumAgreement * 100)) %")
        }
        let residual = rms(values, lines, width: width, height: height)
        if residual > maximumResidual {
            return .failure("the lines fit poorly (residual \(JSONValue.format((residual * 100).rounded() / 100))°, at most \(JSONValue.format(maximumResidual))°)")
        }
        if abs(values[0]) > 100 || abs(values[1]) > 100 || abs(values[2]) > 10 {
            return .failure("the correction needed is beyond the filter's range (vertical \(Int(values[0].rounded())), horizontal \(Int(values[1].rounded())), rotate \(Int(values[2].rounded()))°)")
        }
        return .success(Fitted(values: values, lines: lines, residual: residual))
    }

    /// Where the fit starts: of the solutions the longest lines give alone
    /// (each line for `level`; each pair of vertical lines at least 10 % of
    /// the width apart, solved for vertical and rotate, for `vertical` and
    /// `full`) and no correction, the one the most line length agrees with
    /// (within 2°). So a crowd of lines that are not the building's cannot
    /// pull the fit away from the lines that are.
    static func start(_ mode: UprightMode, _ lines: [Line], width: Int, height: Int) -> [Double] {
        let limit = sin(outlierThresholds[outlierThresholds.count - 1] * .pi / 180)
        func support(_ values: [Double]) -> Double {
            let matrix = transform(values, width: width, height: height)
            return lines.reduce(0) { abs(deviation($1, matrix)) <= limit ? $0 + $1.weight : $0 }
        }
        // The longest first, in a fixed order.
        func longest(_ ls: [Line]) -> [Line] {
            Array(ls.sorted { ($0.weight, $0.segment.x1, $0.segment.y1) > ($1.weight, $1.segment.x1, $1.segment.y1) }.prefix(hypothesisLines))
        }
        var best = [0.0, 0.0, 0.0], bestSupport = support(best)
        func consider(_ values: [Double]) {
            guard abs(values[0]) <= 100, abs(values[2]) <= 10 else { return }
            let s = support(values)
            if s > bestSupport { (best, bestSupport) = (values, s) }
        }
        if mode == .level {
            for line in longest(lines) { consider(levenberg([0, 0, 0], free: [2], [line], width: width, height: height)) }
        } else {
            let verticals = longest(lines.filter(\.isVertical))
            for (i, a) in verticals.enumerated() {
                for b in verticals[(i + 1)...] where abs((a.segment.x1 + a.segment.x2) - (b.segment.x1 + b.segment.x2)) / 2 >= 0.1 * Double(width) {
                    consider(levenberg([0, 0, 0], free: [0, 2], [a, b], width: width, height: height))
                }
            }
        }
        return best
    }

    /// How many of the longest lines `start` tries (each, or each pair).
    static let hypothesisLines = 30

    /// Why `lines` cannot determine `mode`, if they cannot.
    static func shortage(_ mode: UprightMode, _ lines: [Line], width: Int, height: Int) -> String? {
        let verticals = lines.filter(\.isVertical), horizontals = lines.filter { !$0.isVertical }
        func spread(_ ls: [Line], _ coordinate: (Segment) -> Double, _ size: Int) -> Bool {
            let c = ls.map { coordinate($0.segment) }
            return (c.max() ?? 0) - (c.min() ?? 0) >= minimumSpread * Double(size)
        }
        let percent = Int(minimumSpread * 100)
        if mode == .level {
            return lines.count >= 2 ? nil : "\(lines.count) line\(lines.count == 1 ? "" : "s") found, need at least 2 long ones near vertical or horizontal"
        }
        if verticals.count < 2 || !spread(verticals, { ($0.x1 + $0.x2) / 2 }, width) {
            return "\(verticals.count) vertical line\(verticals.count == 1 ? "" : "s") found, need at least 2 long ones at least \(percent) % of the width apart"
        }
        if mode == .full && (horizontals.count < 2 || !spread(horizontals, { ($0.y1 + $0.y2) / 2 }, height)) {
            return "\(horizontals.count) horizontal line\(horizontals.count == 1 ? "" : "s") found, need at least 2 long ones at least \(percent) % of the height apart"
        }
        return nil
    }

    /// The filter's largest `scale`.
    static let maximumScale = 150.0

    /// The smallest scale (percent, rounded up to tenths, plus 0.1 for the
    /// rounding of the analysed copy's size; 100 when nothing is empty at
    /// 100) at which every output pixel of
    /// a `width`×`height` image has a source pixel under `p` (its own scale
    /// ignored). The source maps to a convex quadrilateral holding the
    /// centre, and zooming moves each output point straight towards the
    /// centre, so it is enough that the four corner pixels map inside the
    /// source; bisection from 100 % (or below, if that already fits) up.
    static func constrainedScale(_ p: Parameters, width: Int, height: Int) -> Double {
        func fits(_ scale: Double) -> Bool {
            var values = p.values
            values["scale"] = .number(scale)
            let inverse = ColourMath.inverse(Perspective.matrix(Parameters(values: values), width: width, height: height))
            let (w, h) = (Double(width - 1), Double(height - 1))
            return [(0.0, 0.0), (w, 0), (0, h), (w, h)].allSatisfy { corner in
                let q = ColourMath.apply(inverse, [corner.0, corner.1, 1])
                guard q[2] > 0 else { return false }
                let (x, y) = (q[0] / q[2], q[1] / q[2])
                return x >= -1e-9 && x <= w + 1e-9 && y >= -1e-9 && y <= h + 1e-9
            }
        }
        // Nothing empty at 100 % (no correction): no zoom.
        if fits(100) { return 100 }
        var (low, high) = (1.0, 1000.0)
        if !fits(high) { return high }
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if fits(middle) { high = middle } else { low = middle }
        }
        return (((high * 10) - 1e-6).rounded(.up) + 1) / 10
    }

    /// `Perspective.matrix` for vertical, horizontal, rotate.
    static func transform(_ values: [Double], width: Int, height: Int) -> [Double] {
        let p = Parameters(values: ["vertical": .number(values[0]), "horizontal": .number(values[1]),
                                    "rotate": .number(values[2]), "scale": .number(100)])
        return Perspective.matrix(p, width: width, height: height)
    }

    /// The sine of a line's angle from its axis after `matrix`.
    static func deviation(_ line: Line, _ matrix: [Double]) -> Double {
        let s = line.segment
        let a = ColourMath.apply(matrix, [s.x1, s.y1, 1]), b = ColourMath.apply(matrix, [s.x2, s.y2, 1])
        let dx = b[0] / b[2] - a[0] / a[2], dy = b[1] / b[2] - a[1] / a[2]
        let length = hypot(dx, dy)
        guard length > 0, a[2] > 0, b[2] > 0 else { return 1 }
        // Along y for a vertical line, the sign of the direction chosen so the result is signed consistently.
        return line.isVertical ? dx / length * (dy < 0 ? -1 : 1) : dy / length * (dx < 0 ? -1 : 1)
    }

    /// The length-weighted RMS angle, in degrees.
    static func rms(_ values: [Double], _ lines: [Line], width: Int, height: Int) -> Double {
        let matrix = transform(values, width: width, height: height)
        var (sum, weights) = (0.0, 0.0)
        for line in lines {
            let degrees = asin(min(1, abs(deviation(line, matrix)))) * 180 / .pi
            sum += line.weight * degrees * degrees
            weights += line.weight
        }
        return weights > 0 ? (sum / weights).squareRoot() : 0
    }

    /// Levenberg–Marquardt on the `free` values (indices into vertical,
    /// horizontal, rotate), numerical derivatives; the others stay.
    static func levenberg(_ start: [Double], free: [Int], _ lines: [Line], width: Int, height: Int) -> [Double] {
        func residuals(_ v: [Double]) -> [Double] {
            let matrix = transform(v, width: width, height: height)
            return lines.map { deviation($0, matrix) * $0.weight.squareRoot() }
        }
        func cost(_ r: [Double]) -> Double { r.reduce(0) { $0 + $1 * $1 } }
        var values = start
        var r = residuals(values)
        var lambda = 1e-3
        for _ in 0..<100 {
            let step = 1e-4
            let jacobian: [[Double]] = free.map { k in
                var moved = values
                moved[k] += step
                return zip(residuals(moved), r).map { ($0 - $1) / step }
            }
            let m = free.count
            var normal = [Double](repeating: 0, count: m * m), gradient = [Double](repeating: 0, count: m)
            for a in 0..<m {
                for b in 0..<m { normal[a * m + b] = zip(jacobian[a], jacobian[b]).reduce(0) { $0 + $1.0 * $1.1 } }
                gradient[a] = zip(jacobian[a], r).reduce(0) { $0 + $1.0 * $1.1 }
            }
            var improved = false
            while lambda < 1e10 {
                var damped = normal
                for a in 0..<m { damped[a * m + a] += lambda * max(normal[a * m + a], 1e-12) }
                guard let delta = solveLinear(damped, gradient.map { -$0 }, m) else { lambda *= 10; continue }
                var trial = values
                for (a, k) in free.enumerated() { trial[k] += delta[a] }
                let tr = residuals(trial)
                if cost(tr) < cost(r) {
                    let change = delta.reduce(0) { max($0, abs($1)) }
                    values = trial; r = tr; lambda = max(lambda / 10, 1e-9); improved = true
                    if change < 1e-6 { return values }
                    break
                }
                lambda *= 10
            }
            if !improved { break }
        }
        return values
    }

    /// Solves the m×m system a·x = b (Gaussian elimination, partial pivoting).
    static func solveLinear(_ a: [Double], _ b: [Double], _ m: Int) -> [Double]? {
        var a = a, b = b
        for col in 0..<m {
            let pivot = (col..<m).max { abs(a[$0 * m + col]) < abs(a[$1 * m + col]) }!
            guard abs(a[pivot * m + col]) > 1e-15 else { return nil }
            if pivot != col {
                for k in 0..<m { a.swapAt(pivot * m + k, col * m + k) }
                b.swapAt(pivot, col)
            }
            for row in (col + 1)..<m {
                let f = a[row * m + col] / a[col * m + col]
                for k in col..<m { a[row * m + k] -= f * a[col * m + k] }
                b[row] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: m)
        for row in stride(from: m - 1, through: 0, by: -1) {
            var s = b[row]
            for k in (row + 1)..<m { s -= a[row * m + k] * x[k] }
            x[row] = s / a[row * m + row]
        }
        return x
    }
}
