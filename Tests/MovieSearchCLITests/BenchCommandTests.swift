import Foundation
import XCTest
import MovieSearch
@testable import MovieSearchCLI
import TestSupport

/// `moviesearch bench` in-process: its figures, its JSON keys, its usage errors. Times are never asserted, only that
/// they are there and consistent with each other. (`BenchEndToEndTests` runs the built binary.)
final class BenchCommandTests: XCTestCase {
    private func queriesFile(_ lines: String) throws -> String {
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("queries.txt").path
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testJSONReportHasEveryFigure() throws {
        let queries = try queriesFile("d\nda\ndark\n\nthe dark k\n")
        let run = MovieSearchCommand.run(arguments: ["bench", "--cache", TestPaths.sampleCache, "--queries", queries,
                                                     "--passes", "3", "--json"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(object["queries"] as? Int, 5, "the empty line is a query; the final newline is not")
        XCTAssertEqual(object["passes"] as? Int, 3)
        XCTAssertEqual(object["samples"] as? Int, 15)
        for key in ["p50_us", "p90_us", "p99_us", "max_us", "mean_us", "open_us"] {
            XCTAssertNotNil(object[key] as? Double, key)
        }
        let p50 = try XCTUnwrap(object["p50_us"] as? Double), p99 = try XCTUnwrap(object["p99_us"] as? Double)
        let maximum = try XCTUnwrap(object["max_us"] as? Double)
        XCTAssertLessThanOrEqual(p50, p99)
        XCTAssertLessThanOrEqual(p99, maximum)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: TestPaths.sampleCache)[.size] as? Int)
        XCTAssertEqual(object["cache_bytes"] as? Int, size)
        XCTAssertGreaterThan(object["peak_rss_bytes"] as? Int ?? 0, 0)
        // The checksum is the work done: the answers' totals and year counts, over the warm-up and every pass.
        let index = try MovieIndex(path: TestPaths.sampleCache)
        let answers = try ["d", "da", "dark", "", "the dark k"].map { try index.search($0) }
        let perPass = answers.reduce(0) { $0 + $1.total + $1.years.count }
        let warmUp = answers.reduce(0) { $0 + $1.total }
        XCTAssertEqual(object["checksum"] as? Int, warmUp + 3 * perPass)
    }

    func testTextReport() throws {
        let queries = try queriesFile("dark\r\nnight\r\n")
        let run = MovieSearchCommand.run(arguments: ["bench", "--cache", TestPaths.sampleCache, "--queries", queries])
        XCTAssertEqual(run.status, 0, run.standardError)
        let labels = run.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
        XCTAssertEqual(labels, ["queries", "p50", "p90", "p99", "max", "mean", "throughput", "open", "cache", "peak"])
        XCTAssertTrue(run.standardOutput.contains("2 × 5 passes (10 timed calls)"), run.standardOutput)
    }

    /// `--details <id>`: the details page of one movie opened and scrolled to its end, each key timed; the keys a
    /// pass are the ↓ presses until the screen stops changing, one more than the page's lines past the first screen.
    func testDetailsTimesOpeningAndScrollingOnePage() throws {
        let run = MovieSearchCommand.run(arguments: ["bench", "--details", "0", "--cache", TestPaths.sampleCache,
                                                     "--passes", "2"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, run.standardOutput)
        guard lines.count == 4 else { return }
        XCTAssertTrue(lines[0].hasPrefix("Details page of movie 0 (The Dark Lighthouse, overview 0 characters)"),
                      run.standardOutput)
        XCTAssertTrue(lines[1].hasPrefix("  open       p50 "), run.standardOutput)
        XCTAssertTrue(lines[2].hasPrefix("  ↓ (1 key a pass)"), run.standardOutput)
        let refused = MovieSearchCommand.run(arguments: ["bench", "--details", "0", "--browse", "--cache",
                                                         TestPaths.sampleCache])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.standardError.hasPrefix("moviesearch: --details times one movie's page"), refused.standardError)
    }

    /// `--slowest N`: the N queries with the largest median over the passes, slowest first, in text and JSON.
    func testSlowestQueries() throws {
        // Query 1 is slow in every pass, query 2 in one pass only (its median stays low).
        let samples: [UInt64] = [1_000, 9_000, 2_000, 50_000,
                                 1_000, 8_000, 90_000, 3_000,
                                 1_000, 7_000, 2_000, 2_000]
        let slowest = BenchCommand.slowest(2, of: ["a", "b", "c", "d"], samples: samples)
        XCTAssertEqual(slowest.map(\.query), ["b", "d"])
        XCTAssertEqual(slowest.map(\.medianMicroseconds), [8, 3])
        XCTAssertEqual(BenchCommand.slowest(9, of: ["a", "b"], samples: [5, 5, 5, 5]).map(\.query), ["a", "b"], "ties in file order")
        XCTAssertTrue(BenchCommand.slowest(0, of: ["a"], samples: [1]).isEmpty)

        let queries = try queriesFile("dark\nnight\nthe\n")
        let json = MovieSearchCommand.run(arguments: ["bench", "--cache", TestPaths.sampleCache, "--queries", queries,
                                                      "--passes", "2", "--slowest", "2", "--json"])
        XCTAssertEqual(json.status, 0, json.standardError)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let entries = try XCTUnwrap(object["slowest"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 2)
        XCTAssertTrue(entries.allSatisfy { ["dark", "night", "the"].contains($0["query"] as? String ?? "") && $0["median_us"] is Double })
        let text = MovieSearchCommand.run(arguments: ["bench", "--cache", TestPaths.sampleCache, "--queries", queries,
                                                      "--passes", "1", "--slowest", "3"])
        XCTAssertEqual(text.status, 0, text.standardError)
        XCTAssertTrue(text.standardOutput.contains("slowest queries (median over the passes):"), text.standardOutput)
        XCTAssertEqual(text.standardOutput.split(separator: "\n").suffix(3).filter { $0.hasSuffix("\"") }.count, 3)
    }

    func testHighWaterMarkOfAProcStatusFile() {
        let status = "Name:\tmoviesearch\nVmPeak:\t  123456 kB\nVmHWM:\t   10376 kB\nVmRSS:\t    9000 kB\n"
        XCTAssertEqual(System.highWaterMark(Array(status.utf8)), 10_376 * 1024)
        XCTAssertNil(System.highWaterMark(Array("Name:\tx\nVmRSS:\t 1 kB\n".utf8)))
        XCTAssertNil(System.highWaterMark(Array("VmHWM:\t 12 MB\n".utf8)))
    }

    func testLinesOfAQueryFile() throws {
        XCTAssertEqual(try BenchCommand.lines(.bytes(Array("a\nb c\r\n\nd".utf8))), ["a", "b c", "", "d"])
        XCTAssertEqual(try BenchCommand.lines(.bytes(Array("a\n".utf8))), ["a"])
        XCTAssertEqual(try BenchCommand.lines(.bytes([])), [])
    }

    func testQueryFilesAreBounded() throws {
        let three = InputSource.bytes(Array("ab\ncd\nef\n".utf8))
        XCTAssertEqual(try BenchCommand.lines(three, maximumCount: 3, maximumBytes: 9), ["ab", "cd", "ef"])
        XCTAssertThrowsError(try BenchCommand.lines(three, maximumCount: 2, maximumBytes: 100)) {
            XCTAssertEqual($0 as? LineReadFailure, .tooManyLines(limit: 2))
        }
        XCTAssertThrowsError(try BenchCommand.lines(three, maximumCount: 3, maximumBytes: 8)) {
            XCTAssertEqual($0 as? LineReadFailure, .tooManyBytes(limit: 8))
        }
        let longLine = [UInt8](repeating: UInt8(ascii: "a"), count: QueryCommand.maximumLineBytes + 1)
        XCTAssertEqual(try BenchCommand.lines(.bytes(Array(longLine.dropLast()) + [0x0A])).first?.utf8.count,
                       QueryCommand.maximumLineBytes)
        XCTAssertThrowsError(try BenchCommand.lines(.bytes(Array("x\n".utf8) + longLine))) {
            XCTAssertEqual($0 as? LineReadFailure, .lineTooLong(line: 2, limit: QueryCommand.maximumLineBytes))
        }
    }

    func testPercentilesAreNearestRank() {
        let report = BenchCommand.Report(queries: 10, passes: 1, samples: (1...10).map { UInt64($0 * 1000) }.reversed(),
                                         openNanoseconds: 0, cacheBytes: 0, peakResidentBytes: 0, checksum: 0)
        XCTAssertEqual(report.percentile(50), 5)
        XCTAssertEqual(report.percentile(90), 9)
        XCTAssertEqual(report.percentile(99), 10)
        XCTAssertEqual(report.maximum, 10)
        XCTAssertEqual(report.mean, 5.5)
    }

    func testUsageAndDataErrors() throws {
        let queries = try queriesFile("dark\n")
        let missingCache = MovieSearchCommand.run(arguments: ["bench", "--queries", queries])
        XCTAssertEqual(missingCache.status, 2)
        XCTAssertTrue(missingCache.standardError.hasPrefix("moviesearch: missing option '--cache <file>'"), missingCache.standardError)
        let missingQueries = MovieSearchCommand.run(arguments: ["bench", "--cache", TestPaths.sampleCache])
        XCTAssertEqual(missingQueries.status, 2)
        let zeroPasses = MovieSearchCommand.run(arguments: ["bench", "--cache", TestPaths.sampleCache, "--queries", queries, "--passes", "0"])
        XCTAssertEqual(zeroPasses.status, 2)
        XCTAssertTrue(zeroPasses.standardError.contains("from 1 to 1,000"), zeroPasses.standardError)
        let noFile = MovieSearchCommand.run(arguments: ["bench", "--cache", TestPaths.sampleCache, "--queries", "/nonexistent/q.txt"])
        XCTAssertEqual(noFile.status, 1)
        XCTAssertEqual(noFile.standardError, "moviesearch: cannot read queries /nonexistent/q.txt: No such file or directory\n")
        let badCache = MovieSearchCommand.run(arguments: ["bench", "--cache", queries, "--queries", queries])
        XCTAssertEqual(badCache.status, 1)
        XCTAssertTrue(badCache.standardError.contains("is not a moviesearch cache"), badCache.standardError)
    }
}

/// `bench --browse`: the keystrokes it types, its figures, its usage errors.
final class BrowseBenchTests: XCTestCase {
    func testKeystrokesTypeEachLetterOnceAndClearBetweenQueries() {
        let keys = BenchCommand.keystrokes(typing: ["v", "va", "Vam", "vamp", "", "t", "tx", "ty", "dark"])
        XCTAssertEqual(keys, [
            .text("v"), .text("a"), .text("m"), .text("p"),  // case changes of a prefix count as typed
            .control("u"),  // the empty query
            .text("t"), .text("x"), .backspace, .text("y"),
            .control("u"), .text("d"), .text("a"), .text("r"), .text("k"),
        ])
    }

    func testReplayingTheKeysReachesEachQuery() throws {
        let index = try MovieIndex(path: TestPaths.sampleCache)
        var model = BrowseModel(index: index)
        for key in BenchCommand.keystrokes(typing: ["d", "da", "Dar", "dark", "dark k", "n", "ni", "night"]) {
            _ = model.handle(key)
        }
        XCTAssertEqual(model.query, "night")
        XCTAssertEqual(model.result?.total, try index.search("night").total)
    }

    func testJSONFiguresPerFileAndOverAll() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let first = folder.appendingPathComponent("a.txt").path, second = folder.appendingPathComponent("b.txt").path
        try "d\nda\ndar\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "n\nni\n".write(toFile: second, atomically: true, encoding: .utf8)
        let run = MovieSearchCommand.run(arguments: ["bench", "--browse", "--cache", TestPaths.sampleCache,
                                                     "--queries", first, "--queries", second, "--passes", "2", "--json"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(object["keys"] as? Int, 5)
        XCTAssertEqual(object["samples"] as? Int, 10)
        XCTAssertEqual(object["columns"] as? Int, 80)
        XCTAssertEqual(object["rows"] as? Int, 24)
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { $0["file"] as? String }, [first, second])
        XCTAssertEqual(files.map { $0["keys"] as? Int }, [3, 2])
        for figures in files + [object] {
            let p50 = try XCTUnwrap(figures["p50_us"] as? Double), p99 = try XCTUnwrap(figures["p99_us"] as? Double)
            let maximum = try XCTUnwrap(figures["max_us"] as? Double)
            XCTAssertLessThanOrEqual(p50, p99)
            XCTAssertLessThanOrEqual(p99, maximum)
        }
    }

    func testTextReportNamesEachFile() throws {
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("q.txt").path
        try "d\nda\n".write(toFile: path, atomically: true, encoding: .utf8)
        let run = MovieSearchCommand.run(arguments: ["bench", "--browse", "--cache", TestPaths.sampleCache,
                                                     "--queries", path, "--passes", "1"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix("Browse benchmark of "), run.standardOutput)
        XCTAssertTrue(lines[2].contains(path) && lines[2].contains(" 2 "), run.standardOutput)
        XCTAssertTrue(lines[3].hasPrefix("  all "), run.standardOutput)
    }

    func testOptionsOfQueryBenchmarksAreRefused() {
        for extra in [["--per-year", "3"], ["--slowest", "2"]] {
            let run = MovieSearchCommand.run(arguments: ["bench", "--browse", "--cache", TestPaths.sampleCache,
                                                         "--queries", "/dev/null"] + extra)
            XCTAssertEqual(run.status, 2, extra.joined(separator: " "))
            XCTAssertTrue(run.standardError.contains("does not apply to --browse"), run.standardError)
        }
        let empty = MovieSearchCommand.run(arguments: ["bench", "--browse", "--cache", TestPaths.sampleCache,
                                                       "--queries", "/dev/null"])
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.standardError.contains("no queries in /dev/null"), empty.standardError)
    }
}
