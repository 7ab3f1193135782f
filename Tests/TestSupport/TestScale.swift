import Foundation
import XCTest

/// How much of an exhaustive test to run.
///
/// `swift test` builds the tests unoptimized, where the exhaustive checks (every truncation and every flipped byte
/// of a cache, the century query set against the reference, eight threads over the whole decade set twice) take most
/// of the suite's time. There they run a fixed, deterministic sample, so that the suite stays fast; an optimized build
/// (`swift test -c release -Xswiftc -enable-testing`), or any build with `MOVIESEARCH_FULL_TESTS=1` in the
/// environment, runs all of it. `.ci/run` does both: the plain `swift test`, then the full checks in the same debug
/// build (`MOVIESEARCH_FULL_TESTS=1`), the end-to-end ones whose workloads follow the binary against the installed,
/// optimized binary (and the concurrency tests, sampled, under Thread Sanitizer).
///
/// The sizes of the workloads the end-to-end tests give the `moviesearch` binary follow how fast that binary is
/// (`binaryIsOptimized`), not `MOVIESEARCH_FULL_TESTS` alone.
package enum TestScale {
    /// Whether the tests, and the `moviesearch` binary built with them, are optimized (no `DEBUG` condition): the
    /// one place the tests ask which build they are.
    package static let isOptimizedBuild: Bool = {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }()

    /// Whether this run checks everything: an optimized build, or `MOVIESEARCH_FULL_TESTS` set to anything but `0`
    /// or the empty string.
    package static let isFull: Bool = {
        if let value = ProcessInfo.processInfo.environment["MOVIESEARCH_FULL_TESTS"], !value.isEmpty {
            return value != "0"
        }
        return isOptimizedBuild
    }()

    /// `full` in a full run, else `sampled`.
    package static func pick<T>(sampled: T, full: T) -> T {
        isFull ? full : sampled
    }

    /// Skips a test that only a full run makes: a check that costs seconds even at its smallest (a browser of its
    /// own, a time limit waited out, a catalog indexed and killed again and again), which `.ci/run`'s full steps
    /// run, the end-to-end ones against the optimized, installed binary. The plain `swift test` stays the quick
    /// run a developer makes after each change; `what` says in the skip message what was left out.
    package static func requireFullRun(_ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        guard isFull else {
            throw XCTSkip("\(what): a full run's check (MOVIESEARCH_FULL_TESTS=1; .ci/run's full steps run it)",
                          file: file, line: line)
        }
    }

    /// The positions of `0..<count` that an exhaustive loop visits: all of them in a full run; in a sampled run,
    /// every one inside `kept` (where headers and tables sit, each byte with its own meaning), and every `stride`-th
    /// of the rest. An odd stride meets every phase of 8-byte fields and every bit of `position % 8`.
    package static func positions(_ count: Int, keeping kept: [Range<Int>], stride: Int) -> [Int] {
        precondition(stride % 2 == 1, "an even stride would skip every other phase of 8-byte fields")
        guard !isFull, stride > 1 else { return Array(0..<count) }
        return (0..<count).filter { position in
            position % stride == 0 || kept.contains { $0.contains(position) }
        }
    }

    // MARK: Sizes that follow the binary

    /// Whether the `moviesearch` binary the end-to-end tests run is optimized: the one built beside these tests in
    /// an optimized build, or, in a full run, the one `MOVIESEARCH_TEST_BINARY` names (`.ci/run` names the
    /// installed binary, a release build, and asks for a full run).
    package static let binaryIsOptimized: Bool = {
        if isOptimizedBuild { return true }
        guard isFull, let named = ProcessInfo.processInfo.environment["MOVIESEARCH_TEST_BINARY"] else { return false }
        return !named.isEmpty
    }()

    /// The movies of the generated catalog that `CrashSafetyTests` indexes and kills `index` on. The optimized binary
    /// indexes 300,000 in about 2 s (on the CI machine's 2 cores, unloaded); the debug one is about six times slower
    /// (12 s a run: the test's some 17 runs would take 3–4 minutes), so the debug binary gets a catalog small enough
    /// to keep `swift test` fast (under a second a run), and `.ci/run` runs the test once more against the
    /// optimized, installed binary, on the full catalog.
    package static let crashSafetyMovies = binaryIsOptimized ? 300_000 : 4_000

    /// The movies of each generated catalog in `ReplaceWhileQueryingTests`: fewer with the slower debug binary, to
    /// keep `swift test` fast; `.ci/run` runs these tests once more against the optimized, installed binary, on the
    /// larger catalogs.
    package static let replaceWhileQueryingMovies = binaryIsOptimized ? 5_000 : 2_000
}
