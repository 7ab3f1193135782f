import Foundation
import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// Inputs at the edges, through the built binary: a cache that is not a regular file (a FIFO must fail, not hang),
/// numbers out of range on the command line and in the environment. None may hang or end in a Swift runtime trap.
final class LimitsEndToEndTests: XCTestCase {
    /// How long a run may take before it counts as hung and is killed: far above what any of these runs needs
    /// (they fail before reading a byte), so a slow machine cannot fail the test, and a hang costs seconds.
    private static let hangLimit = 10.0

    /// Runs `executable` (the binary, or `script` around it), killed if it has not ended after `hangLimit` seconds,
    /// which fails the test. A trap must not wait for a key press in the backtracer when the child has a terminal.
    private func boundedRun(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                            file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Outcome {
        let environment = environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { given, _ in given }
        let run = try ChildProcess.run(executable, arguments, environment: environment, timeLimit: Self.hangLimit)
        if !run.finished {
            XCTFail("\(arguments) still running after \(Self.hangLimit) s: killed", file: file, line: line)
        }
        return run
    }

    /// A data error: exit status 1, nothing on stdout, one stderr line `moviesearch: <message>`.
    private func assertDataError(_ arguments: [String], environment: [String: String] = [:], _ message: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try boundedRun(try ChildProcess.binary(), arguments, environment: environment, file: file, line: line)
        guard run.finished else { return }
        XCTAssertEqual(run.reason, .exit, "\(arguments): killed by a signal", file: file, line: line)
        XCTAssertEqual(run.status, 1, "\(arguments): \(run.standardError)", file: file, line: line)
        XCTAssertEqual(run.standardOutput, "", "\(arguments)", file: file, line: line)
        XCTAssertEqual(run.errorLines, ["moviesearch: " + message], "\(arguments)", file: file, line: line)
    }

    /// A usage error: exit status 2, nothing on stdout, and stderr opening with the message (the usage follows).
    private func assertUsageError(_ arguments: [String], _ message: String,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try boundedRun(try ChildProcess.binary(), arguments, file: file, line: line)
        guard run.finished else { return }
        XCTAssertEqual(run.reason, .exit, "\(arguments): killed by a signal", file: file, line: line)
        XCTAssertEqual(run.status, 2, "\(arguments): \(run.standardError)", file: file, line: line)
        XCTAssertEqual(run.standardOutput, "", "\(arguments)", file: file, line: line)
        XCTAssertEqual(run.errorLines.first, "moviesearch: " + message, "\(arguments)", file: file, line: line)
        XCTAssertFalse(run.standardError.contains("Fatal error"), run.standardError, file: file, line: line)
    }

    private static func notACacheFile(_ path: String, _ kind: String) -> String {
        "\(path) is \(kind), not a cache file; give --cache a file built by 'moviesearch index <catalog.json>'"
    }

    // MARK: A cache must be a regular file

    func testAFIFOAsTheCacheFailsAtOnceInsteadOfWaitingForAWriter() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let fifo = folder.appendingPathComponent("cache.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, String(cString: strerror(errno)))
        let queries = folder.appendingPathComponent("queries.txt").path
        try Data("dark\n".utf8).write(to: URL(fileURLWithPath: queries))
        let message = Self.notACacheFile(fifo, "a FIFO (named pipe)")
        for arguments in [["query", "dark", "--cache", fifo], ["show", "1", "--cache", fifo], ["top", "--cache", fifo],
                          ["photos", "1", "--cache", fifo], ["bench", "--cache", fifo, "--queries", queries]] {
            try assertDataError(arguments, message)
        }
        try assertDataError(["query", "dark"], environment: ["MOVIESEARCH_CACHE": fifo], message)
        try assertDataError(["top"], environment: ["MOVIESEARCH_CACHE": fifo], message)
    }

    func testACharacterDeviceIsNamedAsOneNotReadAsATruncatedCache() throws {
        try assertDataError(["query", "dark", "--cache", "/dev/zero"], Self.notACacheFile("/dev/zero", "a character device"))
        try assertDataError(["show", "0", "--cache", "/dev/null"], Self.notACacheFile("/dev/null", "a character device"))
    }

    func testADirectoryAndASocketAreNamed() throws {
        let folder = try TestPaths.temporaryFolder(self)
        try assertDataError(["top", "--cache", folder.path], Self.notACacheFile(folder.path, "a directory"))

        let socketPath = folder.appendingPathComponent("s").path
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(socketDescriptor, 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        try XCTSkipIf(pathBytes.count >= MemoryLayout.size(ofValue: address.sun_path), "temporary path too long for a socket")
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
            buffer[pathBytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0, String(cString: strerror(errno)))
        try assertDataError(["query", "x", "--cache", socketPath], Self.notACacheFile(socketPath, "a socket"))
    }

    func testTheLibraryReportsTheKindAsATypedError() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let fifo = folder.appendingPathComponent("f").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try MovieIndex(path: fifo)) { error in
            XCTAssertEqual(error as? CacheError, .notARegularFile(path: fifo, kind: .fifo))
        }
        XCTAssertThrowsError(try MovieIndex(path: "/dev/zero")) { error in
            XCTAssertEqual(error as? CacheError, .notARegularFile(path: "/dev/zero", kind: .characterDevice))
        }
        XCTAssertThrowsError(try MovieIndex(path: folder.path)) { error in
            XCTAssertEqual(error as? CacheError, .notARegularFile(path: folder.path, kind: .directory))
        }
    }

    // MARK: Numbers on the command line

    func testNumericOptionsOutsideTheirRangeAreUsageErrors() throws {
        let cache = TestPaths.sampleCache
        let queries = try temporaryFile("queries.txt", "dark\n")
        let bench = ["bench", "--cache", cache, "--queries", queries]
        let cases: [([String], String)] = [
            (bench + ["--passes", "99999999999"], "invalid value '99999999999' for '--passes <N>': expected a whole number from 1 to 1,000"),
            (bench + ["--passes", "1001"], "invalid value '1001' for '--passes <N>': expected a whole number from 1 to 1,000"),
            (bench + ["--passes", "0"], "invalid value '0' for '--passes <N>': expected a whole number from 1 to 1,000"),
            (bench + ["--slowest", "10001"], "invalid value '10001' for '--slowest <N>': expected a whole number from 0 to 10,000"),
            (bench + ["--per-year", "1000001"], "invalid value '1000001' for '--per-year <K>': expected a whole number from 0 to 1,000,000"),
            (["query", "dark", "--cache", cache, "--per-year", "99999999999999999999"],
             "invalid value '99999999999999999999' for '--per-year <K>': expected a whole number from 0 to 1,000,000"),
            (["top", "--cache", cache, "--limit", "1000001"], "invalid value '1000001' for '--limit <N>': expected a whole number from 0 to 1,000,000"),
            (["show", "4294967296", "--cache", cache], "invalid value '4294967296' for '<id>': expected a whole number from 0 to 4,294,967,295"),
            (["photos", "99999999999", "--cache", cache], "invalid value '99999999999' for '<id>': expected a whole number from 0 to 4,294,967,295"),
            (["photos", "-1", "--cache", cache], "invalid value '-1' for '<id>': expected a whole number from 0 to 4,294,967,295"),
        ]
        for (arguments, message) in cases { try assertUsageError(arguments, message) }
    }

    func testTheEndsOfEachRangeAreAccepted() throws {
        let cache = TestPaths.sampleCache
        let queries = try temporaryFile("queries.txt", "dark\n")
        let bench = try BinaryRun.run(["bench", "--cache", cache, "--queries", queries, "--passes", "1000",
                                       "--slowest", "10000", "--per-year", "1000000", "--json"])
        XCTAssertEqual(bench.status, 0, bench.standardError)
        XCTAssertTrue(bench.standardOutput.contains("\"samples\":1000,"), bench.standardOutput)

        let everyMovie = try BinaryRun.run(["query", "", "--cache", cache, "--per-year", "1000000", "--json"])
        XCTAssertEqual(everyMovie.status, 0, everyMovie.standardError)
        let top = try BinaryRun.run(["top", "--cache", cache, "--limit", "1000000"])
        XCTAssertEqual(top.status, 0, top.standardError)
        let movieCount = try MovieIndex(path: cache).movieCount
        XCTAssertEqual(top.standardOutput.split(separator: "\n").count, movieCount + 1, top.standardOutput)

        // The largest id the range admits is checked against the cache: a data error, not a usage error.
        try assertDataError(["show", "4294967295", "--cache", cache],
                            CacheError.noSuchMovie(id: 4_294_967_295, movieCount: movieCount, ids: 0...(movieCount - 1)).description)
    }

    func testBenchChecksQueriesTimesPassesBeforeAllocatingTheSamples() throws {
        let lines = BenchCommand.maximumSamples / 1000 + 1
        let queries = try temporaryFile("many.txt", String(repeating: "d\n", count: lines))
        try assertDataError(
            ["bench", "--cache", TestPaths.sampleCache, "--queries", queries, "--passes", "1000"],
            "\(TextLayout.grouped(lines)) queries in \(queries) × 1,000 passes is more than the "
                + "\(TextLayout.grouped(BenchCommand.maximumSamples)) timed calls a run keeps; use fewer --passes or fewer queries")
    }

    // MARK: Numbers in the environment

    /// `COLUMNS` is read only when standard output is a terminal: `script` gives the binary one.
    func testAHugeOrTinyCOLUMNSIsClampedOnATerminal() throws {
        let script = try Requirement.tool("script", package: "bsdutils")
        let response = try temporaryFile("response.json", """
            {"photos":{"photo":[
              {"id":"1","secret":"a","server":"2","farm":3},
              {"id":"4","secret":"b","server":"5","farm":6}]},"stat":"ok"}
            """)
        let urls = ["http://farm3.static.flickr.com/2/1_a.jpg", "http://farm6.static.flickr.com/5/4_b.jpg"]
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = ([try ChildProcess.binary(), "photos", "7", "--cache", TestPaths.sampleCache,
                        "--response", response, "--flickr-key", "k"]).map(quoted).joined(separator: " ")
        for (columns, expected) in [("999999999999", Terminal.widthRange.upperBound),
                                    ("99999999999999999999999", Terminal.widthRange.upperBound)] {
            let run = try boundedRun(script, ["-qec", command, "/dev/null"], environment: ["COLUMNS": columns])
            guard run.finished else { continue }
            XCTAssertEqual(run.status, 0, "COLUMNS=\(columns): \(run.standardOutput)")
            XCTAssertFalse(run.standardOutput.contains("Fatal error"), run.standardOutput)
            // Two columns, the second starting half-way across the clamped width.
            let pair = urls[0] + String(repeating: " ", count: expected / 2 - urls[0].count) + urls[1]
            XCTAssertTrue(run.standardOutput.contains(pair + "\r\n"), "COLUMNS=\(columns): \(run.standardOutput)")
        }
        // Too narrow even when clamped up to 20: one URL a line.
        let narrow = try boundedRun(script, ["-qec", command, "/dev/null"], environment: ["COLUMNS": "1"])
        XCTAssertEqual(narrow.status, 0, narrow.standardOutput)
        XCTAssertTrue(narrow.standardOutput.contains(urls[0] + "\r\n" + urls[1] + "\r\n"), narrow.standardOutput)
    }

    func testCOLUMNSIsReadAsAPositiveNumberAndClamped() {
        func columns(_ text: String) -> Int? {
            Environment.fixed(["COLUMNS": text]).positiveNumber("COLUMNS", clampedTo: Terminal.widthRange)
        }
        XCTAssertEqual(columns("132"), 132)
        XCTAssertEqual(columns("999999999999"), 1000)
        XCTAssertEqual(columns("99999999999999999999999"), 1000)
        XCTAssertEqual(columns("3"), 20)
        for ignored in ["", "0", "-5", "+5", "wide", "80 ", "1e3"] { XCTAssertNil(columns(ignored), ignored) }
        XCTAssertEqual(Terminal(width: Int.max).width, 1000)
        XCTAssertEqual(Terminal(width: 3).width, 20)
        XCTAssertEqual(Terminal(width: 132).width, 132)
        XCTAssertNil(Terminal(width: nil).width)
    }

    /// In-process, the widths a test passes go through the same clamp: layouts never pad to a huge width.
    func testLayoutsOnAHugeTerminalStayBounded() throws {
        let show = MovieSearchCommand.run(arguments: ["show", "7", "--cache", TestPaths.sampleCache, "--flickr-key", "k"],
                                          terminalWidth: Int.max)
        XCTAssertEqual(show.status, 0, show.standardError)
        XCTAssertTrue(show.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 1000 || $0.contains("flickr") })
    }

    /// `index --max-movies N`: a small gzip that unpacks to more rows stops with one line and exit 1, as the rows
    /// stream, and the previous cache stays byte for byte; the default (50 million) reads such a file.
    func testMaxMoviesStopsASmallGzipOfManyRows() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let rows = "title,year\n" + String(repeating: "Again,2001\n", count: 5_000)
        let catalog = folder.appendingPathComponent("many.csv.gz").path
        try Data(Gzip.compress(Array(rows.utf8))).write(to: URL(fileURLWithPath: catalog))
        let cache = try indexedCache(TestPaths.sampleCatalog)
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let run = try BinaryRun.run(["index", catalog, "-o", cache, "--max-movies", "1000"])
        XCTAssertEqual(run.status, 1, run.standardError)
        XCTAssertEqual(run.errorLines, ["moviesearch: \(catalog): more than 1,000 records, the most a catalog may hold "
            + "(raise the limit with index --max-movies N)"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before, "the previous cache stays")
        let whole = try BinaryRun.run(["index", catalog, "-o", cache, "--quiet"])
        XCTAssertEqual(whole.status, 0, whole.standardError)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before)
    }
}
