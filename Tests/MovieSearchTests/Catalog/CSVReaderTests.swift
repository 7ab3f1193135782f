import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchInput
import TestSupport
import XCTest

/// RFC 4180 CSV: quoting, CRLF, a byte-order mark, nulls, columns by name or mapped, lists in cells, and the errors
/// of bad rows and of input that never ends a record.
final class CSVReaderTests: XCTestCase {
    private func load(_ bytes: [UInt8], columns: [String: String] = [:], skipInvalid: Bool = false) throws -> Catalog {
        try CatalogDecoder.load(CatalogInput(bytes: bytes), source: "movies.csv",
                                options: CatalogOptions(format: .csv, skipInvalid: skipInvalid, columns: columns))
    }

    private func load(_ text: String, columns: [String: String] = [:], skipInvalid: Bool = false) throws -> Catalog {
        try load(Array(text.utf8), columns: columns, skipInvalid: skipInvalid)
    }

    private func loadError(_ text: String, columns: [String: String] = [:]) -> CatalogError? {
        do {
            _ = try load(text, columns: columns)
            XCTFail("expected an error")
            return nil
        } catch {
            return error as? CatalogError
        }
    }

    /// Quoted commas, a doubled quote, a line break inside quotes (the next row then starts two lines on), CRLF
    /// line ends, `NA` and `\N` nulls, and an empty last line.
    private static let awkward = "title,year,rating,genres\r\n"
        + "\"Crouching Tiger, Hidden Dragon\",2000,7.9,\"Action,Adventure\"\r\n"
        + "\"The \"\"Quoted\"\" One\",1999,NA,Drama\r\n"
        + "\"Two\r\nLines\",2005,\\N,\r\n"
        + "Plain,1990,5,\"[\"\"Comedy\"\", \"\"Drama\"\"]\"\r\n"
        + "\r\n"

    func testQuotingCRLFAndNulls() throws {
        let catalog = try load(Self.awkward)
        XCTAssertEqual(catalog.format, .csv)
        XCTAssertEqual(catalog.movies, [
            Movie(id: 0, title: "Crouching Tiger, Hidden Dragon", year: 2000, rating: 7.9,
                  genres: ["Action", "Adventure"]),
            Movie(id: 1, title: #"The "Quoted" One"#, year: 1999, rating: nil, genres: ["Drama"]),
            Movie(id: 2, title: "Two\r\nLines", year: 2005, rating: nil),
            Movie(id: 3, title: "Plain", year: 1990, rating: 5, genres: ["Comedy", "Drama"]),
        ])
    }

    func testAByteOrderMarkIsSkipped() throws {
        let catalog = try load([0xEF, 0xBB, 0xBF] + Array("Title,Year\nUp,2009\n".utf8))
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "Up", year: 2009, rating: nil)])
        XCTAssertEqual(try CatalogFormat.detect([0xEF, 0xBB, 0xBF] + Array("Title,Year\nUp,2009\n".utf8)).get(), .csv)
    }

    func testListsAsJSONPipesOrCommas() throws {
        let text = """
        title,year,genres,cast
        A,2001,"[{""id"":18,""name"":""Drama""},{""id"":35,""name"":""Comedy""}]","[""Ann"",""Bo""]"
        B,2002,Drama|Sci-Fi,"Ann | Bo, Jr."
        C,2003,"Drama, Comedy ,",Ann
        D,2004,[],NA

        """
        let catalog = try load(text)
        XCTAssertEqual(catalog.movies.map(\.genres), [["Drama", "Comedy"], ["Drama", "Sci-Fi"], ["Drama", "Comedy"], []])
        XCTAssertEqual(catalog.movies.map(\.cast), [["Ann", "Bo"], ["Ann", "Bo, Jr."], ["Ann"], []])
        XCTAssertEqual(loadError("title,year,genres\nA,2001,\"[\"\"Drama\"\",1]\"\n"), .invalidMovie(
            source: "movies.csv", index: 0, field: "genres",
            reason: "genres must be a JSON array of strings or of objects with a name, it holds a value that is "
                + "not a string (line 2)"))
        let broken = loadError("title,year,genres\nA,2001,\"[\"\"Drama\"\"\"\n")
        guard case let .invalidMovie(_, 0, "genres", reason) = broken else { return XCTFail("\(String(describing: broken))") }
        XCTAssertTrue(reason.hasPrefix("genres is not valid JSON: "), reason)
        XCTAssertTrue(reason.hasSuffix(" (line 2)"), reason)
    }

    func testTMDbExportColumns() throws {
        let text = """
        id,title,original_title,release_date,vote_average,vote_count,overview,poster_path,imdb_id
        278,The Shawshank Redemption,The Shawshank Redemption,1994-09-23,8.7,27000,"Framed, he…",/q6y0.jpg,tt0111161
        194,Amélie,Le Fabuleux Destin d'Amélie Poulain,2001-04-25,0,0,,NA,

        """
        let catalog = try load(text)
        XCTAssertEqual(catalog.movies, [
            Movie(id: 0, title: "The Shawshank Redemption", year: 1994, rating: 8.7, overview: "Framed, he…",
                  posterPath: "/q6y0.jpg", tmdbID: 278, imdbID: "tt0111161"),
            // No votes: unrated, not a zero.
            Movie(id: 1, title: "Amélie", year: 2001, rating: nil, originalTitle: "Le Fabuleux Destin d'Amélie Poulain",
                  tmdbID: 194),
        ])
        XCTAssertEqual(loadError("title,release_date\nA,1999-01-01\nB,\n"), .invalidMovie(
            source: "movies.csv", index: 1, field: "release_date", reason: "release_date is empty (line 3)"))
        XCTAssertEqual(loadError("title,release_date\nA,99-01-01\n"), .invalidMovie(
            source: "movies.csv", index: 0, field: "release_date",
            reason: #"release_date must start with a four-digit year (YYYY-MM-DD), got "99-01-01" (line 2)"#))
    }

    func testAnIdColumnOutsideATMDbExportIsIgnored() throws {
        let catalog = try load("id,title,year\n7,A,2000\n")
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "A", year: 2000, rating: nil)])
    }

    func testColumnsMappedByName() throws {
        let text = "Movie Name,Released,imdb_score,Genre\nUp,2009.0,8.3,Animation|Family\n"
        let catalog = try load(text, columns: ["title": "movie name", "year": "Released", "rating": "IMDB_SCORE",
                                               "genres": "genre"])
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "Up", year: 2009, rating: 8.3,
                                              genres: ["Animation", "Family"])])
        XCTAssertEqual(loadError(text, columns: ["title": "movie name", "year": "Released", "rating": "score"]),
                       .notACatalog(source: "movies.csv", reason: "no 'score' column in the header (given for rating "
                           + "with --column rating=score)"))
        XCTAssertEqual(loadError(text, columns: ["title": "movie name"]), .notACatalog(
            source: "movies.csv", reason: "no year column in the header (year, startYear, release_year or "
                + "release_date; name another with --column year=NAME)"))
        XCTAssertEqual(loadError(text), .notACatalog(
            source: "movies.csv", reason: "no title column in the header (title, primaryTitle or original_title; "
                + "name another with --column title=NAME)"))
        // A date column named with --column wins over a year column it did not name.
        XCTAssertEqual(try load("title,year,premiere\nA,1999,2001-02-03\n", columns: ["release_date": "premiere"])
            .movies.map(\.year), [2001])
        XCTAssertEqual(try load("title,year,premiere\nA,1999,2001-02-03\n").movies.map(\.year), [1999])
        XCTAssertEqual(loadError("title,year,Title\nA,1,B\n"), .notACatalog(
            source: "movies.csv", reason: "the header has more than one 'title' column"))
    }

    func testInvalidRowsGiveTheLineTheyStartOn() {
        let text = "title,year\n\"Two\nLines\",2000\nA,2001,extra\n"
        XCTAssertEqual(loadError(text), .invalidMovie(source: "movies.csv", index: 1, field: "row",
                                                      reason: "the row has 3 fields, the header 2 (line 4)"))
        XCTAssertEqual(loadError("title,year\nA,two thousand\n"), .invalidMovie(
            source: "movies.csv", index: 0, field: "year",
            reason: #"year must be a whole number, got "two thousand" (line 2)"#))
        XCTAssertEqual(loadError("title,year,rating\nA,2000,high\n"), .invalidMovie(
            source: "movies.csv", index: 0, field: "rating", reason: #"rating must be a number, got "high" (line 2)"#))
        XCTAssertEqual(loadError("title,year\nNA,2000\n"), .invalidMovie(
            source: "movies.csv", index: 0, field: "title", reason: "title is empty (line 2)"))
        // Spaces alone are an empty cell; other white space is a blank title.
        XCTAssertEqual(loadError("title,year\n\"  \",2000\n"), .invalidMovie(
            source: "movies.csv", index: 0, field: "title", reason: "title is empty (line 2)"))
        XCTAssertEqual(loadError("title,year\n\u{00A0},2000\n"), .invalidMovie(
            source: "movies.csv", index: 0, field: "title", reason: "title is only white space (line 2)"))
        XCTAssertEqual(loadError("title,year\nA,2000.5\n"), .invalidMovie(
            source: "movies.csv", index: 0, field: "year", reason: #"year must be a whole number, got "2000.5" (line 2)"#))
        // A TMDb id the cache could not store is a bad row, with its line, not a failure of the whole run later.
        XCTAssertEqual(loadError("title,year,tmdb_id\nGood,1999,5\nBad,2000,-3\n"), .invalidMovie(
            source: "movies.csv", index: 1, field: "tmdb_id",
            reason: #"tmdb_id must be a whole number from 0 to 2147483647, got "-3" (line 3)"#))
        XCTAssertEqual(try load("title,year,tmdb_id\nGood,1999,5\nBad,2000,4294967296\n", skipInvalid: true)
            .movies.map(\.tmdbID), [5])
    }

    func testSkipInvalidKeepsLaterIdsAtTheirPositions() throws {
        let catalog = try load("title,year\nA,x\nB,2000,1\nC,2001\n", skipInvalid: true)
        XCTAssertEqual(catalog.movies, [Movie(id: 2, title: "C", year: 2001, rating: nil)])
        XCTAssertEqual(catalog.skipped.map(\.description), [
            #"movies.csv: movie 0: year must be a whole number, got "x" (line 2)"#,
            "movies.csv: movie 1: the row has 3 fields, the header 2 (line 3)",
        ])
    }

    func testAQuoteLeftOpenIsOneClearError() {
        XCTAssertEqual(loadError("title,year\nA,2000\n\"B,2001\nC,2002\n"), .notACatalog(
            source: "movies.csv", reason: "a quoted field on line 3 is not closed before the end of the file"))
    }

    func testARecordLongerThanTheLimitFails() throws {
        var records = DelimitedRecordReader(source: "zeros", separator: UInt8(ascii: ","), quoting: true,
                                            maximumRecordBytes: 1000)
        var input = BufferByteSource([UInt8](repeating: 0, count: 5000))
        XCTAssertThrowsError(try records.next(from: &input)) { error in
            XCTAssertEqual(error as? CatalogError, .notACatalog(
                source: "zeros", reason: "the record on line 1 is longer than 1000 bytes (is a quote not closed?)"))
        }
        // At the limit, a record still reads.
        var fits = DelimitedRecordReader(source: "a", separator: UInt8(ascii: ","), quoting: true,
                                         maximumRecordBytes: 1000)
        var short = BufferByteSource(Array(String(repeating: "x", count: 999).utf8) + [0x0A, 0x79])
        XCTAssertTrue(try fits.next(from: &short))
        XCTAssertEqual(fits.field(0).count, 999)
        XCTAssertTrue(try fits.next(from: &short))
        XCTAssertEqual(Array(fits.field(0)), [0x79])
        XCTAssertFalse(try fits.next(from: &short))
    }

    func testRecordsCutAcrossReadsGiveTheSameMovies() throws {
        let whole = try load(Self.awkward)
        for step in [1, 2, 3, 5, 16] {
            var input = TrickleByteSource(Self.awkward, step: step)
            var reader = CSVReader(source: "movies.csv", options: CatalogOptions())
            var builder = CatalogBuilder(source: "movies.csv", options: CatalogOptions(), layout: .rows)
            try reader.read(&input, into: &builder)
            XCTAssertEqual(try builder.finish(format: .csv).movies, whole.movies, "step \(step)")
        }
    }

    func testFormatDetection() {
        XCTAssertEqual(try CatalogFormat.detect(Array(Self.awkward.utf8)).get(), .csv)
        XCTAssertEqual(try CatalogFormat.detect(Array("title\nUp\n".utf8)).get(), .csv)
    }
}
