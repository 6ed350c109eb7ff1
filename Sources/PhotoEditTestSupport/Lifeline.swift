import Foundation
import PhotoEdit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ties the servers the tests start (`photoedit serve`, PostgreSQL,
/// SeaweedFS, nginx, the browser scripts with chromium) to the test process:
/// they stop when it ends however it ends — a crash or a kill -9 too, which
/// skip every clean-up, deinit and atexit handler.
///
/// The lifeline is a pipe. Its write end is held by this process alone
/// (close-on-exec, so no child inherits it) and never written to; the kernel
/// closes it when the process ends, however it ends. Each server gets a
/// watcher: a small Python process (python3, a test package of
/// scripts/install-deps) whose standard input is the read end. It sleeps in
/// `poll` on two things: the server's pidfd, readable when the server has
/// ended (then the watcher exits: the normal stop paths stay the tests'), and
/// the lifeline, which ends only when no process holds its write end (then
/// it sends SIGTERM to the server's process group — Foundation starts every
/// child as the leader of a group of its own, so the group is the server and
/// what it started — and SIGKILL to the group if the server still runs
/// `grace` seconds later). The group is signalled only while its leader
/// runs, so a pid reused after the server ended is never signalled.
///
/// Not PR_SET_PDEATHSIG: it fires when the *thread* that started the child
/// ends, and the threads that start servers (Swift Testing's, the cooperative
/// pool's) come and go while the test process lives.
package final class Lifeline: Sendable {
    /// This process's lifeline, made on first use.
    package static let shared = Result<Lifeline, any Error> { try Lifeline() }

    /// Seconds a server is given to stop after SIGTERM before SIGKILL.
    package static let grace = 5

    /// Starts `process` (set up, not started) on this process's lifeline: see `run(_:)`.
    package static func run(_ process: Process) throws {
        try shared.get().run(process)
    }

    private let readEnd: Int32
    /// Nil once handed over (`handOver(to:)`).
    private let writeEnd: Mutex<Int32?>

    /// A new lifeline, held by this process. Released, it ends: the servers
    /// on it are stopped.
    package init() throws {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec (pipe2 is not in Swift's Glibc; a child started in
        // between does not keep them either: Foundation closes every
        // descriptor but the standard three in the children it starts).
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw TestFailure("cannot make a lifeline pipe: \(String(cString: strerror(errno)))")
        }
        readEnd = ends[0]
        writeEnd = Mutex(ends[1])
    }

    deinit {
        close(readEnd)
        if let fd = writeEnd.withLock({ $0 }) { close(fd) }
    }

    /// Starts `process` (set up, not started; its standard input is left as
    /// it is set, and should not be the terminal) with no signal blocked
    /// (`Process.runWithNoSignalBlocked`: a shell started from the
    /// cooperative pool's thread never ran its TERM trap, so PostgreSQL's
    /// was killed after the grace period and left its folder), and a
    /// watcher that stops its process group once the lifeline ends. If the
    /// watcher cannot start, `process` is killed and the error thrown.
    package func run(_ process: Process) throws {
        try process.runWithNoSignalBlocked()
        do {
            try watch(process.processIdentifier)
        } catch {
            kill(process.processIdentifier, SIGKILL)
            _ = waitForTermination(process)
            throw error
        }
    }

    /// Starts the watcher of `pid`: a child of this process, the leader of
    /// its own process group (as every child Foundation starts is).
    private func watch(_ pid: pid_t) throws {
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: Self.python)
        watcher.arguments = ["-c", Self.watcherScript, String(pid), String(Self.grace)]
        watcher.standardInput = FileHandle(fileDescriptor: readEnd, closeOnDealloc: false)
        watcher.standardOutput = FileHandle.nullDevice
        // Its own errors (a traceback) go to the tests' output.
        watcher.standardError = FileHandle.standardError
        do {
            try watcher.runWithNoSignalBlocked()
        } catch {
            throw TestFailure("cannot start \(Self.python), which watches the servers tests start (scripts/install-deps installs python3): \(error)")
        }
        // Foundation keeps the watcher's Process until it has reaped it.
    }

    /// Gives the write end to `holder` (set up, not started) as its standard
    /// output, starts it and closes this process's copy: from then on the
    /// lifeline ends when `holder` ends. For the test of the mechanism,
    /// `holder` standing for a test process.
    package func handOver(to holder: Process) throws {
        try writeEnd.withLock { end in
            guard let fd = end else { throw TestFailure("the lifeline was handed over already") }
            holder.standardOutput = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
            try holder.runWithNoSignalBlocked()
            close(fd)
            end = nil
        }
    }

    static let python = "/usr/bin/python3"

    /// The watcher: `python3 -c SCRIPT PID GRACE`, the lifeline on its stdin.
    static let watcherScript = """
        import os, select, signal, sys
        pid, grace = int(sys.argv[1]), float(sys.argv[2])
        try:
            server = os.pidfd_open(pid)
        except ProcessLookupError:
            sys.exit(0)
        events = select.poll()
        events.register(0, select.POLLIN)
        events.register(server, select.POLLIN)
        # Nothing is ever written to the lifeline: stdin wakes the poll only
        # when its write end is closed, that is when the test process is gone.
        if server in dict(events.poll()):
            sys.exit(0)
        def stop(sig):
            try:
                os.killpg(pid, sig)
            except ProcessLookupError:
                pass
        stop(signal.SIGTERM)
        if not select.select([server], [], [], grace)[0]:
            stop(signal.SIGKILL)
        """
}
