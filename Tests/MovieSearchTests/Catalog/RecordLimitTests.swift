import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchInput
import TestSupport
import XCTest

/// `CatalogOptions.maximumRecords`: every format stops at the first record past the limit, counting valid, invalid
/// and left-out records alike, with `CatalogError.tooManyRecords`; a catalog of exactly the limit is read whole.
final class RecordLimitTests: XCTestCase {
    private static let count = 50

    /// A catalog of `count` records in `format`, every fourth one invalid (a missing year) and, for IMDb, every
    /// fifth of a type left out.
    private func catalog(_ format: CatalogFormat, count: Int = RecordLimitTests.count) -> [UInt8] {
        func year(_ index: Int) -> String? { index % 4 == 3 ? nil : String(1990 + index % 30) }
        switch format {
        case .json:
            return Array(("[" + (0..<count).map { index in
                #"{"title":"Movie \#(index)""# + (year(index).map { #","year":\#($0)"# } ?? "") + "}"
            }.joined(separator: ",") + "]").utf8)
        case .tmdb:
            return Array((#"{"page":1,"results":["# + (0..<count).map { index in
                #"{"id":\#(index + 1),"title":"Movie \#(index)","release_date":"\#(year(index).map { "\($0)-01-01" } ?? "")"}"#
            }.joined(separator: ",") + "]}").utf8)
        case .imdb:
            return Array(("tconst\ttitleType\tprimaryTitle\tstartYear\n" + (0..<count).map { index in
                "tt\(1_000_000 + index)\t\(index % 5 == 4 ? "short" : "movie")\tMovie \(index)\t\(year(index) ?? "\\N")\n"
            }.joined()).utf8)
        case .csv:
            return Array(("title,year\n" + (0..<count).map { "Movie \($0),\(year($0) ?? "")\n" }.joined()).utf8)
        }
    }

    private func load(_ bytes: [UInt8], _ format: CatalogFormat, limit: Int) throws -> Catalog {
        var options = CatalogOptions(format: format, skipInvalid: true)
        options.maximumRecords = limit
        return try CatalogDecoder.load(CatalogInput(bytes: bytes), source: "c", options: options)
    }

    func testEveryFormatStopsPastTheLimit() throws {
        for format in [CatalogFormat.json, .tmdb, .imdb, .csv] {
            let bytes = catalog(format)
            XCTAssertThrowsError(try load(bytes, format, limit: Self.count - 1), "\(format)") { error in
                XCTAssertEqual(error as? CatalogError, .tooManyRecords(source: "c", limit: Self.count - 1), "\(format)")
            }
            // Exactly the limit: every record counted (invalid and left-out ones too), none refused.
            let whole = try load(bytes, format, limit: Self.count)
            let leftOut = format == .imdb ? Self.count / 5 : 0
            XCTAssertEqual(whole.movieCount + whole.skippedCount + leftOut, Self.count, "\(format)")
        }
        XCTAssertEqual(CatalogError.tooManyRecords(source: "c.tsv.gz", limit: 50_000_000).description,
                       "c.tsv.gz: more than 50,000,000 records, the most a catalog may hold (raise the limit with "
                       + "index --max-movies N)")
    }

    /// The limit is checked as rows stream: a gzip of many rows stops at the limit, not after decoding them all.
    func testAStreamStopsAtTheLimit() throws {
        let rows = catalog(.csv, count: 200_000)
        let input = CatalogInput(bytes: Gzip.compress(rows))
        var options = CatalogOptions(format: .csv, skipInvalid: true)
        options.maximumRecords = 1_000
        XCTAssertThrowsError(try CatalogDecoder.load(input, source: "c", options: options)) { error in
            XCTAssertEqual(error as? CatalogError, .tooManyRecords(source: "c", limit: 1_000))
        }
        // What was read: the reader's buffer (1 MiB) at most, not the 2.5 MB of rows.
        XCTAssertLessThan(input.bytesReadFromInput, Gzip.compress(rows).count)
    }

    func testIMDbRatingsRowsHaveTheLimitToo() throws {
        let ratings = "tconst\taverageRating\n" + (0..<20).map { "tt\(1_000_000 + $0)\t7.0\n" }.joined()
        var options = CatalogOptions(format: .imdb, skipInvalid: true)
        options.maximumRecords = 10
        XCTAssertThrowsError(try CatalogDecoder.load(
            CatalogInput(bytes: catalog(.imdb, count: 5)), source: "c", options: options,
            ratings: (input: CatalogInput(bytes: Array(ratings.utf8)), name: "r"))) { error in
            guard case let .invalidRatings(source, reason)? = error as? CatalogError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, "r")
            XCTAssertTrue(reason.hasPrefix("more than 10 rows"), reason)
        }
    }
}
