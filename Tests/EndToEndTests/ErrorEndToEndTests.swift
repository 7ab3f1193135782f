import Foundation
import MovieSearch
import XCTest
import TestSupport

/// Bad input through the built binary: exit status 1 and exactly one line on stderr, `moviesearch: …`, and never
/// a good cache replaced by a bad one.
final class ErrorEndToEndTests: XCTestCase {
    /// Status 1, nothing on stdout, one stderr line that starts with `prefix`.
    @discardableResult
    private func assertDataError(_ arguments: [String], startsWith prefix: String, input: Data = Data(),
                                 file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try BinaryRun.run(arguments, input: input, file: file, line: line)
        XCTAssertEqual(run.status, 1, "\(arguments): \(run.standardError)", file: file, line: line)
        XCTAssertEqual(run.standardOutput, "", "\(arguments)", file: file, line: line)
        XCTAssertEqual(run.errorLines.count, 1, "one line: \(run.standardError)", file: file, line: line)
        XCTAssertTrue(run.standardError.hasPrefix(prefix), "\(run.standardError) should start with \(prefix)",
                      file: file, line: line)
        return run.standardError
    }

    private static let goodCatalog = """
        {"movies": [{"title": "Alpha Dawn", "year": 2010, "rating": 3}, {"title": "Beta Dusk", "year": 2011}]}
        """

    /// Movie 2 has its year as a string; movie 3 comes after it, and keeps its id.
    private static let catalogWithAnInvalidMovie = """
        [{"title": "Alpha", "year": 2010, "rating": 4},
         {"title": "Gamma", "year": 2012},
         {"title": "Broken", "year": "2011"},
         {"title": "Beta", "year": 2013, "rating": 2}]
        """

    func testAMissingCatalog() throws {
        try assertDataError(["index", "/nonexistent/movies.json"],
                            startsWith: "moviesearch: cannot read catalog /nonexistent/movies.json: ")
    }

    func testMalformedJSON() throws {
        let catalog = try temporaryFile("bad.json", "{\"movies\": [\n  {\"title\": \"A\", \"year\": 2010,,}\n]}")
        let message = try assertDataError(["index", catalog],
                                          startsWith: "moviesearch: \(catalog): malformed JSON at line 2, column ")
        XCTAssertFalse(FileManager.default.fileExists(atPath: IndexTestPath.defaultCache(of: catalog)), message)
        try assertDataError(["index", try temporaryFile("empty.json", "")], startsWith: "moviesearch: ")
        try assertDataError(["index", try temporaryFile("text.json", "\"just a string\"")], startsWith: "moviesearch: ")
    }

    func testAnInvalidMovieStopsTheRunWithItsPositionAndField() throws {
        let catalog = try temporaryFile("invalid.json", Self.catalogWithAnInvalidMovie)
        let message = try assertDataError(["index", catalog], startsWith: "moviesearch: \(catalog): movie 2: year ")
        XCTAssertTrue(message.contains("(line 3, column "), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: IndexTestPath.defaultCache(of: catalog)))
    }

    func testSkipInvalidSkipsAndReports() throws {
        let catalog = try temporaryFile("invalid.json", Self.catalogWithAnInvalidMovie)
        let cache = IndexTestPath.defaultCache(of: catalog)
        let run = try BinaryRun.run(["index", catalog, "--skip-invalid"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.errorLines.count, 2, run.standardError)
        XCTAssertEqual(run.errorLines.first, "moviesearch: warning: skipped 1 invalid movie:")
        let detail = try XCTUnwrap(run.errorLines.last, run.standardError)
        XCTAssertTrue(detail.hasPrefix("  \(catalog): movie 2: year "), run.standardError)
        XCTAssertTrue(run.standardOutput.contains("\n  movies           3\n  skipped          1 invalid\n"), run.standardOutput)

        // Ids stay positions in the file: Beta, after the skipped movie, is 3.
        let beta = try BinaryRun.run(["query", "beta", "--json", "--cache", cache])
        XCTAssertTrue(beta.standardOutput.contains(#"{"id":3,"title":"Beta","year":2013,"rating":2,"#), beta.standardOutput)
    }

    func testSkipInvalidListsOnlyTheFirstReasons() throws {
        let movies = (0..<5).map { #"{"title": "Bad \#($0)", "year": null}"# } + [#"{"title": "Good", "year": 2000}"#]
        let catalog = try temporaryFile("many.json", "[" + movies.joined(separator: ",") + "]")
        let run = try BinaryRun.run(["index", catalog, "--skip-invalid"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.errorLines.first, "moviesearch: warning: skipped 5 invalid movies, the first 3:")
        XCTAssertEqual(run.errorLines.count, 4)
    }

    func testAnUnwritableOutput() throws {
        let catalog = try temporaryFile("good.json", Self.goodCatalog)
        let message = try assertDataError(["index", catalog, "-o", "/proc/x.mscache"], startsWith: "moviesearch: ")
        XCTAssertTrue(message.contains("/proc/x.mscache"), message)
    }

    func testAFailedRunLeavesThePreviousCacheIntact() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let catalog = try temporaryFile("good.json", Self.goodCatalog)
        let cache = folder.appendingPathComponent("movies.mscache").path
        XCTAssertEqual(try BinaryRun.run(["index", catalog, "-o", cache]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))

        // A bad catalog never reaches the writer.
        let invalid = try temporaryFile("invalid.json", Self.catalogWithAnInvalidMovie)
        try assertDataError(["index", invalid, "-o", cache], startsWith: "moviesearch: \(invalid): movie 2")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before)

        // (A write into a read-only folder is WriteFailureTests', which also covers running as root.)

        // A rename onto a folder fails after the temporary file was written: no stray file remains.
        let occupied = folder.appendingPathComponent("occupied.mscache")
        try FileManager.default.createDirectory(at: occupied.appendingPathComponent("inside"), withIntermediateDirectories: true)
        try assertDataError(["index", catalog, "-o", occupied.path], startsWith: "moviesearch: ")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["movies.mscache", "occupied.mscache"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: occupied.path), ["inside"])
    }

    func testBadCaches() throws {
        try assertDataError(["query", "dark", "--cache", "/nonexistent/c.mscache"],
                            startsWith: "moviesearch: cannot ")
        let garbage = try temporaryFile("garbage.mscache", String(repeating: "This is not a cache at all. ", count: 100))
        try assertDataError(["query", "dark", "--cache", garbage], startsWith: "moviesearch: \(garbage) ")
        try assertDataError(["top", "--cache", garbage], startsWith: "moviesearch: \(garbage) ")
        try assertDataError(["show", "0", "--cache", garbage], startsWith: "moviesearch: \(garbage) ")
        try assertDataError(["query", "--stdin", "--cache", garbage], startsWith: "moviesearch: \(garbage) ",
                            input: Data("dark\n".utf8))
        let empty = try temporaryFile("empty.mscache", "")
        try assertDataError(["query", "dark", "--cache", empty], startsWith: "moviesearch: \(empty) ")
        try assertDataError(["query", "dark", "--cache", NSTemporaryDirectory()], startsWith: "moviesearch: ")

        // A cache cut short.
        let catalog = try temporaryFile("good.json", Self.goodCatalog)
        let cache = try indexedCache(catalog)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cache))
        let truncated = try temporaryFile("truncated.mscache", "")
        try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: truncated))
        try assertDataError(["query", "dark", "--cache", truncated], startsWith: "moviesearch: \(truncated) ")
    }

    func testNoSuchMovie() throws {
        let cache = try indexedCache(try temporaryFile("good.json", Self.goodCatalog))
        let message = try assertDataError(["show", "99", "--cache", cache], startsWith: "moviesearch: ")
        XCTAssertEqual(message, "moviesearch: \(CacheError.noSuchMovie(id: 99, movieCount: 2, ids: 0...1))\n")
        try assertDataError(["photos", "2", "--cache", cache], startsWith: "moviesearch: no movie with id 2")
    }
}

/// Where `index` puts a cache by default, spelled out independently of the code under test.
enum IndexTestPath {
    static func defaultCache(of catalog: String) -> String {
        URL(fileURLWithPath: catalog).deletingPathExtension().appendingPathExtension("mscache").path
    }
}
