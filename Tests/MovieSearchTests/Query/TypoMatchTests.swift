import MovieSearch
@testable import MovieSearchQuery
import XCTest

/// `TypoMatch` keys sort by rank, then typo count; a token's distance is marked once and added on settling, the
/// sum saturating at `UInt16.max` as a typo count does.
final class TypoMatchTests: XCTestCase {
    func testKeysSortByRankThenTypos() {
        let pairs = [(7, 2), (3, 5), (7, 0), (0, 65_535), (4_294_967_295, 1), (3, 1)]
        let sorted = pairs.map { TypoMatch.key(rank: $0.0, typos: $0.1) }.sorted()
        XCTAssertEqual(sorted.map { TypoMatch.rank(of: $0) }, [0, 3, 3, 7, 7, 4_294_967_295])
        XCTAssertEqual(sorted.map { TypoMatch.typos(of: $0) }, [65_535, 1, 5, 0, 2, 1])
    }

    func testAFoundTokenAddsItsDistanceOnce() {
        let key = TypoMatch.key(rank: 1_234, typos: 3)
        XCTAssertFalse(TypoMatch.isFound(key))
        let found = TypoMatch.found(key, 2)
        XCTAssertTrue(TypoMatch.isFound(found))
        XCTAssertEqual(TypoMatch.rank(of: found), 1_234, "the mark leaves the rank alone")
        let settled = TypoMatch.settled(found)
        XCTAssertFalse(TypoMatch.isFound(settled))
        XCTAssertEqual(TypoMatch.rank(of: settled), 1_234)
        XCTAssertEqual(TypoMatch.typos(of: settled), 5)
        XCTAssertEqual(TypoMatch.typos(of: TypoMatch.settled(TypoMatch.found(key, 0))), 3, "distance 0 is found, adds 0")
    }

    func testTypoCountsSaturate() {
        let key = TypoMatch.key(rank: 9, typos: 65_000)
        XCTAssertEqual(TypoMatch.typos(of: TypoMatch.settled(TypoMatch.found(key, 600))), 65_535)
        XCTAssertEqual(TypoMatch.typos(of: TypoMatch.settled(TypoMatch.found(key, 65_535))), 65_535)
        XCTAssertEqual(TypoMatch.rank(of: TypoMatch.settled(TypoMatch.found(key, 65_535))), 9)
    }
}
