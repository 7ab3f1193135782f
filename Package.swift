// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "moviesearch",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "MovieSearch", targets: ["MovieSearch"]),
        .executable(name: "moviesearch", targets: ["MovieSearchTool"]),
    ],
    targets: [
        // The engine: catalog decoding, text folding, the binary cache, queries. No Foundation, so that an
        // app or a short-lived CLI process pays nothing for it at start-up.
        .target(name: "MovieSearch", dependencies: ["CZlib"]),
        // The system's zlib, which decodes gzip catalogs as they are read: part of every Apple SDK, and of
        // `zlib1g-dev` on Debian and Ubuntu. No `pkgConfig`: the header and `-lz` are in the default paths
        // wherever zlib is installed, and a missing `zlib.pc` would only add a warning to every build.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),

        // The command line: argument parsing, subcommands and their output, as a library so tests can run it
        // in-process. The executable is a one-line `main.swift` (named apart from `MovieSearch` so that the
        // two source folders never collide on a case-insensitive file system).
        .target(name: "MovieSearchCLI", dependencies: ["MovieSearch"]),
        .executableTarget(name: "MovieSearchTool", dependencies: ["MovieSearchCLI"]),

        // Tests. `TestSupport` is the one home of what several test targets share (fixtures, the reference search,
        // byte readers, paths, the shared-data finder, running the built binary): a plain target, as a test target
        // cannot be depended on. Its API is `package`, visible to this package's targets only. It uses the engine's
        // public API only (no `@testable`), so that `swift build -c release`, which builds it too, still works.
        // It writes gzip through zlib (`CZlib`) for the tests of gzip input.
        .target(name: "TestSupport", dependencies: ["MovieSearch", "CZlib"], path: "Tests/TestSupport"),
        // Unit tests of the engine, and in-process unit tests of the CLI (parser, layout, output).
        .testTarget(name: "MovieSearchTests", dependencies: ["MovieSearch", "TestSupport"]),
        .testTarget(name: "MovieSearchCLITests", dependencies: ["MovieSearchCLI", "MovieSearch", "TestSupport"]),
        // The built `moviesearch` binary run end to end, robustness tests included (kills, full disks, replaced
        // caches). They run the executable that `swift build` and `swift test` put beside the test bundle.
        .testTarget(name: "EndToEndTests", dependencies: ["MovieSearchCLI", "MovieSearch", "TestSupport"]),
        // XCTest `measure` timings: meaningful in an optimized build only, which `.ci/run` runs; skipped in a debug
        // build.
        .testTarget(name: "PerformanceTests", dependencies: ["MovieSearch", "TestSupport"]),
    ]
)
