import CPhotoEditShim
import Foundation
import Testing
@testable import PhotoEdit

/// The presence filters: clarity, texture, dehaze.
@Suite("Presence filters")
struct PresenceFilterTests {
    let registry = FilterRegistry.standard
    /// The helpers of the detail filters' tests: run, working, flat, step, deviation.
    let detail = FilterBench()

    func run(_ chain: String, on image: Image, scale: Double = 1) throws -> Image { try detail.run(chain, on: image, scale: scale) }
    func working(_ sample: String) throws -> Image { try detail.working(sample) }
    func flat(_ width: Int, _ height: Int, _ value: Double) throws -> Image { try detail.flat(width, height, value) }
    func step(_ width: Int, _ height: Int, left: Double, right: Double) throws -> Image { try detail.step(width, height, left: left, right: right) }

    /// Grey `level` with a fine, seeded texture of ± about `amount` (linear).
    func textured(_ width: Int, _ height: Int, level: Double, amount: Double, seed: Int = 3) throws -> Image {
        let noise = try Vips.image("gaussnoise", [("width", .number(Double(width))), ("height", .number(Double(height))), ("mean", .number(0)),
                                                  ("sigma", .number(amount)), ("seed", .number(Double(seed)))])
            .detailGaussBlur(sigma: 1.5)
        return try flat(width, height, level).adding(noise)
    }

    func deviation(_ image: Image) throws -> Double { try detail.deviation(image) }

    @Test(arguments: ["clarity", "texture", "dehaze"])
    func neutralIsTheSameImageAndTheDeclarationIsVersionThree(_ id: String) throws {
        let f = try registry.require(id)
        let image = try working("chelsea.jpg")
        #expect(try f.render(image, f.defaults, RenderContext()) === image)
        #expect(try f.renderer(for: 1)(image, f.defaults, RenderContext()) === image)
        #expect(f.version == 3)
        #expect(f.legacy.map(\.version) == Array(1..<f.version) && f.legacy.allSatisfy(\.changesRendering), "each earlier version keeps its own render")
        #expect(try f.legacy.allSatisfy { try f.renderer(for: $0.version)(image, f.defaults, RenderContext()) === image })
        #expect(!f.needsRandomAccess(f.defaults))
        #expect(f.stage == .tone)
    }

    /// Version 2 (block means, one fused full-size pass) is the same filter
    /// as version 1 (libvips resize and some forty operations), not the
    /// same pixels: close, and not identical (so version 1 must stay).
    /// (Full size, so every case takes version 2's reduced path: coffee.jpg
    /// is 600 px, dehaze's blocks 2 px; chart.png doubled to 1024 px, for
    /// the hard edges.)
    @Test(arguments: ["clarity=+60", "clarity=-80:20", "texture=+80", "texture=-60:8", "dehaze=+70", "dehaze=-60",
                      "chart:clarity=+100:30", "chart:texture=+100", "chart:dehaze=+80"])
    func versionTwoIsCloseToVersionOne(_ argument: String) throws {
        let onChart = argument.hasPrefix("chart:")
        let chain = onChart ? String(argument.dropFirst(6)) : argument
        let image = onChart ? try working("chart.png").resizedExactly(width: 1024, height: 512) : try working("coffee.jpg")
        let node = try #require(try recipe(chain).nodes.first)
        let f = try registry.require(node.filter)
        let srgb = { (i: Image) in try Renderer(registry: self.registry).outputImage(i) }
        let v2 = try f.renderer(for: 2)(image, node.parameters, RenderContext())
        let v1 = try f.renderer(for: 1)(image, node.parameters, RenderContext())
        let d = try Pixels.deltaE(srgb(v1), srgb(v2))
        #expect(d.mean < 0.8 && d.mean > 0, "\(chain): ΔE00 v1 → v2 mean \(d.mean), max \(d.max)")
        #expect(d.max < 6, "\(chain): ΔE00 v1 → v2 max \(d.max)")
    }

    /// Texture version 3 (the reduced copy's guided filter in one C call)
    /// is version 2's filter: close, not identical. At full size on
    /// a 24 MP-like scale the blocks are 3 px (radius 4), as here with radius 4
    /// on coffee.jpg and radius 8 on the doubled chart.
    @Test(arguments: ["texture=+80", "texture=-60:8", "texture=+40:20", "chart:texture=+100:8"])
    func textureVersionThreeIsCloseToVersionTwo(_ argument: String) throws {
        let onChart = argument.hasPrefix("chart:")
        let chain = onChart ? String(argument.dropFirst(6)) : argument
        let image = onChart ? try working("chart.png").resizedExactly(width: 1024, height: 512) : try working("coffee.jpg")
        let node = try #require(try recipe(chain).nodes.first)
        let f = try registry.require("texture")
        let srgb = { (i: Image) in try Renderer(registry: self.registry).outputImage(i) }
        let v3 = try f.render(image, node.parameters, RenderContext())
        let v2 = try f.renderer(for: 2)(image, node.parameters, RenderContext())
        let d = try Pixels.deltaE(srgb(v2), srgb(v3))
        #expect(d.mean < 0.3 && d.mean > 0, "\(chain): ΔE00 v2 → v3 mean \(d.mean), max \(d.max)")
        #expect(d.max < 3, "\(chain): ΔE00 v2 → v3 max \(d.max)")
    }

    /// A JPEG large enough for version 3's reduced input (2400×1600:
    /// decoded at 1/8, 300×200), in a folder of its own.
    func bigJPEG(_ dir: TemporaryDirectory, scale: Double = 4) throws -> String {
        let path = dir.file("big.jpg")
        try Image.load(path: Paths.sample("coffee.jpg"), sequential: false).resized(hscale: scale, vscale: scale, kernel: "linear")
            .save(to: path, format: "jpeg", options: [("Q", .number(90))])
        return path
    }

    /// A one-filter recipe at `version` of its filter.
    func versioned(_ chain: String, _ version: Int) throws -> Recipe {
        let node = try #require(try recipe(chain).nodes.first)
        return try Recipe(json: .object(["format": .string(Recipe.formatIdentifier), "formatVersion": .number(1), "filters": .array([
            .object(["id": .string(node.filter), "version": .number(Double(version)),
                      "params": .object(node.parameters.values.mapValues { $0.json })]),
        ])]), registry: registry)
    }

    /// Clarity and dehaze version 3 in a full-size render of a large JPEG
    /// make their estimates on the photo decoded at 1/8 size: the render
    /// loads the JPEG sequentially and reads it once (a second read of a
    /// sequential JPEG fails with "out of order read"), and is version 2's
    /// filter — close, not identical.
    @Test(arguments: ["clarity=+60", "clarity=-80:40", "dehaze=+70", "dehaze=-60"])
    func versionThreeWithTheReducedDecodeIsCloseToVersionTwo(_ chain: String) throws {
        let dir = TemporaryDirectory("photoedit-reduced-input")
        let path = try bigJPEG(dir)
        let renderer = Renderer(registry: registry)
        let v3 = try versioned(chain, 3)
        let node = try #require(v3.nodes.first)
        let f = try registry.require(node.filter)
        #expect(f.usesReducedInput(version: 3, node.parameters) && !f.usesReducedInput(version: 2, node.parameters))
        #expect(f.needsRandomAccess(version: 3, node.parameters), "without a reduced decode (previews, RAW, PNG) it still reads twice")
        let reduced = try #require(try renderer.reducedWorkingImage(path: path))
        #expect(reduced.width == 300 && reduced.height == 200)
        // Each read once, into memory (deltaE reads its images more than once).
        let three = try renderer.render(recipe: v3, originalPath: path).inMemory()
        let two = try renderer.render(recipe: versioned(chain, 2), originalPath: path).inMemory()
        #expect(three.width == 2400 && three.height == 1600)
        let d = try Pixels.deltaE(two, three)
        #expect(d.mean < 0.8 && d.mean > 0, "\(chain): ΔE00 v2 → v3 mean \(d.mean), max \(d.max)")
        #expect(d.max < 8, "\(chain): ΔE00 v2 → v3 max \(d.max)")
    }

    /// Where the engine has no reduced decode (a PNG original) or it would
    /// be too small (dehaze on a JPEG of 2048 px or less), version 3 makes
    /// its estimates as version 2: dehaze to the bit; clarity with the
    /// guided filter in C (texture 3's), close. A radius under 30 px takes
    /// no reduced input.
    @Test func withoutAReducedDecodeVersionThreeIsVersionTwosWay() throws {
        let dir = TemporaryDirectory("photoedit-reduced-input")
        let renderer = Renderer(registry: registry)
        let png = dir.file("big.png")
        try Image.load(path: Paths.sample("coffee.jpg"), sequential: false).resized(hscale: 4, vscale: 4, kernel: "linear").save(to: png, format: "png")
        #expect(try renderer.reducedWorkingImage(path: png) == nil)
        let small = try bigJPEG(dir, scale: 2)  // 1200×800: a 150 px decode
        for path in [png, small, Paths.sample("coffee.jpg")] {
            for chain in ["dehaze=+70", "dehaze=-70"] {
                let three = try renderer.render(recipe: versioned(chain, 3), originalPath: path).pixelBytes()
                let two = try renderer.render(recipe: versioned(chain, 2), originalPath: path).pixelBytes()
                #expect(three == two, "\(chain) on \(path)")
            }
        }
        let d = try Pixels.deltaE(renderer.render(recipe: versioned("clarity=+60", 2), originalPath: png).inMemory(),
                                  renderer.render(recipe: versioned("clarity=+60", 3), originalPath: png).inMemory())
        #expect(d.mean < 0.3 && d.mean > 0, "clarity on a PNG: ΔE00 v2 → v3 mean \(d.mean), max \(d.max)")
        let clarity = try registry.require("clarity")
        #expect(!clarity.usesReducedInput(version: 3, try #require(try recipe("clarity=+60:29").nodes.first).parameters))
        #expect(clarity.usesReducedInput(version: 3, try #require(try recipe("clarity=+60:30").nodes.first).parameters))
    }

    /// Photos too small on a side for a reduced decode (libvips 8.14's
    /// shrink-on-load aborts the process on a JPEG narrower than the
    /// shrink) get none: clarity and dehaze render them version 2's way.
    @Test(arguments: [(5, 5), (3, 600), (600, 3), (255, 2000)])
    func tinyAndThinJPEGsGetNoReducedDecode(_ width: Int, _ height: Int) throws {
        let dir = TemporaryDirectory("photoedit-reduced-input")
        let path = dir.file("small.jpg")
        try Image.load(path: Paths.sample("coffee.jpg"), sequential: false).resizedExactly(width: width, height: height)
            .save(to: path, format: "jpeg", options: [("Q", .number(90))])
        let renderer = Renderer(registry: registry)
        #expect(try renderer.reducedWorkingImage(path: path) == nil)
        let rendered = try renderer.render(recipe: recipe("dehaze=+50,clarity=+50"), originalPath: path).pixelBytes()
        #expect(rendered.count == width * height * 3)
        let two = try renderer.render(recipe: versioned("dehaze=+50", 2), originalPath: path).pixelBytes()
        #expect(try renderer.render(recipe: versioned("dehaze=+50", 3), originalPath: path).pixelBytes() == two)
    }

    /// The dehaze airlight's threshold: the k-th largest value, as a
    /// descending sort gives it, with repeated values and any k.
    @Test func theKthLargestIsTheSortedOne() {
        var generator = SystemRandomNumberGenerator()
        for n in [1, 7, 1000, 5000] {
            let values = (0..<n).map { _ in Float(Int.random(in: 0..<50, using: &generator)) / 7 }
            let sorted = values.sorted(by: >)
            for k in Set([1, 2, max(1, n / 1000), max(1, n / 3), n]).filter({ $0 <= n }) {
                #expect(Haze.largest(k, of: values) == sorted[k - 1], "n \(n), k \(k)")
            }
        }
    }

    /// Block means (`pe_block_means`) are the exact fixed-point sums
    /// (value × 2^24, truncated, as 64-bit integers) over each block,
    /// divided by its pixel count: per band and of the luminance, with
    /// values under 127 (the vectorised 32-bit conversion) and beyond it.
    @Test(arguments: [false, true])
    func blockMeansAreTheFixedPointSums(_ luminance: Bool) throws {
        let (w, h, k) = (37, 23, 5)
        for big in [false, true] {
            var values = (0..<(w * h * 3)).map { Float(($0 * 7919) % 1000) / 997 - 0.2 }
            if big { values[100] = 300; values[2000] = -5000 }
            let image = try #require(values.withUnsafeBytes { raw in
                vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(w), Int32(h), 3, VIPS_FORMAT_FLOAT)
            }.map { Image(owning: $0) })
            let means = try image.blockMeans(k, luminance: luminance).floatPixels()
            let bands = luminance ? 1 : 3
            let (bw, bh) = ((w + k - 1) / k, (h + k - 1) / k)
            #expect(means.count == bw * bh * bands)
            for j in 0..<bh {
                for i in 0..<bw {
                    for c in 0..<bands {
                        var sum: Int64 = 0
                        var count = 0
                        for y in (j * k)..<min(h, (j + 1) * k) {
                            for x in (i * k)..<min(w, (i + 1) * k) {
                                let p = (y * w + x) * 3
                                var v = luminance ? 0.2126 * values[p] + 0.7152 * values[p + 1] + 0.0722 * values[p + 2] : values[p + c]
                                v = min(max(v, -32768), 32768)
                                sum += Int64(v * 16_777_216)
                                count += 1
                            }
                        }
                        let mean = Float(Double(sum) / 16_777_216 / Double(count))
                        let got = means[(j * bw + i) * bands + c]
                        if luminance {
                            // Then ^(1/2.2) by the vectorised polynomial (relative error about 1e-6).
                            #expect(abs(got - copysign(powf(abs(mean), 1 / 2.2), mean)) <= 4e-6 * max(1, abs(got)), "block \(i), \(j), big \(big)")
                        } else {
                            #expect(got == mean, "block \(i), \(j), band \(c), big \(big)")
                        }
                    }
                }
            }
        }
    }

    /// Texture version 3 streamed (`pe_self_guided_local_contrast`: its
    /// reduced copy and coefficients made row by row as the full-size pass
    /// reaches them) is its one-call form (`pe_block_means` →
    /// `pe_self_guided_coefficients` → `pe_local_contrast`) to the bit:
    /// blocks of 2, 3, 5 and 33 px (so windows of 3 to 9 reduced rows, and
    /// one reduced image smaller than its window), sizes that are no multiple
    /// of the block, both signs.
    @Test(arguments: [(3.0, 80.0), (4, 40), (8, -60), (50, 100)])
    func streamedTextureIsTheOneCallFormToTheBit(_ radius: Double, _ amount: Double) throws {
        let coffee = try working("coffee.jpg")
        for image in [coffee, try coffee.resizedExactly(width: 1001, height: 667), try coffee.extractArea(left: 3, top: 5, width: 97, height: 41)] {
            let reference = try Presence.fusedLocalContrast(image, amount: amount / 100, sigma: radius, eps: 0.004, lowSigma: 1.5,
                                                            limit: 0.1, midTones: false, fusedCoefficients: true).floatPixels()
            let streamed = try Presence.streamedLocalContrast(image, amount: amount / 100, sigma: radius, eps: 0.004, lowSigma: 1.5,
                                                              limit: 0.1, midTones: false).floatPixels()
            #expect(streamed.count == image.width * image.height * 3)
            #expect(streamed == reference, "radius \(radius), amount \(amount), \(image.width)×\(image.height)")
        }
    }

    /// Streamed, texture needs no random access: a JPEG decoded top to bottom
    /// (sequential, as `apply` loads one) renders through the whole render
    /// path, threads and all, to the bytes of the one-call form on the
    /// decoded image in memory. Versions 1 and 2, and a radius under 2.25 px
    /// (no reduction), still ask for random access.
    @Test func textureStreamsASequentialJPEG() throws {
        let dir = TemporaryDirectory("photoedit-texture-stream")
        let path = dir.file("big.jpg")
        try Image.load(path: Paths.sample("coffee.jpg"), sequential: false).resized(hscale: 4, vscale: 4, kernel: "linear")
            .save(to: path, format: "jpeg", options: [("Q", .number(90))])
        let renderer = Renderer(registry: registry)
        let texture = try registry.require("texture")
        let node = try #require(try recipe("texture=+40").nodes.first)
        #expect(!texture.needsRandomAccess(version: 3, node.parameters))
        #expect(texture.needsRandomAccess(version: 2, node.parameters) && texture.needsRandomAccess(version: 1, node.parameters))
        #expect(texture.needsRandomAccess(version: 3, try #require(try recipe("texture=+40:2").nodes.first).parameters))
        #expect(!texture.needsRandomAccess(version: 2, texture.defaults))
        #expect(!texture.needsRandomAccess(version: 3, try #require(try recipe("texture=+40:9").nodes.first).parameters))
        // A wide radius would read too far ahead of the pass for the loader's cache: random access, and it renders.
        let wide = try recipe("texture=+100:50")
        #expect(texture.needsRandomAccess(version: 3, try #require(wide.nodes.first).parameters))
        #expect(try renderer.render(recipe: wide, originalPath: path).pixelBytes().count == 2400 * 1600 * 3)
        let rendered = try renderer.render(recipe: try recipe("texture=+40"), originalPath: path).pixelBytes()
        let inMemory = try renderer.workingImage(path: path, randomAccess: true)
        let reference = try renderer.outputImage(Presence.fusedLocalContrast(inMemory, amount: 0.4, sigma: 4, eps: 0.004, lowSigma: 1.5, limit: 0.1,
                                                                             midTones: false, fusedCoefficients: true)).pixelBytes()
        #expect(rendered.count == 2400 * 1600 * 3)
        #expect(rendered == reference)
    }

    /// The guided filter of an image by itself blurs two bands (I, I²)
    /// instead of four: the same coefficients to the bit as the general
    /// four-band path (a copy as the input takes that path).
    @Test func aSelfGuidedFilterBlursTwoBandsToTheSameCoefficients() throws {
        let low = try textured(300, 200, level: 0.4, amount: 0.05).luminance().signedPower(1 / ToneMath.gamma).inMemory()
        let copy = try low.call("copy")
        #expect(copy !== low)
        for (sigma, eps) in [(1.33, 0.004), (4.0, 0.01)] {
            let fast = try GuidedFilter.coefficients(guideLow: low, inputLow: low, sigma: sigma, eps: eps).floatPixels()
            let general = try GuidedFilter.coefficients(guideLow: low, inputLow: copy, sigma: sigma, eps: eps).floatPixels()
            #expect(fast.count == 300 * 200 * 2)
            #expect(fast == general)
        }
    }

    /// The reduced copies' gaussian blur and minimum filter in plain loops
    /// (`pe_gauss_blur`, `pe_min_filter`) give libvips' `gaussblur` and
    /// `rank` to the bit — one to four bands, sigmas from below a pixel to
    /// a mask wider than the image, windows up to the image's smaller side —
    /// so clarity, texture v1/v2 and dehaze v2 render as before.
    @Test func reducedBlurAndMinimumAreLibvipsToTheBit() throws {
        for (width, height) in [(300, 200), (37, 120), (5, 3)] {
            let grey = try textured(width, height, level: 0.4, amount: 0.2).extractBands(1, count: 1).inMemory()
            let stacks = [grey, try grey.joined(with: grey.multiplied(by: grey)),
                          try Vips.image("bandjoin", [("in", .images([grey, grey.linear(multiply: [-1], add: [1]), grey.multiplied(by: grey), grey]))])]
            for stack in stacks {
                let stack = try stack.cast("float").inMemory()
                for sigma in [0.7, 1.33, 4, 15, 60] {
                    let fast = try stack.reducedGaussBlur(sigma: sigma).floatPixels()
                    let libvips = try stack.detailGaussBlur(sigma: sigma).floatPixels()
                    #expect(fast.count == width * height * stack.bands)
                    #expect(fast == libvips, "blur \(width)×\(height), \(stack.bands) bands, sigma \(sigma)")
                }
            }
            let single = try grey.cast("float").inMemory()
            for size in [1, 3, 15, min(width, height)] where size <= min(width, height) {
                let fast = try single.reducedMinimum(size).floatPixels()
                let libvips = try single.call("rank", [("width", .number(Double(size))), ("height", .number(Double(size))),
                                                       ("index", .number(0))]).floatPixels()
                #expect(fast == libvips, "minimum \(width)×\(height), window \(size)")
            }
        }
    }

    @Test func clarityRaisesMidToneLocalContrastAndNegativeLowersIt() throws {
        let image = try textured(200, 120, level: 0.2, amount: 0.03)
        let before = try deviation(image)
        let more = try deviation(run("clarity=+100:10", on: image))
        let less = try deviation(run("clarity=-100:10", on: image))
        #expect(more > before * 1.3, "deviation \(before) → \(more)")
        #expect(less < before * 0.8, "deviation \(before) → \(less)")
        // The mean light hardly moves.
        #expect(abs(try run("clarity=+100:10", on: image).average() - image.average()) < 0.01)
    }

    @Test func clarityKeepsColourRatios() throws {
        let grey = try textured(120, 80, level: 0.2, amount: 0.03)
        let colour = try grey.linear(multiply: [1, 0.5, 0.25], add: [0, 0, 0])
        let p = try run("clarity=+80:10", on: colour).point(x: 60, y: 40)
        #expect(abs(p[1] / p[0] - 0.5) < 1e-3 && abs(p[2] / p[0] - 0.25) < 1e-3, "\(p)")
    }

    /// At a hard edge the edge-aware base keeps the halo small: the overshoot
    /// of a +100 clarity is a fraction of what a plain unsharp mask of the
    /// same radius gives, and far from the edge nothing changes.
    @Test(arguments: ["clarity=+100:20", "texture=+100:4"])
    func halosAtAHardEdgeAreBounded(_ chain: String) throws {
        let (dark, bright) = (0.05, 0.6)
        let edge = try step(240, 40, left: dark, right: bright)
        let out = try run(chain, on: edge)
        let row = try out.extractArea(left: 0, top: 20, width: 240, height: 1)
        let low = try Vips.number("min", [("in", .image(row))]), high = try row.maximum()
        // In perceptual terms (^1/2.2) the overshoot stays under 0.05 (5 % of the range).
        let p = { (v: Double) in Foundation.pow(max(v, 0), 1 / 2.2) }
        #expect(p(dark) - p(low) < 0.05, "undershoot to \(low)")
        #expect(p(high) - p(bright) < 0.05, "overshoot to \(high)")
        let usm = try run("sharpen=100:20", on: edge).extractArea(left: 0, top: 20, width: 240, height: 1)
        #expect(p(try usm.maximum()) - p(bright) > 3 * max(0.001, p(high) - p(bright)), "an unsharp mask halos far more")
        #expect(abs(try out.point(x: 2, y: 20)[0] - dark) < 0.002)
        #expect(abs(try out.point(x: 237, y: 20)[0] - bright) < 0.01)
    }

    @Test func textureEnhancesAndSmoothsFineDetail() throws {
        let image = try textured(160, 100, level: 0.25, amount: 0.04)
        let before = try deviation(image)
        let more = try deviation(run("texture=+100", on: image))
        let smooth = try deviation(run("texture=-100", on: image))
        #expect(more > before * 1.3, "deviation \(before) → \(more)")
        #expect(smooth < before * 0.7, "deviation \(before) → \(smooth)")
    }

    /// Previews render at a smaller scale: the radius follows
    /// `RenderContext.scale`, so a half-size render at scale 0.5 matches the
    /// full render made half size.
    @Test(arguments: ["clarity=+100:30", "texture=+100:6", "dehaze=+80"])
    func previewAndFullRenderAgree(_ chain: String) throws {
        let image = try working("coffee.jpg")
        let halve = { (i: Image) in try i.resizedExactly(width: 300, height: 200) }
        let full = try halve(run(chain, on: image))
        let preview = try run(chain, on: halve(image), scale: 0.5)
        let srgb = { (i: Image) in try Renderer(registry: self.registry).outputImage(i) }
        let agree = try Pixels.deltaE(srgb(full), srgb(preview))
        #expect(agree.mean < 1.5, "\(chain): mean ΔE00 \(agree.mean) between full and preview")
        if !chain.hasPrefix("dehaze") {
            let unscaled = try Pixels.deltaE(srgb(full), srgb(run(chain, on: halve(image), scale: 1)))
            #expect(unscaled.mean > agree.mean, "\(chain): an unscaled radius should differ more (\(unscaled.mean) vs \(agree.mean))")
        }
    }

    /// A veil of airlight over a scene: dehaze takes most of it away (the
    /// result is closer to the scene than the hazy image), and a negative
    /// strength adds haze (less contrast).
    @Test func dehazeRemovesAVeilAndNegativeAddsOne() throws {
        let scene = try working("coffee.jpg")
        let airlight = [0.75, 0.78, 0.82]
        let hazy = try scene.linear(multiply: [0.5, 0.5, 0.5], add: airlight.map { $0 * 0.5 })
        let cleared = try run("dehaze=+100", on: hazy)
        let srgb = { (i: Image) in try Renderer(registry: self.registry).outputImage(i) }
        let hazyError = try Pixels.deltaE(srgb(hazy), srgb(scene)).mean
        let clearedError = try Pixels.deltaE(srgb(cleared), srgb(scene)).mean
        #expect(clearedError < hazyError * 0.6, "ΔE00 to the scene: hazy \(hazyError), dehazed \(clearedError)")
        #expect(try deviation(cleared) > deviation(hazy) * 1.3)
        let hazier = try run("dehaze=-100", on: scene)
        #expect(try hazier.average() > scene.average() + 0.005, "haze is bright")
        // J = A + (I − A)/t with t ≥ 1: every pixel moves towards the airlight.
        let (low, patch) = try Haze.reduced(scene)
        let a = try Haze.airlight(low, patch: patch)
        let distance = { (i: Image) in try i.linear(multiply: [1, 1, 1], add: a.map { -$0 }).call("abs").average() }
        #expect(try distance(hazier) < distance(scene) - 0.005, "closer to the airlight \(a)")
        // Deterministic: the same render twice gives the same pixels.
        #expect(try Pixels.maxAbsDifference(cleared, run("dehaze=+100", on: hazy)) == 0)
    }

    @Test func parametersAreBounded() throws {
        #expect(throws: PhotoEditError.self) { try recipe("clarity=101") }
        #expect(throws: PhotoEditError.self) { try recipe("clarity=+10:4") }
        #expect(throws: PhotoEditError.self) { try recipe("texture=-101") }
        #expect(throws: PhotoEditError.self) { try recipe("texture=+10:51") }
        #expect(throws: PhotoEditError.self) { try recipe("dehaze=nan") }
        #expect(throws: PhotoEditError.self) { try recipe("dehaze=+100:2") }
        #expect(try recipe("clarity=+30,texture=-20:3,dehaze=-100").nodes.map(\.filter) == ["dehaze", "texture", "clarity"])
    }
}
