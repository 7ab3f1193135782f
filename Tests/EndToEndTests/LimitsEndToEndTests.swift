import Foundation
import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// Numbers at the edges, through the built binary: out of range on the command line (a usage error), the ends of each
/// range accepted, and `index --max-movies` on a small gzip of many rows. None may hang or end in a Swift runtime
/// trap.
final class LimitsEndToEndTests: XCTestCase {
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
