import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Starts the process (`run()`) with no signal blocked in it: how the
    /// engine starts every child (`darktable-cli`), and the test support's
    /// `Lifeline` every server.
    ///
    /// A child inherits the signal mask of the thread that starts it, and
    /// exec keeps it. Dispatch's threads — the cooperative pool's, on which
    /// `photoedit`'s commands run, and every thread started from one, such
    /// as the ``BlockingExecutor``'s — block nearly every signal (SIGTERM,
    /// SIGINT, SIGCHLD, SIGALRM…): a `darktable-cli` started there could not
    /// be stopped with SIGTERM, and a shell never ran its TERM trap nor woke
    /// from `wait`. So the calling thread's mask is emptied for the spawn
    /// and put back at once. (`photoedit`'s main thread has no signal
    /// blocked in any case, so a process signal that lands on this thread
    /// meanwhile is handled as it would be there.)
    package func runWithNoSignalBlocked() throws {
        var none = sigset_t(), old = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        try run()
    }
}
