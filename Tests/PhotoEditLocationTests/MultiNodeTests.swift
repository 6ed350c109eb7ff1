// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import PhotoEdit
import PhotoEditLocation
import PhotoEditTestSupport
import Synchronization
import Testing

/// Three `photoedit serve` nodes on one PostgreSQL + SeaweedFS library
/// behind nginx (Debian's, started by the test as an unprivileged process
/// with its own config, on free loopback ports): concurrent edits of the
/// same photos through different nodes lose no update (exactly one of each
/// round's If-Match edits wins, the others get 412), the first node seen
/// running a job of a batch is killed with SIGKILL and leaves its job to
/// the others (every photo edited once more), a node killed in the middle of
/// uploads and edits loses no acknowledged photo or edit and leaves no
/// half-written one (the client sends what failed again: each photo once,
/// each edit once), and the library verifies clean.
@Suite("Three nodes behind nginx", .serialized)
struct MultiNodeTests {

    /// nginx in front of `ports`, listening on `port`; killed by `stop`.
    final class Nginx: Sendable {
        let process: Process
        let folder: URL

        init(port: Int, upstreams ports: [Int], folder: URL) throws {
            self.folder = folder
            guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
                throw PhotoEditError.library("nginx is not installed (scripts/install-deps installs it)")
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let dir = folder.path
            let servers = ports.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=30s;" }.joined(separator: " ")
            let config = """
                daemon off; worker_processes 1; pid \(dir)/nginx.pid; error_log \(dir)/error.log warn;
                events { worker_connections 512; }
                http {
                    access_log off;
                    client_body_temp_path \(dir)/body; proxy_temp_path \(dir)/proxy; fastcgi_temp_path \(dir)/fastcgi;
                    uwsgi_temp_path \(dir)/uwsgi; scgi_temp_path \(dir)/scgi;
                    client_max_body_size 64m;
                    upstream nodes { \(servers) }
                    server {
                        listen 127.0.0.1:\(port);
                        location / {
                            proxy_pass http://nodes; proxy_http_version 1.1; proxy_set_header Connection "";
                            proxy_next_upstream error timeout; proxy_connect_timeout 2s;
                        }
                    }
                }
                """
            try config.write(toFile: dir + "/nginx.conf", atomically: true, encoding: .utf8)
            process = Process()
            if getuid() == 0 {
                // Unprivileged: nobody, in a folder it may write.
                chmod(dir, 0o777)
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                     "/usr/sbin/nginx", "-p", dir, "-c", dir + "/nginx.conf", "-e", dir + "/error.log"]
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
                process.arguments = ["-p", dir, "-c", dir + "/nginx.conf", "-e", dir + "/error.log"]
            }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try Lifeline.run(process)   // stopped with the test process, however it ends
        }

        /// SIGTERM: the master stops its worker, then exits.
        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
    }

    /// An upload over a raw connection that sends its headers and all of
    /// its body but the last `withheld` bytes, then holds: the server stays
    /// in the middle of reading it until the connection closes (or the
    /// server dies).
    static func heldUpload(port: Int, path: String, body: Data, withheld: Int) throws -> LoopbackConnection {
        guard let connection = LoopbackConnection(port: port) else { throw PhotoEditError.library("port \(port) refused the held upload") }
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\n\r\n"
        guard connection.send(Data(head.utf8) + body.dropLast(withheld)) else { throw PhotoEditError.library("the held upload was cut off") }
        return connection
    }

    /// The statuses answered per photo.
    final class Statuses: Sendable {
        private let byPhoto = Mutex<[String: [Int]]>([:])
        func add(_ status: Int, for id: String) { byPhoto.withLock { $0[id, default: []].append(status) } }
        var all: [String: [Int]] { byPhoto.withLock { $0 } }
    }

    /// One HTTP request: status and body.
    static func request(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) async throws -> (Int, Data) {
        try await request(method, url, headers: headers, data: body.map { Data($0.utf8) })
    }

    /// One HTTP request with a binary body: status and body.
    static func request(_ method: String, _ url: String, headers: [String: String] = [:], data: Data?) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        request.httpBody = data
        request.timeoutInterval = 30
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
                }
            }.resume()
        }
    }

    @Test func concurrentEditsANodeKilledVerifyClean() async throws {
        let started = ContinuousClock.now
        let f = try await LibraryFixture(.distributed)
        let library = try await f.libraryArgument
        let files = try DistinctPhotos.jpegs(4, in: f.temp.appendingPathComponent("in"))
        let ids = try await BlockingExecutor.run { try f.library.importItems(files) }.compactMap(\.id)
        try #require(ids.count == 4)
        let ports = try LoopbackPorts.free(4)
        var nodes: [PhotoEditChild] = []
        defer { nodes.forEach { $0.kill() } }
        for (n, port) in ports.prefix(3).enumerated() {
            // Node 0 holds after the first photo of an apply job (the test
            // pause point): the batch below kills it in the middle of one.
            let node = try PhotoEditChild(["serve", "--library", library.replacingOccurrences(of: "cli-work", with: "node\(n)"),
                                           "--port", String(port), "--job-lease", "2"],
                                          n == 0 ? f.environment.merging(PhotoEditChild.pauseAfterApplyItem) { $1 } : f.environment)
            nodes.append(node)
        }
        for node in nodes { try #require(try node.waitForLine(containing: "listening on") != nil) }
        let nginx = try Nginx(port: ports[3], upstreams: Array(ports.prefix(3)), folder: f.temp.appendingPathComponent("nginx"))
        defer { nginx.stop() }
        let front = "http://127.0.0.1:\(ports[3])"
        var up = false
        for _ in 0..<100 where !up {
            up = (try? await Self.request("GET", front + "/health").0) == 200
            if !up { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(up, "nginx answers")

        // Rounds of three concurrent edits of each photo made from the same
        // revision, spread over the nodes by nginx: one wins, two get 412.
        let rounds = 3
        for round in 0..<rounds {
            let outcomes = Statuses()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in ids {
                    for client in 0..<3 {
                        group.addTask {
                            let (status, _) = try await Self.request(
                                "POST", "\(front)/v1/assets/\(id)/edits",
                                headers: ["If-Match": "\"r\(round)\"", "Content-Type": "application/json"],
                                body: #"{"chain": "exposure=+0.\#(client + 1)"}"#)
                            outcomes.add(status, for: id)
                        }
                    }
                }
                try await group.waitForAll()
            }
            for (id, statuses) in outcomes.all {
                #expect(statuses.sorted() == [200, 412, 412], "round \(round), \(id): \(statuses)")
            }
        }
        for id in ids {
            #expect(try await BlockingExecutor.run { try f.library.asset(id) }.revision == rounds, "no update lost: \(id)")
        }

        // Uploads to every node, and an edit of each photo straight to the
        // last node, which is killed in the middle of an upload: one upload
        // to it sends all of its body but the end and holds it back, so the
        // node is in the middle of that upload (its staging file holds the
        // bytes sent, `….upload`) for as long as the test wants, however
        // loaded the machine. The others are in flight around it.
        let pids = nodes.map(\.process.processIdentifier)
        let uploader = nodes.count - 1
        let staging = f.temp.appendingPathComponent("node\(uploader)/tmp").path
        let uploads = Array(try DistinctPhotos.jpegs(ids.count + 8, in: f.temp.appendingPathComponent("up")).dropFirst(ids.count))
        let heldFile = f.temp.appendingPathComponent("up/held.jpg").path
        // Over 1 MiB (about 2 MB): the node stages an upload a whole MiB at a time.
        let larger = try Image.load(path: Paths.sample("coffee.jpg"), sequential: false).call("resize", [("scale", .number(4))])
        try Renderer.save(larger, to: heldFile, format: .jpeg, quality: 100)
        let heldBytes = try Data(contentsOf: URL(fileURLWithPath: heldFile))
        // Staged bytes no other upload reaches: the held one's file is told apart by its size.
        let sentOfHeld = heldBytes.count - 4096
        // The node writes an upload 1 MiB at a time (`StagedUpload`): what
        // it has staged of the held one is the whole pieces sent.
        let stagedOfHeld = sentOfHeld - sentOfHeld % (1 << 20)
        let largestOther = try uploads.map { try Data(contentsOf: URL(fileURLWithPath: $0)).count }.max() ?? 0
        try #require(stagedOfHeld > largestOther, "the held upload is the largest (\(stagedOfHeld) > \(largestOther) bytes staged)")
        let acknowledged = Statuses(), edited = Statuses()
        kill(pids[uploader], SIGSTOP)   // what follows queues up, then runs at once
        let sending = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (n, file) in uploads.enumerated() {
                    group.addTask {
                        // Half straight to the doomed node, half through nginx.
                        let base = n % 2 == 0 ? "http://127.0.0.1:\(ports[uploader])" : front
                        let name = URL(fileURLWithPath: file).lastPathComponent
                        let status = (try? await Self.request("POST", "\(base)/v1/assets?filename=\(name)",
                                                              headers: ["Content-Type": "image/jpeg"],
                                                              data: try Data(contentsOf: URL(fileURLWithPath: file))).0) ?? 0
                        acknowledged.add(status, for: file)
                    }
                }
                for id in ids {
                    group.addTask {
                        let status = (try? await Self.request(
                            "POST", "http://127.0.0.1:\(ports[uploader])/v1/assets/\(id)/edits",
                            headers: ["If-Match": "\"r\(rounds)\"", "Content-Type": "application/json"],
                            body: #"{"chain": "saturation=+10"}"#).0) ?? 0
                        edited.add(status, for: id)
                    }
                }
                try await group.waitForAll()
            }
        }
        kill(pids[uploader], SIGCONT)
        // Sent once the node runs again (a stopped node reads nothing, and a
        // body larger than the socket buffers would block the sender).
        let held = try Self.heldUpload(port: ports[uploader], path: "/v1/assets?filename=held.jpg", body: heldBytes,
                                       withheld: heldBytes.count - sentOfHeld)
        defer { held.close() }
        let midUpload = try await nodes[uploader].waitWhileRunning {
            let staged = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
            return staged.contains { $0.hasSuffix(".upload") && FileIO.size(staging + "/" + $0) ?? 0 >= Int64(stagedOfHeld) }
        }
        nodes[uploader].kill()
        held.close()
        try #require(midUpload, "node \(uploader) staged the held upload's bytes")
        try await sending.value
        acknowledged.add(0, for: heldFile)   // never answered: the node died with its body half-read
        let failed = acknowledged.all.filter { !$0.value.contains(where: { $0 == 200 || $0 == 201 }) }.map(\.key)
        #expect(!failed.isEmpty, "the killed node answered every upload: \(acknowledged.all)")
        print("node \(uploader) killed: \(uploads.count + 1 - failed.count) uploads answered, \(failed.count) sent again; "
              + "edits answered: \(edited.all.values.filter { $0.contains(200) }.count) of \(ids.count)")
        for file in failed.sorted() {   // the client tries again, through nginx
            let (status, body) = try await Self.request("POST", "\(front)/v1/assets?filename=\(URL(fileURLWithPath: file).lastPathComponent)",
                                                        headers: ["Content-Type": "image/jpeg"], data: try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(status == 200 || status == 201, "\(file) again → \(status) \(String(decoding: body, as: UTF8.self))")
        }
        // An edit the killed node never answered is sent again from the same
        // revision: it lands (200), or finds its first attempt landed (412).
        // Either way each photo took exactly one edit.
        for (id, statuses) in edited.all where !statuses.contains(200) {
            let (status, body) = try await Self.request("POST", "\(front)/v1/assets/\(id)/edits",
                                                        headers: ["If-Match": "\"r\(rounds)\"", "Content-Type": "application/json"],
                                                        body: #"{"chain": "saturation=+10"}"#)
            #expect(status == 200 || status == 412, "\(id) again → \(status) \(String(decoding: body, as: UTF8.self))")
        }
        for id in ids {
            #expect(try await BlockingExecutor.run { try f.library.asset(id) }.revision == rounds + 1, "\(id): the edit landed once")
        }
        let hashes = try await BlockingExecutor.run { try f.library.assets() }.map(\.sha256)
        #expect(hashes.count == ids.count + uploads.count + 1, "each photo once: \(hashes.count) photos")
        for file in uploads + [heldFile] {
            #expect(hashes.contains(try FileIO.sha256(of: file)), "\(file) is in the library")
        }

        // A batch through every node's worker; the first node killed in the
        // middle of one of its jobs: it holds after the job's photo (the test
        // pause point), so it is seen there however loaded the machine. The
        // others are held stopped until it is killed, so that it gets a job.
        let others = pids.indices.filter { $0 != 0 && $0 != uploader }.map { pids[$0] }
        for pid in others { kill(pid, SIGSTOP) }
        let enqueued = try PhotoEditBinary.run(["apply", "--library", library, "--as-job", "--photos-per-job", "1",
                                                "contrast=+5"] + ids, environment: f.environment)
        #expect(enqueued.status == 0, "\(enqueued.stderr)")
        let batch = enqueued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard case let .distributed(location) = try LibraryLocation(parsing: library, environment: f.environment) else {
            Issue.record("not a distributed library")
            return
        }
        let jobs = try await LibraryJobs.open(location, library: f.library)
        let doomed = "-\(pids[0])-"  // a serve worker's name holds its pid
        let caught = try await nodes[0].waitWhileRunning {
            try await jobs.catalog.jobs(inBatch: batch).contains { $0.state == .running && $0.done >= 1 && $0.worker?.contains(doomed) == true }
        }
        try #require(caught, "the first node holds in the middle of a job")
        let killed = 0
        nodes[killed].kill()
        for pid in others { kill(pid, SIGCONT) }
        var state = ""
        let deadline = ContinuousClock.now + .seconds(40)
        while state != "done" && ContinuousClock.now < deadline {
            let (status, body) = try await Self.request("GET", "\(front)/v1/jobs/\(batch)")
            if status == 200, let json = try JSONSerialization.jsonObject(with: body) as? [String: Any] { state = json["state"] as? String ?? "" }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(state == "done", "the batch finished without the killed node \(killed)")
        let claims = try await jobs.catalog.jobs(inBatch: batch)
        #expect(claims.contains { $0.attempts >= 2 && $0.worker?.contains(doomed) == false }, "its job was taken over: \(claims)")
        await jobs.close()
        for id in ids {
            let history = try await BlockingExecutor.run { try f.library.history(id) }
            #expect(history.map(\.number) == Array(0...rounds + 2), "\(id): every edit once: \(history.map(\.number))")
        }
        let verified = try PhotoEditBinary.run(["verify", "--library", library], environment: f.environment)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        // About 12–20 s alone; under the whole suite on 2 cores, up to 110 s was seen.
        print("three nodes: \(started.duration(to: .now))")
    }
}
#endif
