// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import PhotoEdit
import PostgresNIO

/// The change feed of a PostgreSQL catalog, across nodes: the `changeSet`
/// and `changeEntry` tables are the truth (a commit writes them in its
/// transaction, whichever node makes it); a trigger sends a NOTIFY on
/// `photoedit_changes` when a change set is committed, which wakes every
/// listening node at once instead of at its next poll.
extension PostgresCatalog {
    /// The sequence number of the latest committed change (0: none yet).
    public func latestChangeSequence() async throws -> Int {
        try await catalogRows(ChangeFeedQuery.latestSequence).first.map { row -> Int in try row.get(0) } ?? 0
    }

    /// The feed's rows after `seq`, oldest first, one per changed object, of
    /// at most `limit` change sets: the catalog stores' query
    /// (`ChangeFeedQuery`), read the same way.
    public func changeEntries(since seq: Int, limit: Int = 1000) async throws -> [ChangeEntry] {
        guard limit > 0 else { return [] }
        return try await catalogRows(ChangeFeedQuery.entries(since: seq, changeSets: limit, .postgres)).map { try ChangeFeedQuery.entry($0).entry }
    }

    /// The changes committed after `seq` (default: from now on), by any
    /// node, as they are committed: each element is the entries of one
    /// change set, in order, none skipped or repeated. Woken by NOTIFY, and
    /// every `poll` in case a notification was lost with a connection.
    /// Ends with an error if the catalog fails; cancel the consuming task to stop.
    public func changeEntryStream(since seq: Int? = nil, poll: Duration = .seconds(2)) async throws -> AsyncThrowingStream<[ChangeEntry], any Error> {
        let start: Int
        if let seq { start = seq } else { start = try await latestChangeSequence() }
        let (stream, continuation) = AsyncThrowingStream<[ChangeEntry], any Error>.makeStream()
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await self.listen(CatalogSchema.changesChannel, poll: poll) { wake.yield() } }
                    group.addTask {
                        var last = start
                        for await _ in wakes {
                            try Task.checkCancellation()
                            while true {
                                let entries = try await self.changeEntries(since: last, limit: 100)
                                guard let newest = entries.last?.seq else { break }
                                var i = entries.startIndex
                                while i < entries.endIndex {
                                    let set = entries[i...].prefix { $0.seq == entries[i].seq }
                                    continuation.yield(Array(set))
                                    i += set.count
                                }
                                last = newest
                            }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
#endif
