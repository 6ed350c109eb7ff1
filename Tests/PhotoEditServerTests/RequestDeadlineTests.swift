// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEditServer
import Synchronization
import Testing

/// The request timeout's one sweep (`RequestDeadlines`): what it cancels and
/// when it runs. (The 503 itself: ConnectionAbuseTests.requestTimeout, with
/// `serve --timeout 1` as its own process.)
@Suite("HTTP API v1: request deadlines")
struct RequestDeadlineTests {
    /// Waits (at most a minute: a whole test run shares two threads) until `done`.
    static func eventually(_ done: () -> Bool) async throws {
        let end = ContinuousClock.now + .seconds(60)
        while !done() && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test("a request past its deadline is cancelled once and reported expired; one that ends in time never is; the sweep stops when none is left and starts again")
    func sweep() async throws {
        let deadlines = RequestDeadlines(tick: .milliseconds(10))
        let late = Atomic<Int>(0), onTime = Atomic<Int>(0)
        let lateTicket = deadlines.add(.now + .milliseconds(20)) { late.add(1, ordering: .relaxed) }
        let onTimeTicket = deadlines.add(.now + .seconds(3600)) { onTime.add(1, ordering: .relaxed) }
        #expect(deadlines.isSweeping && deadlines.count == 2)
        try await Self.eventually { late.load(ordering: .relaxed) > 0 }
        // A few ticks more: an expired request is not cancelled again.
        try await Task.sleep(for: .milliseconds(100))
        #expect(late.load(ordering: .relaxed) == 1)
        #expect(deadlines.remove(lateTicket), "the late request is reported expired")
        #expect(!deadlines.remove(onTimeTicket), "the other one is not")
        #expect(onTime.load(ordering: .relaxed) == 0)
        #expect(!deadlines.remove(lateTicket), "a ticket is removed once")

        try await Self.eventually { !deadlines.isSweeping }
        #expect(!deadlines.isSweeping && deadlines.count == 0, "no request under way, no sweep")
        let again = Atomic<Int>(0)
        let ticket = deadlines.add(.now) { again.add(1, ordering: .relaxed) }
        try await Self.eventually { again.load(ordering: .relaxed) > 0 }
        #expect(again.load(ordering: .relaxed) == 1 && deadlines.remove(ticket), "the sweep started again for a new request")
    }

    @Test("a tick is a tenth of a second, or a quarter of a shorter limit")
    func ticks() {
        #expect(RequestDeadlines.tick(for: .seconds(120)) == .milliseconds(100))
        #expect(RequestDeadlines.tick(for: .seconds(1)) == .milliseconds(100))
        #expect(RequestDeadlines.tick(for: .milliseconds(200)) == .milliseconds(50))
        #expect(RequestDeadlines.tick(for: .microseconds(10)) == .milliseconds(1))
    }
}
#endif
