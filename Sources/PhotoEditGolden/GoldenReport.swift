import Foundation
import PhotoEdit

/// Reports of a golden run: an HTML page for people (expected, actual and
/// diff side by side for every failure) and JUnit XML for CI systems.
public enum GoldenReport {
    /// Counts of a run.
    public struct Summary: Sendable, Equatable {
        public var passed = 0, failed = 0, recorded = 0, missing = 0, errors = 0
        public var total: Int { passed + failed + recorded + missing + errors }
        /// No failure, missing expected image or error.
        public var ok: Bool { failed + missing + errors == 0 }

        public init(_ results: [GoldenResult]) {
            for result in results {
                switch result.outcome {
                case .passed: passed += 1
                case .failed: failed += 1
                case .recorded: recorded += 1
                case .missingExpected: missing += 1
                case .error: errors += 1
                }
            }
        }

        /// "150 passed, 2 failed" (only the non-zero counts).
        public var line: String {
            let parts = [(passed, "passed"), (failed, "failed"), (missing, "missing expected.png"), (errors, "could not run"), (recorded, "recorded")]
                .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
            return parts.isEmpty ? "no cases" : parts.joined(separator: ", ")
        }
    }

    /// Writes the HTML report to `path`. Failures show expected.png,
    /// actual.png and diff.png from their failure folder (linked by a path
    /// relative to the report, so report and folder can be archived
    /// together), then the figures; passing cases are a table.
    public static func writeHTML(_ results: [GoldenResult], suite: GoldenSuite, to path: String) throws {
        let reportFolder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
        let summary = Summary(results)
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>photoedit golden images: \(escape(summary.line))</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
        h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 2em; }
        .fail { color: #b00; } .pass { color: #080; } .other { color: #a60; }
        .images { display: flex; gap: 12px; flex-wrap: wrap; }
        figure { margin: 0; } figcaption { font-size: 12px; color: #555; text-align: center; }
        figure img { max-width: 420px; max-height: 420px; border: 1px solid #ccc; image-rendering: pixelated;
                     background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        table { border-collapse: collapse; } td, th { padding: 2px 10px; text-align: left; border-bottom: 1px solid #eee; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        </style></head><body>
        <h1>Golden images: \(escape(summary.line))</h1>
        <p>Suite <code>\(escape(suite.root.path))</code>, default tolerance ΔE00 \(escape(suite.tolerance.description)).
        The diff shows the expected image in grey, yellow where ΔE00 is from 0.5 up to the case's max, red at or above it.</p>

        """
        for result in results where !result.ok {
            let cls = result.outcome == .failed ? "fail" : "other"
            html += "<h2 class=\"\(cls)\">\(escape(result.line))</h2>\n"
            if let note = result.golden.spec?.note { html += "<p>\(escape(note))</p>\n" }
            if let spec = result.golden.spec {
                let edit = spec.chain.map { "chain <code>\(escape($0))</code>" } ?? "a recipe"
                html += "<p>Source <code>\(escape(spec.source))</code>, \(edit), version \(spec.version.rawValue), size \(spec.size).</p>\n"
            }
            if let folder = result.failureFolder {
                html += "<div class=\"images\">\n"
                for (file, caption) in [("expected.png", "expected"), ("actual.png", "actual"), ("diff.png", "diff")] {
                    let image = folder.appendingPathComponent(file)
                    guard FileManager.default.fileExists(atPath: image.path) else { continue }
                    let link = escape(relativePath(image.standardizedFileURL, from: reportFolder))
                    html += "<figure><a href=\"\(link)\"><img src=\"\(link)\" alt=\"\(caption)\"></a><figcaption>\(caption)</figcaption></figure>\n"
                }
                html += "</div>\n"
            }
        }
        let passed = results.filter(\.ok)
        if !passed.isEmpty {
            html += "<h2 class=\"pass\">Passed (\(passed.count))</h2>\n<table><tr><th>case</th><th>max ΔE00</th><th>mean ΔE00</th><th>seconds</th></tr>\n"
            for result in passed {
                let max = result.difference.map { String(format: "%.3f", $0.maxDeltaE) } ?? (result.outcome == .recorded ? "recorded" : "")
                let mean = result.difference.map { String(format: "%.3f", $0.meanDeltaE) } ?? ""
                html += "<tr><td>\(escape(result.golden.id))</td><td class=\"n\">\(max)</td><td class=\"n\">\(mean)</td><td class=\"n\">\(String(format: "%.2f", result.seconds))</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "</body></html>\n"
        try write(html, to: path)
    }

    /// Writes JUnit XML (one `<testsuite>` named after the suite folder, a
    /// `<testcase classname="group" name="case">` per case, `<failure>` for
    /// failures and missing expected images, `<error>` for cases that
    /// could not run, `<skipped>` never).
    public static func writeJUnit(_ results: [GoldenResult], suite: GoldenSuite, to path: String) throws {
        let summary = Summary(results)
        let total = results.reduce(0) { $0 + $1.seconds }
        var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="photoedit golden images" tests="\(summary.total)" failures="\(summary.failed + summary.missing)" errors="\(summary.errors)" time="\(String(format: "%.3f", total))">
        <testsuite name="\(escape(suite.root.lastPathComponent))" tests="\(summary.total)" failures="\(summary.failed + summary.missing)" errors="\(summary.errors)" time="\(String(format: "%.3f", total))">

        """
        for result in results {
            let open = "<testcase classname=\"\(escape(result.golden.group))\" name=\"\(escape(result.golden.name))\" time=\"\(String(format: "%.3f", result.seconds))\""
            switch result.outcome {
            case .passed, .recorded:
                xml += "\(open)/>\n"
            case .failed, .missingExpected:
                var detail = result.difference?.figures ?? ""
                if let folder = result.failureFolder { detail += "\nexpected.png, actual.png and diff.png are in \(folder.path)" }
                xml += "\(open)><failure message=\"\(escape(result.line))\">\(escape(detail))</failure></testcase>\n"
            case .error(let message):
                xml += "\(open)><error message=\"\(escape(message))\"/></testcase>\n"
            }
        }
        xml += "</testsuite>\n</testsuites>\n"
        try write(xml, to: path)
    }

    static func write(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard folder.isEmpty || FileIO.isDirectory(folder) else {
            throw PhotoEditError.invalidOutput("cannot write \(path): folder \(folder) does not exist")
        }
        try writeStaged(to: path) { staged in
            guard FileManager.default.createFile(atPath: staged, contents: Data(text.utf8)) else {
                throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// `url` relative to `base` (both absolute, standardized).
    static func relativePath(_ url: URL, from base: URL) -> String {
        let target = url.pathComponents, from = base.pathComponents
        var common = 0
        while common < min(target.count, from.count) && target[common] == from[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }

    /// Text for HTML and XML: &, <, >, " escaped; control characters other
    /// than newline and tab dropped (the engine's XML escaping, as its XMP sidecars').
    static func escape(_ text: String) -> String { XMPSidecar.escaped(text) }
}
