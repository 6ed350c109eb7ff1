import Foundation
import PhotoEdit
import Synchronization

/// A progress bar on stderr for long batches, drawn only when stderr is a
/// terminal and the output is not JSON: `label  12/40 [#####.......]  3.1/s
/// ETA 0:09`, redrawn at most ten times a second, cleared when done. When it
/// is off, it prints nothing at all.
final class ProgressBar: Sendable {
    private let label: String
    private let enabled: Bool
    private let start = Date()
    private struct State {
        var lastDraw = Date.distantPast
        var drawn = false
    }
    private let state = Mutex(State())

    init(_ label: String, json: Bool = false) {
        self.label = label
        enabled = Output.stderrIsTerminal && !json
    }

    /// The library's progress callback, drawing this bar.
    var handler: ProgressHandler { { [self] done, total in self.update(done, of: total) } }

    func update(_ done: Int, of total: Int) {
        guard enabled, total > 1 else { return }
        state.withLock { state in
            let now = Date()
            guard done == total || now.timeIntervalSince(state.lastDraw) >= 0.1 else { return }
            state.lastDraw = now
            state.drawn = true
            Output.writeStderr("\r\u{1B}[K" + Self.line(label, done: done, total: total, elapsed: now.timeIntervalSince(start)))
        }
    }

    /// Clears the bar (before the command's own output and errors).
    func finish() {
        state.withLock { state in
            if state.drawn { Output.writeStderr("\r\u{1B}[K") }
            state.drawn = false
        }
    }

    /// The text of the bar: count, bar, rate and time left.
    static func line(_ label: String, done: Int, total: Int, elapsed: TimeInterval, width: Int = 24) -> String {
        let filled = total > 0 ? min(width, done * width / total) : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var text = "\(label) \(done)/\(total) [\(bar)]"
        if rate > 0 {
            text += String(format: " %.1f/s", rate)
            let left = Int((Double(total - done) / rate).rounded())
            text += done < total ? String(format: " ETA %d:%02d", left / 60, left % 60) : ""
        }
        return text
    }
}
