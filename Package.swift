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
        .target(name: "MovieSearch"),

        // The command line: argument parsing, subcommands and their output, as a library so tests can run it
        // in-process. The executable is a one-line `main.swift` (named apart from `MovieSearch` so that the
        // two source folders never collide on a case-insensitive file system).
        .target(name: "MovieSearchCLI", dependencies: ["MovieSearch"]),
        .executableTarget(name: "MovieSearchTool", dependencies: ["MovieSearchCLI"]),

        // Tests: unit tests of the engine, and tests of the CLI (in-process and against the built binary).
        .testTarget(name: "MovieSearchTests", dependencies: ["MovieSearch"]),
        .testTarget(name: "MovieSearchCLITests", dependencies: ["MovieSearchCLI", "MovieSearch"]),
    ]
)
