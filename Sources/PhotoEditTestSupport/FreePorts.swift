#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Free TCP ports on loopback, for the real servers tests and benchmarks
/// start (PostgreSQL, SeaweedFS): one place for the socket dance.
package enum LoopbackPorts {
    /// A port could not be reserved; `reason` is the system's message.
    package struct Failure: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { "no free loopback port: \(reason)" }
    }

    /// `count` distinct free loopback ports: each bound to port 0 while the
    /// others are held, then all released together (a server started right
    /// after may still lose one to another process: callers retry).
    package static func free(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure(reason: "socket: " + String(cString: strerror(errno))) }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else { throw Failure(reason: "bind: " + String(cString: strerror(errno))) }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}
