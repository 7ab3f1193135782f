// swift-tools-version: 6.0
import PackageDescription

/// The engine's layers, lowest first: the targets the umbrella `MovieSearch` re-exports, and the ones whose internals
/// the unit tests reach with `@testable import`.
let engineLayers = [
    "MovieSearchPlatform", "MovieSearchText", "MovieSearchLRU", "MovieSearchInput", "MovieSearchJSON",
    "MovieSearchCatalog", "MovieSearchIndex", "MovieSearchQuery", "MovieSearchFavorites", "MovieSearchPhotos",
]

/// For every target under Sources/ (see the loop at the end): a file that uses a member (a property, a method)
/// declared in a module it does not import is an error, not silently accepted because another file or module brought
/// that module in, so that each file's imports say what it uses, and each target's `dependencies`, which
/// Scripts/check-target-imports.py holds to the imports, say what the target uses.
let importsEachModuleUsed: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "moviesearch",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "MovieSearch", targets: ["MovieSearch"]),
        .executable(name: "moviesearch", targets: ["MovieSearchTool"]),
        .executable(name: "moviesearch-fetch", targets: ["MovieSearchFetchTool"]),
    ],
    targets: [
        // The engine, in layers: each target uses only the targets listed before it (the `dependencies` below say
        // which), so that the compiler rejects a use of a layer above. Every target of the package, here and above,
        // declares exactly the targets its files import (`swift build --explicit-target-dependency-import-check
        // error` and Scripts/check-target-imports.py, both in .ci/run, check it). None imports Foundation, so that an
        // app or a short-lived CLI process pays nothing for it at start-up. ARCHITECTURE.md says what each holds.
        // Every system call of the package, the HTTP server's sockets, poller and threads included: the only
        // target that imports Glibc, Musl or Darwin (and `CEventPoll`, Linux's epoll, for its `EventPoller`).
        .target(name: "MovieSearchPlatform", dependencies: ["CMappingGuard", "CEventPoll"]),
        .target(name: "MovieSearchText"),
        .target(name: "MovieSearchLRU", dependencies: ["MovieSearchPlatform"]),
        .target(name: "MovieSearchInput", dependencies: ["MovieSearchPlatform", "CZlib"]),
        .target(name: "MovieSearchJSON", dependencies: ["MovieSearchInput", "MovieSearchPlatform"]),
        .target(name: "MovieSearchCatalog",
                dependencies: ["MovieSearchJSON", "MovieSearchInput", "MovieSearchPlatform"]),
        .target(name: "MovieSearchIndex",
                dependencies: ["MovieSearchCatalog", "MovieSearchText", "MovieSearchPlatform", "CZlib"]),
        .target(name: "MovieSearchQuery",
                dependencies: ["MovieSearchIndex", "MovieSearchCatalog", "MovieSearchLRU", "MovieSearchText",
                               "MovieSearchPlatform"]),
        .target(name: "MovieSearchFavorites",
                dependencies: ["MovieSearchQuery", "MovieSearchIndex", "MovieSearchCatalog", "MovieSearchJSON",
                               "MovieSearchPlatform"]),
        .target(name: "MovieSearchPhotos", dependencies: ["MovieSearchJSON", "MovieSearchLRU", "MovieSearchPlatform",
                                                        "MovieSearchText"]),
        // The one library product: re-exports every layer, so that an app writes `import MovieSearch`. No target
        // under Sources/ imports it (each imports the layers it uses, so that the graph shows them); the tests may.
        .target(name: "MovieSearch", dependencies: engineLayers.map { .target(name: $0) }),
        // The system's zlib, which decodes gzip catalogs as they are read: part of every Apple SDK, and of
        // `zlib1g-dev` on Debian and Ubuntu. No `pkgConfig`: the header and `-lz` are in the default paths
        // wherever zlib is installed, and a missing `zlib.pc` would only add a warning to every build.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),

        // The SIGBUS guard of file mappings (`MappedFile(path:guarded:)`): a signal handler and its fixed table of
        // guarded ranges, in C because the handler must allocate nothing and take no lock (C11 atomics, no Swift
        // runtime). A plain C target of this package, not a dependency.
        .target(name: "CMappingGuard"),

        // What the command line and the server print: answers, movies, top lists, favorites and photos as JSON
        // (the same bytes from both) and as text for a terminal (laid out, control characters escaped).
        .target(name: "MovieSearchOutput",
                dependencies: ["MovieSearchPhotos", "MovieSearchFavorites", "MovieSearchQuery", "MovieSearchIndex",
                               "MovieSearchCatalog", "MovieSearchJSON", "MovieSearchText", "MovieSearchPlatform"]),
        // The command line: the subcommands, the option groups they share, the terminal and `browse`, on the
        // command-line framework below, as a library so tests can run it in-process. The executable is a one-line
        // `main.swift` (named apart from `MovieSearch` so that the two source folders never collide on a
        // case-insensitive file system).
        .target(name: "MovieSearchCLI",
                dependencies: ["MovieSearchServer", "MovieSearchHTTP", "MovieSearchCommandLine", "MovieSearchOutput",
                               "MovieSearchPhotos", "MovieSearchFavorites", "MovieSearchQuery", "MovieSearchIndex",
                               "MovieSearchCatalog", "MovieSearchJSON", "MovieSearchInput", "MovieSearchText",
                               "MovieSearchPlatform"]),
        // The command-line framework under the subcommands: typed declarations of flags, options and arguments,
        // the parser, and what is generated from the declarations (help and usage lines, "did you mean", the man
        // page, shell completions). It knows no subcommand: the CLI hands it their configurations.
        .target(name: "MovieSearchCommandLine", dependencies: ["MovieSearchOutput", "MovieSearchPlatform"]),
        // An HTTP/1.1 server on the platform's sockets, threads and poller (`Syscalls+Sockets`, `SystemThread`,
        // `EventPoller`: epoll on Linux, poll elsewhere): the strict request parser, event loops, responses, gzip. It
        // imports no C library (every system call it makes is the platform layer's) and knows nothing of movies:
        // routes are handed to it.
        .target(name: "MovieSearchHTTP", dependencies: ["MovieSearchPlatform", "CZlib"]),
        // Linux's `<sys/epoll.h>`, which Glibc's module leaves out (an empty header elsewhere): for the platform
        // layer's `EventPoller`.
        .systemLibrary(name: "CEventPoll", path: "Sources/CEventPoll"),
        // The HTTP JSON API (`moviesearch serve`): the routes, on the output layer beside the command line (the same
        // renderers, so the same bytes), never below it.
        // Web/ holds the page's files, compiled into the binary as byte arrays (`PackageResources.app_js`, which
        // `WebAssets` serves by name): SwiftPM generates them on each build, importing nothing (no Foundation, no
        // resource bundle beside the binary, so the static build stays one file).
        .target(name: "MovieSearchServer",
                dependencies: ["MovieSearchHTTP", "MovieSearchOutput", "MovieSearchPhotos", "MovieSearchFavorites",
                               "MovieSearchQuery", "MovieSearchIndex", "MovieSearchCatalog", "MovieSearchJSON",
                               "MovieSearchPlatform"],
                resources: [.embedInCode("Web/index.html"), .embedInCode("Web/app.css"), .embedInCode("Web/app.js")]),
        .executableTarget(name: "MovieSearchTool", dependencies: ["MovieSearchCLI"]),
        // `moviesearch-fetch`: one HTTP(S) GET through libcurl, which `moviesearch` spawns to ask Flickr (as git
        // keeps libcurl in `git-remote-https`), so that the static `moviesearch` never links libcurl and a `query`
        // never loads it. Linked dynamically against the system's libcurl.
        .executableTarget(name: "MovieSearchFetchTool", dependencies: ["CCurl", "MovieSearchPhotos", "MovieSearchPlatform"]),
        // The system's libcurl: Debian's and Ubuntu's `libcurl4-openssl-dev`, the SDK's on Apple platforms.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),

        // Tests. `TestSupport` is the one home of what several test targets share (fixtures, the reference search,
        // byte readers, paths, the shared-data finder, running the built binary): a plain target, as a test target
        // cannot be depended on. Its API is `package`, visible to this package's targets only. It uses the engine's
        // public API only (no `@testable`), so that `swift build -c release`, which builds it too, still works.
        // It writes gzip through zlib (`CZlib`) for the tests of gzip input.
        .target(name: "TestSupport", dependencies: ["MovieSearch", "CZlib"], path: "Tests/TestSupport"),
        // Unit tests of the engine, and in-process unit tests of the CLI (parser, subcommands, terminal, browse).
        .testTarget(name: "MovieSearchTests",
                    dependencies: ["MovieSearch", "TestSupport"] + engineLayers.map { .target(name: $0) }),
        .testTarget(name: "MovieSearchCLITests",
                    dependencies: ["MovieSearchCLI", "MovieSearchCommandLine", "MovieSearchOutput", "MovieSearch",
                                   "TestSupport"]),
        // The output layer's renderers in-process: display widths, terminal-safe text, layout, highlighting, and the
        // JSON and text of answers, movies and top lists.
        .testTarget(name: "MovieSearchOutputTests",
                    dependencies: ["MovieSearchOutput", "MovieSearch", "TestSupport"]),
        // Unit tests of the HTTP layer (the request parser, percent-decoding, responses, the server on a socket);
        // TestSupport's `Gzip` reads the server's gzip answers back.
        .testTarget(name: "MovieSearchHTTPTests",
                    dependencies: ["MovieSearchHTTP", "MovieSearchPlatform", "TestSupport"]),
        // The API's routes in-process (no socket), over caches and favorites the tests build: the renderers' bytes,
        // the errors and their statuses, favorites in a file and in memory, the cache reloaded when replaced.
        .testTarget(name: "MovieSearchServerTests",
                    dependencies: ["MovieSearchServer", "MovieSearchHTTP", "MovieSearchOutput", "MovieSearch",
                                   "TestSupport"]),
        // The built `moviesearch` binary run end to end, robustness tests included (kills, full disks, replaced
        // caches). They run the executable that `swift build` and `swift test` put beside the test bundle.
        .testTarget(name: "EndToEndTests",
                    dependencies: ["MovieSearchCLI", "MovieSearchOutput", "MovieSearch", "TestSupport"]),
        // XCTest `measure` timings: meaningful in an optimized build only (`swift test -c release -Xswiftc
        // -enable-testing --filter PerformanceTests`, on a developer's machine); skipped in a debug build.
        .testTarget(name: "PerformanceTests",
                    dependencies: ["MovieSearch", "TestSupport"] + engineLayers.map { .target(name: $0) }),
    ]
)

// Every target under Sources/ imports each module it uses (the tests, which may import the umbrella, are left as
// they are).
for target in package.targets where target.type != .system && target.type != .test
    && target.path?.hasPrefix("Tests/") != true {
    target.swiftSettings = (target.swiftSettings ?? []) + importsEachModuleUsed
}

// `MOVIESEARCH_ENGINE_ONLY=1` in the environment: the engine's layers, TestSupport and their unit tests alone, for
// `.ci/run`'s Thread Sanitizer step, whose only tests (ConcurrencyTests) are the engine's; without it that step would
// build every target (the CLI, the server, six other test targets) a second time, sanitized, for nothing.
if let value = Context.environment["MOVIESEARCH_ENGINE_ONLY"], !value.isEmpty, value != "0" {
    let kept = Set(engineLayers + ["MovieSearch", "CZlib", "CMappingGuard", "CEventPoll", "TestSupport", "MovieSearchTests"])
    package.targets.removeAll { !kept.contains($0.name) }
    package.products = [.library(name: "MovieSearch", targets: ["MovieSearch"])]
}
