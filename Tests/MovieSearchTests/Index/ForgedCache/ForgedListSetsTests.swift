import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The Elias–Fano coded list sets (`CacheFormat`, "Elias–Fano lists": `LSTD` with `LSTO` and `LSTP`), forged and
/// sealed with fresh checksums: starts that disagree with the lists' lengths, a count out of order, a
/// section of the wrong kind or cut short, bits wiped. Each is a `CacheError.corrupt` (at open for
/// a shape, when a query reads the list otherwise), never a trap or a read outside the section.
final class ForgedListSetsTests: XCTestCase {
    /// 3,000 movies over 5 years: `v0j` … `v39k`, each word in 37 or 38 titles, so that a prefix `v4` … `v9` holds
    /// two words, 75 ranks: list sets (a catalog this size stores sets of up to 94 ranks as lists); `v1` holds `v1…`
    /// and `v10` … `v19`, and `zz` every title: bitmaps. And a word of its own per title.
    private static let catalog = Catalog(movies: (0..<3_000).map { id in
        Movie(id: id, title: "v\(id % 40)\(id / 40 % 2 == 0 ? "j" : "k") zz q\(id)", year: 2000 + id % 5,
              rating: Double(id % 10))
    })

    /// The queries whose first token's set is a list set.
    private static let listed = ["v4", "v5", "v6", "v7", "v8", "v9"]

    private static let encoded = Result { try CacheWriter.encode(catalog) }

    private func cache() throws -> ForgedCache { ForgedCache(try Self.encoded.get()) }

    /// The list sets there are, from `LSTO`'s count.
    private func listSetCount(_ cache: ForgedCache) -> Int { cache.entry(of: .listSetOffsets).count - 1 }

    func testTheListSetsAreCodedAndAnswerLikeTheReference() throws {
        let cache = try cache()
        XCTAssertGreaterThanOrEqual(listSetCount(cache), Self.listed.count, "v4 … v9 at least are list sets")
        XCTAssertEqual(cache.entry(of: .listSetData).width, 0, "LSTD is a byte section")
        let index = try cache.opened(in: self)
        let reference = ReferenceSearch(Self.catalog)
        for query in Self.listed + ["v7 zz", "q10 v5", "v6 q", "zz v9", "v8 v8k", "v4 v4j zz", "v"] {
            for perYear in [1, 3, 50] {
                XCTAssertEqual(try index.search(query, perYear: perYear, typos: .off),
                               reference.search(query, perYear: perYear), "\(query) K=\(perYear)")
            }
        }
    }

    /// Each query of a list set either answers as the reference does or is corrupt; at least one is corrupt with
    /// `detail` in its message.
    private func assertSomeListCorrupt(_ cache: ForgedCache, _ detail: String,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        let index = try cache.opened(in: self)
        let reference = ReferenceSearch(Self.catalog)
        var found = 0
        for query in Self.listed {
            do {
                let answer = try index.search(query, perYear: 3, typos: .off)
                XCTAssertEqual(answer, reference.search(query, perYear: 3), query, file: file, line: line)
            } catch CacheError.corrupt(_, let message) {
                if message.contains(detail) { found += 1 }
            }
        }
        XCTAssertGreaterThan(found, 0, "no query found \(detail)", file: file, line: line)
    }

    func testStartsThatDisagreeWithTheCountsAreCorrupt() throws {
        // Every other start moved by a byte (the end of the last list among them): each block of lists then either
        // starts or ends where its lists' lengths, which their counts give, do not take it.
        for change in [1, -1] {
            var cache = try cache()
            let starts = cache.entry(of: .listSetPositions).count
            XCTAssertGreaterThanOrEqual(starts, 2, "a start and an end")
            for start in stride(from: 1, to: starts, by: 2) {
                let moved = Int(cache.packed(.listSetPositions, start)) + change
                XCTAssertTrue(moved >= 0 && moved < 1 << cache.entry(of: .listSetPositions).width)
                cache.setPacked(.listSetPositions, start, to: UInt32(moved))
            }
            try assertSomeListCorrupt(cache, "coded lists disagree with their starts")
        }
    }

    func testACountOutOfOrderIsCorrupt() throws {
        // Every other list's entry in LSTO made one more than the next one's: those lists would hold -1 ranks.
        var cache = try cache()
        let lists = listSetCount(cache), width = cache.entry(of: .listSetOffsets).width
        for list in stride(from: 1, to: lists, by: 2) {
            let next = cache.packed(.listSetOffsets, list + 1)
            guard next + 1 < 1 << width, (list + 1) % CacheFormat.blockedEntries != 0 else { continue }
            cache.setPacked(.listSetOffsets, list, to: next + 1)
        }
        try assertSomeListCorrupt(cache, "has a count out of range")
    }

    func testWipedBitsGiveAnErrorNotAWrongAnswer() throws {
        var cache = try cache()
        let (_, length, offset) = cache.entry(of: .listSetData)
        for byte in offset..<(offset + length) { cache.setU8(0, at: byte) }
        let index = try cache.opened(in: self)
        for query in Self.listed + ["v7 zz", "zz q1 v5"] {
            assertCorrupt(try index.search(query, typos: .off), containing: "")
        }
    }

    func testASectionOfTheWrongKindOrCutShortIsCorrupt() throws {
        // LSTD made a packed section: the reader wants bytes.
        var packed = try cache()
        let entry = packed.directoryEntryOffset(of: .listSetData)
        packed.setU32(8, at: entry + CacheFormat.DirectoryField.width)
        // Its count made to agree with its length at 8 bits, so that the directory's own checks pass.
        packed.setU64(UInt64(packed.entry(of: .listSetData).count - CacheFormat.packedPadding),
                      at: entry + CacheFormat.DirectoryField.count)
        assertCorrupt(try packed.opened(in: self), "section LSTD is not a byte section")
        // LSTD cut short by its padding and a byte: the last list's bytes run past it.
        var short = try cache()
        let length = short.entry(of: .listSetData).count
        let shortEntry = short.directoryEntryOffset(of: .listSetData)
        for field in [CacheFormat.DirectoryField.count, CacheFormat.DirectoryField.length] {
            short.setU64(UInt64(length - CacheFormat.packedPadding - 1), at: shortEntry + field)
        }
        let index = try short.opened(in: self)
        var failures = 0
        for query in Self.listed {
            do { _ = try index.search(query, typos: .off) } catch { failures += 1 }
        }
        XCTAssertGreaterThan(failures, 0, "the list at the end reads past the section")
        // LSTP with a start fewer than LSTO's lists need: corrupt at open.
        var uneven = try cache()
        uneven.setCount(of: .listSetPositions, to: uneven.entry(of: .listSetPositions).count - 1)
        assertCorrupt(try uneven.opened(in: self), "a table of offsets is empty or cut in half")
    }

    /// Asserts that `body` throws `CacheError.corrupt` with a detail that contains `part`.
    private func assertCorrupt(_ body: @autoclosure () throws -> some Any, containing part: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case let .corrupt(_, found)? = error as? CacheError else {
                return XCTFail("not corrupt: \(error)", file: file, line: line)
            }
            XCTAssertTrue(part.isEmpty || found.contains(part), "\(found) lacks \(part)", file: file, line: line)
        }
    }
}
