import Foundation
import XCTest
import TestSupport

/// The built binary on TMDb API responses: `index` tells them from the catalog's own JSON, then `query --json` finds
/// their titles.
final class TMDbEndToEndTests: XCTestCase {
    /// Two `/discover/movie` pages that overlap (id 603 is on both), with a null `poster_path` and `vote_count` 0.
    static let pages = """
    [{"page":1,"results":[
       {"id":603,"title":"The Matrix","original_title":"The Matrix","release_date":"1999-03-31",
        "vote_average":8.2,"vote_count":25000,"genre_ids":[28,878],"poster_path":"/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"},
       {"id":604,"title":"The Matrix Reloaded","release_date":"2003-05-15","vote_average":7.0,"vote_count":10000,
        "genre_ids":[12,28],"poster_path":null}],
      "total_pages":2,"total_results":4},
     {"page":2,"results":[
       {"id":603,"title":"The Matrix","release_date":"1999-03-31","vote_average":8.2,"vote_count":25001},
       {"id":9999001,"title":"Matrix Fan Cut","release_date":"2021-01-01","vote_average":0,"vote_count":0}],
      "total_pages":2,"total_results":4}]
    """

    func testIndexReadsTMDbPagesAndQueryFindsTheirTitles() throws {
        let catalog = try temporaryFile("discover.json", Self.pages)
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("tmdb.mscache").path
        let run = try BinaryRun.run(["index", catalog, "-o", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        let summary = run.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(summary.dropFirst().first, "  format           TMDb JSON (detected)", run.standardOutput)
        XCTAssertEqual(summary.dropFirst(2).first, "  movies           3", run.standardOutput)
        XCTAssertTrue(run.standardError.contains("TMDb id"), run.standardError)

        let movies = try queryMovies("matrix", cache: cache)
        XCTAssertEqual(Set(movies.map { $0["title"] as? String }), ["The Matrix", "The Matrix Reloaded", "Matrix Fan Cut"])
        // Ids count results across pages; the duplicate's position (2) stays unused.
        XCTAssertEqual(Set(movies.map { $0["id"] as? Int }), [0, 1, 3])
        let fanCut = try XCTUnwrap(movies.first { $0["title"] as? String == "Matrix Fan Cut" })
        XCTAssertTrue(fanCut["rating"] is NSNull, "vote_count 0 is unrated: \(fanCut)")
        let matrix = try XCTUnwrap(movies.first { $0["title"] as? String == "The Matrix" })
        XCTAssertEqual(matrix["rating"] as? Double, 8.2)
        XCTAssertEqual(matrix["genres"] as? [String], ["Action", "Science Fiction"])
        // The fields TMDb gives reach the answer; original_title only where it differs, a null poster_path nowhere.
        XCTAssertEqual(matrix["tmdb_id"] as? Int, 603)
        XCTAssertEqual(matrix["poster"] as? String, "https://image.tmdb.org/t/p/w500/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg")
        XCTAssertNil(matrix["original_title"])
        let reloaded = try XCTUnwrap(movies.first { $0["title"] as? String == "The Matrix Reloaded" })
        XCTAssertEqual(reloaded["tmdb_id"] as? Int, 604)
        XCTAssertNil(reloaded["poster"], "a null poster_path is no poster: \(reloaded)")
    }

    func testGzippedPagesGiveTheSameCache() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let plain = try temporaryFile("pages.json", Self.pages)
        let gzipped = folder.appendingPathComponent("pages.json.gz")
        try Data(Gzip.compress(Array(Self.pages.utf8))).write(to: gzipped)
        var caches: [Data] = []
        for (catalog, name) in [(plain, "plain.mscache"), (gzipped.path, "gzipped.mscache")] {
            let cache = folder.appendingPathComponent(name)
            let run = try BinaryRun.run(["index", catalog, "-o", cache.path])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertTrue(run.standardOutput.contains("  format           TMDb JSON (detected"), run.standardOutput)
            caches.append(try Data(contentsOf: cache))
        }
        XCTAssertEqual(caches[0], caches[1])
    }

    func testABareArrayOfMoviesFromStandardInputWithTheFormatNamed() throws {
        let movies = #"[{"id":1,"title":"Solaris","original_title":"Солярис","release_date":"1972-03-20"}]"#
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("stdin.mscache").path
        let run = try BinaryRun.run(["index", "-", "--format", "tmdb", "-o", cache], input: Data(movies.utf8))
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("  format           TMDb JSON\n"), run.standardOutput)
        XCTAssertEqual(try queryMovies("solaris", cache: cache).map { $0["title"] as? String }, ["Solaris"])
        // Detected too, from a pipe.
        let piped = try BinaryRun.run(["index", "-", "-o", cache], input: Data(movies.utf8))
        XCTAssertTrue(piped.standardOutput.contains("  format           TMDb JSON (detected)\n"), piped.standardOutput)
    }

    func testAnEmptyReleaseDateStopsTheRunUnlessSkipped() throws {
        let page = """
        {"page":1,"results":[
          {"id":1,"title":"Coming Soon","release_date":""},
          {"id":2,"title":"Released","release_date":"2020-02-02"}]}
        """
        let catalog = try temporaryFile("page.json", page)
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("page.mscache").path
        let stopped = try BinaryRun.run(["index", catalog, "-o", cache])
        XCTAssertEqual(stopped.status, 1)
        XCTAssertEqual(stopped.errorLines, ["moviesearch: \(catalog): movie 0: release_date is empty (line 2, column 48)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache))

        let skipped = try BinaryRun.run(["index", catalog, "--skip-invalid", "-o", cache])
        XCTAssertEqual(skipped.status, 0, skipped.standardError)
        XCTAssertTrue(skipped.standardOutput.contains("  skipped          1 invalid"), skipped.standardOutput)
        let movies = try queryMovies("", cache: cache)
        XCTAssertEqual(movies.map { $0["title"] as? String }, ["Released"])
        XCTAssertEqual(movies.map { $0["id"] as? Int }, [1])
    }

    func testATMDbErrorResponseIsOneClearLine() throws {
        let response = #"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#
        let catalog = try temporaryFile("error.json", response)
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("error.mscache").path
        let run = try BinaryRun.run(["index", catalog, "-o", cache])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines, ["moviesearch: \(catalog): not a movie catalog: the top-level object has no "
            + "'results' member (TMDb's status_message: Invalid API key: You must be granted a valid key.)"])
    }

    /// The movies `query --json` answers for `text`, all years together.
    private func queryMovies(_ text: String, cache: String, file: StaticString = #filePath,
                             line: UInt = #line) throws -> [[String: Any]] {
        let run = try BinaryRun.run(["query", text, "--json", "--cache", cache], file: file, line: line)
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let years = try XCTUnwrap(answer["years"] as? [[String: Any]], run.standardOutput, file: file, line: line)
        return years.flatMap { $0["movies"] as? [[String: Any]] ?? [] }
    }
}
