import Foundation
import Testing
@testable import PhotoEdit

/// Ratings, colour labels, keywords, titles and captions: XMP packets in
/// both shapes, hostile packets, import from embedded XMP and sidecars
/// written by exiftool, changes and their feed entries, queries, the CLI.
@Suite("XMP metadata")
struct XMPMetadataTests {
    // MARK: Packets

    /// One photo's metadata, as Lightroom writes it: properties as
    /// attributes of rdf:Description, unusual prefixes (namespaces count, not prefixes).
    static let attributeShape = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/xap/1.0/" xmlns:d="http://purl.org/dc/elements/1.1/"
              xmlns:l="http://ns.adobe.com/lightroom/1.0/" a:Rating="4" a:Label="Red">
           <d:subject><rdf:Bag><rdf:li>Trips</rdf:li><rdf:li>Iceland</rdf:li><rdf:li>Birds</rdf:li><rdf:li>Music</rdf:li></rdf:Bag></d:subject>
           <l:hierarchicalSubject><rdf:Bag><rdf:li>Trips|Iceland</rdf:li><rdf:li>Music|AC/DC</rdf:li></rdf:Bag></l:hierarchicalSubject>
           <d:title><rdf:Alt><rdf:li xml:lang="de">Wasserfall</rdf:li><rdf:li xml:lang="x-default">Falls</rdf:li></rdf:Alt></d:title>
           <d:description><rdf:Alt><rdf:li xml:lang="x-default">Gullfoss &amp; spray</rdf:li></rdf:Alt></d:description>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    /// The same metadata as elements (the shape exiftool and darktable
    /// write), split over two descriptions.
    static let elementShape = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
          <xmp:Rating>4</xmp:Rating><xmp:Label>red</xmp:Label>
         </rdf:Description>
         <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/">
          <dc:subject><rdf:Bag><rdf:li>Birds</rdf:li><rdf:li>Trips</rdf:li><rdf:li>Iceland</rdf:li></rdf:Bag></dc:subject>
          <lr:hierarchicalSubject><rdf:Bag><rdf:li>Trips|Iceland</rdf:li><rdf:li>Music|AC/DC</rdf:li></rdf:Bag></lr:hierarchicalSubject>
          <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Falls</rdf:li></rdf:Alt></dc:title>
          <dc:description><rdf:Alt><rdf:li xml:lang="x-default"><![CDATA[Gullfoss & spray]]></rdf:li></rdf:Alt></dc:description>
         </rdf:Description>
        </rdf:RDF></x:xmpmeta>
        """

    static let expected = DescriptiveMetadata(rating: 4, colorLabel: .red, keywords: ["Trips/Iceland", "Music/AC\\/DC", "Birds"],
                                              title: "Falls", caption: "Gullfoss & spray")

    static func metadata(_ packet: String) throws -> DescriptiveMetadata {
        try XMPPacket(data: Data(packet.utf8)).descriptiveMetadata()
    }

    @Test func bothShapesReadTheSame() throws {
        let attributes = try Self.metadata(Self.attributeShape)
        #expect(attributes == Self.expected)
        #expect(try Self.metadata(Self.elementShape) == Self.expected, "the same metadata written as elements")
        // A packet embedded in a JPEG's APP1 segment keeps the segment's
        // namespace and NUL padding in front of and after it.
        let embedded = Data("http://ns.adobe.com/xap/1.0/\0".utf8) + Data(Self.attributeShape.utf8) + Data(count: 64)
        #expect(try XMPPacket(data: embedded).descriptiveMetadata() == Self.expected)
    }

    @Test func darktableLabelsAndTags() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:darktable="http://darktable.sf.net/"
                 xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmp:Rating="-1">
              <darktable:colorlabels><rdf:Seq><rdf:li>3</rdf:li><rdf:li>0</rdf:li></rdf:Seq></darktable:colorlabels>
              <dc:subject><rdf:Bag><rdf:li>darktable|format|nef</rdf:li><rdf:li>Lake</rdf:li></rdf:Bag></dc:subject>
              <lr:hierarchicalSubject><rdf:Bag><rdf:li>darktable|changed</rdf:li><rdf:li>Places|Norway|Oslo</rdf:li></rdf:Bag></lr:hierarchicalSubject>
             </rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        let m = try Self.metadata(packet)
        #expect(m.rating == Rating.rejected)
        #expect(m.colorLabel == .blue, "darktable's first label (3 = blue)")
        #expect(m.keywords == ["Places/Norway/Oslo", "Lake"], "darktable's own tags are left out")
        #expect(m.title == nil && m.caption == nil)
    }

    @Test func absentPropertiesSetNothing() throws {
        let m = try Self.metadata("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Label="To Print" xmp:CreatorTool="x"/>
            </rdf:RDF></x:xmpmeta>
            """)
        #expect(m.isEmpty, "a label outside the five colours is not guessed at: \(m)")
    }

    /// Hostile and broken packets are refused with a short reason that
    /// never quotes them.
    @Test(arguments: [
        ("entities", """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "SECRETSECRET"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">&b;</x:xmpmeta>
            """),
        ("deep", String(repeating: "<a SECRET=\"1\">", count: 200) + String(repeating: "</a>", count: 200)),
        ("truncated", "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"SECRET"),
        ("not XML", "SECRET, not XML at all"),
        ("unbound prefix", "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><secret:a/></x:xmpmeta>"),
        ("rating out of range", #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="9"/></rdf:RDF>"#),
        ("rating not a number", #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="SECRET"/></rdf:RDF>"#),
        ("empty keyword level", #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:lr="http://ns.adobe.com/lightroom/1.0/"><lr:hierarchicalSubject><rdf:Bag><rdf:li>SECRET||x</rdf:li></rdf:Bag></lr:hierarchicalSubject></rdf:Description></rdf:RDF>"#),
        ("empty", ""),
    ])
    func hostilePacketsAreRefused(_ label: String, _ packet: String) {
        do {
            let m = try Self.metadata(packet)
            Issue.record("\(label): read as \(m)")
        } catch {
            let reason = String(describing: error)
            #expect(error is XMPProblem, "\(label): \(type(of: error))")
            #expect(!reason.contains("SECRET"), "\(label): the reason quotes the packet: \(reason)")
            #expect(!reason.contains("\n") && !reason.isEmpty, "\(label): \(reason)")
        }
    }

    @Test func limits() throws {
        #expect(throws: XMPProblem.self) { _ = try XMPPacket(data: Data(count: XMPPacket.maxBytes + 1)) }
        // Many keywords: one over the limit per photo is refused.
        let items = (0...Keyword.maxPerPhoto).map { "<rdf:li>k\($0)</rdf:li>" }.joined()
        let packet = #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag>"#
            + items + "</rdf:Bag></dc:subject></rdf:Description></rdf:RDF>"
        #expect(throws: XMPProblem.self) { _ = try Self.metadata(packet) }
    }

    @Test func keywordSyntax() throws {
        #expect(Keyword.levels("Music/AC\\/DC") == ["Music", "AC/DC"])
        #expect(Keyword.join(["Music", "AC/DC"]) == "Music/AC\\/DC")
        #expect(try Keyword.normalized(" Trips / Iceland ") == "Trips/Iceland")
        #expect(try Keyword.fromLightroom("Music|AC/DC") == "Music/AC\\/DC")
        #expect(Keyword.lightroom("Music/AC\\/DC") == "Music|AC/DC")
        #expect(try Keyword.list("Birds, Trips/Iceland,Red\\, White") == ["Birds", "Trips/Iceland", "Red, White"])
        for bad in ["", "a//b", "/a", "a/", "tab\there", String(repeating: "x", count: Keyword.maxLength + 1)] {
            #expect(throws: PhotoEditError.self, "'\(bad)'") { _ = try Keyword.normalized(bad) }
        }
    }

    // MARK: Import

    /// Photos and sidecars written by exiftool: IMG_1.jpg with embedded
    /// rating 2 and keyword Embedded, and the sidecar IMG_1.xmp (which
    /// wins); IMG_2.jpg with embedded XMP only; IMG_3.jpg with a broken
    /// sidecar IMG_3.jpg.xmp; RAW.dng… none: a CR2-style name with its
    /// darktable sidecar is covered by the candidates test.
    @Test func importReadsEmbeddedXMPAndSidecars() throws {
        let temp = TemporaryDirectory("photoedit-xmp")
        let folder = temp.file("card")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (i, sample) in ["coffee.jpg", "chelsea.jpg", "astronaut.jpg"].enumerated() {
            try FileManager.default.copyItem(atPath: Paths.sample(sample), toPath: folder + "/IMG_\(i + 1).jpg")
        }
        try Tool.exiftool(["-overwrite_original", "-XMP-xmp:Rating=2", "-XMP-dc:Subject=Embedded", "-XMP-dc:Title=Old title",
                           folder + "/IMG_1.jpg", folder + "/IMG_2.jpg"])
        try Tool.exiftool(["-o", folder + "/IMG_1.xmp", "-XMP-xmp:Rating=4", "-XMP-xmp:Label=Red", "-XMP-dc:Subject=Trips",
                           "-XMP-dc:Subject=Iceland", "-XMP-dc:Subject=Birds", "-XMP-lr:HierarchicalSubject=Trips|Iceland",
                           "-XMP-dc:Title=Falls", "-XMP-dc:Description=Gullfoss in June", Paths.sample("coffee.jpg")])
        try "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF SECRET".write(toFile: folder + "/IMG_3.jpg.xmp", atomically: true, encoding: .utf8)

        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let results = try library.importItems([folder])
        #expect(results.count == 3 && results.allSatisfy { $0.id != nil }, "the folder's photos, not its sidecars: \(results.map(\.path))")
        let byName = Dictionary(uniqueKeysWithValues: results.map { (($0.path as NSString).lastPathComponent, $0) })
        let one = try library.asset(byName["IMG_1.jpg"]!.id!)
        #expect(one.rating == 4 && one.colorLabel == .red, "the sidecar wins over the embedded packet")
        #expect(one.keywords == ["Birds", "Trips/Iceland"], "Lightroom's levels in dc:subject are not keywords of their own")
        #expect(one.title == "Falls" && one.caption == "Gullfoss in June")
        #expect(byName["IMG_1.jpg"]!.warnings.isEmpty)
        let two = try library.asset(byName["IMG_2.jpg"]!.id!)
        #expect(two.rating == 2 && two.keywords == ["Embedded"] && two.title == "Old title" && two.colorLabel == nil)
        let three = byName["IMG_3.jpg"]!
        let asset3 = try library.asset(three.id!)
        #expect(asset3.rating == 0 && asset3.keywords.isEmpty, "nothing from a broken sidecar")
        #expect(three.warnings.count == 1 && three.warnings[0].contains("IMG_3.jpg.xmp not used"), "\(three.warnings)")
        #expect(!three.warnings.joined().contains("SECRET"))

        // The CLI prints the warning on one stderr line, and the photo is imported.
        let cli = CLILibrary()
        let r = try cli.run(["import", folder + "/IMG_3.jpg"])
        #expect(r.status == 0 && r.stdoutLines.count == 1, "\(r)")
        #expect(r.stderrLines.filter { $0.contains("IMG_3.jpg.xmp not used") }.count == 1, "\(r)")
    }

    /// IPTC-IIM (keywords, title, caption) from exiftool, under the XMP.
    @Test func iptcUnderXMP() throws {
        let temp = TemporaryDirectory("photoedit-iptc")
        let (iptcOnly, both) = (temp.file("IMG_8.jpg"), temp.file("IMG_9.jpg"))
        for path in [iptcOnly, both] {
            try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: path)
            try Tool.exiftool(["-overwrite_original", "-IPTC:CodedCharacterSet=UTF8", "-IPTC:Keywords=Birds", "-IPTC:Keywords=Café",
                               "-IPTC:ObjectName=Old title", "-IPTC:Caption-Abstract=From IPTC", path])
        }
        try Tool.exiftool(["-overwrite_original", "-XMP-dc:Title=New title", "-XMP-xmp:Rating=3", both])
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let results = try library.importItems([iptcOnly, both])
        let a = try library.asset(results[0].id!), b = try library.asset(results[1].id!)
        #expect(a.keywords == ["Birds", "Café"] && a.title == "Old title" && a.caption == "From IPTC" && a.rating == 0)
        #expect(b.title == "New title" && b.rating == 3 && b.caption == "From IPTC" && b.keywords == ["Birds", "Café"], "XMP over IPTC, member by member")
        #expect(results.allSatisfy { $0.warnings.isEmpty })
    }

    @Test func iptcRecords() throws {
        // Raw IIM (a TIFF's): Latin-1 without the UTF-8 mark.
        let latin1: [UInt8] = [0x1C, 2, 25, 0, 4, 0x43, 0x61, 0x66, 0xE9, 0x1C, 2, 120, 0, 2, 0x48, 0x69]
        let record = try IPTCRecord(data: Data(latin1))
        #expect(record.keywords == ["Café"] && record.caption == "Hi")
        // In a Photoshop APP13 segment, after another resource block.
        var app13 = Array("Photoshop 3.0\0".utf8)
        app13 += Array("8BIM".utf8) + [0x03, 0xED, 0, 0] + [0, 0, 0, 3] + [1, 2, 3, 0]
        app13 += Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + [0, 0, 0, UInt8(latin1.count)] + latin1
        #expect(try IPTCRecord(data: Data(app13)).keywords == ["Café"])
        // Damaged: a record past the end, an extended length, a block past the end, bad keywords.
        for bad: [UInt8] in [[0x1C, 2, 25, 0, 9, 0x41], [0x1C, 2, 25, 0x80, 4, 0, 0, 0, 4], [0x1D, 2, 25],
                              Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF],
                              [0x1C, 2, 25, 0, 1, 0x07]] {
            #expect(throws: XMPProblem.self, "\(bad)") { _ = try IPTCRecord(data: Data(bad)) }
        }
    }

    @Test func sidecarCandidates() {
        let names = Importer.sidecarCandidates(of: SystemPath("/card/IMG_1.CR2")).map(\.display)
        #expect(names == ["/card/IMG_1.CR2.xmp", "/card/IMG_1.CR2.XMP", "/card/IMG_1.xmp", "/card/IMG_1.XMP"])
        #expect(Importer.sidecarCandidates(of: SystemPath(".hidden")).map(\.display) == ["./.hidden.xmp", "./.hidden.XMP"])
    }

    // MARK: Changes, feed, queries

    @Test func changesAreAllOrNothingAndInTheFeed() throws {
        let s = try SampleLibrary("photoedit-meta", samples: ["coffee.jpg", "chelsea.jpg"])
        let lib = s.library
        let (a, b) = (s.ids[0], s.ids[1])
        let before = try lib.latestChangeSequence()
        try lib.setRating(5, of: [a, b])
        try lib.setColorLabel(.green, of: [a])
        try lib.addKeywords(["Trips/Iceland", "birds", "Birds"], to: [a])
        try lib.setTitle("  Coffee  ", of: [a])
        try lib.setCaption("Morning\nin Reykjavik", of: [a])
        var asset = try lib.asset(a)
        #expect(asset.rating == 5 && asset.colorLabel == .green && asset.title == "Coffee" && asset.caption == "Morning\nin Reykjavik")
        #expect(asset.keywords == ["birds", "Trips/Iceland"], "one spelling per keyword (ASCII case ignored), the first kept")
        let changes = try lib.changes(since: before)
        #expect(changes.map { $0.entries.map(\.aspects) } == [[.rating, .rating], [.label], [.keywords], [.caption], [.caption]])
        #expect(changes[0].changeDetails(forAsset: a)?.objectBeforeChanges?.rating == 0)
        #expect(changes[0].changeDetails(forAsset: a)?.objectAfterChanges?.rating == 5)

        // All or nothing: a bad value for the second photo changes neither.
        let snapshot = try APISnapshot.take(lib)
        expectPhotoEditError("rating 6", { try lib.performChanges { c in
            try c.changeRequest(for: a).setRating(1)
            try c.changeRequest(for: b).setRating(6)
        } }, matches: { if case .invalidChange = $0 { return true } else { return false } })
        expectPhotoEditError("bad keyword", { try lib.performChanges { c in
            try c.changeRequest(for: a).setColorLabel(nil)
            try c.changeRequest(for: b).addKeywords(["a//b"])
        } }, matches: { if case .invalidChange = $0 { return true } else { return false } })
        expectPhotoEditError("control character", { try lib.setTitle("bell\u{7}", of: [a]) },
                             matches: { if case .invalidChange = $0 { return true } else { return false } })
        #expect(try APISnapshot.take(lib) == snapshot, "nothing changed")

        try lib.removeKeywords(["BIRDS", "Trips"], from: [a])
        asset = try lib.asset(a)
        #expect(asset.keywords == ["Trips/Iceland"], "removing Trips leaves Trips/Iceland")
        try lib.setRating(Rating.rejected, of: [b])
        try lib.setTitle("", of: [a])
        #expect(try lib.asset(b).isRejected && lib.asset(a).title == nil)
        #expect(try lib.keywordCounts().map(\.keyword) == ["Trips/Iceland"])
    }

    /// A change feed snapshot written before these members existed still reads.
    @Test func oldSnapshotsDecode() throws {
        let s = try SampleLibrary("photoedit-meta-json", samples: ["coffee.jpg"])
        let json = try JSONEncoder().encode(try s.library.asset(s.ids[0]))
        guard var object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else { throw CLIError("not an object") }
        for key in ["rating", "colorLabel", "keywords", "title", "caption"] { object[key] = nil }
        let old = try JSONDecoder().decode(Asset.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(old.rating == 0 && old.keywords.isEmpty && old.colorLabel == nil && old.id == s.ids[0])
    }

    @Test func queries() throws {
        let s = try SampleLibrary("photoedit-meta-query", samples: ["coffee.jpg", "chelsea.jpg", "astronaut.jpg", "chart.png"])
        let lib = s.library
        let (a, b, c, d) = (s.ids[0], s.ids[1], s.ids[2], s.ids[3])
        try lib.performChanges { ch in
            let ra = try ch.changeRequest(for: a), rb = try ch.changeRequest(for: b), rc = try ch.changeRequest(for: c)
            try ra.setRating(5); try ra.setColorLabel(.red); try ra.addKeywords(["Trips/Iceland/Reykjavik"]); try ra.setTitle("Gullfoss falls")
            try rb.setRating(4); try rb.addKeywords(["Trips/Iceland"]); try rb.setCaption("Birds at dawn")
            try rc.setRating(Rating.rejected); try rc.setColorLabel(.blue); try rc.addKeywords(["Trips/Icelandic", "Music/AC\\/DC"])
        }
        func ids(_ query: String) throws -> Set<String> {
            Set(try lib.fetchAssets(FetchOptions(predicate: try AssetPredicate(parsing: query))).allObjects().map(\.id))
        }
        #expect(try ids("rating>=4") == [a, b])
        #expect(try ids("rating=-1") == [c])
        #expect(try ids("rating=0") == [d])
        #expect(try ids("label=red") == [a])
        #expect(try ids("label=RED or label=blue") == [a, c])
        #expect(try ids("label=none") == [b, d])
        #expect(try ids("label!=red") == [b, c, d], "photos without a label are not red either")
        #expect(try ids("label") == [a, c])
        #expect(try ids("keyword=\"Trips/Iceland\"") == [a, b], "the keyword and those below it, not Trips/Icelandic")
        #expect(try ids("keyword=\"trips/iceland/reykjavik\"") == [a])
        #expect(try ids("keyword=Trips") == [a, b, c])
        #expect(try ids("keyword=\"Music/AC\\\\/DC\"") == [c])
        #expect(try ids("keyword!=Trips") == [d])
        #expect(try ids("keyword~land") == [a, b, c])
        #expect(try ids("keyword") == [a, b, c])
        #expect(try ids("not keyword") == [d])
        #expect(try ids("title~fall") == [a])
        #expect(try ids("caption~\"birds\"") == [b])
        #expect(try ids("rating>=4 and keyword=\"Trips/Iceland/Reykjavik\"") == [a])
        for bad in ["label=pink", "keyword<x", "keyword=\"a//b\"", "rating=high", "rating~3"] {
            #expect(throws: PhotoEditError.self, "\(bad)") { _ = try ids(bad) }
        }
        #expect(throws: PhotoEditError.self) { _ = try AssetSortDescriptor.parseList("keyword") }
        #expect(try lib.fetchAssets(FetchOptions(predicate: nil, sortDescriptors: try AssetSortDescriptor.parseList("-rating,name")))
            .allObjects().map(\.id).prefix(2) == [a, b])
    }

    // MARK: CLI

    @Test func commands() throws {
        let cli = CLILibrary()
        let id = try cli.importSample("coffee.jpg")
        let other = try cli.importSample("chelsea.jpg")
        #expect(try cli.succeed(["rate", "4", id, other]).stdoutLines == ["\(id)\trated 4", "\(other)\trated 4"])
        try cli.succeed(["rate", "reject", other])
        try cli.succeed(["label", "Purple", id])
        try cli.succeed(["tag", "Birds, Trips/Iceland, Red\\, White", id])
        try cli.succeed(["untag", "birds", id])
        try cli.succeed(["title", "Falls", id])
        try cli.succeed(["caption", "Gullfoss", id])
        let shown = try cli.show(id)
        #expect(shown["rating"] == .number(4) && shown["colorLabel"] == .string("purple") && shown["title"] == .string("Falls"))
        #expect(shown["keywords"] == .array([.string("Red, White"), .string("Trips/Iceland")]))
        #expect(shown["caption"] == .string("Gullfoss"))
        #expect(try cli.show(other)["rating"] == .number(-1))
        #expect(try cli.succeed(["list", "--where", "rating>=4 and keyword=Trips"]).stdoutLines.map { String($0.prefix(32)) } == [id])
        #expect(try cli.succeed(["keywords"]).stdoutLines == ["1\tRed, White", "1\tTrips/Iceland"])
        #expect(try cli.succeed(["changes"]).stdoutLines.suffix(5).map { String($0.split(separator: "\t").last!) }
                    == ["label", "keywords", "keywords", "caption", "caption"])
        try cli.succeed(["label", "none", id])
        #expect(try cli.show(id)["colorLabel"] == JSONValue.null)

        // Bad input: one line on stderr, exit 1, nothing changed.
        let before = try cli.snapshot(filesFirst: false)
        for arguments in [["rate", "7", id], ["rate", "many", id], ["label", "pink", id], ["tag", " , ", id], ["tag", "a//b", id],
                          ["title", "bell\u{7}", id], ["rate", "3", id, "ffffffffffffffff"]] {
            let r = try cli.run(arguments)
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stdout.isEmpty, "\(arguments): \(r)")
        }
        #expect(try cli.snapshot(filesFirst: true) == before)
    }
}
