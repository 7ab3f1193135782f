@testable import MovieSearchQuery
import XCTest

/// `YearMatchList`: the years of a result, each made as it is read from buffers all years share.
final class YearMatchListTests: XCTestCase {
    private let exact = [
        YearMatches(year: 2014, count: 7, movieIDs: [3, 9, 1]),
        YearMatches(year: 2012, count: 1, movieIDs: [40]),
        YearMatches(year: 1999, count: 12, movieIDs: []),
    ]

    func testYearsReadBackAsGiven() {
        let list = YearMatchList(exact)
        XCTAssertEqual(list.count, 3)
        XCTAssertEqual(list.map(\.year), [2014, 2012, 1999])
        XCTAssertEqual(list.map(\.count), [7, 1, 12])
        XCTAssertEqual(list.map { Array($0.movieIDs) }, [[3, 9, 1], [40], []])
        XCTAssertEqual(list.map { Array($0.typoCounts) }, [[0, 0, 0], [0], []])
        XCTAssertEqual(Array(list), exact)
    }

    func testTypoCountsStayWithTheirIDs() {
        let years = [
            YearMatches(year: 2001, count: 2, movieIDs: [5, 6], typoCounts: [0, 2]),
            YearMatches(year: 2000, count: 3, movieIDs: [7], typoCounts: [1]),
        ]
        let list = YearMatchList(years)
        XCTAssertEqual(list.map { Array($0.typoCounts) }, [[0, 2], [1]])
        XCTAssertEqual(list[1].movieIDs[0], 7)
        XCTAssertEqual(Array(list), years)
    }

    func testTheBuilderShapeReadsTheSameAsYearsGiven() {
        // What `AnswerBuilder` hands over: each year's start in one buffer of ids, and one typo count per id.
        let entries: [YearMatchList.Entry] = [.init(year: 2001, count: 2, idsStart: 0),
                                              .init(year: 2000, count: 3, idsStart: 2)]
        let built = YearMatchList(entries: entries, ids: [5, 6, 7], typos: [0, 2, 1])
        XCTAssertEqual(built, YearMatchList([
            YearMatches(year: 2001, count: 2, movieIDs: [5, 6], typoCounts: [0, 2]),
            YearMatches(year: 2000, count: 3, movieIDs: [7], typoCounts: [1]),
        ]))
        XCTAssertEqual(built[1].movieIDs.count, 1)
    }

    func testEqualityComparesEveryPart() {
        let list = YearMatchList(exact)
        XCTAssertEqual(list, [exact[0], exact[1], exact[2]])
        XCTAssertNotEqual(list, YearMatchList(Array(exact.prefix(2))))
        var recounted = exact
        recounted[1].count = 2
        XCTAssertNotEqual(list, YearMatchList(recounted))
        var reordered = exact
        reordered[0].movieIDs = [3, 1, 9]
        XCTAssertNotEqual(list, YearMatchList(reordered))
        var typo = exact
        typo[1].typoCounts = [1]
        XCTAssertNotEqual(list, YearMatchList(typo))
    }

    func testEmpty() {
        let list: YearMatchList = []
        XCTAssertTrue(list.isEmpty)
        XCTAssertEqual(list, YearMatchList([]))
        XCTAssertEqual(list.description, "[]")
    }
}
