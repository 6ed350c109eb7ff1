import CLCMS2
import CPhotoEditShim
import CVips
import Foundation

/// ICC profile helpers on lcms2.
package enum ICCProfile {
    /// libvips' built-in sRGB profile, embedded in every render.
    package static func sRGB() throws -> Data {
        try cache.get()
    }

    private static let cache: Result<Data, Error> = Result { try Vips.builtinProfile("srgb") }

    /// A profile libvips' `icc_export` can read: a built-in name or a file.
    static func path(for profile: OutputProfile) throws -> String {
        switch profile {
        case .sRGB: return "srgb"
        case .displayP3: return "p3"
        case .adobeRGB: return try adobeRGBFile.get()
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path), description(data) != nil else {
                throw PhotoEditError.invalidOutput("\(path) is not an ICC profile lcms2 can read")
            }
            return path
        }
    }

    /// Adobe RGB (1998), made with lcms2 (primaries and white of the
    /// specification, gamma 563/256), in a temporary file for libvips
    /// that every process shares.
    private static let adobeRGBFile: Result<String, Error> = Result {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1),
                                        Green: cmsCIExyY(x: 0.21, y: 0.71, Y: 1),
                                        Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        guard let curve = cmsBuildGamma(nil, 563.0 / 256.0) else { throw PhotoEditError.native(library: "lcms2", operation: "cmsBuildGamma", message: "failed") }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else {
            throw PhotoEditError.native(library: "lcms2", operation: "cmsCreateRGBProfile", message: "failed")
        }
        defer { cmsCloseProfile(profile) }
        let mlu = cmsMLUalloc(nil, 1)
        defer { cmsMLUfree(mlu) }
        cmsMLUsetASCII(mlu, "en", "US", "Adobe RGB (1998) compatible (photoedit)")
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
        var length: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0 else { throw PhotoEditError.native(library: "lcms2", operation: "cmsSaveProfileToMem", message: "failed") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        guard cmsSaveProfileToMem(profile, &bytes, &length) != 0, bytes.count >= 128 else {
            throw PhotoEditError.native(library: "lcms2", operation: "cmsSaveProfileToMem", message: "failed")
        }
        // lcms2 writes the time of making into the header (its date and
        // time field, bytes 24..<36): left at zero, every process makes the
        // same bytes.
        bytes.replaceSubrange(24..<36, with: repeatElement(0, count: 12))
        // Named by its content, so every process shares one file (and
        // none leaves its own behind); placed whole by a rename.
        let path = NSTemporaryDirectory() + "/photoedit-adobe-rgb-\(SHA256Digest.hex(of: bytes).prefix(16)).icc"
        if (try? Data(contentsOf: URL(fileURLWithPath: path))) != Data(bytes) {
            let partial = path + ".\(getpid())"
            try Data(bytes).write(to: URL(fileURLWithPath: partial))
            guard rename(partial, path) == 0 else {
                unlink(partial)
                throw PhotoEditError.library("cannot place the Adobe RGB profile in the temporary folder")
            }
        }
        return path
    }

    /// The working space as an ICC profile: sRGB primaries, D65, linear
    /// (gamma 1), made with lcms2.
    private static let linearSRGB: Result<Data, Error> = Result {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1),
                                        Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
                                        Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        guard let curve = cmsBuildGamma(nil, 1.0) else { throw PhotoEditError.native(library: "lcms2", operation: "cmsBuildGamma", message: "failed") }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else {
            throw PhotoEditError.native(library: "lcms2", operation: "cmsCreateRGBProfile", message: "failed")
        }
        defer { cmsCloseProfile(profile) }
        var length: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0 else { throw PhotoEditError.native(library: "lcms2", operation: "cmsSaveProfileToMem", message: "failed") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        guard cmsSaveProfileToMem(profile, &bytes, &length) != 0 else { throw PhotoEditError.native(library: "lcms2", operation: "cmsSaveProfileToMem", message: "failed") }
        return Data(bytes)
    }

    /// The bytes of an output profile.
    static func data(for profile: OutputProfile) throws -> Data {
        switch profile {
        case .sRGB: return try sRGB()
        case .displayP3: return try Vips.builtinProfile("p3")
        case .adobeRGB, .file:
            let path = try self.path(for: profile)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw PhotoEditError.invalidOutput("cannot read ICC profile \(path)")
            }
            return data
        }
    }

    /// Converts a linear-light float RGB image (the working space) to an
    /// output profile, 8 or 16 bits, the profile embedded. sRGB, Display P3
    /// and Adobe RGB are matrix-shaper spaces: a 3×3 matrix from the working
    /// primaries, then the space's transfer curve, on the float data, so
    /// colours outside sRGB reach a wider space intact (clipped only to the
    /// output's own gamut). Other profiles go through lcms2, which clips
    /// negative (out-of-sRGB) values of its float input.
    static func exportLinear(_ working: Image, to profile: OutputProfile, intent: RenderingIntent, depth: Int) throws -> Image {
        switch profile {
        case .sRGB: return try exportMatrixShaper(working, matrix: ColourMath.identity, curve: .sRGB, profile: try sRGB(), depth: depth)
        case .displayP3:
            return try exportMatrixShaper(working, matrix: ColourMath.linearSRGB(to: ColourMath.displayP3Primaries), curve: .sRGB,
                                          profile: try Vips.builtinProfile("p3"), depth: depth)
        case .adobeRGB:
            return try exportMatrixShaper(working, matrix: ColourMath.linearSRGB(to: ColourMath.adobeRGBPrimaries), curve: .gamma(563.0 / 256.0),
                                          profile: try data(for: .adobeRGB), depth: depth)
        case .file:
            return try exportThroughLcms(working, to: profile, intent: intent, depth: depth)
        }
    }

    enum TransferCurve { case sRGB, gamma(Double) }

    private static func exportMatrixShaper(_ working: Image, matrix: [Double], curve: TransferCurve, profile: Data, depth: Int) throws -> Image {
        var linear = working
        if matrix != ColourMath.identity {
            linear = try working.call("recomb", [("m", .image(try Image.matrix(matrix)))]).call("copy", [("interpretation", .string("scrgb"))])
        }
        var encoded: Image
        switch curve {
        case .sRGB:
            // libvips' scRGB → sRGB is exactly the sRGB curve (clipping to 0…1).
            encoded = try linear.colourspace(depth == 16 ? "rgb16" : "srgb")
        case .gamma(let g):
            let zero = try linear.linear(multiply: [0, 0, 0], add: [0, 0, 0])
            let one = try linear.linear(multiply: [0, 0, 0], add: [1, 1, 1])
            let clamped = try linear.select(lessThan: 0, then: zero, otherwise: linear)
            let limited = try clamped.select(lessThan: 1, then: clamped, otherwise: one)
            let scale = depth == 16 ? 65535.0 : 255.0
            encoded = try limited.signedPower(1 / g).linear(multiply: [scale, scale, scale], add: [0.5, 0.5, 0.5])
                .cast(depth == 16 ? "ushort" : "uchar").call("copy", [("interpretation", .string(depth == 16 ? "rgb16" : "srgb"))])
        }
        let out = try encoded.copyForMetadata()
        out.setBlob("icc-profile-data", profile)
        return out
    }

    private static func exportThroughLcms(_ working: Image, to profile: OutputProfile, intent: RenderingIntent, depth: Int) throws -> Image {
        let source = try linearSRGB.get(), target = try data(for: profile)
        let input = try working.cast("float")
        var length = 0
        guard let raw = vips_image_write_to_memory(input.pointer, &length) else { throw Vips.error("write_to_memory") }
        defer { g_free(raw) }
        let pixels = length / 12
        let typeFloat: cmsUInt32Number = (1 << 22) | (4 << 16) | (3 << 3) | 4   // TYPE_RGB_FLT
        let typeOut: cmsUInt32Number = (4 << 16) | (3 << 3) | (depth == 16 ? 2 : 1)   // TYPE_RGB_16 / TYPE_RGB_8
        let lcmsIntent = intent.lcms
        var output = [UInt8](repeating: 0, count: pixels * 3 * (depth == 16 ? 2 : 1))
        let ok = source.withUnsafeBytes { s in
            target.withUnsafeBytes { t -> Bool in
                guard let a = cmsOpenProfileFromMem(s.baseAddress, cmsUInt32Number(s.count)),
                      let b = cmsOpenProfileFromMem(t.baseAddress, cmsUInt32Number(t.count)) else { return false }
                defer { cmsCloseProfile(a); cmsCloseProfile(b) }
                guard let x = cmsCreateTransform(a, typeFloat, b, typeOut, lcmsIntent, 0) else { return false }
                defer { cmsDeleteTransform(x) }
                output.withUnsafeMutableBytes { cmsDoTransform(x, raw, $0.baseAddress, cmsUInt32Number(pixels)) }
                return true
            }
        }
        guard ok else { throw PhotoEditError.native(library: "lcms2", operation: "cmsCreateTransform", message: "cannot convert to the output profile") }
        let format = depth == 16 ? VIPS_FORMAT_USHORT : VIPS_FORMAT_UCHAR
        guard let made = output.withUnsafeBytes({ vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(input.width), Int32(input.height), 3, format) }) else {
            throw Vips.error("new_from_memory_copy")
        }
        let image = try Image(owning: made).call("copy", [("interpretation", .string(depth == 16 ? "rgb16" : "srgb"))]).copyForMetadata()
        image.setBlob("icc-profile-data", target)
        // Keep the source's other metadata (EXIF).
        if let exif = working.blob("exif-data") { image.setBlob("exif-data", exif) }
        return image
    }

    /// Transforms 8-bit RGB pixels from one profile to another with lcms2
    /// itself (a reference for tests and checks).
    static func transform(rgb8 pixels: [UInt8], from source: Data, to target: Data, intent: RenderingIntent) -> [UInt8]? {
        let typeRGB8: cmsUInt32Number = (4 << 16) | (3 << 3) | 1   // COLORSPACE_SH(PT_RGB)|CHANNELS_SH(3)|BYTES_SH(1)
        let lcmsIntent = intent.lcms
        return source.withUnsafeBytes { s in
            target.withUnsafeBytes { t -> [UInt8]? in
                guard let a = cmsOpenProfileFromMem(s.baseAddress, cmsUInt32Number(s.count)),
                      let b = cmsOpenProfileFromMem(t.baseAddress, cmsUInt32Number(t.count)) else { return nil }
                defer { cmsCloseProfile(a); cmsCloseProfile(b) }
                guard let x = cmsCreateTransform(a, typeRGB8, b, typeRGB8, lcmsIntent, 0) else { return nil }
                defer { cmsDeleteTransform(x) }
                var out = [UInt8](repeating: 0, count: pixels.count)
                cmsDoTransform(x, pixels, &out, cmsUInt32Number(pixels.count / 3))
                return out
            }
        }
    }

    /// The profile's description tag, read by lcms2.
    static func description(_ data: Data) -> String? {
        data.withUnsafeBytes { raw -> String? in
            guard let profile = cmsOpenProfileFromMem(raw.baseAddress, cmsUInt32Number(raw.count)) else { return nil }
            defer { cmsCloseProfile(profile) }
            var buffer = [CChar](repeating: 0, count: 256)
            let n = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
            guard n > 0 else { return nil }
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Is this an sRGB profile (so the fast built-in sRGB path gives the same
    /// pixels as going through the profile)?
    static func isSRGB(_ data: Data) -> Bool {
        guard let text = description(data)?.lowercased() else { return false }
        return text.hasPrefix("srgb")
    }
}

extension RenderingIntent {
    /// lcms2's number for the intent (INTENT_PERCEPTUAL … INTENT_ABSOLUTE_COLORIMETRIC).
    var lcms: cmsUInt32Number {
        switch self {
        case .perceptual: 0
        case .relative: 1
        case .saturation: 2
        case .absolute: 3
        }
    }
}
