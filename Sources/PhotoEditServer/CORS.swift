// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import HTTPTypes
import Hummingbird

/// Cross-origin access for browsers on other origins (a web app calling the
/// API): the configured origins (or `*`) get `Access-Control-Allow-Origin`
/// on every answer, errors included, and preflight `OPTIONS` requests are
/// answered here, before authentication (a preflight carries no token).
/// No origins configured: no CORS headers, browsers keep other origins out.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: [String]

    static var allowedMethods: String { "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" }
    static var allowedHeaders: String {
        "Authorization, Content-Type, Content-Disposition, If-Match, If-None-Match, Last-Event-ID, X-Request-ID"
    }
    static var exposedHeaders: String { "ETag, Location, Retry-After, X-Request-ID, WWW-Authenticate" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], let allowed = allowedOrigin(origin) else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(status: .noContent, headers: [
                .accessControlAllowOrigin: allowed, .vary: "Origin",
                .accessControlAllowMethods: Self.allowedMethods, .accessControlAllowHeaders: Self.allowedHeaders,
                .accessControlMaxAge: "600",
            ])
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.accessControlAllowOrigin] = allowed
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        if allowed != "*", !response.headers[values: .vary].contains("Origin") {
            response.headers.append(HTTPField(name: .vary, value: "Origin"))
        }
        return response
    }

    /// The value of `Access-Control-Allow-Origin` for `origin`, or nil when it is not allowed.
    func allowedOrigin(_ origin: String) -> String? {
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }
}
#endif
