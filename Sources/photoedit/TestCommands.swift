import ArgumentParser
import Foundation
import PhotoEdit
import PhotoEditGolden

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two images by CIEDE2000 (ΔE00), as a golden-image test does.",
        discussion: """
        Both images are colour-managed (embedded ICC profile, else sRGB), EXIF-rotated and, when they have \
        alpha, compared over black and over white. Prints the largest and the mean ΔE00 and where the \
        largest is. Exit 0 when both are within the limits, 1 when not (or the sizes differ), 2 when a \
        file cannot be read. --diff writes a picture of where they differ: the reference in grey, yellow \
        from ΔE00 0.5 up to --max, red at or above it.

        Example:
          photoedit compare out.png golden/expected.png --diff diff.png
        """)
    @Argument(help: "The image to check.") var image: String
    @Argument(help: "The reference (expected) image.") var reference: String
    @Option(help: ArgumentHelp("Largest ΔE00 any pixel may have.", valueName: "DE")) var max: Double = GoldenTolerance.standard.maxDeltaE
    @Option(help: ArgumentHelp("Largest mean ΔE00.", valueName: "DE")) var mean: Double = GoldenTolerance.standard.meanDeltaE
    @Option(help: ArgumentHelp("Write the difference picture here (.png, .jpg, .tif, .webp).", valueName: "FILE")) var diff: String?
    @Flag(help: "Print the result as JSON.") var json = false

    func run() throws {
        let result: ImageDifference
        do {
            let tolerance = GoldenTolerance(maxDeltaE: max, meanDeltaE: mean)
            result = try ImageComparison.compare(image, reference, tolerance: tolerance, diffImage: diff)
        } catch let error as PhotoEditError {
            Output.error(error.description)
            throw ExitCode(2)
        }
        if json {
            Output.json(result.json)
        } else if let problem = result.problem {
            Output.line("FAIL \(problem)")
        } else {
            Output.line("PASS ΔE2000 \(result.figures)")
        }
        if !result.passes { throw ExitCode(1) }
    }
}

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run golden-image cases: render each and compare it with its expected.png by ΔE00.",
        discussion: """
        DIR holds cases as photoedit's own filters/ folder does: DIR/<group>/NNNN-<case>/ with case.json \
        (source, chain or recipe, optional version and tolerance, size) and expected.png. Each case's \
        source is imported into a throw-away library, edited, rendered as PNG and compared. The source is \
        looked for in the case folder, in DIR, then in each --samples folder.

        Failures leave expected.png, actual.png and diff.png in --failures (default .golden-failures) \
        under <group>/<case>/. --record writes expected.png for cases that have none, --record-all also \
        over those that differ (look at them before committing). Exit 0 when every case passed, 1 when one failed, had no \
        expected.png or could not run, 2 when DIR cannot be read.

        Example:
          photoedit test goldens --samples photos --report report.html --junit junit.xml --jobs 2
        """)
    @Argument(help: "The folder of cases.") var dir: String
    @Flag(help: "Write expected.png for cases that have none, instead of failing.") var record = false
    @Flag(help: "Also write expected.png over the ones that differ (after an intended change; look at them first).") var recordAll = false
    @Option(help: ArgumentHelp("Write an HTML report here (failures as pictures).", valueName: "FILE")) var report: String?
    @Option(help: ArgumentHelp("Write JUnit XML here.", valueName: "FILE")) var junit: String?
    @Option(help: ArgumentHelp("Cases run at once (default: the number of cores).", valueName: "N")) var jobs: Int?
    @Option(help: ArgumentHelp("Another folder to look for sources in (repeatable).", valueName: "DIR")) var samples: [String] = []
    @Option(help: ArgumentHelp("Where failures leave their images.", valueName: "DIR")) var failures: String = ".golden-failures"
    @Option(help: ArgumentHelp("Only cases whose group/case contains this text.", valueName: "TEXT")) var filter: String?
    @Option(help: ArgumentHelp("Largest ΔE00 of any pixel, for cases without their own.", valueName: "DE")) var max: Double = GoldenTolerance.standard.maxDeltaE
    @Option(help: ArgumentHelp("Largest mean ΔE00, for cases without their own.", valueName: "DE")) var mean: Double = GoldenTolerance.standard.meanDeltaE

    func validate() throws {
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs must be from 1 to 64") }
    }

    func run() throws {
        let suite = GoldenSuite(root: URL(fileURLWithPath: dir), sourceFolders: samples.map { URL(fileURLWithPath: $0) },
                                tolerance: GoldenTolerance(maxDeltaE: max, meanDeltaE: mean), record: recordAll ? .all : record ? .missing : .never,
                                failures: URL(fileURLWithPath: failures))
        var cases: [GoldenCase]
        do {
            _ = try suite.tolerance.validated()
            cases = try suite.cases()
        } catch let error as PhotoEditError {
            Output.error(error.description)
            throw ExitCode(2)
        }
        if let filter { cases = cases.filter { $0.id.contains(filter) } }
        guard !cases.isEmpty else {
            Output.error("no golden cases in \(dir)\(filter.map { " matching '\($0)'" } ?? "") (cases are DIR/<group>/<case>/case.json)")
            throw ExitCode(2)
        }
        let terminal = Output.stderrIsTerminal
        let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let results = suite.run(cases, jobs: jobs) { done, total, result in
            if terminal {
                if !result.ok { Output.writeStderr("\r\u{1B}[K"); Output.line(Output.field(result.line)); Output.flush() }
                Output.writeStderr("\r[\(done)/\(total)] \(Output.field(result.golden.id))\u{1B}[K\(done == total ? "\n" : "")")
            } else {
                Output.line(Output.field(result.line))
            }
        }
        let summary = GoldenReport.Summary(results)
        do {
            if let report { try GoldenReport.writeHTML(results, suite: suite, to: report) }
            if let junit { try GoldenReport.writeJUnit(results, suite: suite, to: junit) }
        } catch let error as PhotoEditError {
            Output.error(error.description)
            throw ExitCode(2)
        }
        let seconds = results.reduce(0) { $0 + $1.seconds }
        Output.line("\(summary.ok ? "OK" : "FAILED"): \(summary.line) (\(cases.count) cases, \(String(format: "%.1f", seconds)) s of work on \(jobs) jobs)")
        if summary.failed > 0 { Output.line("failures: expected.png, actual.png and diff.png in \(failures)/<group>/<case>/") }
        if !summary.ok { throw ExitCode(1) }
    }
}
