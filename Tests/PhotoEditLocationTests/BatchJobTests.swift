// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import PhotoEdit
import PhotoEditLocation
import PhotoEditPostgres
import PhotoEditTestSupport
import Testing

/// Batch work as jobs on a real PostgreSQL + SeaweedFS library: enqueued by
/// the CLI (`apply --where … --as-job`), run by two workers — a
/// `photoedit jobs work` killed with SIGKILL in the middle of a job, and a
/// `photoedit serve` node, whose worker takes the dead one's job over when
/// its lease ends. Every photo is edited exactly once; the progress (CLI and
/// `GET /v1/jobs/{batch}`) reaches the total; a batch can be cancelled.
@Suite("Batch jobs across nodes", .serialized)
struct BatchJobTests {
    /// On a distributed library an import leaves the previews of its
    /// photos to the nodes: it queues them as a `derivatives` batch, which
    /// `photoedit jobs work` (as a serve node's worker) makes, into the
    /// shared store. Until then `verify` notes them; afterwards every photo
    /// has one and the library verifies without a note.
    @Test func importQueuesItsPreviewsAsJobs() async throws {
        let f = try await LibraryFixture(.distributed)
        let library = try await f.libraryArgument
        // Large enough to get a preview (long edge over 2880 px), each distinct.
        let folder = f.temp.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let big = try Image.load(path: Paths.sample("coffee.jpg"), sequential: false).call("resize", [("scale", .number(5.2))])
        var files: [String] = []
        for n in 0..<3 {
            let path = folder.appendingPathComponent("big\(n).jpg").path
            try Renderer.save(try big.linear(multiply: [1, 1, 1], add: [Double(n), 0, 0]).cast("uchar"), to: path, format: .jpeg, quality: 90)
            files.append(path)
        }
        let imported = try PhotoEditBinary.run(["import", "--library", library] + files, environment: f.environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.split(separator: "\n").count == 3)
        #expect(try await f.fileKeys("previews").isEmpty, "the import made previews itself")
        let before = try PhotoEditBinary.run(["verify", "--library", library], environment: f.environment)
        #expect(before.status == 0 && before.stderr.contains("3 photo(s) have no preview"), "\(before.stdout)\(before.stderr)")

        let worked = try PhotoEditBinary.run(["jobs", "work", "--drain", "--library", library], environment: f.environment)
        #expect(worked.status == 0, "\(worked.stderr)")
        #expect(try await f.fileKeys("previews").count == 3, "each new photo has its preview in the shared store")
        let after = try PhotoEditBinary.run(["verify", "--library", library], environment: f.environment)
        #expect(after.status == 0 && !(after.stdout + after.stderr).contains("preview"), "\(after.stdout)\(after.stderr)")
    }

    @Test func twoWorkersOneKilledEveryPhotoEditedOnce() async throws {
        let f = try await LibraryFixture(.distributed)
        let library = try await f.libraryArgument
        let count = 16
        let files = try DistinctPhotos.jpegs(count, in: f.temp.appendingPathComponent("in"))
        let ids = try await BlockingExecutor.run { try f.library.importItems(files) }.compactMap(\.id)
        try #require(ids.count == count)
        guard case let .distributed(location) = try LibraryLocation(parsing: library, environment: f.environment) else {
            Issue.record("not a distributed library: \(library)")
            return
        }
        let jobs = try await LibraryJobs.open(location, library: f.library)

        // Planned by the CLI: every photo named p*, four a job.
        let enqueued = try PhotoEditBinary.run(
            ["apply", "--library", library, "--where", "name~p", "--as-job", "--photos-per-job", "4", "exposure=+0.3"], environment: f.environment)
        #expect(enqueued.status == 0, "\(enqueued.stderr)")
        let batch = enqueued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await jobs.progress(batch).jobs == count / 4)

        // Worker 1, killed in the middle of a job: it holds at the test pause
        // point after the first photo of its first job (PHOTOEDIT_TEST_PAUSE_AT),
        // so the moment is there to see however loaded the machine is.
        let doomed = try PhotoEditChild(["jobs", "work", "--library", library, "--lease", "2", "--name", "doomed"],
                                        f.environment.merging(PhotoEditChild.pauseAfterApplyItem) { $1 })
        let midJob = try await doomed.waitWhileRunning {
            let running = try await jobs.catalog.jobs(inBatch: batch).filter { $0.worker == "doomed" && $0.state == .running }
            return running.contains { $0.done >= 1 && $0.done < 4 }
        }
        doomed.kill()
        let deadline = ContinuousClock.now + .seconds(120)
        #expect(midJob, "worker 1 was seen in the middle of a job")

        // Worker 2: a serve node; it takes the dead worker's job over when its lease ends.
        let served = try PhotoEditChild(["serve", "--library", library, "--port", "0", "--job-lease", "2"], f.environment)
        defer { served.kill() }
        let listening = try #require(try served.waitForLine(containing: "listening on http://127.0.0.1:"))
        let port = try #require(Int(listening.components(separatedBy: "127.0.0.1:")[1].prefix { $0.isNumber }))
        var progress = try await jobs.progress(batch)
        while !progress.isFinished && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            progress = try await jobs.progress(batch)
        }
        #expect(progress.isFinished && progress.done == count / 4 && progress.failed == 0, "\(progress)")
        #expect(progress.itemsDone == Int64(count) && progress.itemsTotal == Int64(count), "progress reaches the total")
        let claims = try await jobs.catalog.jobs(inBatch: batch)
        #expect(claims.contains { $0.attempts >= 2 && $0.worker != "doomed" }, "the killed worker's job was taken over: \(claims)")

        // Exactly once: one edit per photo, the batch's.
        for id in ids {
            let history = try await BlockingExecutor.run { try f.library.history(id) }
            #expect(history.map(\.number) == [0, 1], "\(id): \(history.map(\.number))")
            #expect(try await BlockingExecutor.run { try f.library.currentRecipe(id) }.nodes.map(\.filter) == ["exposure"])
        }

        // The progress through the CLI and the API.
        let status = try PhotoEditBinary.run(["jobs", "status", "--library", library, batch], environment: f.environment)
        #expect(status.status == 0 && status.stdout.hasPrefix("\(batch)\tdone\t\(count)/\(count) photos"), "\(status.stdout)\(status.stderr)")
        let (body, code) = try await Self.get("http://127.0.0.1:\(port)/v1/jobs/\(batch)")
        #expect(code == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["state"] as? String == "done")
        #expect((json["photos"] as? [String: Any])?["done"] as? Int == count)
        #expect(try await Self.get("http://127.0.0.1:\(port)/v1/jobs/no-such-batch").1 == 404)
        served.kill()

        // A batch cancelled before any worker ran it changes nothing.
        let upgrade = try PhotoEditBinary.run(["upgrade", "--library", library, "--as-job", ids[0], ids[1]], environment: f.environment)
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        let second = upgrade.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let cancelled = try PhotoEditBinary.run(["jobs", "cancel", "--library", library, second], environment: f.environment)
        #expect(cancelled.status == 0 && cancelled.stdout.contains("\tcancelled\t0/2 photos"), "\(cancelled.stdout)\(cancelled.stderr)")
        let drained = try PhotoEditBinary.run(["jobs", "work", "--library", library, "--drain"], environment: f.environment)
        #expect(drained.status == 0, "\(drained.stderr)")
        #expect(try await BlockingExecutor.run { try f.library.history(ids[0]) }.count == 2)
        #expect(try await jobs.progress(second).cancelled == 1)

        // A folder library has no jobs: one line, non-zero exit.
        let folder = f.temp.appendingPathComponent("folder").path
        let refused = try PhotoEditBinary.run(["apply", "--library", folder, "--as-job", "exposure=1", "abc"], environment: [:])
        #expect(refused.status != 0 && refused.stderr.contains("needs a library shared through PostgreSQL"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder), "refused before the folder library is created")

        #expect(try await BlockingExecutor.run { try f.library.verify() }.isClean)
        await jobs.close()
    }

    /// The body and status of a GET.
    static func get(_ url: String) async throws -> (Data, Int) {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: URL(string: url)!) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
                }
            }.resume()
        }
    }

}
#endif
