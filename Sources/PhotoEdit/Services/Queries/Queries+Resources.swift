import Foundation

/// The kinds of file behind a photo, as PhotoKit's `PHAssetResourceType`.
public enum AssetResourceType: String, Sendable, CaseIterable {
    /// The original file.
    case photo
    /// The other file of a RAW+JPEG pair (the RAW).
    case alternatePhoto
    /// The full-size render of the current version.
    case fullSizePhoto
    /// The current adjustment data (a JSON document with its three fields).
    case adjustmentData
    /// The image the current adjustments were applied to, when it is not the
    /// original (another tool's render).
    case adjustmentBasePhoto
}

/// One file behind a photo (PhotoKit's `PHAssetResource`).
public struct AssetResource: Hashable, Sendable {
    /// What the file is.
    public let type: AssetResourceType
    /// The photo it belongs to.
    public let assetIdentifier: String
    /// The name the file is exported under.
    public let originalFilename: String
    /// Uniform type identifier of the file.
    public let uniformTypeIdentifier: String
    /// Size in bytes.
    public let fileSize: Int64
    /// The file inside the library (nil for `adjustmentData`, kept in the catalog).
    let relativePath: String?
    let inlineData: Data?
}

extension Queries {
    func resources(for idOrPrefix: String) throws -> [AssetResource] {
        let id = try resolve(idOrPrefix)
        let (a, current) = try read { db -> (AssetRecord, RevisionRecord?) in
            guard let a = try db.asset(id) else { throw PhotoEditError.unknownAsset(idOrPrefix) }
            return (a, try db.revision(a.revision, of: id))
        }
        let stem = ((a.originalFilename as NSString).deletingPathExtension)
        var out = [AssetResource(type: .photo, assetIdentifier: id, originalFilename: a.originalFilename,
                                 uniformTypeIdentifier: a.uniformTypeIdentifier, fileSize: a.fileSize,
                                 relativePath: a.originalPath, inlineData: nil)]
        if let alternate = a.alternatePath {
            out.append(AssetResource(type: .alternatePhoto, assetIdentifier: id, originalFilename: a.alternateFilename ?? "",
                                     uniformTypeIdentifier: a.alternateUniformTypeIdentifier ?? "public.camera-raw-image",
                                     fileSize: a.alternateFileSize ?? 0, relativePath: alternate, inlineData: nil))
        }
        func file(_ type: AssetResourceType, _ relative: String, name: String) {
            let size = files.size(relative) ?? 0
            let ext = (relative as NSString).pathExtension
            out.append(AssetResource(type: type, assetIdentifier: id, originalFilename: "\(name).\(ext)",
                                     uniformTypeIdentifier: Importer.uniformType(forExtension: ext), fileSize: size,
                                     relativePath: relative, inlineData: nil))
        }
        if let current {
            if let render = current.renderPath { file(.fullSizePhoto, render, name: "\(stem)-FullSizeRender") }
            if let data = current.adjustmentData {
                let json = data.document.canonicalData
                out.append(AssetResource(type: .adjustmentData, assetIdentifier: id, originalFilename: "\(stem)-Adjustments.json",
                                         uniformTypeIdentifier: "public.json", fileSize: Int64(json.count), relativePath: nil, inlineData: json))
            }
            if let base = current.basePath, current.baseRevision != nil { file(.adjustmentBasePhoto, base, name: "\(stem)-AdjustmentBase") }
        }
        return out
    }

    func writeResource(_ resource: AssetResource, to path: String) throws {
        if let data = resource.inlineData {
            let temp = path + ".photoedit-\(UUID().uuidString.prefix(8))"
            do {
                try data.write(to: URL(fileURLWithPath: temp))
                guard rename(temp, path) == 0 else { throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))") }
            } catch let error as PhotoEditError {
                unlink(temp); throw error
            } catch {
                unlink(temp); throw PhotoEditError.invalidOutput("cannot write \(path): \(error.localizedDescription)")
            }
            return
        }
        guard let relative = resource.relativePath else { return }
        try FileIO.copyFile(from: try files.localPath(relative), to: path)
    }
}

/// The bytes of one resource, streamed in chunks of at most
/// `ImageData.chunkSize` (PhotoKit's `PHAssetResourceManager.requestData`):
/// iterate it with `for try await chunk in data`, or `collect()` it.
///
/// The file is opened when the request is made, so the bytes stay those of
/// that moment even if the photo is edited or purged while they are read.
public struct ResourceData: AsyncSequence, Sendable {
    public typealias Element = Data
    /// The resource the bytes are.
    public let resource: AssetResource
    /// How many bytes the sequence delivers.
    public let byteCount: Int
    let reader: ChunkReader

    /// An iterator over the chunks.
    public func makeAsyncIterator() -> ImageData.Iterator { ImageData.Iterator(reader: reader) }

    /// All the bytes at once.
    public func collect() async throws -> Data {
        var all = Data(capacity: byteCount)
        for try await chunk in self { all.append(chunk) }
        return all
    }
}

extension Queries {
    func requestData(for resource: AssetResource) throws -> ResourceData {
        if let data = resource.inlineData {
            return ResourceData(resource: resource, byteCount: data.count, reader: ChunkReader(data: data))
        }
        guard let relative = resource.relativePath else {
            return ResourceData(resource: resource, byteCount: 0, reader: ChunkReader(data: Data()))
        }
        do {
            let reader = try ChunkReader(path: try files.localPath(relative))
            return ResourceData(resource: resource, byteCount: reader.byteCount, reader: reader)
        } catch {
            throw PhotoEditError.unreadableFile(path: resource.originalFilename,
                                                reason: "the library's file of this \(resource.type.rawValue) resource cannot be opened; run photoedit verify")
        }
    }
}

extension Importer {
    static func uniformType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "jpg", "jpeg": return "public.jpeg"
        case "png": return "public.png"
        case "tif", "tiff": return "public.tiff"
        case "webp": return "org.webmproject.webp"
        case "heic": return "public.heic"
        case "avif": return "public.avif"
        case "jxl": return "public.jpeg-xl"
        case "gif": return "com.compuserve.gif"
        case "jp2": return "public.jpeg-2000"
        default: return "public.data"
        }
    }
}

extension Queries {
    /// The façade's `xmpSidecar(for:applied:)`: a photo's XMP sidecar.
    func xmpSidecar(for idOrPrefix: String, applied: Bool = false) throws -> XMPSidecar {
        let asset = try asset(idOrPrefix)
        let snapshots = try sidecarSnapshots(of: asset.id)
        guard let data = asset.adjustmentData else { return XMPSidecar(asset: asset, recipe: nil, snapshots: snapshots) }
        guard Recipe.canHandle(data), let recipe = try? Recipe(adjustmentData: data, registry: registry) else {
            return XMPSidecar(asset: asset, recipe: nil, unreadFormat: "\(data.formatIdentifier) \(data.formatVersion)", snapshots: snapshots)
        }
        return XMPSidecar(asset: asset, recipe: recipe, applied: applied, snapshots: snapshots)
    }

    /// A photo's snapshots with the recipes of the revisions they name, for its sidecar.
    private func sidecarSnapshots(of id: String) throws -> [XMPSidecar.Snapshot] {
        let registry = self.registry
        return try read { db in
            try db.snapshots(of: id).map { s in
                let data = try db.revision(s.revision, of: id).map(CatalogModels.revision)?.adjustmentData
                let recipe = data.flatMap { Recipe.canHandle($0) ? try? Recipe(adjustmentData: $0, registry: registry) : nil }
                return XMPSidecar.Snapshot(name: s.name, date: s.date, revision: s.revision, recipe: recipe)
            }
        }
    }
}
