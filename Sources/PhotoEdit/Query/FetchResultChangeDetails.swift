import Foundation

/// How a fetch result changed (PhotoKit's `PHFetchResultChangeDetails`),
/// found by comparing the ids of the result before and after. To update a
/// list view: remove `removedIndexes` (positions in the result before),
/// insert `insertedIndexes` (positions after), apply `moves`, then reload
/// `changedIndexes` (positions after) — the order of UIKit's batch updates.
public struct FetchResultChangeDetails<Object: Sendable>: Sendable {
    /// A moved object: its position before and its position after.
    public struct Move: Sendable, Hashable {
        /// Position in `fetchResultBeforeChanges`.
        public let from: Int
        /// Position in `fetchResultAfterChanges`.
        public let to: Int
    }

    /// The result the details were asked for.
    public let fetchResultBeforeChanges: FetchResult<Object>
    /// The same fetch, run again.
    public let fetchResultAfterChanges: FetchResult<Object>
    /// Positions, in the result before, of the objects no longer in it.
    public let removedIndexes: IndexSet
    /// Positions, in the result after, of the objects new to it.
    public let insertedIndexes: IndexSet
    /// Positions, in the result after, of the objects in both that changed.
    public let changedIndexes: IndexSet
    /// Objects in both results whose order changed: the fewest moves that
    /// turn the order before into the order after.
    public let moves: [Move]

    /// Whether there are moves.
    public var hasMoves: Bool { !moves.isEmpty }

    /// False when so much changed that reloading the whole list is simpler
    /// than applying the details: more than 100 removals, insertions and
    /// moves together, and more than half the size of the larger result.
    public var hasIncrementalChanges: Bool {
        let work = removedIndexes.count + insertedIndexes.count + moves.count
        return work <= 100 || work <= max(fetchResultBeforeChanges.count, fetchResultAfterChanges.count) / 2
    }

    /// Calls `body(from, to)` for every move, as PhotoKit's `enumerateMoves`.
    public func enumerateMoves(_ body: (Int, Int) -> Void) {
        for m in moves { body(m.from, m.to) }
    }

    /// The objects no longer in the result (from the result before).
    public func removedObjects() throws -> [Object] { try removedIndexes.map { try fetchResultBeforeChanges.object(at: $0) } }
    /// The objects new to the result.
    public func insertedObjects() throws -> [Object] { try insertedIndexes.map { try fetchResultAfterChanges.object(at: $0) } }
    /// The objects in both results that changed, as they are now.
    public func changedObjects() throws -> [Object] { try changedIndexes.map { try fetchResultAfterChanges.object(at: $0) } }

    var isEmpty: Bool { removedIndexes.isEmpty && insertedIndexes.isEmpty && changedIndexes.isEmpty && moves.isEmpty }

    /// Compares the ids of two results; `updated` are the ids of the objects
    /// that changed in place.
    init(before: FetchResult<Object>, after: FetchResult<Object>, updated: Set<String>) {
        fetchResultBeforeChanges = before
        fetchResultAfterChanges = after
        let old = before.identifiers, new = after.identifiers
        var newPosition: [String: Int] = [:]
        newPosition.reserveCapacity(new.count)
        for (j, id) in new.enumerated() where newPosition[id] == nil { newPosition[id] = j }
        let oldSet = Set(old)

        var removed = IndexSet()
        var common: [(from: Int, to: Int)] = []   // in the order before
        for (i, id) in old.enumerated() {
            if let j = newPosition[id] { common.append((i, j)) } else { removed.insert(i) }
        }
        var inserted = IndexSet(), changed = IndexSet()
        for (j, id) in new.enumerated() {
            if !oldSet.contains(id) { inserted.insert(j) } else if updated.contains(id) { changed.insert(j) }
        }
        // The objects that keep their relative order are a longest increasing
        // subsequence of their new positions; every other common object moved.
        let staying = Self.longestIncreasingSubsequence(common.map(\.to))
        var moves: [Move] = []
        for (k, pair) in common.enumerated() where !staying.contains(k) { moves.append(Move(from: pair.from, to: pair.to)) }
        removedIndexes = removed
        insertedIndexes = inserted
        changedIndexes = changed
        self.moves = moves
    }

    /// Indexes (into `values`) of one longest strictly increasing subsequence, O(n log n).
    static func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []          // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var out = Set<Int>()
        var k = tails.last ?? -1
        while k >= 0 { out.insert(k); k = previous[k] }
        return out
    }
}
