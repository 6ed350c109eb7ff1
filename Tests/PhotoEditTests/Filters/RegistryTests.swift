import Foundation
import Testing
@testable import PhotoEdit

/// The filter registry and the declarations it is made of.
@Suite("Filter registry")
struct RegistryTests {
    let registry = FilterRegistry.standard

    @Test func idsAreUnique() {
        #expect(Set(registry.ids).count == registry.ids.count)
        #expect(registry.ids.count == registry.filters.count)
        #expect(registry.ids.count >= 8)
    }

    @Test func lookUp() throws {
        for f in registry.filters {
            #expect(registry.filter(f.id)?.id == f.id)
            #expect(try registry.require(f.id).id == f.id)
        }
        #expect(registry.filter("glow") == nil)
        #expect(throws: PhotoEditError.unknownFilter(name: "glow", known: registry.ids)) { try registry.require("glow") }
    }

    @Test(arguments: FilterRegistry.standard.filters.map(\.id))
    func declarationIsComplete(_ id: String) throws {
        let f = try #require(registry.filter(id))
        #expect(f.version >= 1)
        #expect(!f.summary.isEmpty && !f.summary.contains("\n"))
        #expect(!f.colourSpace.isEmpty)
        // Filters that hold lists (local, retouch) declare no parameters.
        #expect(!f.parameters.isEmpty || f.structure != nil)
        #expect(Set(f.parameters.map(\.name)).count == f.parameters.count, "parameter names are unique")
        for p in f.parameters {
            #expect(!p.summary.isEmpty && !p.summary.contains("\n"), "\(id).\(p.name)")
            #expect(p.name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        }
    }

    @Test(arguments: FilterRegistry.standard.filters.map(\.id))
    func everyFilterHasAFormAndFormsUseDeclaredParameters(_ id: String) throws {
        let f = try #require(registry.filter(id))
        #expect(f.forms.count >= 1)
        #expect(Set(f.forms.map { "\($0.name ?? "").\($0.parameters.count)" }).count == f.forms.count,
                "forms of one name (or unnamed) are told apart by their value count")
        for form in f.forms {
            #expect(!form.summary.isEmpty)
            for name in form.parameters {
                #expect(f.parameter(name) != nil, "\(id) form \(form.summary) uses undeclared parameter \(name)")
            }
            for (name, value) in form.fixed {
                let spec = try #require(f.parameter(name), "\(id) form fixes undeclared parameter \(name)")
                #expect(try spec.validate(value, filter: id) == value)
            }
        }
    }

    @Test(arguments: FilterRegistry.standard.filters.map(\.id))
    func defaultsValidate(_ id: String) throws {
        let f = try #require(registry.filter(id))
        let defaults = f.defaults
        #expect(Set(defaults.values.keys) == Set(f.parameters.map(\.name)))
        #expect(try f.validated(defaults.values) == defaults)
        for p in f.parameters {
            #expect(try p.validate(p.defaultValue, filter: id) == p.defaultValue, "\(id).\(p.name)")
        }
    }

    @Test(arguments: FilterRegistry.standard.filters.map(\.id))
    func filterOrderFollowsStages(_ id: String) throws {
        let f = try #require(registry.filter(id))
        let index = try #require(registry.ids.firstIndex(of: id))
        for later in registry.filters[(index + 1)...] {
            #expect(f.stage < later.stage || (f.stage == later.stage && f.order <= later.order))
        }
    }

    /// The neutral (default) parameters of every filter render the photo
    /// unchanged, pixel for pixel. (The RAW development stage applies to
    /// RAW files only: its neutral case is golden raw/0001-neutral, and a
    /// RAW sample is in the list for every other filter.)
    @Test(arguments: FilterRegistry.standard.filters.map(\.id), ["coffee.jpg", "rotated-exif.jpg", "chart.png", "raw:coffee.dng"])
    func neutralParametersRenderTheImageUnchanged(_ id: String, _ sample: String) throws {
        let f = try #require(registry.filter(id))
        if f.stage == .development && !sample.hasPrefix("raw:") { return }
        let path = sample.hasPrefix("raw:") ? Paths.root.appendingPathComponent("Tests/Fixtures/raw/" + sample.dropFirst(4)).path
            : Paths.sample(sample)
        let renderer = Renderer(registry: registry)
        let neutral = Recipe(nodes: [RecipeNode(filter: id, version: f.version, parameters: f.defaults)])
        // Written out losslessly: a rendered pipeline is read once.
        let temp = TemporaryDirectory()
        try renderer.render(recipe: neutral, originalPath: path).save(to: temp.file("with.png"), format: "png")
        try renderer.render(recipe: .empty, originalPath: path).save(to: temp.file("without.png"), format: "png")
        let with = try Pixels.load(temp.file("with.png")), without = try Pixels.load(temp.file("without.png"))
        #expect(with.width == without.width && with.height == without.height)
        #expect(try Pixels.maxAbsDifference(with, without) == 0)
        #expect(try Pixels.deltaE(with, without).max == 0)
    }

    @Test func neutralChainsAreTheDefaults() throws {
        for (chain, id) in [("temperature=0", "temperature"), ("tint=0", "tint"), ("exposure=0", "exposure"),
                            ("contrast=0", "contrast"), ("saturation=0", "saturation"), ("rotate=0", "rotate"),
                            ("flip=none", "flip"), ("crop=0:0:1:1", "crop")] {
            #expect(try recipe(chain).node(id)?.parameters == registry.filter(id)?.defaults, "\(chain)")
        }
    }

    @Test func rangeDescriptions() throws {
        #expect(registry.filter("exposure")?.parameter("ev")?.rangeDescription == "-5…5 EV")
        #expect(registry.filter("rotate")?.parameter("degrees")?.rangeDescription == "-270…270 °, in steps of 90")
        #expect(registry.filter("flip")?.parameter("axis")?.rangeDescription == "none|horizontal|vertical|both")
    }
}

/// Every error prints as one line naming the problem.
@Suite("Errors")
struct ErrorTests {
    static let samples: [PhotoEditError] = [
        .native(library: "libvips", operation: "jpegload", message: "VipsJpeg: Premature end of input file\nread gave 2 warnings\n"),
        .native(library: "libvips", operation: "avg", message: ""),
        .unknownFilter(name: "glow", known: FilterRegistry.standard.ids),
        .invalidParameter(filter: "exposure", parameter: "ev", problem: "9 is out of range (expected -5…5 EV)"),
        .invalidParameter(filter: "crop", parameter: "", problem: "x + w must be at most 1 (got 1.1)"),
        .invalidChain(chain: "a,,b", problem: "an empty step"),
        .invalidAdjustmentData("unknown key 'x' in recipe"),
        .unknownAsset("abc"),
        .ambiguousAsset(prefix: "a", candidates: (0..<9).map { "a\($0)" }),
        .malformedIdentifier("../x"),
        .unreadableFile(path: "/tmp/x.jpg", reason: "empty file"),
        .imageTooLarge(path: "big.png", width: 100_000, height: 100_000, limit: 120_000_000),
        .unknownRevision(asset: "abc", revision: 9, latest: 2),
        .conflict(asset: "abc", expected: 1, actual: 2),
        .library("no library at /x"),
        .invalidOutput("unknown format 'bmp'"),
    ]

    @Test(arguments: samples)
    func descriptionIsOneNonEmptyLine(_ error: PhotoEditError) {
        let text = error.description
        #expect(!text.isEmpty)
        #expect(!text.contains("\n") && !text.contains("\r"), "\(text)")
        #expect(error.errorDescription == text)
        #expect(error.localizedDescription == text)
    }

    @Test("a mistyped name is matched to what it most likely meant, among the registry's filters; a name far from all is matched to none")
    func spellingSuggestions() {
        let filters = FilterRegistry.standard.filters.map(\.id)
        #expect(Spelling.closest(to: "exposur", among: filters) == ["exposure"])
        #expect(Spelling.closest(to: "Exposure", among: filters) == ["exposure"])
        #expect(Spelling.closest(to: "cotnrast", among: filters) == ["contrast"])   // two letters swapped: one edit
        #expect(Spelling.closest(to: "vignete", among: filters) == ["vignette"])
        #expect(Spelling.closest(to: "temp", among: filters) == ["temperature"])    // the one name it begins
        #expect(Spelling.closest(to: "s", among: filters).isEmpty)
        for far in ["glow", "halo", "xyz", "", String(repeating: "a", count: 200)] {
            #expect(Spelling.closest(to: far, among: filters).isEmpty, "\(far)")
        }
        #expect(Spelling.closest(to: "tnit", among: ["tint", "lint"]) == ["tint"])
        #expect(Spelling.closest(to: "bint", among: ["tint", "lint"]) == ["tint", "lint"])
        #expect(Spelling.didYouMean("bint", among: ["tint", "lint"]) == " — did you mean 'tint' or 'lint'?")
        #expect(Spelling.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Spelling.editDistance(Array("ab"), Array("ba")) == 1)
        #expect(Spelling.editDistance(Array(""), Array("abc")) == 3)
    }

    @Test func descriptionsNameTheProblem() {
        #expect(PhotoEditError.unknownFilter(name: "blur", known: ["a", "b"]).description == "unknown filter 'blur' (known filters: a, b)")
        #expect(PhotoEditError.unknownFilter(name: "sharpn", known: ["sharpen", "blur"]).description
            == "unknown filter 'sharpn' — did you mean 'sharpen'? (known filters: sharpen, blur)")
        #expect(PhotoEditError.invalidParameter(filter: "exposure", parameter: "ev", problem: "p").description == "exposure.ev: p")
        #expect(PhotoEditError.invalidParameter(filter: "crop", parameter: "", problem: "p").description == "crop: p")
        #expect(PhotoEditError.native(library: "libvips", operation: "avg", message: "a\n  b \n").description == "libvips avg failed: a; b")
        #expect(PhotoEditError.ambiguousAsset(prefix: "a", candidates: (0..<9).map { "a\($0)" }).description
            == "id prefix 'a' is ambiguous: it matches 9 photos (a0, a1, a2, a3, a4, …)")
    }

    /// Text that reaches an error from outside (a chain typed in a shell, a
    /// file name) can hold a line break; the message must still be one line.
    @Test func userTextWithALineBreakStillGivesOneLine() throws {
        let chainError = try #require(throws: PhotoEditError.self) { try recipe("exposure=1\n") }
        let fileError = PhotoEditError.unreadableFile(path: "/tmp/two\nlines.jpg", reason: "empty file")
        do {
            #expect(!chainError.description.contains("\n"), "\(chainError.description)")
            #expect(!fileError.description.contains("\n"), "\(fileError.description)")
        }
    }
}
