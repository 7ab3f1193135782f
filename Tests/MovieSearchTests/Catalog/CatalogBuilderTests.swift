import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchInput
import MovieSearchJSON
import XCTest

/// `CatalogBuilder`: each check every format shares (`RecordChecks`) made once, through the builder, on a catalog of
/// one record in every format that can write the value, with the same words (each format naming its own field, and
/// placing the value its own way); and what the builder decides for every reader: ids, when an invalid record
/// stops the read, which problem of a record is reported. The record limit, also the builder's, is
/// `RecordLimitTests`.
final class CatalogBuilderTests: XCTestCase {
    /// How each format names the checked fields, and where its catalog below puts each value.
    private struct Layout {
        var format: CatalogFormat
        var title: String
        var year: String
        var rating: String
        var titlePlace: String
        var yearPlace: String
        var ratingPlace: String
    }

    private static let json = Layout(format: .json, title: "title", year: "year", rating: "rating",
                                     titlePlace: "(line 2, column 10)", yearPlace: "(line 3, column 9)",
                                     ratingPlace: "(line 4, column 11)")
    /// TMDb's year is the first four digits of `release_date`: never a fraction nor out of range.
    private static let tmdb = Layout(format: .tmdb, title: "title", year: "release_date", rating: "vote_average",
                                     titlePlace: "(line 2, column 10)", yearPlace: "",
                                     ratingPlace: "(line 4, column 17)")
    /// IMDb's ratings come from their own file, checked as it is read (`testANonFiniteRating…`).
    private static let imdb = Layout(format: .imdb, title: "primaryTitle", year: "startYear", rating: "averageRating",
                                     titlePlace: "(line 2)", yearPlace: "(line 2)", ratingPlace: "(line 2)")
    private static let csv = Layout(format: .csv, title: "title", year: "year", rating: "rating",
                                    titlePlace: "(line 2)", yearPlace: "(line 2)", ratingPlace: "(line 2)")

    /// A catalog of one movie in `format`, its title, year and rating written as given (the title a JSON string,
    /// or a TSV or CSV field as it is).
    private func catalog(_ format: CatalogFormat, title: String, year: String = "2010", rating: String = "7")
        -> [UInt8]
    {
        var quoted = JSONWriter()
        quoted.value(title)
        switch format {
        case .json:
            return Array("[{\n\"title\": \(quoted.text),\n\"year\": \(year),\n\"rating\": \(rating)\n}]".utf8)
        case .tmdb:
            return Array(("[{\n\"title\": \(quoted.text),\n\"release_date\": \"\(year)-01-01\",\n"
                + "\"vote_average\": \(rating)\n}]").utf8)
        case .imdb:
            return Array("tconst\ttitleType\tprimaryTitle\tstartYear\ntt1\tmovie\t\(title)\t\(year)\n".utf8)
        case .csv:
            return Array("title,year,rating\n\(title),\(year),\(rating)\n".utf8)
        }
    }

    private func load(_ bytes: [UInt8], _ format: CatalogFormat, skipInvalid: Bool = false,
                      ratings: String? = nil) throws -> Catalog {
        try CatalogDecoder.load(CatalogInput(bytes: bytes), source: "c",
                                options: CatalogOptions(format: format, skipInvalid: skipInvalid),
                                ratings: ratings.map { (input: CatalogInput(bytes: Array($0.utf8)), name: "r") })
    }

    /// The only record of `bytes` is refused for `reason` in `field`: thrown without skipping, listed with it.
    private func assertRefused(_ bytes: [UInt8], _ format: CatalogFormat, field: String, reason: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let expected = CatalogError.invalidMovie(source: "c", index: 0, field: field, reason: reason)
        XCTAssertThrowsError(try load(bytes, format), "\(format)", file: file, line: line) { error in
            XCTAssertEqual(error as? CatalogError, expected, "\(format)", file: file, line: line)
        }
        let skipping = try? load(bytes, format, skipInvalid: true)
        XCTAssertEqual(skipping?.skipped, [expected], "\(format)", file: file, line: line)
        XCTAssertEqual(skipping?.movieCount, 0, "\(format)", file: file, line: line)
    }

    // MARK: - The shared checks, in every format

    func testAnEmptyTitleIsRefusedAlikeInEveryFormat() {
        for layout in [Self.json, Self.tmdb, Self.imdb, Self.csv] {
            // CSV's empty cell is null, which its reader refuses in the builder's words.
            assertRefused(catalog(layout.format, title: ""), layout.format, field: layout.title,
                          reason: "\(layout.title) is empty \(layout.titlePlace)")
        }
    }

    func testABlankTitleIsRefusedAlikeInEveryFormat() {
        for layout in [Self.json, Self.tmdb, Self.imdb, Self.csv] {
            for blank in ["\u{3000}", "\u{00A0}\u{2003}"] {
                assertRefused(catalog(layout.format, title: blank), layout.format, field: layout.title,
                              reason: "\(layout.title) is only white space \(layout.titlePlace)")
            }
        }
    }

    func testAFractionalYearIsRefusedAlikeInEveryFormat() {
        for layout in [Self.json, Self.imdb, Self.csv] {
            let written = layout.format == .json ? "2010.5" : #""2010.5""#
            assertRefused(catalog(layout.format, title: "A", year: "2010.5"), layout.format, field: layout.year,
                          reason: "\(layout.year) must be a whole number, got \(written) \(layout.yearPlace)")
        }
    }

    func testAYearACacheCannotStoreIsRefusedAlikeInEveryFormat() {
        for layout in [Self.json, Self.imdb, Self.csv] {
            for year in ["2147483648", "-2147483649", "3e9", "99999999999999999999"] {
                let written = layout.format == .json ? year : "\"\(year)\""
                assertRefused(catalog(layout.format, title: "A", year: year), layout.format, field: layout.year,
                              reason: "\(layout.year) \(written) is out of range (-2147483648 to 2147483647) "
                                  + layout.yearPlace)
            }
        }
        // The bounds themselves are years.
        for layout in [Self.json, Self.imdb, Self.csv] {
            for year in [Int(Int32.min), Int(Int32.max)] {
                XCTAssertEqual(try load(catalog(layout.format, title: "A", year: String(year)), layout.format)
                    .movies.map(\.year), [year], "\(layout.format)")
            }
        }
    }

    func testANonFiniteRatingIsRefusedAlikeInEveryFormat() throws {
        for layout in [Self.json, Self.tmdb, Self.csv] {
            for rating in ["1e999", "-1e999"] {
                let written = layout.format == .csv ? "\"\(rating)\"" : rating
                assertRefused(catalog(layout.format, title: "A", rating: rating), layout.format, field: layout.rating,
                              reason: "\(layout.rating) must be a finite number, got \(written) \(layout.ratingPlace)")
            }
            // Any finite number is a rating.
            XCTAssertEqual(try load(catalog(layout.format, title: "A", rating: "-1e300"), layout.format)
                .movies.map(\.rating), [-1e300], "\(layout.format)")
        }
        // IMDb's ratings file is all or nothing: the same check, made as it is read.
        let basics = catalog(.imdb, title: "A")
        XCTAssertThrowsError(try load(basics, .imdb, ratings: "tconst\taverageRating\ntt1\t1e999\n")) { error in
            XCTAssertEqual(error as? CatalogError, .invalidRatings(
                source: "r", reason: #"a malformed row at line 2: averageRating must be a finite number, got "1e999""#))
        }
    }

    // MARK: - What the builder decides for every reader

    private static let names = CatalogRecord.FieldNames(title: "title", year: "year", rating: "rating")

    private func record(_ title: String, year: Int = 2000, place: Int) -> CatalogRecord {
        CatalogRecord(title: title, year: .value(year), rating: nil, titlePlace: place, yearPlace: place,
                      ratingPlace: place)
    }

    /// Ids are positions among all records, whatever came of them; rows stop at the first invalid one unless
    /// skipped, and only kept errors are counted past `Catalog.maximumSkippedKept`.
    func testRowsAreNumberedAndTheFirstInvalidOneStopsTheRead() throws {
        var builder = CatalogBuilder(source: "c", options: CatalogOptions(skipInvalid: true), layout: .rows)
        try builder.add(record("A", place: 2), names: Self.names)
        try builder.filterOut()
        try builder.reject(RecordProblem(field: "row", reason: "the row has 1 fields, the header 2", place: 4))
        try builder.add(record(" ", place: 5), names: Self.names)
        try builder.add(record("B", place: 6), names: Self.names)
        let catalog = try builder.finish(format: .csv)
        XCTAssertEqual(catalog.movies.map(\.id), [0, 4])
        XCTAssertEqual(catalog.filteredOut, 1)
        XCTAssertEqual(catalog.skipped, [
            .invalidMovie(source: "c", index: 2, field: "row", reason: "the row has 1 fields, the header 2 (line 4)"),
            .invalidMovie(source: "c", index: 3, field: "title", reason: "title is only white space (line 5)"),
        ])

        var strict = CatalogBuilder(source: "c", options: CatalogOptions(), layout: .rows)
        try strict.add(record("A", place: 2), names: Self.names)
        XCTAssertThrowsError(try strict.add(record("", place: 3), names: Self.names)) { error in
            XCTAssertEqual(error as? CatalogError,
                           .invalidMovie(source: "c", index: 1, field: "title", reason: "title is empty (line 3)"))
        }
    }

    /// A document's invalid records wait for `finish`, which throws the first, placed by line and column; without
    /// skipping, the movies after it are not kept.
    func testADocumentsFirstInvalidRecordIsThrownAtTheEnd() throws {
        let bytes = Array("[\n  {\"title\": \"\"},\n  {\"title\": \"B\"}\n]".utf8)
        try bytes.withUnsafeBufferPointer { (document) throws in
            var builder = CatalogBuilder(source: "c", options: CatalogOptions(), layout: .document(document))
            try builder.add(record("", place: 14), names: Self.names)
            try builder.add(record("B", place: 31), names: Self.names)
            XCTAssertEqual(builder.movieCount, 0)
            XCTAssertThrowsError(try builder.finish(format: .json)) { error in
                XCTAssertEqual(error as? CatalogError, .invalidMovie(
                    source: "c", index: 0, field: "title", reason: "title is empty (line 2, column 13)"))
            }
        }
    }

    /// A record's reader's problem (a value of the wrong kind, a field missing) comes before the shared checks,
    /// which go title, year, rating.
    func testTheReadersProblemComesFirstThenTitleYearRating() {
        assertRefused(Array("[{\"title\":\" \",\"year\":\"x\"}]".utf8), .json, field: "year",
                      reason: #"year must be an integer, got a string "x" (line 1, column 22)"#)
        assertRefused(Array("title,year,rating\n\u{3000},3e9,1e999\n".utf8), .csv, field: "title",
                      reason: "title is only white space (line 2)")
        assertRefused(Array("title,year,rating\nA,3e9,1e999\n".utf8), .csv, field: "year",
                      reason: #"year "3e9" is out of range (-2147483648 to 2147483647) (line 2)"#)
    }

    /// TMDb's repeated ids are dropped by the builder, counting only movies kept.
    func testOnlyValidMoviesMakeALaterOneARepeat() throws {
        let page = #"{"results":[{"id":7,"title":" ","release_date":"2001-01-01"},"#
            + #"{"id":7,"title":"A","release_date":"2001-01-01"},{"id":7,"title":"B","release_date":"2002-01-01"}]}"#
        let catalog = try load(Array(page.utf8), .tmdb, skipInvalid: true)
        XCTAssertEqual(catalog.movies.map(\.id), [1])
        XCTAssertEqual(catalog.skippedCount, 1)
        XCTAssertEqual(catalog.duplicates, 1)
    }

    func testBlankness() {
        XCTAssertEqual(RecordChecks.blankness(of: ""), .empty)
        XCTAssertEqual(RecordChecks.blankness(of: " \t\n\u{3000}\u{00A0}"), .whiteSpace)
        XCTAssertNil(RecordChecks.blankness(of: "A"))
        XCTAssertNil(RecordChecks.blankness(of: " A"))
        XCTAssertNil(RecordChecks.blankness(of: "\u{3000}東京"))
        XCTAssertNil(RecordChecks.blankness(of: "\u{200B}"))  // A zero-width space is not white space to Unicode.
    }
}
