// Only with the Server trait (Package.swift): PostgreSQL and S3 are its parts.
#if Server
import Foundation
import PhotoEditPostgres

/// A real PostgreSQL server for the tests and benchmarks, on loopback: a new
/// cluster in a temporary folder (initdb), started once per process on a free port,
/// trust authentication for the one user. It runs under a shell on a
/// `Lifeline`: when the test process ends, however it ends, the shell gets
/// SIGTERM, stops the server (fast shutdown) and removes the folder, so
/// nothing is left running. PostgreSQL refuses to run as root: as root, the
/// cluster belongs to the `postgres` user Debian's package creates.
package final class LocalPostgresServer: Sendable {
    /// The process's server, started on first use.
    package static let shared: Result<LocalPostgresServer, Error> = Result { try LocalPostgresServer() }

    package let folder: String
    package let bin: String
    package let port: Int
    package let user = "photoedit"

    package enum Problem: Error, CustomStringConvertible {
        case missing(String)
        case failed(String)
        package var description: String {
            switch self {
            case .missing(let what): return "PostgreSQL is not installed (\(what)); scripts/install-deps installs it"
            case .failed(let what): return what
            }
        }
    }

    private init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max() else { throw Problem.missing("/usr/lib/postgresql") }
        bin = "/usr/lib/postgresql/\(version)/bin"
        let root = getuid() == 0
        folder = NSTemporaryDirectory() + "photoedit-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if root {
            guard let pw = getpwnam("postgres") else { throw Problem.missing("no postgres user") }
            guard chown(folder, pw.pointee.pw_uid, pw.pointee.pw_gid) == 0 else { throw Problem.failed("chown \(folder) failed") }
        }
        port = try Self.freePort()
        let asOwner = root ? "setpriv --reuid=postgres --regid=postgres --init-groups " : ""
        try Self.shell("\(asOwner)'\(bin)/initdb' -D '\(folder)/data' -U \(user) --auth=trust -E UTF8 --no-locale --no-sync >'\(folder)/initdb.log' 2>&1",
                       "initdb")
        // The server, under a shell that stops it (fast shutdown) and removes
        // the folder on SIGTERM, which the lifeline's watcher sends once this
        // process is gone. (A trapped signal ends the first `wait`.)
        let server = "\(asOwner)'\(bin)/postgres' -D '\(folder)/data' -p \(port) -k '\(folder)' -c listen_addresses=127.0.0.1 "
            + "-c fsync=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=256MB"
        let script = """
            \(server) >'\(folder)/server.log' 2>&1 &
            pg=$!
            trap 'kill -INT $pg 2>/dev/null' TERM INT
            wait $pg; wait $pg; rm -rf '\(folder)'
            """
        let process = Self.process(script)
        try Lifeline.run(process)
        // Ready when it accepts connections (pg_isready), within 60 s.
        let deadline = Date().addingTimeInterval(60)
        while true {
            if (try? Self.shell("'\(bin)/pg_isready' -q -h 127.0.0.1 -p \(port)", "pg_isready")) != nil { break }
            guard process.isRunning, Date() < deadline else {
                let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
                throw Problem.failed("PostgreSQL did not start: \(log.suffix(500))")
            }
            usleep(100_000)
        }
    }

    /// A new, empty database on the server and its location.
    package func newDatabase() throws -> PostgresCatalogLocation {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(20).lowercased()
        try Self.shell("'\(bin)/psql' -q -h 127.0.0.1 -p \(port) -U \(user) -d postgres -c 'CREATE DATABASE \(name)'", "CREATE DATABASE")
        return PostgresCatalogLocation(host: "127.0.0.1", port: port, username: user, database: name)
    }

    static func freePort() throws -> Int {
        do { return try LoopbackPorts.free(1)[0] } catch { throw Problem.failed("\(error)") }
    }

    /// `sh -c command`, its output discarded, not started.
    static func process(_ command: String) -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        return p
    }

    @discardableResult
    static func shell(_ command: String, _ what: String) throws -> Int32 {
        let p = process(command)
        try p.run()
        let status = waitForExit(p)   // not waitUntilExit: see waitForTermination
        guard status == 0 else { throw Problem.failed("\(what) failed (exit \(status))") }
        return status
    }
}
#endif
