import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// `TermDictionary.range(ofPrefix:)` against a scan of every term, for prefixes of every kind: each prefix of each
/// term (cut inside a scalar too), prefixes between terms, before the first and past the last, holding the bytes
/// 0x00, 0x7F, 0x80 and 0xFF, longer than any term. And damaged dictionaries: a `CacheError.corrupt`, never a trap.
final class TermDictionaryTests: XCTestCase {
    /// Terms that share prefixes of every length up to past a word (eight bytes), end inside one another, hold
    /// multi-byte scalars, and are each the last of their bucket (where fewer than eight bytes of text remain).
    private static let catalog = Catalog(movies: [
        "Dar Dark Darker Darkest Darkness", "Abcdefg Abcdefgh Abcdefghi Abcdefghij Abcdefghik Abcdefgi",
        "Abcdefghijklmnop Abcdefghijklmnopq Abcdefghijklmnoq Abcdefghijklmnopqrstuvwxyz",
        "Dé Déjà Démon Dë", "D😀 Dx Dxy Dxyz", "Zz Zzz Zzzzzzzzzzzzzzzzz", "A B C X 1 2 9 0 00 007",
        "Érable Über Ünter Ο Όμηρος Ω Ωμέγα 東京 東京都 京都", "Supercalifragilisticexpialidocious Super Superb",
        "Tt Ttt Tttttttt Ttttttttt Tttttttttt", "Mañana Man Mana Manaña Mann",
    ].enumerated().map { Movie(id: $0.offset, title: $0.element, year: 2000 + $0.offset, rating: nil) })

    /// Every term's bytes, in id order.
    private func terms(of index: MovieIndex) throws -> [[UInt8]] {
        let texts = try index.terms.texts(of: 0..<index.tokenCount)
        return try texts.ids.map { Array(try texts.bytes(of: $0)) }
    }

    /// The ids of the terms that start with `prefix`, by a scan; when none does, the empty range where `prefix`
    /// would go (after every term ordered before it).
    private func scan(_ terms: [[UInt8]], _ prefix: [UInt8]) -> Range<Int> {
        var before = 0, matching = 0
        for term in terms {
            if term.starts(with: prefix) {
                matching += 1
            } else if term.lexicographicallyPrecedes(prefix) {
                before += 1
            }
        }
        return before..<(before + matching)
    }

    /// Prefixes of every kind for the dictionary `terms`.
    private func prefixes(for terms: [[UInt8]]) -> [[UInt8]] {
        var prefixes: Set<[UInt8]> = []
        let longest = terms.map(\.count).max() ?? 0
        for term in terms {
            for length in 1...term.count { prefixes.insert(Array(term[..<length])) }
            for byte: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF] { prefixes.insert(term + [byte]) }
            // Just below and just above the term, between it and its neighbours.
            var below = term, above = term
            if below[below.count - 1] > 0 { below[below.count - 1] -= 1 }
            if above[above.count - 1] < 0xFF { above[above.count - 1] += 1 }
            prefixes.insert(below)
            prefixes.insert(above)
            prefixes.insert(below + [0xFF, 0xFF])
            prefixes.insert(term + Array(repeating: UInt8(ascii: "z"), count: longest + 1))
        }
        for byte in 0...UInt8.max {
            prefixes.insert([byte])
            prefixes.insert([byte, byte])
            prefixes.insert(Array(repeating: byte, count: longest + 2))
        }
        var random = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            prefixes.insert((0..<(1 + random.below(20))).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        return prefixes.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Checks the prefixes `prefixes(for:)` gives, or every `stride`th of them (the scan is slow in a debug build).
    private func assertRangesMatchAScan(_ index: MovieIndex, stride: Int = 1, file: StaticString = #filePath,
                                        line: UInt = #line) throws {
        let terms = try terms(of: index)
        XCTAssertEqual(terms, terms.sorted { $0.lexicographicallyPrecedes($1) }, "terms in byte order",
                       file: file, line: line)
        var mismatches = 0, nonEmpty = 0
        let prefixes = prefixes(for: terms)
        for position in Swift.stride(from: 0, to: prefixes.count, by: stride) {
            let prefix = prefixes[position]
            let found = try prefix.withUnsafeBufferPointer { try index.terms.range(ofPrefix: $0) }
            let expected = scan(terms, prefix)
            if !expected.isEmpty { nonEmpty += 1 }
            if found != expected, mismatches < 10 {
                mismatches += 1
                XCTFail("prefix \(prefix): \(found), a scan finds \(expected)", file: file, line: line)
            }
        }
        XCTAssertGreaterThan(nonEmpty, terms.count / stride, "many prefixes tried match terms", file: file, line: line)
    }

    func testRangesMatchAScanOfEveryTerm() throws {
        let index = try Fixtures.index(Self.catalog, self)
        XCTAssertGreaterThan(index.tokenCount, 50)
        try assertRangesMatchAScan(index)
    }

    /// Buckets of hundreds of terms, where the search takes many steps on both sides of a match.
    func testRangesMatchAScanInLargeBuckets() throws {
        let catalog = try CatalogDecoder.decode(GeneratedCatalog(movies: 600, seed: 3).json(), source: "generated")
        let index = try Fixtures.index(catalog, self)
        XCTAssertGreaterThan(index.tokenCount, 1_000)
        try assertRangesMatchAScan(index, stride: TestScale.pick(sampled: 97, full: 13))
    }

    // MARK: - Damaged dictionaries

    private func range(_ index: MovieIndex, _ prefix: String) throws -> Range<Int> {
        try Array(prefix.utf8).withUnsafeBufferPointer { try index.terms.range(ofPrefix: $0) }
    }

    /// A term's start moved past its end, or past the end of all the text: the search that reaches it throws.
    func testTextOffsetsOutOfOrderAreCorrupt() throws {
        let intact = try ForgedCache(Self.catalog)
        let term = intact.termID("darker")
        let textLength = intact.entry(of: .termText).count
        let width = intact.entry(of: .termTextOffsets).width
        let largest = UInt32((UInt64(1) << UInt64(width)) - 1)
        XCTAssertGreaterThan(Int(largest), textLength)
        let end = intact.packed(.termTextOffsets, term + 1)
        for forged in [end + 1, UInt32(textLength), largest] {
            var cache = intact
            cache.setPacked(.termTextOffsets, term, to: forged)
            let index = try cache.opened(in: self)
            assertCorrupt(try range(index, "darker"), "term text offsets out of order")
            assertCorrupt(try index.search("darker"), "term text offsets out of order")
            XCTAssertEqual(try range(index, "b"), try range(try intact.opened(in: self), "b"),
                           "another bucket reads as before")
        }
    }

    /// The first or last offset of a bucket out of order, or past the text: the bucket's text is refused whole.
    func testBucketTextOutOfBoundsIsCorrupt() throws {
        let intact = try ForgedCache(Self.catalog)
        let first = intact.packed(.termJump, Int(UInt8(ascii: "d")))
        let end = intact.packed(.termJump, Int(UInt8(ascii: "e")))
        let width = intact.entry(of: .termTextOffsets).width
        var cache = intact
        cache.setPacked(.termTextOffsets, Int(first), to: intact.packed(.termTextOffsets, Int(end)) + 1)
        assertCorrupt(try range(try cache.opened(in: self), "d"), "term text offsets out of order")
        cache = intact
        let largest = UInt32((UInt64(1) << UInt64(width)) - 1)
        XCTAssertGreaterThan(Int(largest), intact.entry(of: .termText).count)
        cache.setPacked(.termTextOffsets, Int(end), to: largest)
        assertCorrupt(try range(try cache.opened(in: self), "dar"), "a reference points outside its section")
        assertCorrupt(try range(try cache.opened(in: self), "d"), "a reference points outside its section")
    }

    func testJumpTableOutOfOrderIsCorrupt() throws {
        let intact = try ForgedCache(Self.catalog)
        let d = Int(UInt8(ascii: "d"))
        var cache = intact
        cache.setPacked(.termJump, d + 1, to: intact.packed(.termJump, d) - 1)
        assertCorrupt(try range(try cache.opened(in: self), "dark"), "term jump table out of order")
        cache = intact
        let termCount = Int(intact.u32(at: CacheFormat.HeaderField.termCount))
        let largest = UInt32((UInt64(1) << UInt64(intact.entry(of: .termJump).width)) - 1)
        XCTAssertGreaterThan(Int(largest), termCount)
        cache.setPacked(.termJump, d + 1, to: largest)
        assertCorrupt(try range(try cache.opened(in: self), "d"), "term jump table out of order")
    }
}
