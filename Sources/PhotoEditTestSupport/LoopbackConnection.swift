#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A blocking TCP connection to a server on 127.0.0.1, byte by byte: for
/// tests that need what an HTTP client hides (a request sent in part and
/// held, a stream read as it comes, a connection refused).
package final class LoopbackConnection: Sendable {
    private let socket: Mutex<Int32>

    /// Connects to 127.0.0.1:`port` (from `source`, another loopback
    /// address such as 127.0.0.2, when given); nil when the connection is refused.
    package init?(port: Int, from source: String? = nil) {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound != 0 { Glibc.close(fd); return nil }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 { Glibc.close(fd); return nil }
        socket = Mutex(fd)
    }

    deinit { close() }

    private var fd: Int32 { socket.withLock { $0 } }

    /// Sends all of `data`; false when the connection broke first.
    @discardableResult
    package func send(_ data: Data) -> Bool {
        let fd = self.fd
        return data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// What arrives until it contains `marker` (or the server closes, or `limit` seconds pass).
    package func receive(until marker: String, limit: Int = 30) -> String {
        receive(limit: limit) { String(decoding: $0, as: UTF8.self).contains(marker) }
    }

    /// Everything until the server closes the connection (or `limit` seconds pass).
    package func receiveAll(limit: Int = 60) -> String {
        receive(limit: limit) { _ in false }
    }

    private func receive(limit: Int, until done: ([UInt8]) -> Bool) -> String {
        let fd = self.fd
        var timeout = timeval(tv_sec: limit, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !done(bytes) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Drops the connection with a reset (SO_LINGER 0, then close), as a
    /// client that crashes or loses its network does.
    package func reset() {
        socket.withLock { fd in
            guard fd >= 0 else { return }
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            Glibc.close(fd)
            fd = -1
        }
    }

    /// Closes the connection (once; later calls do nothing).
    package func close() {
        socket.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }
}
