import ArgumentParser
import Foundation
import PhotoEdit

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
