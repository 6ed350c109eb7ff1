// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Hummingbird
import NIOCore

/// `GET /openapi.yaml`: the OpenAPI 3.1 document of this API
/// (Resources/openapi.yaml), no token needed. OpenAPITests and
/// SchemathesisTests keep it and the routes in step.
func addOpenAPIRoute(_ router: Router<ServerContext>) {
    router.get("/openapi.yaml") { _, _ -> Response in
        // The file is read on the executor, not on Swift's cooperative pool.
        let document = try await blocking { () -> Data? in
            guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else { return nil }
            return try? Data(contentsOf: url)
        }
        guard let data = document else { throw Problem(.notFound, code: "not-found", "the OpenAPI document is not installed") }
        return Response(status: .ok, headers: [.contentType: "application/yaml", .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
#endif
