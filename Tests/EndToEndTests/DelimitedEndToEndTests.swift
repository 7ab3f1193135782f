import Foundation
import MovieSearch
import XCTest
import TestSupport

/// IMDb TSV and CSV catalogs through the built binary: `index` (format detected, ratings joined, title types,
/// mapped columns), then `query --json` and `show`; and the one-line errors of rows and files that do not read.
final class DelimitedEndToEndTests: XCTestCase {
    private static let basics = "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\t"
        + "runtimeMinutes\tgenres\n"
        + "tt0111161\tmovie\tThe Shawshank Redemption\tThe Shawshank Redemption\t0\t1994\t\\N\t142\tDrama\n"
        + "tt0000002\ttvEpisode\tShawshank Revisited\tShawshank Revisited\t0\t2001\t\\N\t30\tDocumentary\n"
        + "tt0000003\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n"
        + "tt0000004\tmovie\tThe \"Quoted\" Heist\tLe Casse\t0\t2004\t\\N\t90\tCrime,Comedy\n"
        + "tt0000005\tmovie\tUnrated Heist\tUnrated Heist\t0\t1999\t\\N\t\\N\tCrime\n"
    private static let ratings = "tconst\taverageRating\tnumVotes\n"
        + "tt0000004\t6.5\t300\ntt0111161\t9.3\t2900000\ntt9999999\t1.0\t5\n"

    private func folder() throws -> URL { try TestPaths.temporaryFolder(self) }

    /// The movies of a `query --json` answer, year by year, as (id, title, rating) triples.
    private func movies(_ run: BinaryRun, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let years = try XCTUnwrap(answer["years"] as? [[String: Any]], file: file, line: line)
        return years.flatMap { ($0["movies"] as? [[String: Any]]) ?? [] }
    }

    func testIMDbIndexedWithRatingsThenQueried() throws {
        let basics = try temporaryFile("title.basics.tsv", Self.basics)
        let ratings = try temporaryFile("title.ratings.tsv", Self.ratings)
        let cache = try folder().appendingPathComponent("imdb.mscache").path

        let index = try BinaryRun.run(["index", basics, "--ratings", ratings, "--title-types", "all",
                                       "--skip-invalid", "-o", cache])
        XCTAssertEqual(index.status, 0, index.standardError)
        XCTAssertTrue(index.standardOutput.contains("IMDb TSV"), index.standardOutput)
        XCTAssertTrue(index.standardError.contains("movie 2: primaryTitle is missing (\\N) (line 4)"),
                      index.standardError)

        let shawshank = try movies(try BinaryRun.run(["query", "shawshank", "--json", "--cache", cache]))
        XCTAssertEqual(shawshank.map { $0["id"] as? Int }, [1, 0])
        XCTAssertEqual(shawshank.map { $0["title"] as? String }, ["Shawshank Revisited", "The Shawshank Redemption"])
        XCTAssertEqual(shawshank.last?["rating"] as? Double, 9.3)
        XCTAssertEqual(shawshank.last?["genres"] as? [String], ["Drama"])
        XCTAssertEqual(shawshank.last?["imdb_id"] as? String, "tt0111161")
        XCTAssertNil(shawshank.last?["original_title"])  // The same as the title: not kept.

        let heists = try movies(try BinaryRun.run(["query", "heist", "--json", "--cache", cache]))
        XCTAssertEqual(heists.map { $0["title"] as? String }, [#"The "Quoted" Heist"#, "Unrated Heist"])
        XCTAssertEqual(heists.first?["rating"] as? Double, 6.5)
        XCTAssertNil(heists.last?["rating"] as? Double)  // No ratings row: unrated.

        let heist = try BinaryRun.run(["show", "3", "--json", "--cache", cache])
        XCTAssertEqual(heist.status, 0, heist.standardError)
        let details = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(heist.standardOutput.utf8))
            as? [String: Any])
        XCTAssertEqual(details["title"] as? String, #"The "Quoted" Heist"#)
        XCTAssertEqual(details["original_title"] as? String, "Le Casse")
        XCTAssertEqual(details["imdb_id"] as? String, "tt0000004")
        XCTAssertEqual(details["genres"] as? [String], ["Crime", "Comedy"])

        let show = try BinaryRun.run(["show", "4", "--cache", cache])
        XCTAssertEqual(show.status, 0, show.standardError)
        XCTAssertTrue(show.standardOutput.hasPrefix("Unrated Heist\n"), show.standardOutput)
        XCTAssertTrue(show.standardOutput.contains("unrated"), show.standardOutput)

        // Only movies, by default: the episode is left out and the ids stay row positions.
        let moviesOnly = try folder().appendingPathComponent("movies.mscache").path
        XCTAssertEqual(try BinaryRun.run(["index", basics, "--ratings", ratings, "--skip-invalid", "-o", moviesOnly])
            .status, 0)
        let only = try movies(try BinaryRun.run(["query", "shawshank", "--json", "--cache", moviesOnly]))
        XCTAssertEqual(only.map { $0["id"] as? Int }, [0])
    }

    func testAnInvalidIMDbRowStopsTheIndexWithItsLine() throws {
        let basics = try temporaryFile("title.basics.tsv", Self.basics)
        let cache = try folder().appendingPathComponent("never.mscache").path
        let run = try BinaryRun.run(["index", basics, "--title-types", "all", "-o", cache])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines, ["moviesearch: \(basics): movie 2: primaryTitle is missing (\\N) (line 4)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache))
    }

    /// The same TSV pair and CSV gzipped (each file, the ratings too) give the same cache byte for byte, with the
    /// format detected through the gzip; a truncated gzip basics file is one error and the previous cache stays.
    func testGzippedTSVAndCSVGiveTheSameCaches() throws {
        let folder = try folder()
        let csvText = "title,year,rating,genres\r\n\"Alien, the first\",1979,8.5,Horror|Sci-Fi\r\nHeat,1995,NA,Crime\r\n"
        func file(_ name: String, _ text: String, gzipped: Bool) throws -> String {
            let url = folder.appendingPathComponent(gzipped ? name + ".gz" : name)
            try Data(gzipped ? Gzip.compress(Array(text.utf8)) : Array(text.utf8)).write(to: url)
            return url.path
        }
        func cacheBytes(_ arguments: [String], _ name: String) throws -> Data {
            let cache = folder.appendingPathComponent(name).path
            let run = try BinaryRun.run(["index"] + arguments + ["--skip-invalid", "-o", cache])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertTrue(run.standardOutput.contains(name.hasSuffix("-gz.mscache") ? "(detected, gzip)" : "(detected)"),
                          run.standardOutput)
            return try Data(contentsOf: URL(fileURLWithPath: cache))
        }
        func imdb(gzipped: Bool) throws -> [String] {
            [try file("title.basics.tsv", Self.basics, gzipped: gzipped), "--ratings",
             try file("title.ratings.tsv", Self.ratings, gzipped: gzipped), "--title-types", "all"]
        }
        let gzTSV = try cacheBytes(try imdb(gzipped: true), "tsv-gz.mscache")
        XCTAssertEqual(try cacheBytes(try imdb(gzipped: false), "tsv.mscache"), gzTSV)
        XCTAssertEqual(try cacheBytes([try file("films.csv", csvText, gzipped: false)], "csv.mscache"),
                       try cacheBytes([try file("films.csv", csvText, gzipped: true)], "csv-gz.mscache"))

        let whole = Gzip.compress(Array(Self.basics.utf8))
        let truncated = folder.appendingPathComponent("cut.tsv.gz")
        try Data(whole[..<(whole.count - 12)]).write(to: truncated)
        let cache = folder.appendingPathComponent("tsv-gz.mscache").path
        let run = try BinaryRun.run(["index", truncated.path, "--title-types", "all", "--skip-invalid", "-o", cache])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines.count, 1, run.standardError)
        XCTAssertTrue(run.standardError.contains("not valid gzip data"), run.standardError)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), gzTSV, "the previous cache stays")
    }

    func testTheRatingsFileIsNeverTheOutput() throws {
        let basics = try temporaryFile("title.basics.tsv", Self.basics)
        let ratings = try temporaryFile("title.ratings.tsv", Self.ratings)
        let link = try folder().appendingPathComponent("link.tsv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: ratings)
        for output in [ratings, link] {
            let run = try BinaryRun.run(["index", basics, "--ratings", ratings, "--skip-invalid", "-o", output])
            XCTAssertEqual(run.status, 1, run.standardError)
            XCTAssertEqual(run.errorLines.count, 1, run.standardError)
            XCTAssertTrue(run.standardError.contains("is the ratings file"), run.standardError)
            XCTAssertEqual(try String(contentsOfFile: ratings, encoding: .utf8), Self.ratings, "the ratings file stays")
        }
    }

    /// `--ratings -` reads the ratings from standard input (gzipped too) and gives the cache the file gives; an error
    /// in them names the ratings, never "catalog"; the catalog and the ratings cannot both be standard input.
    func testRatingsFromStandardInput() throws {
        let basics = try temporaryFile("title.basics.tsv", Self.basics)
        let ratings = try temporaryFile("title.ratings.tsv", Self.ratings)
        let fromFile = try folder().appendingPathComponent("file.mscache").path
        let fromStdin = try folder().appendingPathComponent("stdin.mscache").path
        XCTAssertEqual(try BinaryRun.run(["index", basics, "--ratings", ratings, "--title-types", "all", "--skip-invalid",
                                          "-o", fromFile])
            .status, 0)
        for input in [Data(Self.ratings.utf8), Data(Gzip.compress(Array(Self.ratings.utf8)))] {
            let run = try BinaryRun.run(["index", basics, "--ratings", "-", "--title-types", "all", "--skip-invalid",
                                         "-o", fromStdin],
                                        input: input)
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: fromStdin)),
                           try Data(contentsOf: URL(fileURLWithPath: fromFile)))
        }
        let bad = try BinaryRun.run(["index", basics, "--ratings", "-", "-o", fromStdin],
                                    input: Data("tconst\taverageRating\ntt0000001\tseven\n".utf8))
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.errorLines, [#"moviesearch: ratings <stdin>: a malformed row at line 2: averageRating must "#
            + #"be a number, got "seven""#])
        let missing = try BinaryRun.run(["index", basics, "--ratings", "no-such.tsv", "-o", fromStdin])
        XCTAssertEqual(missing.errorLines, ["moviesearch: cannot read ratings no-such.tsv: No such file or directory"])
        let both = try BinaryRun.run(["index", "-", "--ratings", "-", "-o", fromStdin])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.standardError.hasPrefix("moviesearch: the catalog and --ratings cannot both be '-'"),
                      both.standardError)
    }

    func testCSVIndexedWithAMappedColumnThenQueried() throws {
        let csv = try temporaryFile("movies.csv", "\u{FEFF}Title,Year,imdb_score,genres\r\n"
            + "\"Crouching Tiger, Hidden Dragon\",2000,7.9,\"[\"\"Action\"\",\"\"Drama\"\"]\"\r\n"
            + "\"Two\r\nLines\",2005,NA,Drama|Romance\r\n"
            + "Hidden Figures,2016,7.8,Drama\r\n")
        let cache = try folder().appendingPathComponent("csv.mscache").path
        let index = try BinaryRun.run(["index", csv, "--column", "rating=imdb_score", "-o", cache])
        XCTAssertEqual(index.status, 0, index.standardError)
        XCTAssertTrue(index.standardOutput.contains("CSV"), index.standardOutput)

        let hidden = try movies(try BinaryRun.run(["query", "hidden", "--json", "--cache", cache]))
        XCTAssertEqual(hidden.map { $0["title"] as? String }, ["Hidden Figures", "Crouching Tiger, Hidden Dragon"])
        XCTAssertEqual(hidden.map { $0["rating"] as? Double }, [7.8, 7.9])
        XCTAssertEqual(hidden.last?["genres"] as? [String], ["Action", "Drama"])
        let lines = try movies(try BinaryRun.run(["query", "lines", "--json", "--cache", cache]))
        XCTAssertEqual(lines.map { $0["id"] as? Int }, [1])
        XCTAssertEqual(lines.first?["genres"] as? [String], ["Drama", "Romance"])

        let show = try BinaryRun.run(["show", "2", "--cache", cache])
        XCTAssertTrue(show.standardOutput.hasPrefix("Hidden Figures\n"), show.standardOutput)
    }

    func testATMDbExportInCSVKeepsItsFields() throws {
        let csv = try temporaryFile("tmdb.csv", "id,title,original_title,release_date,vote_average,vote_count,"
            + "overview,poster_path,imdb_id\n"
            + "278,The Shawshank Redemption,Shawshank Orig,1994-09-23,8.7,27000,\"Framed, he…\",/q6y0.jpg,tt0111161\n"
            + "999,Nobody Voted,Nobody Voted,2020-01-01,0,0,,,\n")
        let cache = try folder().appendingPathComponent("tmdb-csv.mscache").path
        XCTAssertEqual(try BinaryRun.run(["index", csv, "-o", cache]).status, 0)
        let show = try BinaryRun.run(["show", "0", "--json", "--cache", cache])
        XCTAssertEqual(show.status, 0, show.standardError)
        let details = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(show.standardOutput.utf8))
            as? [String: Any])
        XCTAssertEqual(details["tmdb_id"] as? Int, 278)
        XCTAssertEqual(details["imdb_id"] as? String, "tt0111161")
        XCTAssertEqual(details["overview"] as? String, "Framed, he…")
        XCTAssertEqual(details["original_title"] as? String, "Shawshank Orig")
        XCTAssertEqual(details["poster"] as? String, "https://image.tmdb.org/t/p/w500/q6y0.jpg")
        let unvoted = try movies(try BinaryRun.run(["query", "nobody", "--json", "--cache", cache]))
        XCTAssertEqual(unvoted.first?["tmdb_id"] as? Int, 999)
        XCTAssertNil(unvoted.first?["rating"] as? Double)  // vote_count 0: unrated, not 0.
    }

    func testCSVThatNeverEndsARecordIsOneError() throws {
        let cache = try folder().appendingPathComponent("never.mscache").path
        let open = try temporaryFile("open.csv", "title,year\nA,2000\n\"B,2001\nC,2002\n")
        let run = try BinaryRun.run(["index", open, "-o", cache])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines, ["moviesearch: \(open): not a movie catalog: a quoted field on line 3 is not "
            + "closed before the end of the file"])

        let zeros = try BinaryRun.run(["index", "/dev/zero", "--format", "csv", "-o", cache])
        XCTAssertEqual(zeros.status, 1)
        XCTAssertEqual(zeros.errorLines, ["moviesearch: /dev/zero: not a movie catalog: the record on line 1 is "
            + "longer than 16 MiB (is a quote not closed?)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache))
    }
}
