import Foundation
import Synchronization

/// Progress of a batch (import, apply, copy-recipe, upgrade, verify):
/// called with (completed, total) after each item, from any thread, one call
/// at a time and with `completed` rising by one each call.
public typealias ProgressHandler = @Sendable (_ completed: Int, _ total: Int) -> Void

/// Results of work done on several threads, kept in the order of the work
/// items, with the batch's progress reported as each item finishes.
final class ConcurrentResults<Element: Sendable>: Sendable {
    private struct State {
        var slots: [[Element]?]
        var completed = 0
    }
    private let state: Mutex<State>
    private let total: Int
    private let progress: ProgressHandler?

    init(count: Int, total: Int, progress: ProgressHandler?) {
        state = Mutex(State(slots: Array(repeating: nil, count: count)))
        self.total = total
        self.progress = progress
    }

    func set(_ i: Int, _ elements: [Element]) { state.withLock { $0.slots[i] = elements } }

    /// One item done: reports (completed, total) under the lock, so calls
    /// never overlap and arrive in order.
    func step() {
        state.withLock {
            $0.completed += 1
            progress?($0.completed, total)
        }
    }

    /// Every result, in work-item order.
    var all: [Element] { state.withLock { $0.slots.flatMap { $0 ?? [] } } }
}

/// Runs `body(0..<count)` on up to `jobs` threads at once (at least one)
/// and returns when every call has.
func concurrentlyPerform(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let workers = max(1, min(jobs, count))
    if workers == 1 {
        for i in 0..<count { body(i) }
        return
    }
    let next = ConcurrentCounter()
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while let i = next.take(below: count) { body(i) }
    }
}

/// Hands out 0, 1, 2… to several threads.
final class ConcurrentCounter: Sendable {
    private let value = Mutex(0)
    func take(below limit: Int) -> Int? {
        value.withLock { value in
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}
