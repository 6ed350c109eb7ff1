import Foundation

/// Progress of a batch (import, apply, copy-recipe, upgrade, verify):
/// called with (completed, total) after each item, from any thread, one call
/// at a time and with `completed` rising by one each call.
public typealias ProgressHandler = @Sendable (_ completed: Int, _ total: Int) -> Void

/// Results of work done on several threads, kept in the order of the work
/// items, with the batch's progress reported as each item finishes.
final class ConcurrentResults<Element: Sendable>: @unchecked Sendable {
    private var slots: [[Element]?]
    private var completed = 0
    private let total: Int
    private let progress: ProgressHandler?
    private let lock = NSLock()

    init(count: Int, total: Int, progress: ProgressHandler?) {
        slots = Array(repeating: nil, count: count)
        self.total = total
        self.progress = progress
    }

    func set(_ i: Int, _ elements: [Element]) { lock.withLock { slots[i] = elements } }

    /// One item done: reports (completed, total) under the lock, so calls
    /// never overlap and arrive in order.
    func step() {
        lock.withLock {
            completed += 1
            progress?(completed, total)
        }
    }

    /// Every result, in work-item order.
    var all: [Element] { lock.withLock { slots.flatMap { $0 ?? [] } } }
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
final class ConcurrentCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}
