import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// Titles and queries of hundreds of words, distinct and repeated: what the index keeps of a title's repeats and
/// which query ranges the executor keeps must not depend on how many words there are. (How the time grows with
/// the words is shown by Scripts/bench-long-titles.sh, not tested here.)
final class LongTitleTests: XCTestCase {
    /// Word `n` of the bijective base-26 numbering a, b, …, z, aa, ab, …: the short words are prefixes of longer
    /// ones, so queries hold ranges that hold each other.
    private static func word(_ n: Int) -> String {
        var n = n + 1, letters: [Character] = []
        while n > 0 {
            n -= 1
            letters.append(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(n % 26))))
            n /= 26
        }
        return String(letters.reversed())
    }

    private static func words<Numbers: Sequence<Int>>(_ numbers: Numbers) -> String {
        numbers.map(word).joined(separator: " ")
    }

    func testLongTitlesAndQueriesGiveTheReferenceAnswers() throws {
        var random = SplitMix64(seed: 14)
        let count = 400
        let distinct = Array(0..<count)
        let repeated = (0..<count).map { _ in Int(random.next() % 40) }
        let shuffled = distinct.shuffled(using: &random)
        var titles = [
            Self.words(distinct),
            Self.words(repeated),
            Self.words(Array(shuffled.prefix(count / 2)) + Array(repeated.prefix(count / 2))),
            Self.words(distinct.reversed() + distinct),
            Self.words(Array(count..<(2 * count))),
            "a", "ab zz", "Dark", "b c d e f",
        ]
        // Short titles around them, so that most terms have posting lists rather than bitmaps (in a catalog of a
        // few movies every term in three titles is a bitmap, which would hide a title listed twice in one list).
        for _ in 0..<200 { titles.append(Self.words((0..<3).map { _ in Int(random.next() % 700) })) }
        let catalog = Catalog(movies: titles.enumerated().map { id, title in
            Movie(id: id, title: title, year: 2000 + id % 3, rating: id % 4 == 0 ? nil : Double(id % 5))
        })
        let index = try Fixtures.index(catalog, self)
        let reference = ReferenceSearch(catalog)

        var queries = Array(titles.prefix(9))
        queries.append(Self.words(shuffled))
        queries.append(Self.words(distinct + distinct))
        queries.append(Self.words(shuffled.prefix(count / 3)) + " zzzzzz")  // one token that is a prefix of no term
        queries.append("zzzzzz " + Self.words(shuffled.prefix(count / 3)))
        queries.append(Self.words(repeated.reversed()))
        queries.append(Self.words((0..<count).map { _ in Int(random.next() % 26) }))  // one-letter prefixes, repeated
        queries.append(Self.words(shuffled.prefix(count / 2)) + " " + Self.words(Array(count..<(count + 50))))
        queries.append(String(repeating: "dar ", count: 300) + "dark")
        // Single words, many of them repeated in titles 1 and 2: each title must count once.
        queries += (0..<60).map(Self.word)
        for (number, query) in queries.enumerated() {
            for perYear in number < 9 ? [1, 50] : [50] {
                let answer = try index.search(query, perYear: perYear, typos: .off)
                XCTAssertEqual(answer, reference.search(query, perYear: perYear),
                               "query of \(query.split(separator: " ").count) words, perYear \(perYear)")
            }
        }
    }

    /// Words that share a long stem: prefixes longer than `CacheFormat.maximumPrefixSetLength` get no prefix set
    /// (so that indexing stays linear in the length of a word), and a query of such a prefix merges its range of
    /// terms at query time; the answers must not change at that length.
    func testPrefixesLongerThanTheLongestPrefixSetGiveTheReferenceAnswers() throws {
        let stem = String(repeating: "x", count: 100)
        // 60 terms under the stem, each in two or three movies: every stem prefix covers far more than
        // `CacheFormat.mergeLimit` postings, so below the length limit it has a set and above it it has none.
        var titles: [String] = []
        for n in 0..<150 { titles.append(stem + Self.word(n % 60) + " " + Self.word(n)) }
        titles += ["x", "xy", stem, "other words"]
        let catalog = Catalog(movies: titles.enumerated().map { id, title in
            Movie(id: id, title: title, year: 2000 + id % 4, rating: id % 3 == 0 ? nil : Double(id % 5))
        })
        let index = try Fixtures.index(catalog, self)
        let reference = ReferenceSearch(catalog)
        let limit = CacheFormat.maximumPrefixSetLength
        var queries = [1, 2, 30, limit - 1, limit, limit + 1, limit + 2, 99, 100].map { String(stem.prefix($0)) }
        queries += [stem + "a", stem + "b", stem + "ab", stem + "zz", String(stem.prefix(limit + 1)) + " b"]
        for query in queries {
            XCTAssertEqual(try index.search(query, perYear: 3, typos: .off), reference.search(query, perYear: 3),
                           "a query of \(query.count) characters")
        }
    }

    func testKeepInnermostKeepsTheRangesThatHoldNoOther() {
        var random = SplitMix64(seed: 8)
        for trial in 0..<300 {
            // Few distinct bounds, so that equal, nested, overlapping and disjoint ranges all come up.
            let count = trial < 10 ? trial : Int(random.next() % 60) + 2
            let ranges = (0..<count).map { _ -> Range<Int> in
                let low = Int(random.next() % 12)
                return low..<(low + 1 + Int(random.next() % 6))
            }
            var held = TermRanges(ranges)
            QueryExecutor.keepInnermost(&held)
            let kept = held.array
            let innermost = Set(ranges.filter { range in
                !ranges.contains { $0 != range && range.lowerBound <= $0.lowerBound && $0.upperBound <= range.upperBound }
            })
            XCTAssertEqual(Set(kept), innermost, "\(ranges)")
            XCTAssertEqual(kept.count, innermost.count, "each kept range once: \(ranges)")
            XCTAssertEqual(kept.map(\.lowerBound), kept.map(\.lowerBound).sorted(), "\(ranges)")
        }
    }
}
