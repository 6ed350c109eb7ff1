import CLCMS2
import Foundation

/// ICC profile helpers on lcms2.
enum ICCProfile {
    /// libvips' built-in sRGB profile, embedded in every render.
    static func sRGB() throws -> Data {
        try cache.get()
    }

    private static let cache: Result<Data, Error> = Result { try Vips.builtinProfile("srgb") }

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
