import CPhotoEditShim
import CVips
import Foundation

/// libvips start-up and error handling. Nothing here is public: the engine's
/// public API never exposes a C type.
package enum Vips {
    /// Starts libvips once per process. Safe to call from any thread.
    static func ensureStarted() throws {
        let ok = _started
        if !ok { throw PhotoEditError.native(library: "libvips", operation: "init", message: takeError()) }
    }

    private static let _started: Bool = {
        let argv0 = CommandLine.arguments.first ?? "photoedit"
        let ok = pe_vips_init(argv0) == 0
        if ok {
            // Keep libvips' own operation cache small: the engine renders many
            // different photos and holds no use for old results.
            vips_cache_set_max(50)
        }
        return ok
    }()

    /// Fixes glibc's mmap threshold at 128 KiB for the whole process. glibc
    /// serves a large block from mmap only until one is freed, then raises
    /// its threshold to that size and serves later ones from per-thread
    /// heaps that fragment: a batch export of 12 photos to AVIF grew to
    /// 548 MB RSS, 267 MB with the threshold fixed (same time). A process
    /// setting, so the tool calls it at start; a library never changes its
    /// host's allocator on its own.
    package static func fixAllocatorThreshold() {
        _ = pe_set_mmap_threshold(128 * 1024)
    }

    /// Whether libvips' optional format modules (HEIF/AVIF, JPEG XL, PDF,
    /// ImageMagick's formats, OpenSlide) are loaded. They are not at
    /// start-up (linking them cost every process 60–120 ms, more than
    /// reading a JPEG): the first operation, file or buffer that no built-in
    /// part of libvips handles loads them, then is tried again
    /// (`pe_vips_init`, `pe_vips_load_modules`).
    static var modulesLoaded: Bool { pe_vips_modules_loaded() != 0 }

    /// Loads the optional format modules now (`vips --list`-like listings of
    /// every format, and tests).
    static func loadModules() throws {
        try ensureStarted()
        pe_vips_load_modules()
    }

    /// The version of libvips in use, e.g. "8.14.1".
    static var version: String {
        String(cString: vips_version_string())
    }

    /// Reads and clears libvips' error buffer, with file paths shortened
    /// (see `withoutPaths`).
    static func takeError() -> String {
        guard let raw = pe_error_take() else { return "" }
        defer { g_free(raw) }
        return withoutPaths(String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// libvips' messages name files by absolute path, and its error buffer
    /// is one for the whole process: under load, one thread's error can
    /// carry another's lines (seen: an upload's refusal naming another
    /// library's staging file). Every absolute path is cut to its last
    /// component, and a staging file's name (`<pid>-<uuid>…` in `tmp/`) to
    /// "a staged file", so no message shows where a library lives or what
    /// it is staging.
    static func withoutPaths(_ message: String) -> String {
        guard message.contains("/") else { return message }
        var out = ""
        var rest = Substring(message)
        while let slash = rest.firstIndex(of: "/") {
            let before = rest[..<slash]
            // A path starts at a slash that follows a space, a quote, an
            // opening bracket, or the start of a line.
            let startsPath = before.last.map { " \"'(\n\t=".contains($0) } ?? true
            guard startsPath else {
                out += rest[...slash]
                rest = rest[rest.index(after: slash)...]
                continue
            }
            out += before
            let end = rest[slash...].firstIndex { " \"'\n\t;,)".contains($0) || $0 == ":" } ?? rest.endIndex
            var last = String(rest[slash..<end].split(separator: "/").last ?? "")
            if last.range(of: #"^[0-9]+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, options: .regularExpression) != nil {
                last = "a staged file"
            }
            out += last
            rest = rest[end...]
        }
        return out + rest
    }

    static func error(_ operation: String) -> PhotoEditError {
        .native(library: "libvips", operation: operation, message: takeError())
    }

    /// An argument of a libvips operation.
    package enum Argument {
        case image(Image)
        case images([Image])
        case number(Double)
        case bool(Bool)
        case string(String)
        case doubles([Double])
        case blob(Data)
    }

    /// Runs one libvips operation through the generic path
    /// (`vips_operation_new` + properties + `vips_cache_operation_build`) and
    /// returns the operation so the caller can read its outputs.
    /// `cached: false` builds it outside libvips' operation cache (a file
    /// read again after it was rewritten under the same name).
    static func run(_ name: String, _ arguments: [(String, Argument)], cached: Bool = true,
                    read: (UnsafeMutablePointer<VipsOperation>) throws -> Void) throws {
        try ensureStarted()
        let modulesBefore = modulesLoaded
        var op: UnsafeMutablePointer<VipsOperation>? = pe_operation_new(name)
        if op == nil, !modulesBefore {
            // An operation of an optional format (heifsave, jxlload…).
            _ = takeError()
            pe_vips_load_modules()
            op = pe_operation_new(name)
        }
        guard op != nil else { throw error(name) }
        if !modulesBefore, !name.hasSuffix("save"),
           case .string(let path)? = arguments.first(where: { $0.0 == "filename" })?.1 {
            // An operation that picks the loader itself (thumbnail): the
            // file may need an optional format's.
            _ = loader(for: path)
        }
        defer { pe_operation_finish(op) }
        for (key, value) in arguments {
            let status: Int32
            switch value {
            case .image(let image): status = pe_set_image(op, key, image.pointer)
            case .images(let images):
                var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map { $0.pointer }
                status = pointers.withUnsafeMutableBufferPointer { pe_set_images(op, key, $0.baseAddress, Int32($0.count)) }
            case .number(let n): status = pe_set_number(op, key, n)
            case .bool(let b): status = pe_set_number(op, key, b ? 1 : 0)
            case .string(let s): status = pe_set_string(op, key, s)
            case .doubles(let d): status = d.withUnsafeBufferPointer { pe_set_doubles(op, key, $0.baseAddress, Int32($0.count)) }
            case .blob(let b): status = b.withUnsafeBytes { pe_set_blob(op, key, $0.baseAddress, $0.count) }
            }
            if status != 0 { throw error(name) }
        }
        if cached {
            if pe_operation_build(&op) != 0 { throw error(name) }
        } else if let built = op, vips_object_build(UnsafeMutableRawPointer(built).assumingMemoryBound(to: VipsObject.self)) != 0 {
            throw error(name)
        }
        guard let built = op else { throw error(name) }
        try read(built)
    }

    /// Runs an operation whose main output is the image `out`.
    package static func image(_ name: String, _ arguments: [(String, Argument)], output: String = "out", cached: Bool = true) throws -> Image {
        var result: Image?
        try run(name, arguments, cached: cached) { op in
            guard let p = pe_get_image(op, output) else { throw error(name) }
            result = Image(owning: p)
        }
        return result!
    }

    /// Runs an operation whose output is a number (e.g. `avg`, `max`).
    static func number(_ name: String, _ arguments: [(String, Argument)], output: String = "out") throws -> Double {
        var value = 0.0
        try run(name, arguments) { op in value = pe_get_number(op, output) }
        return value
    }

    /// The loader libvips picks for a file by sniffing its content, e.g. "jpegload".
    static func loader(for path: String) -> String? {
        guard (try? ensureStarted()) != nil else { return nil }
        let modulesBefore = modulesLoaded
        var found = vips_foreign_find_load(path)
        if found == nil, !modulesBefore {
            // Perhaps a format of an optional module (HEIF, JPEG XL, PDF…).
            _ = takeError()
            pe_vips_load_modules()
            found = vips_foreign_find_load(path)
        }
        guard let name = found else {
            _ = takeError()
            return nil
        }
        // find_load names the class ("VipsForeignLoadJpegFile"); operations
        // are called by nickname ("jpegload").
        guard let nickname = vips_nickname_find(g_type_from_name(name)) else { return nil }
        return String(cString: nickname)
    }

    /// Does `operation` take an argument called `argument`?
    static func operation(_ operation: String, has argument: String) -> Bool {
        pe_operation_has_argument(operation, argument) != 0
    }

    /// A built-in ICC profile of libvips ("srgb", "p3", "cmyk").
    static func builtinProfile(_ name: String) throws -> Data {
        try ensureStarted()
        var data: UnsafeMutableRawPointer?
        var length = 0
        guard pe_profile_builtin(name, &data, &length) == 0, let data else { throw error("profile_load") }
        defer { g_free(data) }
        return Data(bytes: data, count: length)
    }
}
