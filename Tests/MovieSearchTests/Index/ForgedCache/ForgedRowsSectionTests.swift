import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The row-packed sections (`CacheFormat`, "Row-packed sections": `BMPP` with `BMPW` and `BMPO`), each row at its
/// own width, forged and sealed with fresh checksums: a width past 32 or of 0, an offset past the section, tables
/// of the wrong size. Each is a `CacheError.corrupt` (at open for a shape, when a query reads the row otherwise),
/// never a trap or a read outside the section.
final class ForgedRowsSectionTests: XCTestCase {
    /// 200 movies over 4 years; `aa` in every title, `bb` in every other one, `cc` in every third: bitmap sets.
    private static let catalog = Catalog(movies: (0..<200).map { id in
        Movie(id: id, title: ["aa", id % 2 == 0 ? "bb" : "", id % 3 == 0 ? "cc" : "", "t\(id)"].joined(separator: " "),
              year: 2000 + id % 4, rating: Double(id % 10))
    })

    func testRowsHaveTheirOwnWidthsAndAnswerLikeTheReference() throws {
        let cache = try ForgedCache(Self.catalog)
        let rows = cache.rowCount(.bitmapPairCounts)
        XCTAssertGreaterThanOrEqual(rows, 3, "aa, bb, cc: three pairs at least")
        let widths = Set((0..<rows).map { cache.rowWidth(.bitmapPairCounts, $0) })
        XCTAssertGreaterThan(widths.count, 1, "rows of different widths: \(widths)")
        let index = try cache.opened(in: self)
        let reference = ReferenceSearch(Self.catalog)
        for query in ["aa bb", "bb cc", "aa cc", "cc bb aa"] {
            XCTAssertEqual(try index.search(query, perYear: 3, typos: .off), reference.search(query, perYear: 3), query)
        }
    }

    func testAWidthOutOfRangeIsCorrupt() throws {
        var forged = 0
        for width: UInt32 in [0, 33] {
            var cache = try ForgedCache(Self.catalog)
            let tableWidth = cache.entry(of: .bitmapPairWidths).width
            guard width < 1 << UInt32(tableWidth) else { continue }  // a table too narrow to hold the forgery
            for row in 0..<cache.rowCount(.bitmapPairCounts) { cache.setPacked(.bitmapPairWidths, row, to: width) }
            let index = try cache.opened(in: self)
            assertCorrupt(try index.search("aa bb", typos: .off), "a row of a section is malformed")
            forged += 1
        }
        XCTAssertGreaterThan(forged, 0)
    }

    func testAnOffsetPastTheSectionIsCorrupt() throws {
        var cache = try ForgedCache(Self.catalog)
        let (width, _, _) = cache.entry(of: .bitmapPairOffsets)
        let farthest = UInt32((UInt64(1) << UInt64(width)) - 1)
        for row in 0..<cache.rowCount(.bitmapPairCounts) { cache.setPacked(.bitmapPairOffsets, row, to: farthest) }
        let index = try cache.opened(in: self)
        assertCorrupt(try index.search("aa bb", typos: .off), "a reference points outside its section")
    }

    func testTablesOfTheWrongSizeAreCorruptAtOpen() throws {
        // `BMPO` forged to hold one offset more than there are rows.
        var cache = try ForgedCache(Self.catalog)
        let rows = cache.rowCount(.bitmapPairCounts)
        cache.setCount(of: .bitmapPairOffsets, to: rows + 1)
        var missing = try ForgedCache(Self.catalog)
        missing.rename(.bitmapPairWidths, to: "XXXX")
        assertCorrupt(try cache.opened(in: self), "section BMPO holds \(rows + 1) entries, expected \(rows)")
        assertCorrupt(try missing.opened(in: self), "section BMPW is missing")
    }
}
