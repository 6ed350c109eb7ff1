// `photoedit serve`: the HTTP server, in a build with the `Server` trait (the default).
#if Server
import ArgumentParser
import Foundation
import Logging
import PhotoEdit
import PhotoEditLocation
import PhotoEditServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library over HTTP (API v1, see docs/http-api.md).",
        discussion: """
        Tokens come from --tokens FILE or $PHOTOEDIT_TOKENS (entries separated by ';'), one entry a line:
          sha256:<hex of the token's SHA-256> read|edit|admin [name]
        `photoedit serve --new-token edit NAME` prints a new token and its entry. Without tokens the \
        server only listens on loopback and asks for no authentication.
        Render URLs signed with a key (GET /v1/assets/ID/render-url) are fetched without a token. \
        Keys come from --signing-keys FILE or $PHOTOEDIT_SIGNING_KEYS, one `ID:<hex secret>` a line, \
        the signing key first (`--new-signing-key ID` prints one).
        On a library shared through PostgreSQL the server also runs a job worker (batch work enqueued by \
        `photoedit apply|upgrade --as-job` on any node; progress at GET /v1/jobs/BATCH).
        SIGTERM or SIGINT: requests in flight finish, new ones are refused, exit 0.
        """)
    @OptionGroup var options: LibraryOptions
    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port (0: any free port).") var port = 8080
    @Option(help: ArgumentHelp("Token file.", valueName: "FILE")) var tokens: String?
    @Option(help: ArgumentHelp("Largest upload in bytes.", valueName: "BYTES")) var maxUpload: Int64 = 256 << 20
    @Option(help: ArgumentHelp("Largest render in pixels.", valueName: "PIXELS")) var maxRenderPixels = 64_000_000
    @Option(help: ArgumentHelp("Renders waiting before 429.", valueName: "N")) var renderQueue = 32
    @Option(help: ArgumentHelp("Seconds before a request is answered 503.", valueName: "SECONDS")) var timeout = 120
    @Option(help: ArgumentHelp("Seconds a request head (request line and headers) may take to arrive; then 408 and the connection closes.",
                               valueName: "SECONDS"))
    var headerTimeout = 10
    @Option(help: ArgumentHelp("Change-feed event streams open at once.", valueName: "N")) var maxStreams = 64
    @Option(help: ArgumentHelp("Change-feed event streams one token (or one address, without tokens) may hold open.", valueName: "N"))
    var maxStreamsPerClient = 16
    @Option(help: ArgumentHelp("Print a new token for SCOPE (read, edit, admin) and its token-file entry, then exit.", valueName: "SCOPE"))
    var newToken: String?
    @Option(help: ArgumentHelp("Render URL signing keys file (ID:HEX a line; the first signs).", valueName: "FILE"))
    var signingKeys: String?
    @Option(help: ArgumentHelp("An origin browsers may call the API from (https://app.example, or * for any); repeat for several.", valueName: "ORIGIN"))
    var corsOrigin: [String] = []
    @Option(help: ArgumentHelp("Print a new signing key entry named ID, then exit.", valueName: "ID"))
    var newSigningKey: String?
    @Option(help: ArgumentHelp("Log lines on stderr: text (key=value metadata) or json (one object a line).", valueName: "FORMAT"))
    var logFormat = "text"
    @Option(help: ArgumentHelp("On a library shared through PostgreSQL: seconds a job claim lasts without renewal (0: run no worker).",
                               valueName: "SECONDS"))
    var jobLease: Double = 30

    func run() async throws {
        if let newToken {
            guard let scope = Scope(name: newToken) else {
                Output.error("--new-token takes read, edit or admin (got '\(newToken)')")
                throw ExitCode(1)
            }
            let token = TokenStore.newToken()
            Output.line(token)
            Output.line(TokenStore.entry(for: token, scope: scope, name: "\(scope.name)-token"))
            return
        }
        if let newSigningKey {
            let entry = URLSigner.newKeyEntry(id: newSigningKey)
            do { _ = try URLSigner(text: entry, source: "--new-signing-key") } catch let error as ServerSetupError {
                Output.error(error.description)
                throw ExitCode(1)
            }
            Output.line(entry)
            return
        }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.corsOrigins = corsOrigin
        configuration.port = port
        configuration.maxUploadBytes = maxUpload
        configuration.maxRenderPixels = maxRenderPixels
        configuration.renderQueueDepth = renderQueue
        guard (1...3600).contains(timeout) else {
            Output.error("--timeout takes 1 to 3600 seconds (got \(timeout))")
            throw ExitCode(1)
        }
        configuration.requestTimeout = .seconds(timeout)
        guard (1...3600).contains(headerTimeout) else {
            Output.error("--header-timeout takes 1 to 3600 seconds (got \(headerTimeout))")
            throw ExitCode(1)
        }
        configuration.headerTimeout = .seconds(headerTimeout)
        guard (1...100_000).contains(maxStreams), (1...maxStreams).contains(maxStreamsPerClient) else {
            Output.error("--max-streams takes 1 to 100000, and --max-streams-per-client 1 to --max-streams (got \(maxStreams) and \(maxStreamsPerClient))")
            throw ExitCode(1)
        }
        configuration.maxEventStreams = maxStreams
        configuration.maxEventStreamsPerClient = maxStreamsPerClient
        let library: PhotoLibrary
        var jobs: LibraryJobs?
        do {
            if let tokens {
                guard let text = try? String(contentsOfFile: tokens, encoding: .utf8) else {
                    throw ServerSetupError("cannot read the token file \(tokens)")
                }
                configuration.tokens = try TokenStore(text: text, source: tokens)
            } else if let text = ProcessInfo.processInfo.environment["PHOTOEDIT_TOKENS"] {
                configuration.tokens = try TokenStore(text: text, source: "PHOTOEDIT_TOKENS")
            }
            if let signingKeys {
                guard let text = try? String(contentsOfFile: signingKeys, encoding: .utf8) else {
                    throw ServerSetupError("cannot read the signing key file \(signingKeys)")
                }
                configuration.signer = try URLSigner(text: text, source: signingKeys)
            } else if let text = ProcessInfo.processInfo.environment["PHOTOEDIT_SIGNING_KEYS"] {
                configuration.signer = try URLSigner(text: text, source: "PHOTOEDIT_SIGNING_KEYS")
            }
            if configuration.tokens.isEmpty && !["127.0.0.1", "::1", "localhost"].contains(host) {
                throw ServerSetupError("listening on \(host) needs API tokens (--tokens FILE or $PHOTOEDIT_TOKENS)")
            }
            guard jobLease == 0 || (1...3600).contains(jobLease) else { throw ServerSetupError("--job-lease is 0 or 1 to 3600 seconds") }
            library = try options.open()
            if case let .distributed(location) = try options.location() {
                let opened = try await LibraryJobs.open(location, library: library, derivatives: LibraryJobs.previews)
                configuration.jobs = ServedJobs(jobs: opened)
                jobs = opened
            }
        } catch let error as ServerSetupError {
            Output.error(error.description)
            throw ExitCode(1)
        } catch let error as PhotoEditError {
            Output.error(error.description)
            throw ExitCode(1)
        }
        guard ["text", "json"].contains(logFormat) else {
            Output.error("--log-format takes text or json (got '\(logFormat)')")
            throw ExitCode(1)
        }
        var logger = logFormat == "json"
            ? Logger(label: "photoedit") { JSONLogHandler(label: $0) }
            : Logger(label: "photoedit") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = ProcessInfo.processInfo.environment["PHOTOEDIT_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
        let authenticated = !configuration.tokens.isEmpty
        let app = makeServer(library: library, configuration: configuration, logger: logger) { port in
            // One line a script can wait for.
            Output.line("listening on http://\(host):\(port)\(authenticated ? "" : " (no authentication: loopback only)")")
            fflush(nil)
        }
        let lease = Duration.milliseconds(Int(jobLease * 1000))
        let workerLogger = logger
        let worker = jobLease == 0 ? nil : jobs.map { jobs in Task { await Self.runJobs(jobs, lease: lease, logger: workerLogger) } }
        var failure: (any Error)?
        do { try await app.runService() } catch { failure = error }
        // A job this node was running is taken over by another node when its lease ends.
        worker?.cancel()
        if let error = failure {
            Output.error("serve: \(error)")
            throw ExitCode(1)
        }
    }
}

extension ServeCommand {
    /// Runs the library's jobs until cancelled; a failure of the job table
    /// (the catalog unreachable) is logged and the worker starts again.
    static func runJobs(_ jobs: LibraryJobs, lease: Duration, logger: Logger) async {
        let worker = jobs.worker(lease: lease)
        logger.info("job worker running", metadata: ["worker": .string(worker.name)])
        while !Task.isCancelled {
            do {
                try await worker.run()
            } catch is CancellationError {
                return
            } catch {
                logger.error("job worker: \(error)")
                try? await Task.sleep(for: .seconds(5))
            }
        }
    }
}
#endif
