// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Hummingbird
import NIOCore
import NIOHTTP1

/// `Expect: 100-continue` (RFC 9110 §10.1.1): a client that sends it waits
/// for `100 Continue` before it sends the body — curl does so for every
/// body over 1 MiB, and gives up waiting only after a second. NIO and
/// Hummingbird never send one, so every photo uploaded with curl took a
/// second longer than it needed.
///
/// The `100 Continue` goes out when the route first reads the body
/// (``ExpectContinueMiddleware``), so a request refused before — no token,
/// over `--max-upload` by its `Content-Length`, an unknown route, a server
/// shutting down — is answered at once and its body is never sent. Such an
/// answer closes the connection after it (`Connection: close`): the client
/// may or may not send the body it held back, and the connection cannot be
/// read past it either way. An HTTP/1.0 request's expectation is ignored, as
/// the RFC says; a client that sends its body without waiting gets no
/// `100 Continue`.
///
/// The installer (added after Hummingbird's HTTP codec) puts ``Watch`` right
/// after NIO's HTTP/1 decoder, where a request's HTTP version is still known.
final class ExpectContinue: ChannelInboundHandler, RemovableChannelHandler {
    // Never unwrapped: this handler only installs the watch and passes everything on.
    typealias InboundIn = Never

    /// The event the body's first read sends down the pipeline
    /// (`Channel.triggerUserOutboundEvent`): send the owed `100 Continue` now.
    struct BodyWanted: Sendable {}

    /// Whether an `Expect` header's value asks for `100 Continue`.
    static func asksToContinue(_ value: some StringProtocol) -> Bool {
        value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue" }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        do {
            let pipeline = context.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(Watch(), position: .after(decoder))
        } catch {
            // A pipeline without NIO's HTTP/1 decoder has no head to watch.
            context.fireErrorCaught(error)
        }
    }

    /// Owes a `100 Continue` from a request head that asks for it until the
    /// body is wanted (sent then), the body comes anyway, or a final answer
    /// goes out first (then the connection closes after it). Requests are
    /// answered in order (a pipelining client may send the next head before
    /// the answer to the one before): the oldest unanswered one is the one
    /// whose body a route reads and whose answer goes out.
    final class Watch: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart

        /// The requests not answered yet, oldest first: the version of one
        /// owed a `100 Continue`, nil for one owed none.
        private var unanswered: [HTTPVersion?] = []
        /// A final answer went out while its request was owed one: close after its end.
        private var closeAfterAnswer = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                let http11 = head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
                let asks = http11 && head.headers["expect"].contains(where: ExpectContinue.asksToContinue)
                // Bounded: a client that pipelines heads without reading answers has its
                // reads paused by Hummingbird's back pressure long before this grows.
                unanswered.append(asks ? head.version : nil)
            case .body, .end:
                // The latest request's body comes without waiting (or there is none): nothing to send.
                if !unanswered.isEmpty { unanswered[unanswered.count - 1] = nil }
            }
            context.fireChannelRead(data)
        }

        func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
            guard event is BodyWanted else {
                context.triggerUserOutboundEvent(event, promise: promise)
                return
            }
            if let first = unanswered.first, let version = first {
                unanswered[0] = nil
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .continue))), promise: nil)
            }
            promise?.succeed(())
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            case .head(var head) where !(100..<200).contains(head.status.code) && unanswered.first.map({ $0 != nil }) == true:
                // A final answer before the body was asked for.
                unanswered[0] = nil
                closeAfterAnswer = true
                head.headers.replaceOrAdd(name: "connection", value: "close")
                context.write(wrapOutboundOut(.head(head)), promise: promise)
            case .end:
                if !unanswered.isEmpty { unanswered.removeFirst() }
                guard closeAfterAnswer else {
                    context.write(data, promise: promise)
                    return
                }
                closeAfterAnswer = false
                let written = promise ?? context.eventLoop.makePromise()
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                written.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
                context.write(data, promise: written)
            default:
                context.write(data, promise: promise)
            }
        }
    }
}

/// Sends the owed `100 Continue` (``ExpectContinue``) when a route first
/// reads the body of a request that asked for one, whichever way it reads it.
struct ExpectContinueMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        guard let expect = request.headers[.expect], ExpectContinue.asksToContinue(expect) else {
            return try await next(request, context)
        }
        var request = request
        request.body = RequestBody(asyncSequence: BodyAskedFor(base: request.body, channel: context.channel))
        return try await next(request, context)
    }

    /// A request body that asks for itself on its first read.
    struct BodyAskedFor: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: RequestBody
        let channel: any Channel

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: RequestBody.AsyncIterator
            let channel: any Channel
            var asked = false

            mutating func next() async throws -> ByteBuffer? {
                if !asked {
                    asked = true
                    channel.triggerUserOutboundEvent(ExpectContinue.BodyWanted(), promise: nil)
                }
                return try await base.next()
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), channel: channel) }
    }
}
#endif
