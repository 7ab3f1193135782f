import Foundation
import MovieSearch
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// Caches of an older format version are refused with the message to rebuild them, however sound they are
/// otherwise: a version-2 cache lacks the joined words (SPEC.md step 6), so every answer could differ; a
/// version-3 cache has no sections for the optional fields (original title, overview, poster, TMDb and IMDb ids),
/// so its movies would show without them; a version-4 cache has no first ids per year (`BMPI`, `YCID`); a version-5
/// cache no counts of lists met with bitmaps (`LBPR`, `LBPC`); a version-6 cache no critics' ratings (`CRIT`, `CRTV`,
/// `TOPC`), so a catalog's critics' ratings would be lost; a version-7 cache stored the blocked columns (`MIDS`,
/// `MTTL`, `MLST`, `NAME`, text offsets) whole, which this layout would read wrongly; a version-8 cache had no
/// rating scales (`RSCL`), so its ratings would show out of 10 whatever its catalog's scale; a version-9 cache no
/// genre sections (`GNMO` … `GSTG`), so no filter by genre nor genre facet could be answered; a version-10 cache
/// stored its posting lists and list sets packed (`POST`, `LSTD`), which this layout reads as Elias–Fano lists.
final class OldCacheVersionTests: XCTestCase {
    func testVersion2To11CachesAreRefusedWithTheRebuildMessage() throws {
        XCTAssertEqual(CacheFormat.version, 12)
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("old.mscache").path
        for version: UInt32 in [2, 3, 4, 5, 6, 7, 8, 9, 10, 11] {
            // An old cache as its writer would have left it, or nearly (version 7 with plain packed columns where
            // these are blocked; version 10 with these sections packed; version 11 with `GNRR` packed): version 9
            // had this layout without the genre sections, version 8 without `RSCL`, version 6 this layout for a
            // catalog without critics' ratings, version 5 too (`LBPR` and `LBPC` are absent from a small catalog),
            // version 4 this layout without `BMPI` (and `YCID`, absent from a small catalog anyway), version 3
            // version 4's layout for a catalog without the optional fields (see CacheFormat), version 2 too; the
            // version field old and every checksum right for it. The version is refused before any section is
            // looked up.
            var old = try ForgedCache(Fixtures.small)
            old.rename(.ratingScales, to: "XSCL")  // an unknown tag, as version 8 would not have had it
            old.setU32(version, at: CacheFormat.HeaderField.version)
            try Data(old.sealed()).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try MovieIndex(path: path), "version \(version)") { error in
                XCTAssertEqual(error as? CacheError, .unsupportedVersion(path: path, found: version, supported: 12))
                XCTAssertEqual("\(error)", "\(path) is a cache of format version \(version), this moviesearch reads "
                               + "version 12; rebuild it with 'moviesearch index'")
            }
        }
        // The same bytes with the current version open and answer: only the version was refused.
        var current = try ForgedCache(Fixtures.small)
        current.setU32(12, at: CacheFormat.HeaderField.version)
        try Data(current.sealed()).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try MovieIndex(path: path).search("dark").total, 10)
    }
}
