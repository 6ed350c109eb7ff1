import Foundation
import Testing
@testable import PhotoEdit

/// Catalog queries: the predicate (typed and text), its SQL, sorting, limits,
/// hidden and recently deleted photos, albums, lazy fetch results, `list --where`.
@Suite("Catalog queries")
struct QueryTests {
    /// Four photos:
    /// - A astronaut.jpg 512×512: favorite, edited, created 2023-05-01, in Trip (2nd)
    /// - B chelsea.jpg 451×300: hidden, created 2024-01-01T08:00
    /// - C coffee.jpg 600×400: favorite, created 2024-06-15, Canon ISO 400, GPS, in Trip (1st)
    /// - D chart.png: recently deleted
    struct Fixture {
        let samples: SampleLibrary
        var library: PhotoLibrary { samples.library }
        let ids: [String: String]   // A B C D → id

        init() throws {
            samples = try SampleLibrary("photoedit-query", samples: ["astronaut.jpg", "chelsea.jpg", "coffee.jpg", "chart.png"])
            let ids = Dictionary(uniqueKeysWithValues: zip(["A", "B", "C", "D"], samples.ids))
            self.ids = ids
            try library.apply(chain: "exposure=+0.2", to: ids["A"]!)
            try library.performChanges { c in
                let a = try c.changeRequest(for: ids["A"]!), b = try c.changeRequest(for: ids["B"]!)
                let cc = try c.changeRequest(for: ids["C"]!)
                a.isFavorite = true
                try a.setCreationDate(iso: "2023-05-01T10:00:00+02:00")
                b.isHidden = true
                try b.setCreationDate(iso: "2024-01-01T08:00:00")
                cc.isFavorite = true
                try cc.setCreationDate(iso: "2024-06-15T12:00:00Z")
                try cc.setLocation(Location(latitude: 48.85, longitude: 2.29))
                try c.changeRequest(for: ids["D"]!).delete()
                _ = c.createAlbum(title: "Trip")
                try c.albumChangeRequest(for: "Trip").addAssets([ids["C"]!, ids["A"]!])
            }
            // Camera metadata is read from RAW files only: set it as the importer would.
            try library.write { db in
                try db.execute("UPDATE asset SET camera = ? WHERE id = ?",
                               #"{"make":"Canon","model":"EOS R5","iso":400,"fNumber":2.8}"#, ids["C"]!)
            }
        }

        /// Names (A…D) of the photos a fetch returns, in order.
        func names(_ options: FetchOptions) throws -> [String] {
            try names(library.fetchAssets(options))
        }

        func names(_ result: FetchResult<Asset>) throws -> [String] {
            let byID = Dictionary(uniqueKeysWithValues: ids.map { ($0.value, $0.key) })
            return result.identifiers.map { byID[$0] ?? "?" }
        }

        /// The names (sorted) of every photo, hidden and deleted included, matching `text`.
        func names(where text: String) throws -> [String] {
            try names(FetchOptions(predicate: AssetPredicate(parsing: text), includeHiddenAssets: true, includeRecentlyDeleted: true)).sorted()
        }
    }

    @Test func textPredicatesSelectTheRightPhotos() throws {
        let f = try Fixture()
        let cases: [(String, [String])] = [
            ("favorite", ["A", "C"]),
            ("not favorite", ["B", "D"]),
            ("favorite=false", ["B", "D"]),
            ("width>=500", ["A", "C", "D"]),
            ("width>=512 and height<=400", ["C", "D"]),
            ("megapixels>0.25", ["A"]),
            ("created>=2024-01-01", ["B", "C"]),
            ("created<2024-01-01", ["A"]),
            ("created<=2024-01-01", ["A", "B"]),   // the whole day
            ("created=2024", ["B", "C"]),
            ("created=2024-06", ["C"]),
            ("created>2024-01-01T07:59", ["B", "C"]),
            ("created", ["A", "B", "C"]),
            ("not created", ["D"]),
            ("imported>=2000-01-01", ["A", "B", "C", "D"]),
            (#"camera.make="canon""#, ["C"]),   // text equality ignores case
            ("camera.model~r5 and iso>=400 and aperture<4", ["C"]),
            (#"album="Trip""#, ["A", "C"]),
            ("album!=trip", ["B", "D"]),
            ("album~ri", ["A", "C"]),
            ("album", ["A", "C"]),
            (#"name~"OFF""#, ["C"]),
            ("name>=c and name<d", ["B", "C", "D"]),
            ("edited", ["A"]),
            ("revision>0", ["A"]),
            ("format=png or format==webp", ["D"]),
            ("type=public.png", ["D"]),
            ("location and latitude>48 and longitude<3", ["C"]),
            ("hidden", ["B"]),
            ("deleted", ["D"]),
            ("raw", []),
            ("(favorite or hidden) and width<600", ["A", "B"]),
            ("favorite or hidden and width<500", ["A", "B", "C"]),   // and binds tighter
            ("NOT (favorite OR deleted)", ["B"]),
            (#"name="x' OR 1=1 --""#, []),   // a value is only ever a value
        ]
        for (text, expected) in cases {
            #expect(try f.names(where: text) == expected, "\(text)")
        }
    }

    @Test func typedPredicatesAreTheTextSyntaxAndBindEveryValue() throws {
        let typed: AssetPredicate = .has(.favorite) && AssetField.width >= 3000 && AssetField.created >= "2024-01-01"
            && AssetField.cameraMake == "Canon" && .inAlbum("Trip")
        let parsed = try AssetPredicate(parsing: #"favorite and width>=3000 and created>=2024-01-01 and camera.make="Canon" and album="Trip""#)
        #expect(try typed.sql().sql == parsed.sql().sql)
        #expect(try typed.sql().arguments == parsed.sql().arguments)
        let sql = try parsed.sql()
        #expect(!sql.sql.contains("Canon") && !sql.sql.contains("Trip") && !sql.sql.contains("3000"))
        #expect(sql.arguments.contains(SQLValue.text("Canon")))
        #expect(sql.arguments.contains(SQLValue.text("Trip")))
        #expect(sql.arguments.contains(SQLValue.real(3000)))

        let f = try Fixture()
        let viaTyped = try f.names(FetchOptions(predicate: .has(.favorite) && !(AssetField.width < 550), includeHiddenAssets: true))
        #expect(viaTyped == ["C"])
        let date = try f.names(FetchOptions(predicate: AssetField.imported < .date(Date().addingTimeInterval(3600))))
        #expect(date == ["A", "C"])   // hidden B and deleted D are left out by default
    }

    @Test func sortDescriptorsAndLimit() throws {
        let f = try Fixture()
        let all = FetchOptions(includeHiddenAssets: true, includeRecentlyDeleted: true)
        var o = all
        o.sortDescriptors = try AssetSortDescriptor.parseList("-width,name")
        let widths = try f.library.fetchAssets(o).allObjects().map(\.pixelWidth)
        #expect(widths == widths.sorted(by: >))
        #expect(try f.names(o) == ["C", "A", "D", "B"])   // A and D are both 512 wide: astronaut before chart
        o.sortDescriptors = [AssetSortDescriptor(.favorite, ascending: false), AssetSortDescriptor(.created, ascending: false)]
        #expect(try f.names(o) == ["C", "A", "B", "D"])
        o.fetchLimit = 2
        #expect(try f.names(o) == ["C", "A"])
        #expect(try f.names(all) == ["A", "B", "C", "D"], "default order: import order")
        for bad in ["album", "", "-", "name,,width", "nme"] {
            expectPhotoEditError("sort '\(bad)'", { _ = try AssetSortDescriptor.parseList(bad) }) {
                if case .invalidQuery = $0 { return true } else { return false }
            }
        }
    }

    /// Every field's SQL names only declared tables and columns
    /// (CatalogSchema) and the camera JSON's keys (CameraInfo), in both
    /// dialects: its expression, and the conditions and sort keys built
    /// from it, in the library and in an album.
    @Test func everyFieldNamesOnlyDeclaredColumns() throws {
        var checked = 0
        for field in AssetField.allCases {
            for dialect in [SQLDialect.sqlite, .postgres] {
                var statements = [field.spec.expression(dialect)]
                let predicates: [AssetPredicate] = [.has(field), .compare(field, .equal, "2024-01"), .compare(field, .contains, "x"),
                                                    .compare(field, .greater, 3), .compare(field, .equal, true), .compare(field, .equal, "red")]
                // A comparison the field does not have throws: the others are SQL.
                statements += predicates.compactMap { p in (try? FetchOptions(predicate: p).sql(album: nil, dialect)).map(\.sql) }
                if field.isSortable {
                    let sorted = FetchOptions(sortDescriptors: [AssetSortDescriptor(field), AssetSortDescriptor(field, ascending: false)])
                    statements += try [nil, "A"].map { try sorted.sql(album: $0, dialect).sql }
                }
                #expect(statements.count >= 3, "\(field.rawValue): its condition and its expression")
                for sql in statements where !sql.isEmpty {
                    let undeclared = Self.undeclaredNames(sql)
                    #expect(undeclared.isEmpty, "\(field.rawValue) (\(dialect)): \(undeclared) in \(sql)")
                    checked += 1
                }
            }
        }
        #expect(checked > 200)
        // The check finds a name that is not declared.
        #expect(Self.undeclaredNames("(asset.pixelWidht * asset.pixelHeight / 1e6)") == ["asset.pixelWidht"])
        #expect(Self.undeclaredNames("SELECT asset.id FROM asset WHERE NOT hiden") == ["hiden"])
        #expect(Self.undeclaredNames("json_extract(asset.camera, '$.maker')") == ["camera key maker"])
        #expect(Self.undeclaredNames("lower((asset.camera ->> 'make')) = lower(?)").isEmpty)
    }

    /// The names in `sql` that are no declared table, no column of a table
    /// it names, no camera key and no SQL word.
    static func undeclaredNames(_ sql: String) -> [String] {
        let keys = Set(CameraInfo.CodingKeys.allCases.map(\.rawValue))
        var out: [String] = []
        // Camera keys ('$.make' in SQLite, ->> 'make' in PostgreSQL), then every quoted text left out.
        for match in sql.matches(of: /'\$\.([A-Za-z]+)'|->> '([A-Za-z]+)'/) {
            let key = String(match.output.1 ?? match.output.2 ?? "")
            if !keys.contains(key) { out.append("camera key " + key) }
        }
        let text = sql.replacing(/'[^']*'|"[^"]*"/, with: "''")
        let words: Set<String> = ["select", "from", "where", "join", "on", "in", "is", "not", "null", "and", "or", "like", "ilike",
                                  "escape", "collate", "nocase", "order", "by", "asc", "desc", "nulls", "first", "last", "limit",
                                  "double", "precision", "true", "false", "json_extract", "lower", "coalesce"]
        // Names (a number such as 1e6 is none: \b comes before no letter in it).
        let names = text.matches(of: /\b([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?/)
        let tablesNamed = names.compactMap { CatalogSchema.table(String($0.output.1)) }
        for match in names {
            let first = String(match.output.1)
            if let column = match.output.2 {
                if CatalogSchema.table(first)?.column(String(column)) == nil { out.append("\(first).\(column)") }
            } else if !words.contains(first.lowercased()) && CatalogSchema.table(first) == nil
                        && !tablesNamed.contains(where: { $0.column(first) != nil }) {
                out.append(first)
            }
        }
        return out
    }

    @Test func hiddenAndRecentlyDeletedAreLeftOutUnlessIncluded() throws {
        let f = try Fixture()
        #expect(try f.names(FetchOptions()) == ["A", "C"])
        #expect(try f.names(FetchOptions(includeHiddenAssets: true)) == ["A", "B", "C"])
        #expect(try f.names(FetchOptions(includeRecentlyDeleted: true)) == ["A", "C", "D"])
        #expect(try f.names(FetchOptions(predicate: .has(.deleted), includeRecentlyDeleted: true)) == ["D"])
        #expect(try f.library.assets(onlyDeleted: true).map(\.id) == [f.ids["D"]!])
    }

    @Test func albumContentsFetchInAlbumOrder() throws {
        let f = try Fixture()
        #expect(try f.names(f.library.fetchAssets(in: "Trip")) == ["C", "A"])
        #expect(try f.names(f.library.fetchAssets(in: "Trip", options: FetchOptions(sortDescriptors: [AssetSortDescriptor(.name)]))) == ["A", "C"])
        #expect(try f.names(f.library.fetchAssets(in: "Trip", options: FetchOptions(predicate: AssetField.width > 550))) == ["C"])
        try f.library.performChanges { c in try c.changeRequest(for: f.ids["C"]!).isHidden = true }
        #expect(try f.names(f.library.fetchAssets(in: "Trip")) == ["A"])
        let albums = try f.library.fetchAlbums()
        #expect(albums.count == 1)
        #expect(try albums.object(at: 0).title == "Trip")
        #expect(try f.library.fetchAlbums(titleContains: "RIP").count == 1)
        #expect(try f.library.fetchAlbums(titleContains: "x").isEmpty)
        expectPhotoEditError("unknown album", { _ = try f.library.fetchAssets(in: "Nowhere") }) {
            if case .unknownAlbum = $0 { return true } else { return false }
        }
    }

    @Test func fetchResultsLoadObjectsInPages() throws {
        let f = try Fixture()
        // 250 more rows, cloned in SQL from C (the catalog, not the files, is under test).
        try f.library.write { db in
            for n in 0..<250 {
                try db.execute("""
                    INSERT INTO asset (id, originalFilename, sha256, originalPath, fileSize, format, uniformTypeIdentifier, mediaType,
                        originalPixelWidth, originalPixelHeight, orientation, importDate, revision)
                    SELECT printf('%032x', ?), printf('clone-%03d.jpg', ?), printf('%064x', ?), originalPath, fileSize, format,
                        uniformTypeIdentifier, mediaType, originalPixelWidth, originalPixelHeight, orientation, importDate, 0
                    FROM asset WHERE id = ?
                    """, n + 1, n, n + 1, f.ids["C"]!)
                try db.execute("""
                    INSERT INTO revision (assetId, number, createdAt, kind, pixelWidth, pixelHeight)
                    VALUES (printf('%032x', ?), 0, ?, 'import', 1000 + ?, 700)
                    """, n + 1, Date(), n)
            }
        }
        let result = try f.library.fetchAssets(FetchOptions(predicate: .compare(.name, .contains, "clone-"), sortDescriptors: [AssetSortDescriptor(.width, ascending: false)]))
        #expect(result.count == 250)
        #expect(try result.object(at: 0).pixelWidth == 1249, "the trigger keeps the current size on the asset row")
        #expect(try result.object(at: 249).originalFilename == "clone-000.jpg")
        let middle = try result.objects(in: 95..<205)
        #expect(middle.map(\.pixelWidth) == Array((1045...1154).reversed()))
        #expect(result.index(of: middle[10].id) == 105)
        #expect(result.contains(middle[0].id) && !result.contains(f.ids["A"]!))
        #expect(try result.allObjects().count == 250)
        expectPhotoEditError("out of range", { _ = try result.object(at: 250) }) {
            if case .invalidQuery = $0 { return true } else { return false }
        }
        let limited = try f.library.fetchAssets(FetchOptions(sortDescriptors: [AssetSortDescriptor(.width)], fetchLimit: 5))
        #expect(limited.count == 5)
    }

    @Test func badExpressionsAreOneLineErrors() throws {
        let bad = ["", "widht>3", "width>=abc", "favorite and (", "(favorite", "favorite)", "width", "favorite=maybe",
                   "favorite>true", "width~3", "created>=2024-13-01", "created=2024-02-30", "created>=yesterday", "name=",
                   "name=\"open", "a ! b", "and", "favorite or", "album<x", "created~2024", "width>=1e999"]
        for text in bad {
            expectPhotoEditError("'\(text)'", { _ = try AssetPredicate(parsing: text) }) {
                if case .invalidQuery = $0 { return true } else { return false }
            }
        }
    }

    @Test func dateValuesStandForTheirWholePrecision() throws {
        let cases: [(String, String, String)] = [
            ("2024", "2024", "2025"), ("2024-02", "2024-02", "2024-03"), ("2024-12-31", "2024-12-31", "2025-01-01"),
            ("2024-02-28T23:59", "2024-02-28T23:59", "2024-02-29T00:00"), ("2023-12-31T23:59:59", "2023-12-31T23:59:59", "2024-01-01T00:00:00"),
        ]
        for (text, start, end) in cases {
            let b = try #require(DateBounds(text, separator: "T"), "\(text)")
            #expect(b.start == start && b.end == end, "\(text): \(b.start) \(b.end)")
        }
        #expect(DateBounds("2024-06-15 10:30", separator: " ")?.end == "2024-06-15 10:31")
        for bad in ["2024-13", "2023-02-29", "2024-1-01", "24", "2024-06-15T10", "2024-06-15X10:00", "2024-06-15T25:00"] {
            #expect(DateBounds(bad, separator: "T") == nil, "\(bad)")
        }
    }

    @Test func listWhereSortLimitAndErrors() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("astronaut.jpg"), Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["favorite", ids[0], ids[1]])
        for args in [["create", "Trip"], ["add", "Trip", ids[1], ids[0]]] {
            let r = try CLI.run(["album", args[0], "--library", lib.path] + args.dropFirst())
            #expect(r.status == 0, "\(r)")
        }
        let r = try lib.succeed(["list", "--where", #"favorite and width>=500 and album="Trip""#, "--sort", "-width,name", "--limit", "1", "--json"])
        let items = try #require(try r.json().array)
        #expect(items.compactMap { $0.object?["id"]?.string } == [ids[1]])   // coffee is 600 wide, astronaut 512
        let text = try lib.succeed(["list", "--where", "not favorite"])
        #expect(text.stdoutLines.map { String($0.split(separator: "\t")[0]) } == [ids[2]])
        let inAlbum = try lib.succeed(["list", "--album", "Trip"])
        #expect(inAlbum.stdoutLines.map { String($0.split(separator: "\t")[0]) } == [ids[1], ids[0]])
        try lib.succeed(["delete", ids[2]])
        #expect(try lib.succeed(["list", "--deleted", "--where", "width<500"]).stdoutLines.count == 1)

        let before = try lib.snapshot(filesFirst: false)
        for (args, message) in [(["--where", "widht>3"], "unknown key 'widht' — did you mean 'width'? (keys: "), (["--where", "width>=big"], "wants a number"),
                                (["--sort", "-album"], "cannot sort by 'album'"), (["--where", "(favorite"], "missing ')'"),
                                (["--limit", "0"], "at least 1")] {
            let bad = try lib.run(["list"] + args)
            #expect(bad.status == 1, "\(bad)")
            #expect(bad.stderrLines.count == 1 && bad.stderr.contains(message), "\(bad)")
        }
        #expect(try lib.snapshot(filesFirst: true) == before)
    }
}
