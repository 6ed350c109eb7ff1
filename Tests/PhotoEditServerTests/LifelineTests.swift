// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit
import Testing
import PhotoEditTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The servers tests start stop when the test process ends however it
/// ends (`Lifeline`). Each test hands a lifeline of its own to a small child
/// process (`sleep`) that stands for a test process, starts a server on it
/// through the test support, and kills the child with SIGKILL: no clean-up of
/// any kind runs, only the kernel closes the lifeline.
@Suite("servers stop with the test process (lifeline)")
struct LifelineTests {
    /// A child holding `lifeline`'s write end, this process's copy closed.
    static func holder(of lifeline: Lifeline) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sleep")
        holder.arguments = ["600"]
        try lifeline.handOver(to: holder)
        return holder
    }

    /// SIGKILL to `holder`, reaped.
    static func killHolder(_ holder: Process) {
        kill(holder.processIdentifier, SIGKILL)
        _ = waitForTermination(holder)
    }

    /// Does `pid` run (not gone, not a zombie)? From /proc: a process whose
    /// parent was killed is reaped by init, or stays a zombie where init reaps nothing.
    static func runs(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: end)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    /// Seconds from `start` until `done` answers true (asked every 50 ms),
    /// nil after `limit` seconds. Asked and timed on a client thread: in a
    /// whole run a task's resumption after a sleep waits behind every suite
    /// on the two cooperative threads (a poll resumed after the limit gave up
    /// without asking again once).
    static func seconds(from start: Date, within limit: Double, until done: @escaping @Sendable () -> Bool) async throws -> Double? {
        try await ClientThreads.run {
            while true {
                if done() { return Date().timeIntervalSince(start) }
                if Date().timeIntervalSince(start) >= limit { return nil }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    @Test("kill -9 of the process holding the lifeline: photoedit serve on it gets SIGTERM, exits 0 and frees its port")
    func serveStopsWhenItsTestProcessIsKilled() async throws {
        let lifeline = try Lifeline()
        let holder = try Self.holder(of: lifeline)
        defer { if holder.isRunning { Self.killHolder(holder) } }
        let temp = TemporaryDirectory("photoedit-lifeline")
        let serve = try ServeProcess(library: temp.url.appendingPathComponent("library"), keepErrors: false, lifeline: lifeline)
        defer { serve.kill9() }

        // While the holder lives, the server serves (a watcher that stopped it early fails here).
        try await Task.sleep(for: .seconds(1))
        #expect(serve.isRunning)
        let health = try #require(LoopbackConnection(port: serve.port), "serve refused a connection while its lifeline held")
        health.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
        #expect(health.receiveAll().hasPrefix("HTTP/1.1 200"))

        let killed = Date()
        Self.killHolder(holder)
        let took = try await Self.seconds(from: killed, within: 20) { !serve.isRunning }
        #expect(took != nil, "photoedit serve still runs 20 s after the process holding its lifeline was killed")
        guard took != nil else { return }
        // SIGTERM, not SIGKILL: serve's graceful stop, exit 0.
        #expect(serve.wait() == .exited(0))
        #expect(LoopbackConnection(port: serve.port) == nil, "the port still answers")
    }

    @Test("a server that ignores SIGTERM: it and its child get SIGKILL after the grace period")
    func aServerIgnoringTermIsKilledWithItsGroup() async throws {
        let lifeline = try Lifeline()
        let holder = try Self.holder(of: lifeline)
        defer { if holder.isRunning { Self.killHolder(holder) } }
        // A shell that ignores TERM (as its child then does too) and names its child.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/bin/sh")
        server.arguments = ["-c", "trap '' TERM; sleep 600 & echo $!; wait"]
        let output = Pipe()
        server.standardOutput = output
        try lifeline.run(server)
        defer { if Self.runs(server.processIdentifier) { kill(-server.processIdentifier, SIGKILL) } }
        let line = String(decoding: try FileIO.readSome(output.fileHandleForReading.fileDescriptor, what: "the shell's output"), as: UTF8.self)
        let child = try #require(pid_t(line.trimmingCharacters(in: .whitespacesAndNewlines)), "the shell printed \(line)")
        defer { if Self.runs(child) { kill(child, SIGKILL) } }
        #expect(Self.runs(child))

        let serverID = server.processIdentifier
        let killed = Date()
        Self.killHolder(holder)
        let took = try await Self.seconds(from: killed, within: Double(Lifeline.grace) + 15) { !Self.runs(serverID) && !Self.runs(child) }
        #expect(took != nil, "the shell or its child still runs \(Lifeline.grace + 15) s after the lifeline's holder was killed")
        guard let took else { return }
        // SIGKILL came after the grace period (SIGTERM first, ignored).
        #expect(took >= Double(Lifeline.grace) - 0.5, "killed after \(took) s, before the \(Lifeline.grace) s grace")
        #expect(waitForTermination(server) == .signalled(SIGKILL))
    }
}
#endif
