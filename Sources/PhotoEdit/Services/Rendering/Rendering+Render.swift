import Foundation

extension Rendering {
    /// Writes a version of a photo to `path` (the façade's `render(_:version:to:options:)`).
    func render(_ idOrPrefix: String, version: ImageVersion = .current, to path: String, options: RenderOptions = RenderOptions()) throws {
        let id = try resolve(idOrPrefix)
        let ext = (path as NSString).pathExtension
        let format: OutputFormat
        if let f = options.format {
            format = f
        } else if ext.isEmpty {
            format = .jpeg
        } else if let f = OutputFormat(pathExtension: ext) {
            format = f
        } else {
            throw PhotoEditError.invalidOutput("unknown file extension '.\(ext)' (use .jpg, .png, .tif or .webp, or --format)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard folder.isEmpty || FileIO.isDirectory(folder) else {
            throw PhotoEditError.invalidOutput("cannot write \(path): folder \(folder) does not exist")
        }
        guard options.bitDepth == 8 || options.bitDepth == 16 else {
            throw PhotoEditError.invalidOutput("bit depth \(options.bitDepth) is not 8 or 16")
        }
        if options.bitDepth == 16 && !(format == .png || format == .tiff) {
            throw PhotoEditError.invalidOutput("\(format.rawValue) holds 8 bits per channel; use .png or .tif for 16")
        }
        if case .file(let profile) = options.profile, !FileIO.exists(profile) {
            throw PhotoEditError.invalidOutput("no ICC profile at \(profile)")
        }
        guard (1...100).contains(options.quality) else { throw PhotoEditError.invalidOutput("quality \(options.quality) is out of range (1…100)") }
        if let w = options.maxWidth, w < 1 { throw PhotoEditError.invalidOutput("size must be positive") }
        if let h = options.maxHeight, h < 1 { throw PhotoEditError.invalidOutput("size must be positive") }
        if options.usesRequestGeometry { try options.requestOptions(version: version).validate(targetSize: options.targetSize) }
        let resized = options.maxWidth != nil || options.maxHeight != nil || options.usesRequestGeometry
        let a = try queries.asset(id)
        let original = try originalPath(id)
        let staged = path + ".photoedit-\(UUID().uuidString.prefix(8)).\(format.fileExtension)"
        defer { unlink(staged) }

        // Full size in a lossless format (`--resize none` to PNG or TIFF) of
        // the current version renders from the recipe below: the request
        // path would decode the stored Q92 JPEG render.
        let losslessFullSize = options.resizeMode == ImageResizeMode.none && (format == .png || format == .tiff) && version == .current
            && options.normalizedCropRect == nil
        if options.usesRequestGeometry && options.isDefaultColour && version != .original && !losslessFullSize {
            // As an image request does it: from the stored render or the
            // original file with shrink-on-load, or from a full development.
            let subject = try imageSubject(id, version: version)
            let full = subject.fullSize
            let image = try ImagePipeline.image(from: try ImagePipeline.finalSource(subject, registry: registry, renderer: renderer),
                                                geometry: options.geometry(width: full.width, height: full.height),
                                                resizeMode: options.resizeMode ?? .exact)
            try Renderer.save(image, to: staged, format: format, quality: options.quality, tiffCompression: options.tiffCompression)
            guard rename(staged, path) == 0 else {
                throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            return
        }

        switch version {
        case .original:
            if let raw = try alternatePath(id) {
                // A RAW+JPEG pair's original version is the RAW (PhotoKit's
                // model), developed with the neutral settings, full quality.
                let image = try renderer.render(recipe: .empty, originalPath: raw, output: options)
                try renderer.write(image, to: staged, format: format, options: options)
                break
            }
            if !resized && format.rawValue == a.format && options.isDefaultColour {
                try FileIO.copyFile(from: original, to: path)
                return
            }
            if a.format == "raw" {
                // A RAW's original version: the neutral development, full quality.
                let image = try renderer.render(recipe: .empty, originalPath: original, output: options)
                try renderer.write(image, to: staged, format: format, options: options)
            } else if options.isDefaultColour {
                var image = try Image.load(path: original, sequential: false)
                if (image.int("orientation") ?? 1) != 1 { image = try image.autorotated() }
                try renderer.write(image, to: staged, format: format, options: options)
            } else {
                let image = try renderer.render(recipe: .empty, originalPath: original, output: options)
                try renderer.write(image, to: staged, format: format, options: options)
            }
        case .unadjusted:
            let image = try renderer.render(recipe: .empty, originalPath: original, output: options)
            try renderer.write(image, to: staged, format: format, options: options)
        case .current:
            let stored = try read { db in
                try db.revision(a.revision, of: id)
            }
            let ours = a.adjustmentData.map(Recipe.canHandle) ?? true
            let storedFile = stored?.renderPath.flatMap(files.existingLocalPath)
            // The stored render is a JPEG at the render quality: it serves
            // exactly that file. Any other output of our own recipe (another
            // format, quality, size, depth or profile) renders from the recipe,
            // so a PNG or 16-bit TIFF is not a decoded JPEG.
            let servesStored = !resized && format == .jpeg && options.quality == Renderer.renderQuality
                && options.isDefaultColour && options.bitDepth == 8
            if let file = storedFile, servesStored, file.hasSuffix(".jpg") {
                try FileIO.copyFile(from: file, to: path)
                return
            } else if let file = storedFile, !ours {
                // Another tool's render is the only form of its edit.
                if options.isDefaultColour {
                    try renderer.write(try Image.load(path: file, sequential: !resized), to: staged, format: format, options: options)
                } else {
                    let working = try renderer.workingImage(path: file, randomAccess: false)
                    try renderer.write(try renderer.outputImage(working, options: options), to: staged, format: format, options: options)
                }
            } else {
                // No stored render (unadjusted, or the file is missing), or an
                // output the stored JPEG cannot serve losslessly: build it from
                // the recipe, on the revision's base.
                if let data = a.adjustmentData, !Recipe.canHandle(data) {
                    throw PhotoEditError.library("the render of photo \(id) revision \(a.revision) is missing and its adjustment data ('\(data.formatIdentifier)') is not photoedit's; it cannot be rebuilt")
                }
                let recipe = try a.adjustmentData.map { try Recipe(adjustmentData: $0, registry: registry) } ?? .empty
                let base = try stored?.basePath.map(files.localPath) ?? original
                let image = try renderer.render(recipe: recipe, originalPath: base, output: options)
                try renderer.write(image, to: staged, format: format, options: options)
            }
        }
        guard rename(staged, path) == 0 else {
            throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
