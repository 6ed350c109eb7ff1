import CLCMS2
import Foundation

/// ICC profile helpers on lcms2.
enum ICCProfile {
    /// libvips' built-in sRGB profile, embedded in every render.
    static func sRGB() throws -> Data {
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
    /// specification, gamma 563/256), written once per process to a
    /// temporary file for libvips.
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
        guard cmsSaveProfileToMem(profile, &bytes, &length) != 0 else { throw PhotoEditError.native(library: "lcms2", operation: "cmsSaveProfileToMem", message: "failed") }
        let path = NSTemporaryDirectory() + "/photoedit-adobe-rgb-\(getpid()).icc"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Transforms 8-bit RGB pixels from one profile to another with lcms2
    /// itself (a reference for tests and checks).
    static func transform(rgb8 pixels: [UInt8], from source: Data, to target: Data, intent: RenderingIntent) -> [UInt8]? {
        let typeRGB8: cmsUInt32Number = (4 << 16) | (3 << 3) | 1   // COLORSPACE_SH(PT_RGB)|CHANNELS_SH(3)|BYTES_SH(1)
        let lcmsIntent: cmsUInt32Number = [.perceptual: 0, .relative: 1, .saturation: 2, .absolute: 3][intent]!
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
