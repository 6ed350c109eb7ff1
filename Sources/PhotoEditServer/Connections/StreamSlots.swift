// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Synchronization

/// The change feed's stream slots: at most `total` streams open at once, and
/// at most `perClient` of them for one client (a token, or an address when
/// the server has no tokens), so that one client holding its share cannot
/// shut every other one out.
final class StreamSlots: Sendable {
    /// Why a stream was not admitted.
    enum Refusal: Error, Equatable {
        /// Every slot is taken.
        case full
        /// This client has its share open.
        case clientFull
    }

    private struct State {
        var open = 0
        var byClient: [String: Int] = [:]
    }

    let total: Int
    let perClient: Int
    private let state = Mutex(State())

    init(total: Int, perClient: Int) {
        self.total = max(0, total)
        self.perClient = max(0, min(perClient, total))
    }

    /// Streams open now.
    var open: Int { state.withLock { $0.open } }

    /// Streams `client` has open now.
    func open(by client: String) -> Int { state.withLock { $0.byClient[client] ?? 0 } }

    /// Takes a slot for `client`; give it back with `release(_:)`.
    func admit(_ client: String) throws(Refusal) {
        let refusal: Refusal? = state.withLock { state in
            if state.open >= total { return .full }
            if state.byClient[client, default: 0] >= perClient { return .clientFull }
            state.open += 1
            state.byClient[client, default: 0] += 1
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Gives back a slot `admit(_:)` took.
    func release(_ client: String) {
        state.withLock { state in
            state.open -= 1
            let left = state.byClient[client, default: 1] - 1
            state.byClient[client] = left > 0 ? left : nil
        }
    }
}
#endif
