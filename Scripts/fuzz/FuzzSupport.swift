// Shared by every fuzz target (Scripts/fuzz.sh compiles it with the library sources and one target, all into the
// module `MovieSearch`, so the targets reach internal API without `@testable`). Not part of `swift build`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a fuzz target needs from its surroundings: settings from the environment, and one scratch file per process.
enum Fuzz {
    /// The value of the environment variable `name`, if set and not empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// The value of the environment variable `name`, or a clear stop when it is missing (`Scripts/fuzz.sh` sets it).
    static func required(_ name: String) -> String {
        guard let value = environment(name) else { fatalError("fuzz target: set \(name) (Scripts/fuzz.sh does)") }
        return value
    }

    /// One file per process for bytes that must be opened by path (a cache): in `$FUZZ_SCRATCH`, else `/tmp`.
    /// Removed at exit. Rewritten in place for each input, which is safe because no index outlives its input.
    static let scratchPath: String = {
        let folder = environment("FUZZ_SCRATCH") ?? "/tmp"
        let path = "\(folder)/moviesearch-fuzz-\(getpid()).mscache"
        scratchPathForExit = strdup(path)
        atexit { if let path = Fuzz.scratchPathForExit { unlink(path) } }
        return path
    }()
    nonisolated(unsafe) private static var scratchPathForExit: UnsafeMutablePointer<CChar>?

    /// Replaces the contents of `scratchPath` with `bytes` and returns the path.
    static func writeScratch(_ bytes: UnsafeRawBufferPointer) -> String {
        let path = scratchPath
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(descriptor >= 0, "fuzz target: cannot create \(path)")
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            precondition(result > 0, "fuzz target: cannot write \(path)")
            written += result
        }
        return path
    }

    /// Stops the process, so that libFuzzer keeps the input, when `condition` is false. Unlike `assert`, it is
    /// checked in optimized builds too.
    static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #file, line: UInt = #line) {
        if !condition() { fatalError("fuzz check failed: \(message())", file: file, line: line) }
    }

    /// Checks that an error message is the one line the CLI prints for it.
    static func checkOneLine(_ message: String) {
        check(!message.isEmpty && !message.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }),
              "error message is not one line: \(message.debugDescription)")
    }
}

/// Checks what a typo-tolerant search must hold whatever the input: the exact answer when there is one; typo
/// counts only in a typo answer; spans of every listed title inside it, sorted and apart.
func checkTypoAnswer(_ index: MovieIndex, _ query: String, perYear: Int, exact: SearchResult) throws {
    let answer = try index.search(query, perYear: perYear, typos: .auto)
    if exact.total > 0 {
        Fuzz.check(answer == exact, "typos auto changed the exact answer to \(query.debugDescription)")
    }
    let highlighter = answer.highlighter
    for year in answer.years {
        Fuzz.check(year.typoCounts.count == year.movieIDs.count, "typo counts do not follow the ids")
        Fuzz.check(answer.mode == .typo || year.typoCounts.allSatisfy { $0 == 0 }, "typos in an exact answer")
        for id in year.movieIDs {
            let title = try index.movie(id: id).title
            let spans = highlighter.utf16Ranges(in: title)
            Fuzz.check(spans.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= title.utf16.count && !$0.isEmpty },
                       "span outside \(title.debugDescription): \(spans)")
            Fuzz.check(zip(spans, spans.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound },
                       "spans of \(title.debugDescription) not sorted and merged: \(spans)")
            _ = highlighter.ranges(in: title)
        }
    }
}

/// The `perYear` values every search of the fuzz targets is run with: the default, none, one, and no limit.
let fuzzPerYearValues = [5, 0, 1, 2, Int.max]
