import MovieSearch
@testable import MovieSearchCLI
import XCTest

/// `browse`'s filter line on its own (`BrowseFilterLine`): `key:value` pairs read as the command-line options read
/// them, bad lines refused with a message, the filters written back as a line that reads the same, and Tab's genre
/// completion.
final class BrowseFilterLineTests: XCTestCase {
    private let genres = ["Comedy", "Documentary", "Drama", "Ficção Científica", "Science Fiction"]

    func testEveryKeyIsReadAsItsOptionReadsIt() throws {
        let filters = try BrowseFilterLine.parse(
            "genre:Drama genre:Science Fiction year:1990..1999 cast:Tom Hanks rating:7 critic:8.5")
        XCTAssertEqual(filters, SearchFilters(lowestYear: 1990, highestYear: 1999,
                                              genres: ["Drama", "Science Fiction"], cast: ["Tom Hanks"],
                                              minimumRating: 7, minimumCriticRating: 8.5))
    }

    func testYearTakesTheFormsOfDashDashYear() throws {
        let forms: [(String, Int?, Int?)] = [("2012", 2012, 2012), ("2010..2012", 2010, 2012), ("2010..", 2010, nil),
                                             ("..2012", nil, 2012), ("2012..2012", 2012, 2012)]
        for (value, low, high) in forms {
            let filters = try BrowseFilterLine.parse("year:\(value)")
            XCTAssertEqual(filters.lowestYear, low, value)
            XCTAssertEqual(filters.highestYear, high, value)
        }
    }

    func testKeysAreReadWhateverTheirCaseAndSpacesBetweenPairsDoNotCount() throws {
        let filters = try BrowseFilterLine.parse("  GENRE:drama    Year:2012   cast:Tom    Hanks  ")
        XCTAssertEqual(filters, SearchFilters(lowestYear: 2012, highestYear: 2012, genres: ["drama"],
                                              cast: ["Tom Hanks"]))
    }

    func testAValueMayStartAfterItsKeyAndHoldUnicode() throws {
        XCTAssertEqual(try BrowseFilterLine.parse("genre: Ficção Científica cast:기생충 배우").genres, ["Ficção Científica"])
        XCTAssertEqual(try BrowseFilterLine.parse("genre: Ficção Científica cast:기생충 배우").cast, ["기생충 배우"])
        // A colon inside a value that is no key stays in the value.
        XCTAssertEqual(try BrowseFilterLine.parse("cast:Mission: Impossible").cast, ["Mission: Impossible"])
    }

    func testAnEmptyLineClearsEveryFilter() throws {
        XCTAssertEqual(try BrowseFilterLine.parse(""), SearchFilters())
        XCTAssertEqual(try BrowseFilterLine.parse("    "), SearchFilters())
        XCTAssertTrue(try BrowseFilterLine.parse(" ").isEmpty)
    }

    func testBadLinesAreRefusedWithAMessageThatNamesTheFault() {
        let bad: [(String, String)] = [
            ("drama", "'drama' is no filter: write genre:, year:, cast:, rating: or critic:"),
            ("genre:", "'genre:' needs a value"),
            ("genre:Drama cast:", "'cast:' needs a value"),
            ("year:nineties", "year: 'nineties' is not " + YearFilter.expectation),
            ("year:1999..1990", "year: '1999..1990' is not " + YearFilter.expectation),
            ("year:..", "year: '..' is not " + YearFilter.expectation),
            ("year:2012 year:2013", "give year: once"),
            ("rating:seven", "rating: 'seven' is not a number"),
            ("rating:nan", "rating: 'nan' is not a number"),
            ("critic:inf", "critic: 'inf' is not a number"),
            ("rating:7 rating:8", "give rating: once"),
            ("critic:7 critic:8", "give critic: once"),
            ("title:Heat", "'title:Heat' is no filter: write genre:, year:, cast:, rating: or critic:"),
        ]
        for (line, message) in bad {
            XCTAssertThrowsError(try BrowseFilterLine.parse(line), line) { error in
                XCTAssertEqual((error as? BrowseFilterLine.ParseError)?.message, message, line)
            }
        }
    }

    /// Written back as a line, the filters read the same: the line Ctrl-G opens with.
    func testTheFiltersInForceAreWrittenAsALineThatReadsTheSame() throws {
        let cases: [(SearchFilters, String)] = [
            (SearchFilters(), ""),
            (SearchFilters(lowestYear: 2012, highestYear: 2012), "year:2012"),
            (SearchFilters(lowestYear: 1990), "year:1990.."),
            (SearchFilters(highestYear: 1999), "year:..1999"),
            (SearchFilters(lowestYear: 1990, highestYear: 1999, genres: ["Drama", "Science Fiction"],
                           cast: ["Tom Hanks"], minimumRating: 7.5, minimumCriticRating: 8),
             "genre:Drama genre:Science Fiction year:1990..1999 cast:Tom Hanks rating:7.5 critic:8"),
        ]
        for (filters, line) in cases {
            XCTAssertEqual(BrowseFilterLine.text(filters), line)
            XCTAssertEqual(try BrowseFilterLine.parse(line), filters, line)
        }
    }

    func testTabCompletesTheLastGenreFromItsStart() {
        XCTAssertEqual(BrowseFilterLine.completingGenre("genre:dra", among: genres), "genre:Drama")
        XCTAssertEqual(BrowseFilterLine.completingGenre("year:2012  genre:SCI", among: genres),
                       "year:2012 genre:Science Fiction")
        // Accents and spacing aside, as the filter matches.
        XCTAssertEqual(BrowseFilterLine.completingGenre("genre:ficcao", among: genres), "genre:Ficção Científica")
        XCTAssertEqual(BrowseFilterLine.completingGenre("genre:science   fi", among: genres),
                       "genre:Science Fiction")
        // Several genres start so: the first in the catalog's order.
        XCTAssertEqual(BrowseFilterLine.completingGenre("genre:d", among: genres), "genre:Documentary")
        XCTAssertEqual(BrowseFilterLine.completingGenre("genre:", among: genres), "genre:Comedy")
        // The case is the catalog's.
        XCTAssertEqual(BrowseFilterLine.completingGenre("genre:drama", among: genres), "genre:Drama")
    }

    func testTabCompletesNothingElse() {
        XCTAssertNil(BrowseFilterLine.completingGenre("genre:Drama", among: genres), "already whole")
        XCTAssertNil(BrowseFilterLine.completingGenre("genre:western", among: genres), "no genre starts so")
        XCTAssertNil(BrowseFilterLine.completingGenre("genre:dra year:2012", among: genres), "the last is a year")
        XCTAssertNil(BrowseFilterLine.completingGenre("cast:dra", among: genres))
        XCTAssertNil(BrowseFilterLine.completingGenre("", among: genres))
        XCTAssertNil(BrowseFilterLine.completingGenre("dra", among: genres), "no key: a bad line")
        XCTAssertNil(BrowseFilterLine.completingGenre("genre:dra", among: []))
    }
}
