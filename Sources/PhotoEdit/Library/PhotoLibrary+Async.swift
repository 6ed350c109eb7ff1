import Foundation

/// `async` forms of the library's operations. Each runs the synchronous
/// operation on a Dispatch thread, so many tasks can call them at once
/// without blocking Swift's cooperative pool; the catalog and the commit
/// protocol make concurrent calls safe.
extension PhotoLibrary {
    /// `importItems`, off the caller's thread.
    public func importItems(_ paths: [String]) async throws -> [ImportResult] {
        try await offload { try self.importItems(paths) }
    }

    /// `apply(chain:to:reset:removing:)`, off the caller's thread.
    @discardableResult
    public func apply(chain: String, to idOrPrefix: String, reset: Bool = false, removing: [String] = []) async throws -> Revision {
        try await offload { try self.apply(chain: chain, to: idOrPrefix, reset: reset, removing: removing) }
    }

    /// `revert(_:to:)`, off the caller's thread.
    @discardableResult
    public func revert(_ idOrPrefix: String, to revision: Int? = nil) async throws -> Revision {
        try await offload { try self.revert(idOrPrefix, to: revision) }
    }

    /// `render(_:version:to:options:)`, off the caller's thread.
    public func render(_ idOrPrefix: String, version: ImageVersion = .current, to path: String,
                       options: RenderOptions = RenderOptions()) async throws {
        try await offload { try self.render(idOrPrefix, version: version, to: path, options: options) }
    }

    /// `verify(repair:)`, off the caller's thread.
    public func verify(repair: Bool = false) async throws -> VerificationReport {
        try await offload { try self.verify(repair: repair) }
    }
}
