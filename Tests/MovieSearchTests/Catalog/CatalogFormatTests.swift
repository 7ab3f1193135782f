import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchInput
import XCTest

/// `CatalogFormat.detect`: each format from its first bytes, a clear reason for input that is none, and no
/// decision on a stream before the bytes that decide have come.
final class CatalogFormatTests: XCTestCase {
    private func detect(_ text: String, complete: Bool = true) -> Result<CatalogFormat?, CatalogFormat.DetectionFailure> {
        CatalogFormat.detect(Array(text.utf8), isComplete: complete)
    }

    func testEachFormat() {
        XCTAssertEqual(detect(#"[{"title":"A","year":1}]"#), .success(.json))
        XCTAssertEqual(detect(" \n\u{FEFF}{\"movies\":[]}".replacingOccurrences(of: "\u{FEFF}", with: "")), .success(.json))
        XCTAssertEqual(detect(#"{"page":1,"results":[{"title":"A","release_date":"2001-01-01"}],"total_pages":1}"#),
                       .success(.tmdb))
        XCTAssertEqual(detect("tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\t"
            + "runtimeMinutes\tgenres\ntt0000001\tshort\tCarmencita\tCarmencita\t0\t1894\t\\N\t1\tDocumentary\n"),
                       .success(.imdb))
        XCTAssertEqual(detect("title,year,rating\r\nAlien,1979,8.5\r\n"), .success(.csv))
        XCTAssertEqual(detect("\u{FEFF}Title;Year\n"), .failure(.unknown), "semicolons are not RFC 4180")
        XCTAssertEqual(detect("\u{FEFF}title\nAlien\n"), .success(.csv), "a one-column CSV with a BOM")
    }

    func testInputThatIsNoneSaysWhy() {
        XCTAssertEqual(detect(""), .failure(.empty))
        XCTAssertEqual(detect(" \n\t\r\n"), .failure(.empty))
        XCTAssertEqual(CatalogFormat.detect([0, 0, 0, 0]), .failure(.binary))
        XCTAssertEqual(detect("Hello, this is a letter\n"), .success(.csv), "a comma reads as CSV; its header then fails")
        XCTAssertEqual(detect("just words\nmore words\n"), .failure(.unknown))
        XCTAssertEqual(detect("tconst\taverageRating\tnumVotes\ntt0000001\t5.7\t1989\n"), .failure(.imdbRatingsFile))
        XCTAssertTrue(CatalogFormat.DetectionFailure.imdbRatingsFile.description.contains("--ratings"))
        XCTAssertTrue(CatalogFormat.DetectionFailure.unknown.description.contains("--format"))
    }

    func testWhiteSpacePastTheBytesLookedAtIsNotCalledEmpty() {
        let text = String(repeating: "\n", count: 70_000) + "title,year\nA,1999\n"
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: Array(text.utf8)), source: "w.csv",
                                                     options: CatalogOptions())) { error in
            XCTAssertEqual(error as? CatalogError, .notACatalog(source: "w.csv", reason: "its first 64 KiB are white "
                + "space only, so its format cannot be told (name it with --format)"))
        }
        XCTAssertEqual(try CatalogDecoder.load(CatalogInput(bytes: Array(text.utf8)), source: "w.csv",
                                               options: CatalogOptions(format: .csv)).movies.map(\.title), ["A"])
    }

    func testAStreamIsDecidedAsSoonAsItsBytesTell() {
        // JSON and binary input are told from the first byte that is not white space...
        XCTAssertEqual(detect("[", complete: false), .success(.json))
        XCTAssertEqual(detect("{x", complete: false), .success(.json))
        XCTAssertEqual(CatalogFormat.detect([0x41, 0], isComplete: false), .failure(.binary))
        // ...text only from its whole first line, which may still be arriving.
        XCTAssertEqual(detect("tconst\tti", complete: false), .success(nil))
        XCTAssertEqual(detect("  ", complete: false), .success(nil))
        XCTAssertEqual(detect("tconst\ttitleType\tprimaryTitle\n", complete: false), .success(.imdb))
    }
}

/// A catalog with many invalid records keeps the first errors and counts them all, whatever the format.
final class SkippedRecordsTests: XCTestCase {
    func testOnlyTheFirstErrorsAreKeptButAllAreCounted() throws {
        let bad = Catalog.maximumSkippedKept + 500
        let json = "[" + Array(repeating: #"{"title":"x"}"#, count: bad).joined(separator: ",") + #",{"title":"A","year":1}]"#
        let fromJSON = try CatalogDecoder.decode(Array(json.utf8), source: "j", skipInvalid: true)
        let csv = "title,year\n" + String(repeating: "x,\n", count: bad) + "A,1\n"
        let fromCSV = try CatalogDecoder.load(CatalogInput(bytes: Array(csv.utf8)), source: "c",
                                              options: CatalogOptions(skipInvalid: true))
        for catalog in [fromJSON, fromCSV] {
            XCTAssertEqual(catalog.skippedCount, bad)
            XCTAssertEqual(catalog.skipped.count, Catalog.maximumSkippedKept)
            XCTAssertEqual(catalog.movies.map(\.id), [bad])
        }
    }
}
