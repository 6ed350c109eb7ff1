import Foundation
import Synchronization
import Testing
@testable import PhotoEdit
#if canImport(Glibc)
import Glibc
#endif

/// Signals the reader thread received (the handler can capture nothing).
private let signalsReceived = Atomic<Int>(0)

/// Reading a child's output when a signal interrupts the read (EINTR): the
/// read is retried. Foundation's `FileHandle.readDataToEndOfFile()` and
/// `availableData` end the process there instead (`try!`), which took a
/// whole test run down once (2026-11-29); our readers go through
/// `FileIO.readToEnd` / `FileIO.readSome`.
@Suite struct InterruptedReadTests {
    /// Runs `read` on a thread blocked on an empty pipe, interrupts that
    /// thread's read with signals (a handler installed without SA_RESTART,
    /// so the kernel does not restart the read), then writes `text` and
    /// closes the pipe; returns what `read` returned.
    static func readInterrupted(_ text: String, _ read: @escaping @Sendable (Int32) throws -> Data) throws -> Data {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsReceived.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        // Left installed: a late signal must not find SIGUSR2's default (end the process).
        guard sigaction(SIGUSR2, &action, nil) == 0 else { throw PhotoEditError.library("sigaction failed") }

        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw PhotoEditError.library("pipe failed") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }
        let reader = Mutex<pthread_t?>(nil)
        let result = Mutex<Result<Data, any Error>?>(nil)
        let thread = Thread {
            // Threads started from the cooperative pool inherit its mask, which blocks signals.
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            reader.withLock { $0 = pthread_self() }
            let outcome = Result { try read(readEnd) }
            result.withLock { $0 = outcome }
        }
        thread.start()
        while reader.withLock({ $0 }) == nil { usleep(1000) }
        let before = signalsReceived.load(ordering: .relaxed)
        for _ in 0..<3 {
            usleep(50_000)  // blocked in read(2) by now
            if let target = reader.withLock({ $0 }) { pthread_kill(target, SIGUSR2) }
        }
        usleep(50_000)
        #expect(signalsReceived.load(ordering: .relaxed) - before >= 1, "the signals reached the reading thread")
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
        let deadline = Date().addingTimeInterval(10)
        while result.withLock({ $0 }) == nil && Date() < deadline { usleep(1000) }
        guard let outcome = result.withLock({ $0 }) else { throw PhotoEditError.library("the reader never returned") }
        return try outcome.get()
    }

    @Test func readToEndRetriesAnInterruptedRead() throws {
        let data = try Self.readInterrupted("what the child printed\n") { try FileIO.readToEnd($0, what: "a pipe") }
        #expect(String(decoding: data, as: UTF8.self) == "what the child printed\n")
    }

    @Test func readSomeRetriesAnInterruptedRead() throws {
        let data = try Self.readInterrupted("127.0.0.1:8080\n") { try FileIO.readSome($0, what: "a pipe") }
        #expect(String(decoding: data, as: UTF8.self) == "127.0.0.1:8080\n")
    }
}
