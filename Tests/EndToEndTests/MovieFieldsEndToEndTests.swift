import Foundation
import MovieSearch
import XCTest
import TestSupport

/// The optional movie fields through the built binary: a cache written by the library (the catalog readers that
/// fill these fields are tested on their own), then `show`, `show --json`, `query --json` and `--poster-size`;
/// hostile text in the fields escaped on text output and kept in JSON; a damaged or old cache one clear error.
final class MovieFieldsEndToEndTests: XCTestCase {
    private static let overview = "Thomas Anderson learns the truth\n\u{1B}]0;pwned\u{07}\u{202E} about the \u{9B}31m Matrix."
    private static let catalog = Catalog(movies: [
        Movie(id: 0, title: "The Matrix", year: 1999, rating: 8.2, cast: ["Keanu Reeves"], genres: ["Action"],
              originalTitle: "The Matrix\r", overview: overview, posterPath: "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg",
              tmdbID: 603, imdbID: "tt0133093"),
        Movie(id: 2, title: "The Matrix Reloaded", year: 2003, rating: 7.1, imdbID: "tt0234215"),
    ])

    private var cache = ""

    override func setUpWithError() throws {
        cache = try TestPaths.temporaryFolder(self).appendingPathComponent("fields.mscache").path
        _ = try CacheWriter.write(Self.catalog, to: cache)
    }

    private static func isControlOrBidi(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    func testShowPrintsTheFieldsEscaped() throws {
        let run = try BinaryRun.run(["show", "0", "--cache", cache, "--flickr-key", "k", "--poster-size", "w342"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, """
            The Matrix
              id              0
              year            1999
              rating          8.2/10
              genres          Action
              cast            Keanu Reeves
              original title  The Matrix\\r
              overview        Thomas Anderson learns the truth\\n\\e]0;pwned\\x07\\u{202E} about the \\x9B31m Matrix.
              poster          https://image.tmdb.org/t/p/w342/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg
              tmdb            603  https://www.themoviedb.org/movie/603
              imdb            tt0133093  https://www.imdb.com/title/tt0133093/
              flickr          \(FlickrPhotos.searchURL(title: "The Matrix", apiKey: "k"))

            """)
        XCTAssertFalse(run.standardOutput.unicodeScalars.contains { $0 != "\n" && Self.isControlOrBidi($0) })
    }

    func testShowJSONKeepsTheOriginalStrings() throws {
        let run = try BinaryRun.run(["show", "0", "--cache", cache, "--json"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardError, "")
        XCTAssertEqual(run.standardOutput.filter { $0 == "\n" }.count, 1)
        // JSON's own escapes keep C0 controls out; the object parses back to the catalog's strings.
        XCTAssertTrue(run.standardOutput.contains(#""overview":"Thomas Anderson learns the truth\n\u001b]0;pwned\u0007"#),
                      run.standardOutput)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(object["overview"] as? String, Self.overview)
        XCTAssertEqual(object["original_title"] as? String, "The Matrix\r")
        XCTAssertEqual(object["poster"] as? String, "https://image.tmdb.org/t/p/w500/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg")
        XCTAssertEqual(object["tmdb_id"] as? Int, 603)
        XCTAssertEqual(object["imdb_id"] as? String, "tt0133093")
    }

    func testQueryJSONListsTheFieldsOfEachMovie() throws {
        let run = try BinaryRun.run(["query", "matrix", "--cache", cache, "--json", "--poster-size", "original"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let movies = try XCTUnwrap((object["years"] as? [[String: Any]])?.flatMap { $0["movies"] as? [[String: Any]] ?? [] })
        XCTAssertEqual(movies.map { $0["id"] as? Int }, [2, 0])
        XCTAssertEqual(movies.map { $0["imdb_id"] as? String }, ["tt0234215", "tt0133093"])
        XCTAssertEqual(Set(movies[0].keys), ["id", "title", "year", "rating", "rating_scale", "genres", "cast", "imdb_id", "favorite", "typos", "match"])
        XCTAssertEqual(movies[1]["poster"] as? String, "https://image.tmdb.org/t/p/original/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg")
        XCTAssertEqual(movies[1]["overview"] as? String, Self.overview)
        // The human answer lists titles only, as before.
        let text = try BinaryRun.run(["query", "matrix", "--cache", cache, "--poster-size", "w92"])
        XCTAssertEqual(text.status, 0, text.standardError)
        XCTAssertFalse(text.standardOutput.contains("tt0133093") || text.standardOutput.contains("https://"))
    }

    /// A flipped byte in the overviews (deflated in their own section, `OVWT`) is a one-line checksum error when the
    /// movie is shown, not a wrong text.
    func testDamagedOverviewIsOneClearError() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache)))
        // The directory (32-byte entries from byte 64, the count at byte 24): tag, width, count, offset, length.
        let sections = Int(bytes.u32(at: 24))
        let entry = try XCTUnwrap((0..<sections).map { 64 + $0 * 32 }
            .first { Array(bytes[$0..<($0 + 4)]) == Array("OVWT".utf8) })
        let offset = Int(bytes.u64(at: entry + 16)), length = Int(bytes.u64(at: entry + 24))
        XCTAssertGreaterThan(length, 0)
        bytes[offset + length / 2] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: cache))
        let run = try BinaryRun.run(["show", "0", "--cache", cache, "--json"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.standardOutput, "")
        XCTAssertEqual(run.errorLines.count, 1, run.standardError)
        XCTAssertTrue(run.standardError.hasPrefix("moviesearch: \(cache) is corrupted (checksum mismatch in "), run.standardError)
    }

    /// A cache of format version 3 (before these fields) is refused with the rebuild message.
    func testVersion3CacheIsRefused() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache)))
        bytes[8] = 3
        try Data(bytes).write(to: URL(fileURLWithPath: cache))
        let run = try BinaryRun.run(["show", "0", "--cache", cache])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.standardError, """
            moviesearch: \(cache) is a cache of format version 3, this moviesearch reads version \(MovieIndex.cacheFormatVersion); rebuild it with 'moviesearch index'

            """)
    }
}
