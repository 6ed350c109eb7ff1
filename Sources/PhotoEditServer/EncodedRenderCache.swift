// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Synchronization

/// The encoded bytes of recent render answers, so a repeated request (the
/// same photo, revision, size, format and quality: one `ETag`) is answered
/// from memory without waiting for a render slot or encoding again.
///
/// A render the image manager has cached still costs a slot and an encode;
/// behind a page of thumbnails or a CDN revalidating, those hits are most
/// of the traffic, and they must not queue behind cold renders (nor be
/// refused 429 while the slots are busy). Keys carry the revision, so an
/// edit never serves a stale answer; entries of older revisions age out.
/// Bounded by bytes; the least recently used entries go first.
final class EncodedRenderCache: Sendable {
    private struct Entry {
        var data: Data
        var lastUse: UInt64
    }
    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most bytes kept.
    let limit: Int
    private let state = Mutex(State())

    /// A cache of at most `limit` bytes (0 keeps nothing).
    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The answer cached under `key`, marked as just used.
    func get(_ key: String) -> Data? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.data
        }
    }

    /// Keeps `data` under `key`; an answer larger than an eighth of the
    /// limit is not kept (full-size renders would push out many thumbnails).
    func put(_ key: String, _ data: Data) {
        guard data.count <= limit / 8 else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(data: data, lastUse: state.clock), forKey: key) {
                state.bytes -= old.data.count
            }
            state.bytes += data.count
            guard state.bytes > limit else { return }
            // Evict down to 3/4 of the limit at once, oldest first, so the
            // sort is paid once for many puts.
            let target = limit * 3 / 4
            for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.bytes > target else { break }
                state.entries.removeValue(forKey: key)
                state.bytes -= entry.data.count
            }
        }
    }

    /// Entries and bytes held now.
    var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.entries.count, $0.bytes) }
    }
}
#endif
