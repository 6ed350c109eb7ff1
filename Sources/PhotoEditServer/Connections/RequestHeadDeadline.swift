// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import NIOCore
import NIOHTTP1

/// A deadline for the request head, as nginx's `client_header_timeout`: a
/// connection must deliver a whole request head within `limit` of opening,
/// and within `limit` of the first byte of each later request on it. A
/// client that dribbles its headers (a byte a second keeps the idle timeout
/// from ever firing) is answered 408 and closed.
///
/// Idle keep-alive connections are the idle timeout's business: between
/// two requests the clock only starts with the next request's first byte.
/// (Bytes of the next request that arrive in the very read that ends the
/// previous one are not timed; the idle timeout still bounds them.)
///
/// Three handlers share one clock on the channel's event loop: the
/// installer (added after Hummingbird's HTTP codec) puts a byte watch first
/// in the pipeline and a message watch right after NIO's HTTP/1 decoder.
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    // Never unwrapped: this handler only installs the other two and passes everything on.
    typealias InboundIn = Never

    private let clock: Clock

    init(limit: TimeAmount) {
        clock = Clock(limit: limit)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        do {
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandler(ByteWatch(clock: clock), position: .first)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(MessageWatch(clock: clock), position: .after(decoder))
        } catch {
            // A pipeline without NIO's HTTP/1 decoder has no head to time.
            context.fireErrorCaught(error)
        }
    }

    /// Where the connection is between requests, and the timer.
    final class Clock {
        enum Phase {
            /// Waiting for a request head that has begun (or for the first
            /// one of a new connection): the timer runs.
            case awaitingHead
            /// A head has arrived; its body (if any) is being read.
            case inRequest
            /// The last request was read whole; the next has not begun.
            case betweenRequests
        }

        let limit: TimeAmount
        var phase = Phase.awaitingHead
        /// A response has begun and not ended (a 408 would corrupt it).
        var responding = false
        /// Bytes of the awaited head have arrived (a connection that sent
        /// nothing is closed without an answer, as a browser's unused
        /// preconnection expects).
        var headBegun = false
        var timer: Scheduled<Void>?
        /// The byte watch's context: writes from it reach the socket as they are.
        var front: ChannelHandlerContext?

        init(limit: TimeAmount) {
            self.limit = limit
        }

        func start(on eventLoop: any EventLoop) {
            timer?.cancel()
            phase = .awaitingHead
            headBegun = false
            let bound = NIOLoopBound(self, eventLoop: eventLoop)
            timer = eventLoop.scheduleTask(in: limit) { bound.value.expire() }
        }

        func stop() {
            timer?.cancel()
            timer = nil
        }

        private func expire() {
            timer = nil
            guard phase == .awaitingHead, let front else { return }
            if !responding && headBegun {
                let answer = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
                front.writeAndFlush(NIOAny(front.channel.allocator.buffer(string: answer)), promise: nil)
            }
            front.close(promise: nil)
        }
    }

    /// First in the pipeline: starts the clock when a connection opens and
    /// when the first byte of a later request arrives.
    final class ByteWatch: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let clock: Clock

        init(clock: Clock) {
            self.clock = clock
        }

        func handlerAdded(context: ChannelHandlerContext) {
            clock.front = context
            if context.channel.isActive { clock.start(on: context.eventLoop) }
        }

        func channelActive(context: ChannelHandlerContext) {
            if clock.timer == nil && clock.phase == .awaitingHead { clock.start(on: context.eventLoop) }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if clock.phase == .betweenRequests { clock.start(on: context.eventLoop) }
            if clock.phase == .awaitingHead { clock.headBegun = true }
            context.fireChannelRead(data)
        }

        func channelInactive(context: ChannelHandlerContext) {
            clock.stop()
            clock.front = nil
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            clock.stop()
            clock.front = nil
        }
    }

    /// After NIO's HTTP/1 decoder: stops the clock at each whole request
    /// head, and follows the response so a 408 never lands inside one.
    final class MessageWatch: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart
        private let clock: Clock

        init(clock: Clock) {
            self.clock = clock
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head:
                clock.stop()
                clock.phase = .inRequest
            case .body:
                break
            case .end:
                clock.phase = .betweenRequests
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            case let .head(head): clock.responding = head.status.code >= 200   // 1xx are interim
            case .body: break
            case .end: clock.responding = false
            }
            context.write(data, promise: promise)
        }
    }
}
#endif
