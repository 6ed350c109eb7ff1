import Foundation
import Testing
@testable import PhotoEdit

/// Image requests and the caching image manager (PhotoKit's
/// `PHImageManager` / `PHCachingImageManager`): sizes, crops, delivery
/// modes, cancellation, shared work, the revision key, the disk cache's LRU,
/// prefetching, image data, and the CLI's render and thumbs.
@Suite("Image requests and the caching image manager")
struct ImageRequestTests {
    /// A library with the given samples imported; ids in order.
    static func library(_ samples: [String]) throws -> (TemporaryDirectory, PhotoLibrary, [String]) {
        let temp = TemporaryDirectory("photoedit-requests")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try library.importItems(samples).map { try #require($0.id, "\($0.error.map(\.description) ?? "")") }
        return (temp, library, ids)
    }

    /// The one result of a synchronous high-quality request.
    static func final(_ manager: ImageManager, _ id: String, _ target: ImageSize, _ mode: ImageContentMode = .aspectFit,
                      _ options: ImageRequestOptions = ImageRequestOptions()) throws -> ImageResult {
        var o = options
        o.isSynchronous = true
        if o.deliveryMode == .opportunistic { o.deliveryMode = .highQuality }
        let request = try manager.requestImage(for: id, targetSize: target, contentMode: mode, options: o)
        let result = try #require(request.finalResult)
        if let error = result.info.error { throw error }
        return result
    }

    static func image(_ manager: ImageManager, _ id: String, _ target: ImageSize, _ mode: ImageContentMode = .aspectFit,
                      _ options: ImageRequestOptions = ImageRequestOptions()) throws -> RenderedImage {
        try #require(try final(manager, id, target, mode, options).image)
    }

    /// All results of a request, in order.
    static func results(_ request: ImageRequest) async -> [ImageResult] {
        var out: [ImageResult] = []
        for await r in request { out.append(r) }
        return out
    }

    @Test func sizesForEveryContentModeAndResizeMode() throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg"), Paths.sample("rotated-exif.jpg"), Paths.sample("chart.png")])
        defer { withExtendedLifetime(temp) {} }
        let manager = ImageManager(library: library)
        let box = ImageSize(width: 200, height: 200)
        // coffee.jpg and rotated-exif.jpg are 600×400 as displayed; chart.png 512×256.
        for (id, full) in [(ids[0], (600, 400)), (ids[1], (600, 400)), (ids[2], (512, 256))] {
            let fitExact = (200, Int((200.0 * Double(full.1) / Double(full.0)).rounded()))
            let fillExact = (Int((200.0 * Double(full.0) / Double(full.1)).rounded()), 200)
            for mode in ImageContentMode.allCases {
                for resize in ImageResizeMode.allCases {
                    let image = try Self.image(manager, id, box, mode, ImageRequestOptions(resizeMode: resize))
                    let label = "\(id.prefix(6)) \(mode) \(resize): \(image.width)×\(image.height)"
                    let decoded = try image.image()
                    #expect(decoded.width == image.width && decoded.height == image.height, "\(label): decoded size")
                    #expect((decoded.int("orientation") ?? 1) == 1, "\(label): upright")
                    let exact = mode == .aspectFit ? fitExact : fillExact
                    switch resize {
                    case .none:
                        #expect(image.width == full.0 && image.height == full.1, "\(label): full size")
                    case .exact:
                        #expect(image.width == exact.0 && image.height == exact.1, "\(label): exact is \(exact)")
                    case .fast:
                        #expect(image.width >= exact.0 && image.height >= exact.1, "\(label): fast is at least \(exact)")
                        #expect(image.width <= full.0 && image.height <= full.1, "\(label): never enlarged")
                    }
                }
            }
        }
        // A JPEG's fast size is a shrink-on-load scale: 600×400 / 2 covers 200×133.
        let fast = try Self.image(manager, ids[0], box, .aspectFit, ImageRequestOptions(resizeMode: .fast))
        #expect(fast.width == 300 && fast.height == 200, "\(fast.width)×\(fast.height)")
        // A rotated original is delivered upright: landscape, like its displayed size.
        let rotated = try Self.image(manager, ids[1], ImageSize(width: 300, height: 100), .aspectFit, ImageRequestOptions(resizeMode: .exact))
        #expect(rotated.width == 150 && rotated.height == 100, "\(rotated.width)×\(rotated.height)")
        // Never enlarged beyond the full size.
        let big = try Self.image(manager, ids[0], ImageSize(side: 5000), .aspectFit, ImageRequestOptions(resizeMode: .exact))
        #expect(big.width == 600 && big.height == 400)
    }

    @Test func cropMatchesTheSameRegionOfTheFullRender() throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg"), Paths.sample("rotated-exif.jpg")])
        defer { withExtendedLifetime(temp) {} }
        try library.apply(chain: "exposure=+0.4,saturation=-50", to: ids[0])
        let manager = ImageManager(library: library)
        let crop = NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.5)   // 300×200 at (150, 200)
        for (id, version) in [(ids[0], ImageVersion.current), (ids[1], .unadjusted)] {
            let options = ImageRequestOptions(version: version, resizeMode: .exact, normalizedCropRect: crop)
            let image = try Self.image(manager, id, ImageSize(width: 150, height: 150), .aspectFit, options)
            #expect(image.width == 150 && image.height == 100, "\(image.width)×\(image.height)")
            // The same region of the full-size render of that version, scaled the same way.
            let fullPath = temp.file("\(id)-full.png")
            try library.render(id, version: version, to: fullPath)
            let expected = try Pixels.load(fullPath).extractArea(left: 150, top: 200, width: 300, height: 200)
                .thumbnail(width: 150, height: 100)
            let difference = try Pixels.deltaE(try image.image(), expected)
            #expect(difference.mean < 1.5, "\(version): mean ΔE \(difference.mean)")
            // Another region really differs (the comparison can fail).
            let elsewhere = try Pixels.load(fullPath).extractArea(left: 0, top: 0, width: 300, height: 200).thumbnail(width: 150, height: 100)
            #expect(try Pixels.deltaE(try image.image(), elsewhere).mean > 3, "\(version): the crop is not the top-left corner")
        }
        // A crop needs the exact resize mode, and must lie inside 0…1.
        expectPhotoEditError("crop with fast resizing", {
            _ = try manager.requestImage(for: ids[0], targetSize: ImageSize(side: 100),
                                         options: ImageRequestOptions(resizeMode: .fast, normalizedCropRect: crop))
        }, matches: { $0 == .invalidOutput("a crop rectangle needs the exact resize mode (got fast)") })
        expectPhotoEditError("crop outside the image", {
            _ = try manager.requestImage(for: ids[0], targetSize: ImageSize(side: 100),
                                         options: ImageRequestOptions(resizeMode: .exact, normalizedCropRect: NormalizedRect(x: 0.6, y: 0, width: 0.5, height: 1)))
        }, matches: { if case .invalidOutput(let m) = $0 { m.contains("not inside 0…1") } else { false } })
    }

    @Test func opportunisticDeliversDegradedThenFinalAndHighQualityOnlyTheFinal() async throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg")])
        defer { withExtendedLifetime(temp) {} }
        let manager = ImageManager(library: library)
        let target = ImageSize(side: 300)
        let progress = Locked<[Double]>([])
        let options = ImageRequestOptions(resizeMode: .exact, progressHandler: { p, _ in progress.mutate { $0.append(p) } })
        let first = try manager.requestImage(for: ids[0], targetSize: target, options: options)
        let results = await Self.results(first)
        #expect(results.map(\.info.isDegraded) == [true, false], "\(results.map(\.info))")
        #expect(results.allSatisfy { $0.info.requestID == first.id && $0.info.error == nil && !$0.info.isCancelled })
        let degraded = try #require(results.first?.image), final = try #require(results.last?.image)
        #expect(degraded.width < final.width, "degraded \(degraded.width) < final \(final.width)")
        #expect(final.width == 300 && final.height == 200)
        #expect(progress.value == [0, 0.5, 1])

        // The final image is cached now: one result, the final one.
        let again = await Self.results(try manager.requestImage(for: ids[0], targetSize: target, options: options))
        #expect(again.count == 1 && again[0].info.isDegraded == false && again[0].info.isFromCache)

        // High quality: only the final image, even when nothing is cached.
        let fresh = ImageManager(library: library)
        let hq = await Self.results(try fresh.requestImage(for: ids[0], targetSize: ImageSize(side: 120),
                                                           options: ImageRequestOptions(deliveryMode: .highQuality, resizeMode: .exact)))
        #expect(hq.count == 1 && hq[0].info.isDegraded == false && hq[0].image?.width == 120, "\(hq.map(\.info))")
        #expect(fresh.statistics.degradedRenders == 0)
    }

    @Test func rawPreviewIsDegradedAndNeverServedAsFinal() async throws {
        let (temp, library, ids) = try Self.library([Paths.rawFixture("coffee.dng")])
        defer { withExtendedLifetime(temp) {} }
        let manager = ImageManager(library: library)
        let target = ImageSize(side: 100)
        let fast = await Self.results(try manager.requestImage(for: ids[0], targetSize: target,
                                                               options: ImageRequestOptions(deliveryMode: .fast, resizeMode: .exact)))
        #expect(fast.count == 1 && fast[0].info.isDegraded, "fast delivery of a RAW is its preview: \(fast.map(\.info))")
        // The preview is cached under its own key: a high-quality request develops the RAW fully.
        let hq = try Self.final(manager, ids[0], target, .aspectFit, ImageRequestOptions(resizeMode: .exact))
        #expect(hq.info.isDegraded == false && hq.info.isFromCache == false)
        #expect(manager.statistics.renders == 1 && manager.statistics.degradedRenders == 1, "\(manager.statistics)")
    }

    @Test func originalOfARawJPEGPairIsTheRawsDevelopment() throws {
        let folder = try Paths.rawJPEGPairFolder()
        let library = try PhotoLibrary(url: folder.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([folder.file("IMG_0042.JPG"), folder.file("IMG_0042.DNG")]).first?.id)
        let manager = ImageManager(library: library)
        let target = ImageSize(side: 120)
        let exact = ImageRequestOptions(resizeMode: .exact)
        var original = exact, unadjusted = exact
        original.version = .original
        unadjusted.version = .unadjusted
        let raw = try Self.image(manager, id, target, .aspectFit, original)
        let jpeg = try Self.image(manager, id, target, .aspectFit, unadjusted)
        // Each is closer to the library's own render of its version than to the other version's.
        var renders: [ImageVersion: Image] = [:]
        for version in [ImageVersion.original, .unadjusted] {
            let path = folder.file("\(version).png")
            try library.render(id, version: version, to: path, options: RenderOptions(maxWidth: 120, maxHeight: 120))
            renders[version] = try Pixels.load(path)
        }
        let (rawRender, jpegRender) = (try #require(renders[.original]), try #require(renders[.unadjusted]))
        let rawSame = try Pixels.deltaE(try raw.image(), rawRender).mean, rawOther = try Pixels.deltaE(try raw.image(), jpegRender).mean
        let jpegSame = try Pixels.deltaE(try jpeg.image(), jpegRender).mean, jpegOther = try Pixels.deltaE(try jpeg.image(), rawRender).mean
        // JPEG Q90 of a noisy half-demosaiced RAW costs about ΔE 2.
        #expect(rawSame < 3 && rawSame < rawOther, "original: ΔE \(rawSame) to the RAW, \(rawOther) to the JPEG")
        #expect(jpegSame < 2 && jpegSame < jpegOther, "unadjusted: ΔE \(jpegSame) to the JPEG, \(jpegOther) to the RAW")
        // The fast delivery of a pair's original is the RAW's preview (when nothing is cached).
        try FileManager.default.removeItem(atPath: library.url.path + "/cache/images")
        var fast = original
        fast.deliveryMode = .fast
        #expect(try Self.final(ImageManager(library: library), id, target, .aspectFit, fast).info.isDegraded)
    }

    @Test func cancelledRequestEndsWithACancelledResult() async throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg")])
        defer { withExtendedLifetime(temp) {} }
        let gate = DispatchSemaphore(value: 0)
        let manager = ImageManager(library: library, configuration: ImageCacheConfiguration(), beforeCompute: { _ in gate.wait() })
        let request = try manager.requestImage(for: ids[0], targetSize: ImageSize(side: 100),
                                               options: ImageRequestOptions(deliveryMode: .highQuality, resizeMode: .exact))
        manager.cancelImageRequest(request.id)
        gate.signal()
        let results = await Self.results(request)
        #expect(results.count == 1 && results[0].info.isCancelled && results[0].image == nil, "\(results.map(\.info))")
        #expect(request.finalResult?.info.isCancelled == true)
        manager.cancelImageRequest(request.id)   // already finished: nothing happens
    }

    @Test func concurrentRequestsForTheSameImageShareOneComputation() async throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg")])
        defer { withExtendedLifetime(temp) {} }
        let joined = DispatchSemaphore(value: 0)
        let manager = ImageManager(library: library, configuration: ImageCacheConfiguration(), beforeCompute: { _ in
            _ = joined.wait(timeout: .now() + 120)   // hold the work until the second request joined it
        })
        let options = ImageRequestOptions(deliveryMode: .highQuality, resizeMode: .exact)
        let a = try manager.requestImage(for: ids[0], targetSize: ImageSize(side: 200), options: options)
        let b = try manager.requestImage(for: ids[0], targetSize: ImageSize(side: 200), options: options)
        // Polled without suspending: a resumed task may wait for a thread longer than the hold.
        for _ in 0..<12000 where manager.statistics.sharedWork == 0 { usleep(5_000) }
        joined.signal()
        let ra = await Self.results(a), rb = await Self.results(b)
        #expect(manager.statistics.sharedWork == 1 && manager.statistics.renders == 1, "\(manager.statistics)")
        #expect(ra.count == 1 && rb.count == 1 && a.id != b.id)
        #expect(ra[0].image != nil && ra[0].image == rb[0].image, "both got the one image")
    }

    @Test func anEditMakesCachedImagesOfTheOldRevisionUnreachable() throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg")])
        defer { withExtendedLifetime(temp) {} }
        let manager = ImageManager(library: library)
        let target = ImageSize(side: 128)
        let options = ImageRequestOptions(resizeMode: .exact)
        let before = try Self.image(manager, ids[0], target, .aspectFit, options)
        let unadjusted = ImageRequestOptions(version: .unadjusted, resizeMode: .exact)
        _ = try Self.image(manager, ids[0], target, .aspectFit, unadjusted)
        #expect(try Self.final(manager, ids[0], target, .aspectFit, options).info.isFromCache)

        try library.apply(chain: "exposure=-2", to: ids[0])
        let after = try Self.final(manager, ids[0], target, .aspectFit, options)
        #expect(after.info.isFromCache == false, "the edit's revision is a new key")
        let mean = { (image: RenderedImage) in try image.image().average() }
        #expect(try mean(try #require(after.image)) < mean(before) - 20, "the new image shows the edit")
        // Also through another manager (the disk cache) and another process's view.
        let other = ImageManager(library: library)
        let fromDisk = try Self.final(other, ids[0], target, .aspectFit, options)
        #expect(fromDisk.info.isFromCache && fromDisk.image == after.image)
        // The unadjusted version does not depend on edits: still cached.
        #expect(try Self.final(manager, ids[0], target, .aspectFit, unadjusted).info.isFromCache)
    }

    @Test func diskCacheEvictsTheLeastRecentlyUsedUnderItsByteBound() throws {
        let temp = TemporaryDirectory("photoedit-requests")
        var files: [String] = []
        for seed in 0..<4 {
            let path = temp.file("p\(seed).png")
            try Pixels.writeSyntheticPNG(to: path, seed: seed * 31 + 5, width: 96, height: 64)
            files.append(path)
        }
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try library.importItems(files).map { try #require($0.id) }
        let target = ImageSize(side: 64)
        let options = ImageRequestOptions(resizeMode: .exact)
        // Sizes of the four cached files, measured with an unbounded cache.
        let sizer = ImageManager(library: library)
        let sizes = try ids.map { try Self.image(sizer, $0, target, .aspectFit, options).data.count }
        try FileManager.default.removeItem(atPath: library.url.path + "/cache/images")

        let limit = sizes[0] + sizes[1] + sizes[2] + sizes[3] / 2
        let manager = ImageManager(library: library, configuration: ImageCacheConfiguration(memoryLimit: 0, diskLimit: limit))
        let keyPath = { (i: Int) in
            manager.disk.path(ImageCacheKey(try library.imageSubject(ids[i], version: .current), target: target,
                                            contentMode: .aspectFit, resizeMode: .exact, crop: nil, degraded: false))
        }
        for i in 0..<3 { _ = try Self.image(manager, ids[i], target, .aspectFit, options) }
        #expect(try (0..<3).allSatisfy { FileIO.exists(try keyPath($0)) }, "three fit")
        #expect(manager.statistics.evictions == 0)
        // Photo 0 is used again (a disk hit: memory holds nothing), then photo 3 overflows the bound.
        #expect(try Self.final(manager, ids[0], target, .aspectFit, options).info.isFromCache)
        _ = try Self.image(manager, ids[3], target, .aspectFit, options)
        #expect(manager.statistics.evictions >= 1)
        #expect(!FileIO.exists(try keyPath(1)), "photo 1, the least recently used, is evicted")
        let (kept0, kept3) = (try keyPath(0), try keyPath(3))
        #expect(FileIO.exists(kept0) && FileIO.exists(kept3), "the recently used stay")
        let total = try Hashing.tree(library.url.path + "/cache/images").keys
            .map { try FileManager.default.attributesOfItem(atPath: library.url.path + "/cache/images/" + $0)[.size] as? Int ?? 0 }
            .reduce(0, +)
        #expect(total <= limit, "\(total) bytes ≤ \(limit)")
        // An evicted image is simply rebuilt.
        #expect(try Self.final(manager, ids[1], target, .aspectFit, options).info.isFromCache == false)
    }

    @Test func deletingOrDamagingTheCacheLosesNothing() async throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        defer { withExtendedLifetime(temp) {} }
        try await BlockingExecutor.run { try library.apply(chain: "crop=16:9", to: ids[1]) }
        let manager = ImageManager(library: library)
        let target = ImageSize(side: 160)
        let options = ImageRequestOptions(resizeMode: .exact)
        try manager.startCaching(ids, targetSize: target, options: options)
        await manager.waitForCaching()
        #expect(manager.statistics.prefetched == 2 && manager.statistics.renders == 2, "\(manager.statistics)")
        let cached = try ids.map { try Self.final(manager, $0, target, .aspectFit, options) }
        let allCached = cached.allSatisfy { $0.info.isFromCache }
        #expect(allCached, "prefetched images come from the cache")
        let problems = try await BlockingExecutor.run { try library.verify() }.problems
        #expect(problems == [], "verify does not mind cache files")

        // Damaged on disk (a partial file): ignored and rebuilt.
        let fresh = ImageManager(library: library)
        let file = fresh.disk.path(ImageCacheKey(try library.imageSubject(ids[0], version: .current), target: target,
                                                  contentMode: .aspectFit, resizeMode: .exact, crop: nil, degraded: false))
        let bytes = try #require(FileManager.default.contents(atPath: file))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: file))
        let rebuilt = try Self.final(fresh, ids[0], target, .aspectFit, options)
        #expect(rebuilt.info.isFromCache == false && rebuilt.image == cached[0].image)
        #expect(FileManager.default.contents(atPath: file) == cached[0].image?.data, "the cache file is whole again")

        // The whole cache folder deleted: everything comes back the same.
        try FileManager.default.removeItem(atPath: library.url.path + "/cache")
        let again = ImageManager(library: library)
        for (id, before) in zip(ids, cached) {
            let r = try Self.final(again, id, target, .aspectFit, options)
            #expect(r.info.isFromCache == false && r.image == before.image)
        }
        let problemsAfter = try await BlockingExecutor.run { try library.verify() }.problems
        #expect(problemsAfter == [])
    }

    @Test func prefetchWaitsWhileARequestIsWorkedOn() async throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg"), Paths.sample("astronaut.jpg")])
        defer { withExtendedLifetime(temp) {} }
        // The held part has no suspension point: on a loaded machine (CI, 2
        // cores, every suite at once) a resumed task may wait longer for a
        // thread than any hold, and a hold that times out lets the prefetch
        // start, so the test waits on semaphores and sleeps its own thread.
        let hold = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let manager = ImageManager(library: library, configuration: ImageCacheConfiguration(prefetchConcurrency: 2), beforeCompute: { key in
            if key.width == 333 { started.signal(); _ = hold.wait(timeout: .now() + 300) }
        })
        let foreground = try manager.requestImage(for: ids[0], targetSize: ImageSize(side: 333),
                                                  options: ImageRequestOptions(deliveryMode: .highQuality, resizeMode: .exact))
        let began = started.wait(timeout: .now() + 120)
        #expect(began == .success, "the foreground request starts its render")
        try manager.startCaching(ids, targetSize: ImageSize(side: 100), options: ImageRequestOptions(resizeMode: .exact))
        usleep(300_000)
        let whileHeld = manager.statistics
        hold.signal()
        #expect(whileHeld.prefetched == 0 && whileHeld.renders == 0, "nothing prefetched while a request runs: \(whileHeld)")
        #expect(await Self.results(foreground).first?.image?.width == 333)
        await manager.waitForCaching()
        #expect(manager.statistics.prefetched == 3 && manager.statistics.renders == 4, "\(manager.statistics)")

        // stopCaching drops what is queued and what memory holds.
        manager.stopCaching(ids, targetSize: ImageSize(side: 100), options: ImageRequestOptions(resizeMode: .exact))
        #expect(manager.memory.count == 1, "only the foreground image is left in memory")
        manager.stopCachingAll()
        #expect(manager.memory.count == 0)
    }

    @Test func imageDataIsTheVersionsFile() async throws {
        let (temp, library, ids) = try Self.library([Paths.sample("coffee.jpg"), Paths.sample("chelsea.avif")])
        defer { withExtendedLifetime(temp) {} }
        try await BlockingExecutor.run { try library.apply(chain: "exposure=+0.3", to: ids[0]) }
        let manager = ImageManager(library: library)
        let original = try await BlockingExecutor.run { try manager.requestImageData(for: ids[0], options: ImageRequestOptions(version: .original)) }
        #expect(original.uniformTypeIdentifier == "public.jpeg")
        #expect(try await original.collect() == FileManager.default.contents(atPath: Paths.sample("coffee.jpg")))
        let current = try await BlockingExecutor.run { try manager.requestImageData(for: ids[0]) }
        let render = try #require(await BlockingExecutor.run { try library.resources(for: ids[0]) }.first { $0.type == .fullSizePhoto })
        let currentBytes = try await current.collect()
        #expect(currentBytes.count == Int(render.fileSize) && current.byteCount == currentBytes.count)
        #expect(JPEGHeader.size(of: currentBytes)?.width == 600)
        // Unadjusted: rendered upright to a JPEG; an unedited current version is the original file.
        let unadjusted = try await BlockingExecutor.run { try manager.requestImageData(for: ids[1], options: ImageRequestOptions(version: .unadjusted)) }.collect()
        #expect(JPEGHeader.size(of: unadjusted).map { [$0.width, $0.height] } == [451, 300])
        let avif = try await BlockingExecutor.run { try manager.requestImageData(for: ids[1]) }
        #expect(avif.uniformTypeIdentifier == "public.avif" && avif.byteCount == FileManager.default.contents(atPath: Paths.sample("chelsea.avif"))?.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.url.path + "/tmp").isEmpty, "no staging file left")
    }

    /// Resources read as streams (issue 10 §3: a server has no path to
    /// write to): every resource of an edited RAW+JPEG pair streams the bytes
    /// `writeResource` writes, in chunks of at most 256 KiB; a stream opened
    /// before a purge still delivers every byte.
    @Test func resourcesStream() async throws {
        let folder = TemporaryDirectory("photoedit-resource-streams")
        try FileManager.default.copyItem(atPath: Paths.rawFixture("coffee.dng"), toPath: folder.file("IMG_0042.DNG"))
        try FileManager.default.copyItem(atPath: Paths.rawFixture("coffee.jpg"), toPath: folder.file("IMG_0042.JPG"))
        let (temp, library, ids) = try Self.library([folder.file("IMG_0042.JPG"), folder.file("IMG_0042.DNG")])
        defer { withExtendedLifetime(temp) {} }
        let id = ids[0]
        try await BlockingExecutor.run { try library.apply(chain: "exposure=+0.3", to: id) }
        let resources = try await BlockingExecutor.run { try library.resources(for: id) }
        #expect(Set(resources.map(\.type)) == [.photo, .alternatePhoto, .fullSizePhoto, .adjustmentData])
        for resource in resources {
            let written = temp.file("written-\(resource.type.rawValue)")
            try await BlockingExecutor.run { try library.writeResource(resource, to: written) }
            let stream = try await BlockingExecutor.run { try library.requestData(for: resource) }
            var chunks: [Data] = []
            for try await chunk in stream { chunks.append(chunk) }
            #expect(chunks.allSatisfy { !$0.isEmpty && $0.count <= ImageData.chunkSize })
            let bytes = chunks.reduce(Data(), +)
            #expect(bytes == FileManager.default.contents(atPath: written), "\(resource.type)")
            #expect(stream.byteCount == bytes.count && Int64(bytes.count) == resource.fileSize, "\(resource.type)")
        }
        // A file of several chunks (455 KB).
        let big = try #require(try await BlockingExecutor.run { try library.importItems([Paths.sample("chelsea-16bit.png")]) }.first?.id)
        let bigOriginal = try #require(try await BlockingExecutor.run { try library.resources(for: big) }.first { $0.type == .photo })
        var counts: [Int] = []
        let bigData = try await BlockingExecutor.run { try library.requestData(for: bigOriginal) }
        for try await chunk in bigData { counts.append(chunk.count) }
        #expect(counts.count == 2 && counts[0] == ImageData.chunkSize && counts.reduce(0, +) == Int(bigOriginal.fileSize))
        // Opened, then the photo is purged: the bytes are still those of the request.
        let original = try #require(resources.first { $0.type == .photo })
        let open = try await BlockingExecutor.run { try library.requestData(for: original) }
        try await BlockingExecutor.run { try library.performChanges { try $0.changeRequest(for: id).delete() } }
        try await BlockingExecutor.run { try library.performChanges { try $0.changeRequest(for: id).purge() } }
        #expect(try await open.collect() == FileManager.default.contents(atPath: folder.file("IMG_0042.JPG")))
        // Asked after the purge: a one-line error naming the file, not the library's path.
        expectPhotoEditError("resource after purge", { _ = try library.requestData(for: original) }, matches: {
            if case let .unreadableFile(path, _) = $0 { return path == "IMG_0042.JPG" } else { return false }
        })
    }

    @Test func cliRenderWithSizeModeResizeAndCropAndThumbs() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("rotated-exif.jpg")])
        try lib.succeed(["apply", "exposure=+0.3", ids[0]])
        let out = { (name: String) in lib.temp.file(name) }
        func size(_ path: String) throws -> [Int] { let i = try Pixels.load(path); return [i.width, i.height] }
        try lib.succeed(["render", ids[0], "-o", out("fill.jpg"), "--size", "200x100", "--mode", "fill", "--resize", "exact"])
        #expect(try size(out("fill.jpg")) == [200, 133])
        try lib.succeed(["render", ids[0], "-o", out("fast.jpg"), "--size", "100", "--resize", "fast"])
        #expect(try size(out("fast.jpg")) == [150, 100])
        try lib.succeed(["render", ids[0], "-o", out("none.png"), "--size", "100", "--resize", "none"])
        #expect(try size(out("none.png")) == [600, 400])
        try lib.succeed(["render", ids[1], "-o", out("crop.png"), "--crop", "0.5:0:0.5:0.5", "--size", "150", "--version", "unadjusted"])
        #expect(try size(out("crop.png")) == [150, 100])
        try lib.succeed(["render", ids[1], "-o", out("full.png"), "--version", "unadjusted"])
        let expected = try Pixels.load(out("full.png")).extractArea(left: 300, top: 0, width: 300, height: 200).thumbnail(width: 150, height: 150)
        #expect(try Pixels.deltaE(try Pixels.load(out("crop.png")), expected).mean < 1.5)
        // Legacy --size alone keeps its meaning (fit inside, never enlarging).
        try lib.succeed(["render", ids[0], "-o", out("legacy.jpg"), "--size", "5000x100"])
        #expect(try size(out("legacy.jpg")) == [150, 100])

        let folder = out("thumbs")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = try lib.succeed(["thumbs", "--size", "64", "-o", folder] + ids)
        #expect(r.stdoutLines == ids.map { "\($0)\t\(folder)/\($0).jpg\t64x43" }, "\(r)")
        for id in ids { #expect(try size(folder + "/\(id).jpg") == [64, 43]) }
        // Without -o: only the cache, then served from it.
        let fill = try lib.succeed(["thumbs", "--size", "64", "--mode", "fill", ids[0]])
        #expect(fill.stdoutLines == ["\(ids[0])\t96x64"])
        let cached = try Hashing.tree(lib.path + "/cache/images")
        #expect(cached.keys.contains { $0.hasSuffix("r1-current-64x64-fill-exact.jpg") }, "\(cached.keys)")
        #expect(try lib.run(["verify"]).succeeded)
    }
}
