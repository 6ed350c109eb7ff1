import Foundation

/// A copy of a sample with GPS, serial numbers, an owner, a copyright, a
/// person and a region, written by exiftool: what the export tests (CLI
/// and HTTP) prove the metadata policies on.
package enum ExportTestPhoto {
    package static let copyright = "(c) Jane Doe"

    package static func make(in temp: TemporaryDirectory, sample: String = "coffee.jpg") throws -> String {
        let path = temp.file("tagged-" + sample)
        try FileManager.default.copyItem(atPath: Paths.sample(sample), toPath: path)
        _ = try exiftool(["-overwrite_original", "-GPSLatitude=48.85", "-GPSLatitudeRef=N", "-GPSLongitude=2.35",
                          "-GPSLongitudeRef=E", "-SerialNumber=SN12345", "-LensSerialNumber=LS999", "-OwnerName=Jane",
                          "-Copyright=\(copyright)", "-Artist=Jane Doe", "-Make=Canon", "-Model=EOS R5",
                          "-XMP-iptcExt:PersonInImage=John Smith", "-XMP-mwg-rs:RegionName=John", "-XMP-mwg-rs:RegionType=Face",
                          path])
        return path
    }

    /// exiftool's tags of a file, `Group:Name` → value.
    package static func tags(_ path: String) throws -> [String: String] {
        let data = try exiftool(["-a", "-G0", "-s", "-j", "-q", path])
        guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]], let first = array.first else { return [:] }
        return first.mapValues { "\($0)" }
    }

    /// exiftool's tags of encoded bytes (written to a temporary file).
    package static func tags(of data: Data, ext: String) throws -> [String: String] {
        let folder = TemporaryDirectory("photoedit-exif")
        let path = folder.file("bytes." + ext)
        try data.write(to: URL(fileURLWithPath: path))
        return try tags(path)
    }

    /// The tags of `groups` (`EXIF`, `XMP`, `IPTC`…), sorted.
    package static func groups(_ tags: [String: String], _ prefixes: [String]) -> [String] {
        tags.keys.filter { key in prefixes.contains { key.hasPrefix($0 + ":") } }.sorted()
    }

    /// Runs exiftool (Debian's libimage-exiftool-perl, from scripts/install-deps); its standard output.
    static func exiftool(_ arguments: [String]) throws -> Data {
        let r = try tool("/usr/bin/exiftool", arguments)
        // -j exits 1 when a file has no tags of a group asked: its JSON is still the answer.
        guard r.status == 0 || arguments.contains("-j") else { throw TestFailure("exiftool failed: \(r.stderr.prefix(300))") }
        return Data(r.stdout.utf8)
    }

    /// Runs a tool (exiftool, vipsheader…) to its end: status and output.
    package static func tool(_ path: String, _ arguments: [String]) throws -> CLIResult {
        try PhotoEditBinary.runExecutable(URL(fileURLWithPath: path), arguments, display: [path] + arguments)
    }
}
