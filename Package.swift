// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "photoedit",
    platforms: [.macOS(.v15)],  // Synchronization's Mutex
    products: [
        .library(name: "PhotoEdit", targets: ["PhotoEdit"]),
        .executable(name: "photoedit", targets: ["photoedit"]),
        // The PostgreSQL catalog backend (issue 12), for libraries shared by many nodes.
        .library(name: "PhotoEditPostgres", targets: ["PhotoEditPostgres"]),
        // The S3 blob store (docs/architecture.md, "The storage seam").
        .library(name: "PhotoEditS3", targets: ["PhotoEditS3"]),
        // Golden-image assertions for Swift Testing and XCTest (docs/testing.md).
        .library(name: "PhotoEditTesting", targets: ["PhotoEditTesting"]),
        .library(name: "PhotoEditServer", targets: ["PhotoEditServer"]),
        // Opens a library by name: a folder, a postgres://…?blobs=s3://… URL, a config file.
        .library(name: "PhotoEditLocation", targets: ["PhotoEditLocation"]),
    ],
    // `Server` (on by default): `photoedit serve`, batch jobs, and libraries shared through
    // PostgreSQL + S3 — the HTTP server, postgres-nio, the S3 client and their SSL stacks.
    // The quick start builds without it (`--disable-default-traits`): the command-line tool
    // for library folders, which compiles in a fraction of the time.
    traits: [
        .trait(name: "Server", description: "photoedit serve, batch jobs, and libraries on PostgreSQL + S3."),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The HTTP service (photoedit serve).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        // /metrics: swift-metrics into a Prometheus registry.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Tests only: reads the OpenAPI document to check the server against it.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // System libraries, each with its Debian provider.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CLibRaw", pkgConfig: "libraw_r", providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // Lens profiles and their corrections (the `lens` filter), with its database (liblensfun-data-v1).
        .systemLibrary(name: "CLensfun", pkgConfig: "lensfun", providers: [.apt(["liblensfun-dev"])]),
        // zlib: Lightroom's look tables (crs:Table_…) are zlib streams.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Non-variadic C wrappers: Swift cannot call C variadic functions.
        .target(name: "CPhotoEditShim", dependencies: ["CVips", "CLibRaw", "CLCMS2"]),
        // The engine: catalog, recipes, filters, rendering. No C type in its public API.
        .target(
            name: "PhotoEdit",
            dependencies: [
                "CPhotoEditShim",
                // libvips and lcms2 also called directly (ICC profiles).
                "CVips",
                "CLCMS2",
                "CLensfun",
                "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SHA-256 and HMAC-SHA256 for the whole package (SHA256Digest).
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // S3-compatible object storage behind the engine's BlobStore (AWS SigV4 on the engine's SHA256Digest).
        // Empty without the Server trait (its files are `#if Server`), so that a trait-free build of
        // the whole package compiles no HTTP client.
        .target(
            name: "PhotoEditS3",
            dependencies: [
                "PhotoEdit",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
            ]
        ),
        // The HTTP service: API v1, render URLs, the web editor's files. The
        // engine knows nothing of HTTP; this module adapts it. Empty without the
        // Server trait (its files are `#if Server`), so that a trait-free build of
        // the whole package (`--build-tests`) compiles no swift-nio or Hummingbird.
        .target(
            name: "PhotoEditServer",
            dependencies: [
                "PhotoEdit",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                // The request-head deadline watches NIO's HTTP/1 parts.
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "MultipartKit", package: "multipart-kit", condition: .when(traits: ["Server"])),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
            ],
            resources: [.copy("Resources/web"), .copy("Resources/openapi.yaml")]
        ),
        // What `--library` names and how it opens (the CLI's and the server's):
        // a folder, or PostgreSQL + a blob store. The engine stays free of NIO.
        .target(name: "PhotoEditLocation", dependencies: [
            "PhotoEdit",
            .target(name: "PhotoEditPostgres", condition: .when(traits: ["Server"])),
            .target(name: "PhotoEditS3", condition: .when(traits: ["Server"])),
        ]),
        // The command-line tool.
        .executableTarget(
            name: "photoedit",
            dependencies: [
                "PhotoEdit",
                "PhotoEditGolden",
                .target(name: "PhotoEditServer", condition: .when(traits: ["Server"])),
                // `jobs` reads a PostgreSQL library's queue; `serve` configures swift-log.
                .target(name: "PhotoEditPostgres", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                "PhotoEditLocation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Catalog benchmarks (bench/README.md); not a product. SQLite's without the
        // Server trait; PostgreSQL's (and its private server, from the test support) with it.
        .executableTarget(
            name: "photoedit-bench",
            dependencies: ["PhotoEdit", "PhotoEditSampleCatalog",
                           .target(name: "PhotoEditPostgres", condition: .when(traits: ["Server"])),
                           .target(name: "PhotoEditTestSupport", condition: .when(traits: ["Server"])),
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The catalog on PostgreSQL (postgres-nio): schema, queries. Empty without the Server
        // trait (its files are `#if Server`), so that a trait-free build compiles no postgres-nio.
        .target(
            name: "PhotoEditPostgres",
            dependencies: ["PhotoEdit", .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Server"])),
                           .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"]))]
        ),
        // Generated catalogs for the benchmarks and the backend comparison tests; not a product.
        // SQLite's always; PostgreSQL's with the Server trait.
        .target(
            name: "PhotoEditSampleCatalog",
            dependencies: ["PhotoEdit", .target(name: "PhotoEditPostgres", condition: .when(traits: ["Server"])),
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The test targets below PhotoEditTests' need the `Server` trait's modules and servers:
        // without it (`swift test --disable-default-traits`) they compile empty (`#if Server`).
        .testTarget(
            name: "PhotoEditPostgresTests",
            dependencies: [.target(name: "PhotoEditPostgres", condition: .when(traits: ["Server"])), "PhotoEdit",
                           .target(name: "PhotoEditSampleCatalog", condition: .when(traits: ["Server"])),
                           .target(name: "PhotoEditServer", condition: .when(traits: ["Server"])), "PhotoEditTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                           .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                           .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"]))]
        ),
        // What SeaweedFS costs over a folder (bench/storage-benchmark.py runs it), not a product.
        // Without the Server trait (no S3 client) it only says so.
        .executableTarget(
            name: "photoedit-storage-bench",
            dependencies: ["PhotoEdit", .target(name: "PhotoEditS3", condition: .when(traits: ["Server"]))]
        ),
        // What every test target shares, written once; not a product: the package's paths
        // and samples, temporary folders, free loopback ports and raw connections, the
        // `photoedit` binary run as a child, and the real servers tests start
        // (PostgreSQL, SeaweedFS, `photoedit serve`). The benchmarks use its servers too.
        // Its PostgreSQL and SeaweedFS servers exist only with the Server trait.
        .target(name: "PhotoEditTestSupport", dependencies: [
            "PhotoEdit",
            .target(name: "PhotoEditS3", condition: .when(traits: ["Server"])),
            .target(name: "PhotoEditPostgres", condition: .when(traits: ["Server"])),
        ]),
        // One blob-store suite run against every BlobStore (folder, S3 on a real SeaweedFS).
        .testTarget(
            name: "PhotoEditStorageTests",
            dependencies: ["PhotoEdit", .target(name: "PhotoEditS3", condition: .when(traits: ["Server"])), "PhotoEditTestSupport"],
            exclude: ["Fixtures"]
        ),
        // Library locations and the distributed library (PostgreSQL + SeaweedFS S3) on real servers.
        .testTarget(
            name: "PhotoEditLocationTests",
            dependencies: ["PhotoEditLocation", "PhotoEdit", .target(name: "PhotoEditPostgres", condition: .when(traits: ["Server"])),
                           .target(name: "PhotoEditS3", condition: .when(traits: ["Server"])),
                           .target(name: "PhotoEditSampleCatalog", condition: .when(traits: ["Server"])),
                           "PhotoEditTestSupport", "photoedit"]
        ),
        // Golden images: CIEDE2000 comparison of two files, golden suites and their
        // reports (`photoedit compare`, `photoedit test`, PhotoEditTesting). Test
        // tooling, outside the engine; reached through PhotoEditTesting, not a product.
        .target(name: "PhotoEditGolden", dependencies: ["PhotoEdit"]),
        // Golden-image assertions for services' own tests (re-exports PhotoEditGolden).
        .target(name: "PhotoEditTesting", dependencies: ["PhotoEdit", "PhotoEditGolden"]),
        .testTarget(name: "PhotoEditTestingTests", dependencies: ["PhotoEditTesting", "PhotoEdit", "PhotoEditTestSupport"]),
        .testTarget(
            name: "PhotoEditTests",
            dependencies: ["PhotoEdit", "PhotoEditGolden", "PhotoEditTestSupport", "CPhotoEditShim", "CLCMS2", "CZlib", "photoedit",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "PhotoEditServerTests",
            dependencies: [
                "PhotoEdit",
                .target(name: "PhotoEditServer", condition: .when(traits: ["Server"])),
                "PhotoEditTestSupport",
                "photoedit",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["Server"])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
