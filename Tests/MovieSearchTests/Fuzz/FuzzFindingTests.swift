import Foundation
import XCTest
@testable import MovieSearch

/// Every input that crashed a fuzz target (`Scripts/fuzz.sh`), now answered cleanly. One test per finding, named
/// after it; each says which target found it.
final class FuzzFindingTests: XCTestCase {
    /// catalog and query targets, first run: `search` with `perYear: Int.max` overflowed `first + perYear` (a query
    /// without tokens) and `position + perYear` (any query matching more than one year): a trap, and so a crash of
    /// `moviesearch query --per-year 9223372036854775807`. A limit above the matches means "all of them".
    func testPerYearIntMaxListsEveryMatch() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        for query in ["", "dark", "dark the", "d", "kni"] {
            let all = try index.search(query, perYear: Int.max)
            XCTAssertEqual(all, try index.search(query, perYear: Fixtures.small.movies.count), "query \(query.debugDescription)")
            XCTAssertEqual(all.years.map(\.count), all.years.map(\.movieIDs.count), "query \(query.debugDescription)")
        }
        XCTAssertEqual(try index.search("", perYear: Int.max).total, Fixtures.small.movies.count)
    }
}
