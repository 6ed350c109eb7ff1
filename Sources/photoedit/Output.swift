import Foundation
import PhotoEdit

/// Text and JSON output of the CLI.
enum Output {
    /// A line of text output. Control characters other than the tab and
    /// newline this tool writes itself are escaped (see `field`).
    static func line(_ text: String) {
        print(escaped(text, keeping: ["\t", "\n"]))
    }

    /// A value from the library (a file name, a title, a path) for a text
    /// line: every control character, tabs and newlines included, escaped, so
    /// a name can neither break the line format nor drive the terminal.
    static func field(_ text: String) -> String {
        escaped(text, keeping: [])
    }

    /// A message on stderr, prefixed with the tool's name; always one line.
    static func error(_ text: String) {
        writeStderr("photoedit: error: \(field(text))\n")
    }

    /// A note on stderr; always one line.
    static func note(_ text: String) {
        writeStderr("photoedit: \(field(text))\n")
    }

    /// The real stderr, kept while the libraries' stderr is silenced.
    private static let stderrDescriptor: Int32 = dup(2)

    /// Writes text to the real stderr (the tool's own messages and progress).
    static func writeStderr(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(stderrDescriptor, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Runs `body` with file descriptor 2 pointing at /dev/null, so what the
    /// C libraries print on their own (libjxl's JXL_FAILURE trace, GLib
    /// criticals, libraw and libheif notes) never reaches the user: every
    /// refusal stays one line, written by `error` to the real stderr. With
    /// `PHOTOEDIT_DEBUG` set, nothing is silenced.
    static func silencingLibraries<T>(_ body: () throws -> T) rethrows -> T {
        let silenced = silence()
        defer { if silenced { unsilence() } }
        return try body()
    }

    /// `silencingLibraries` for an async body (the async commands).
    static func silencingLibraries<T>(_ body: () async throws -> T) async rethrows -> T {
        let silenced = silence()
        defer { if silenced { unsilence() } }
        return try await body()
    }

    /// Points file descriptor 2 at /dev/null; false when it did not (`PHOTOEDIT_DEBUG`, no /dev/null).
    private static func silence() -> Bool {
        guard ProcessInfo.processInfo.environment["PHOTOEDIT_DEBUG"] == nil, stderrDescriptor >= 0 else { return false }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { return false }
        fflush(nil)
        dup2(null, 2)
        close(null)
        return true
    }

    private static func unsilence() {
        fflush(nil)
        dup2(stderrDescriptor, 2)
    }

    /// `text` with control characters (C0, DEL, C1) and bidirectional
    /// overrides written as escapes (`\n`, `\t`, `\r`, `\u{1B}`), except those in `keeping`.
    static func escaped(_ text: String, keeping: Set<Unicode.Scalar>) -> String {
        func needsEscape(_ u: Unicode.Scalar) -> Bool {
            if keeping.contains(u) { return false }
            switch u.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            guard needsEscape(u) else { out.append(u); continue }
            let escape: String
            switch u {
            case "\n": escape = "\\n"
            case "\t": escape = "\\t"
            case "\r": escape = "\\r"
            default: escape = "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    /// Writes buffered output now (stdout is fully buffered into a pipe).
    static func flush() {
        fflush(nil)
    }

    /// Whether the real stderr (the saved descriptor, not the silenced 2)
    /// is a terminal.
    static var stderrIsTerminal: Bool { isatty(stderrDescriptor) != 0 }

    /// Prints JSON (sorted keys, one line).
    static func json(_ value: JSONValue) {
        print(value.canonicalText)
    }

    static func date(_ d: Date) -> String {
        d.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    static func json(_ data: AdjustmentData?) -> JSONValue {
        data?.document ?? .null
    }

    static func json(_ a: Asset, chain: String?) -> JSONValue {
        .object([
            "id": .string(a.id),
            "originalFilename": .string(a.originalFilename),
            "sha256": .string(a.sha256),
            "fileSize": .number(Double(a.fileSize)),
            "format": .string(a.format),
            "uniformTypeIdentifier": .string(a.uniformTypeIdentifier),
            "mediaType": .string(a.mediaType),
            "pixelWidth": .number(Double(a.pixelWidth)),
            "pixelHeight": .number(Double(a.pixelHeight)),
            "originalPixelWidth": .number(Double(a.originalPixelWidth)),
            "originalPixelHeight": .number(Double(a.originalPixelHeight)),
            "orientation": .number(Double(a.orientation)),
            "creationDate": a.creationDate.map { .string($0) } ?? .null,
            "location": a.location.map { .object(["latitude": .number($0.latitude), "longitude": .number($0.longitude)]) } ?? .null,
            "importDate": .string(date(a.importDate)),
            "revision": .number(Double(a.revision)),
            "adjustmentData": json(a.adjustmentData),
            "chain": chain.map { .string($0) } ?? .null,
            "favorite": .bool(a.isFavorite),
            "hidden": .bool(a.isHidden),
            "deleted": .bool(a.deletedDate != nil),
            "deletedDate": a.deletedDate.map { .string(date($0)) } ?? .null,
            "albums": .array(a.albums.map { .string($0) }),
            "rating": .number(Double(a.rating)),
            "colorLabel": a.colorLabel.map { .string($0.rawValue) } ?? .null,
            "masterIdentifier": a.masterIdentifier.map { .string($0) } ?? .null,
            "copyName": a.copyName.map { .string($0) } ?? .null,
            "keywords": .array(a.keywords.map { .string($0) }),
            "title": a.title.map { .string($0) } ?? .null,
            "caption": a.caption.map { .string($0) } ?? .null,
            "camera": a.camera.map { c in
                .object([
                    "make": .string(c.make), "model": .string(c.model), "lens": c.lens.map { .string($0) } ?? .null,
                    "iso": c.iso.map { .number($0) } ?? .null, "exposureTime": c.exposureTime.map { .number($0) } ?? .null,
                    "fNumber": c.fNumber.map { .number($0) } ?? .null, "focalLength": c.focalLength.map { .number($0) } ?? .null,
                ])
            } ?? .null,
            "alternate": a.alternate.map { f in
                .object([
                    "filename": .string(f.filename), "format": .string(f.format), "uniformTypeIdentifier": .string(f.uniformTypeIdentifier),
                    "fileSize": .number(Double(f.fileSize)), "sha256": .string(f.sha256),
                ])
            } ?? .null,
        ])
    }

    static func json(_ album: Album) -> JSONValue {
        .object([
            "id": .string(album.id), "title": .string(album.title), "createdAt": .string(date(album.createdAt)),
            "assets": .array(album.assetIdentifiers.map { .string($0) }), "count": .number(Double(album.assetIdentifiers.count)),
        ])
    }

    /// The chain of adjustment data, if it is photoedit's own readable format.
    static func chain(_ data: AdjustmentData?, registry: FilterRegistry) -> String? {
        guard let data else { return nil }
        guard let recipe = try? Recipe(adjustmentData: data, registry: registry) else { return nil }
        return Chain.format(recipe, registry: registry)
    }
}
