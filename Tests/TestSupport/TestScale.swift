import Foundation

/// How much of an exhaustive test to run.
///
/// `swift test` builds the tests unoptimized, where the exhaustive checks (every truncation and every flipped byte
/// of a cache, the century query set against the reference, eight threads over the whole decade set twice) take most
/// of the suite's time. There they run a fixed, deterministic sample, so that the suite stays fast; an optimized build
/// (`swift test -c release -Xswiftc -enable-testing`), or any build with `MOVIESEARCH_FULL_TESTS=1` in the
/// environment, runs all of it. `.ci/run` does both: the plain `swift test`, then the full checks optimized (and the
/// concurrency tests in full under Thread Sanitizer).
///
/// The sizes of the workloads the end-to-end tests give the `moviesearch` binary follow the build alone, not
/// `MOVIESEARCH_FULL_TESTS`: they are set by how fast that binary is, which the same build makes.
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

    // MARK: Sizes that follow the build

    /// The movies of the generated catalog that `CrashSafetyTests` indexes and kills `index` on. The optimized binary
    /// indexes 300,000 in about 2 s (on the CI machine's 2 cores, unloaded); the debug one is about six times slower
    /// (12 s a run: the test's some 17 runs would take 3–4 minutes), so a debug build uses a catalog small enough to
    /// keep `swift test` fast (under a second a run), and `.ci/run` runs the test once more optimized, on the full
    /// catalog.
    package static let crashSafetyMovies = isOptimizedBuild ? 300_000 : 4_000

    /// The movies of each generated catalog in `ReplaceWhileQueryingTests`: fewer with the slower debug binary, to
    /// keep `swift test` fast; `.ci/run` runs these tests once more optimized, on the larger catalogs.
    package static let replaceWhileQueryingMovies = isOptimizedBuild ? 5_000 : 2_000
}
