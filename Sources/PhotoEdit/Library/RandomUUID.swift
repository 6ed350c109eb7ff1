import Foundation

extension UUID {
    /// A random UUID (version 4) drawn from the system's generator
    /// (`SystemRandomNumberGenerator`: `getrandom(2)` on Linux), as
    /// Foundation's `random(using:)` makes it.
    ///
    /// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom`
    /// every time: three system calls and a file for each request id, which
    /// the server makes on Swift's cooperative pool for every request
    /// (`perf` under load: `chrdev_open` on the pool's threads).
    package static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }
}
