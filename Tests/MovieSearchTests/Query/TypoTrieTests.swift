import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// `TypoTrie` against the terms it is built from: every node's fields worked out again by brute force over the
/// bucket's terms (as scalars), and the walk's answers equal to a scan of every term with `AlignmentRows`.
final class TypoTrieTests: XCTestCase {
    /// Titles whose `d` terms share prefixes of every length, end inside one another (`dar`, `dark`, `darker`),
    /// and hold multi-byte scalars (`dé`, `d😀`), so that nodes of one, two and four bytes meet.
    private static let catalog = Catalog(movies: [
        "Dar Dark Darker Darkest", "Darkness Darling Dart", "Dé Déjà Démon", "D😀 Dx Dxy", "Dragon Drama Dream",
        "Dark-Side", "Dreamer Dreams Dreamscape", "Dog", "D", "Other Words",
    ].enumerated().map { Movie(id: $0.offset, title: $0.element, year: 2000 + $0.offset, rating: nil) })

    func testNodesAgreeWithTheTerms() throws {
        let index = try Fixtures.index(Self.catalog, self)
        let bucket = try Array("d".utf8).withUnsafeBufferPointer { try index.terms.range(ofPrefix: $0) }
        let texts = try index.terms.texts(of: bucket)
        let terms: [[UInt32]] = try bucket.map { term in
            Array(String(decoding: try texts.bytes(of: term), as: UTF8.self).unicodeScalars.map(\.value))
        }
        XCTAssertGreaterThan(terms.count, 20)
        let trie = try TypoTrie(texts: texts)
        let nodes = trie.nodes
        XCTAssertEqual(nodes.last?.termLow, UInt32(bucket.upperBound), "the sentinel ends the bucket")
        // Every distinct prefix of a term is one node, in preorder.
        let prefixes = Set(terms.flatMap { term in (1...term.count).map { Array(term[..<$0]) } })
        XCTAssertEqual(nodes.count - 1, prefixes.count)
        var path: [UInt32] = []
        for (position, node) in nodes.dropLast().enumerated() {
            path = Array(path.prefix(Int(node.depth) - 1)) + [node.label]
            XCTAssertEqual(path.count, Int(node.depth), "node \(position)")
            let below = bucket.filter { terms[$0 - bucket.lowerBound].starts(with: path) }
            let description = String(String.UnicodeScalarView(path.compactMap(Unicode.Scalar.init)))
            XCTAssertEqual(Int(node.termLow), below.first, "first term below \(description)")
            let lowest = try XCTUnwrap(below.first, "no term below \(description)")
            let highest = try XCTUnwrap(below.last, "no term below \(description)")
            let longest = try XCTUnwrap(below.map { terms[$0 - bucket.lowerBound].count }.max())
            XCTAssertEqual(Int(node.termLow)..<Int(nodes[Int(node.end)].termLow), lowest..<(highest + 1),
                           "subtree of \(description)")
            XCTAssertEqual(Int(node.height), longest - path.count, "height of \(description)")
            XCTAssertEqual(nodes[position + 1].termLow != node.termLow, terms[Int(node.termLow) - bucket.lowerBound] == path,
                           "whether a term ends at \(description)")
        }
    }

    /// A letter's first walk goes through the sorted terms and builds no trie; the second builds it; both find
    /// the same terms at the same distances.
    func testSecondWalkOfALetterBuildsItsTrie() throws {
        let index = try Fixtures.index(Self.catalog, self)
        let walk = TypoTermWalk(dictionary: index.terms, tries: index.typoTries,
                                lettersWalked: index.typoLettersWalked)
        func terms(_ query: String) throws -> [Int: Int] {
            let token = Array(query.unicodeScalars.map(\.value))
            let found = try Array(query.utf8).withUnsafeBufferPointer {
                try walk.matches(of: token, bytes: $0, budget: TypoBudget.edits(for: token))
            }
            var terms: [Int: Int] = [:]
            for (range, distance) in found {
                for term in range { terms[term] = distance }
            }
            return terms
        }
        let letter = UInt32(UInt8(ascii: "d"))
        let sorted = try terms("drakness")
        XCTAssertNil(index.typoTries.get(letter), "no trie after the first walk")
        XCTAssertFalse(sorted.isEmpty)
        XCTAssertEqual(try terms("drakness"), sorted, "the trie walk finds what the sorted walk found")
        XCTAssertNotNil(index.typoTries.get(letter), "the second walk built the trie")
    }

    func testWalkEqualsAScanOfEveryTerm() throws {
        let index = try Fixtures.index(Self.catalog, self)
        let walk = TypoTermWalk(dictionary: index.terms, tries: index.typoTries,
                                lettersWalked: index.typoLettersWalked)
        for query in ["darkness", "drakness", "darkets", "dreamscpae", "dreamscapes", "dejaa", "d😀xyz", "dragn",
                      "dxxxxxxxxxxxxxxxxx", "dartt"] {
            let token = Array(query.unicodeScalars.map(\.value))
            let budget = TypoBudget.edits(for: token)
            let bucket = try Array(String(query.prefix(1)).utf8).withUnsafeBufferPointer {
                try index.terms.range(ofPrefix: $0)
            }
            let texts = try index.terms.texts(of: bucket)
            var expected: [Int: Int] = [:]
            var rows = AlignmentRows(query: token, budget: budget)
            for term in bucket {
                let scalars = String(decoding: try texts.bytes(of: term), as: UTF8.self).unicodeScalars.map(\.value)
                rows.pop(to: 0)
                for scalar in scalars { rows.push(scalar) }
                if rows.prefixDistance <= budget { expected[term] = rows.prefixDistance }
            }
            let found = try Array(query.utf8).withUnsafeBufferPointer {
                try walk.matches(of: token, bytes: $0, budget: budget)
            }
            var actual: [Int: Int] = [:]
            for (terms, distance) in found {
                for term in terms { actual[term] = distance }
            }
            XCTAssertEqual(actual, expected, "query \(query)")
            XCTAssertEqual(found.map(\.terms.lowerBound), found.map(\.terms.lowerBound).sorted(), "ascending")
        }
    }
}

extension TypoTrieTests {
    /// The trie walk (bit-parallel rows, `AlignmentRows.walkTrie(of:_:maximumDepth:budget:into:)`) against a scan of
    /// every term with the band rows (`AlignmentRows.push`), on random terms of a four-letter alphabet (so that
    /// matches, swaps, and terms that end inside one another are everywhere) and random tokens of budgets 1 and
    /// 2: the same terms at the same distances, and ranges that ascend without overlapping.
    func testWalkOfRandomTermsEqualsAScan() throws {
        var random = SplitMix64(seed: 9)
        let letters = Array("abcd")
        func word(_ length: Int) -> String {
            "d" + String((1..<length).map { _ in letters[Int.random(in: 0..<letters.count, using: &random)] })
        }
        let titles = (0..<60).map { _ in (0..<4).map { _ in word(Int.random(in: 2...12, using: &random)) }.joined(separator: " ") }
        let catalog = Catalog(movies: titles.enumerated().map {
            Movie(id: $0.offset, title: $0.element, year: 2000, rating: nil)
        })
        let index = try Fixtures.index(catalog, self)
        let walk = TypoTermWalk(dictionary: index.terms, tries: index.typoTries,
                                lettersWalked: index.typoLettersWalked)
        let bucket = try Array("d".utf8).withUnsafeBufferPointer { try index.terms.range(ofPrefix: $0) }
        let texts = try index.terms.texts(of: bucket)
        let terms = try bucket.map { String(decoding: try texts.bytes(of: $0), as: UTF8.self).unicodeScalars.map(\.value) }
        XCTAssertGreaterThan(terms.count, 150)
        var walkedByTrie = 0
        for round in 0..<120 {
            let query = word(Int.random(in: 5...14, using: &random))
            let token = Array(query.unicodeScalars.map(\.value))
            let budget = TypoBudget.edits(for: token)
            XCTAssertGreaterThan(budget, 0)
            var expected: [Int: Int] = [:]
            var rows = AlignmentRows(query: token, budget: budget)
            for (offset, term) in terms.enumerated() {
                rows.pop(to: 0)
                for scalar in term { rows.push(scalar) }
                if rows.prefixDistance <= budget { expected[bucket.lowerBound + offset] = rows.prefixDistance }
            }
            let found = try Array(query.utf8).withUnsafeBufferPointer {
                try walk.matches(of: token, bytes: $0, budget: budget)
            }
            if index.typoTries.get(UInt32(UInt8(ascii: "d"))) != nil, round > 0 { walkedByTrie += 1 }
            var actual: [Int: Int] = [:]
            for (range, distance) in found {
                for term in range { actual[term] = distance }
            }
            XCTAssertEqual(actual, expected, "query \(query)")
            for (earlier, later) in zip(found, found.dropFirst()) {
                XCTAssertLessThanOrEqual(earlier.terms.upperBound, later.terms.lowerBound, "query \(query)")
            }
        }
        XCTAssertGreaterThan(walkedByTrie, 100, "the trie walked")
    }
}

extension TypoTrieTests {
    /// A forged term dictionary (checksums made anew) whose text is not what the writer makes: bytes that are not
    /// UTF-8, terms out of order, repeated, or cut to nothing. The trie built from it (a letter's second walk) and
    /// the sorted walk (its first) never trap or read outside the bucket: a query answers with ids of the cache, or
    /// throws `CacheError`.
    func testForgedTermTextNeverTraps() throws {
        let bytes = try CacheWriter.encode(Self.catalog)
        let text = ForgedCache(bytes).entry(of: .termText)
        let textLength = text.count  // a byte section's count is its length
        XCTAssertGreaterThan(textLength, 40)
        var random = SplitMix64(seed: 77)
        let fills: [(String, (Int) -> UInt8)] = [
            ("not UTF-8", { _ in 0xFF }),
            ("continuation bytes", { _ in 0x80 }),
            ("a four-byte lead alone", { _ in 0xF0 }),
            ("descending", { UInt8(ascii: "z") - UInt8($0 % 26) }),
            ("all d", { _ in UInt8(ascii: "d") }),
            ("random", { _ in UInt8(truncatingIfNeeded: random.next()) }),
        ]
        for (name, fill) in fills {
            var forged = ForgedCache(bytes)
            // From the fifth byte on, four at a time, so that the first terms keep their first letters.
            for start in stride(from: text.offset + 4, to: text.offset + textLength - 3, by: 4) {
                let word = (0..<4).reduce(UInt32(0)) { $0 | UInt32(fill(start + $1 - text.offset)) << (8 * UInt32($1)) }
                forged.setU32(word, at: start)
            }
            let index = try forged.opened(in: self)
            for query in ["darkenss", "dreamr", "dragoon", "démonn", "d😀xyz"] {
                for round in 0..<3 {  // the first walk is the sorted one, the later ones the trie's
                    do {
                        let result = try index.search(query, typos: .auto)
                        for id in result.years.flatMap(\.movieIDs) {
                            XCTAssertLessThan(id, Self.catalog.movies.count, "\(name), \(query), round \(round)")
                        }
                    } catch is CacheError {
                    }
                }
            }
        }
    }
}

extension TypoTrieTests {
    /// The typo walk against the spec's distance computed in full (`OptimalStringAlignment`, every cell of the
    /// table), where the bit-parallel walk is most likely to slip: letters beyond ASCII (their masks are looked up,
    /// not indexed), a first letter beyond ASCII, and tokens and terms around 60 scalars (where the trie walk hands
    /// over to the band rows). Each token walks three times: the letter's sorted walk, the walk that builds its
    /// trie, and the trie's.
    /// A sixth of the rounds in a sampled run (`TestScale`: plain `swift test`), all of them in a full run.
    func testWalkEqualsTheFullDistanceOnWideAndLongWords() throws {
        let rounds = TestScale.pick(sampled: 10, full: 60), longRounds = TestScale.pick(sampled: 5, full: 30)
        try assertWalkEqualsFullDistance(seed: 6, letters: Array("abcdefghжзиé"), first: "e", lengths: 2...12,
                                         tokenLengths: 5...12, titles: 80, rounds: rounds)
        try assertWalkEqualsFullDistance(seed: 2, letters: Array("aбвг"), first: "б", lengths: 2...14,
                                         tokenLengths: 5...14, titles: 80, rounds: rounds)
        // Fewer: each token's full table against a long term is some 4,000 cells.
        try assertWalkEqualsFullDistance(seed: 3, letters: Array("ab"), first: "a", lengths: 50...70,
                                         tokenLengths: 55...66, titles: 20, rounds: longRounds)
        try assertWalkEqualsFullDistance(seed: 4, letters: Array("aжб"), first: "ж", lengths: 50...70,
                                         tokenLengths: 56...64, titles: 20, rounds: longRounds)
    }

    /// Random titles of words that begin with `first`, and tokens that are such words with up to three random
    /// edits (or random words), each cut to `tokenLengths`: the walk's terms and distances equal those the full
    /// table gives within the token's budget.
    private func assertWalkEqualsFullDistance(seed: UInt64, letters: [Character], first: Character,
                                              lengths: ClosedRange<Int>, tokenLengths: ClosedRange<Int>,
                                              titles titleCount: Int, rounds: Int,
                                              file: StaticString = #filePath, line: UInt = #line) throws {
        var random = SplitMix64(seed: seed)
        func letter() -> Character { letters[Int(random.next() % UInt64(letters.count))] }
        func word(_ length: Int) -> [Character] { [first] + (1..<length).map { _ in letter() } }
        var words: [[Character]] = []
        let titles = (0..<titleCount).map { _ -> String in
            let title = (0..<3).map { _ in word(Int.random(in: lengths, using: &random)) }
            words += title
            return title.map { String($0) }.joined(separator: " ")
        }
        let catalog = Catalog(movies: titles.enumerated().map {
            Movie(id: $0.offset, title: $0.element, year: 2000, rating: nil)
        })
        let index = try Fixtures.index(catalog, self)
        let walk = TypoTermWalk(dictionary: index.terms, tries: index.typoTries,
                                lettersWalked: index.typoLettersWalked)
        let bucket = try Array(String(first).utf8).withUnsafeBufferPointer { try index.terms.range(ofPrefix: $0) }
        let texts = try index.terms.texts(of: bucket)
        let terms = try bucket.map { Array(String(decoding: try texts.bytes(of: $0), as: UTF8.self).unicodeScalars) }
        var matched = 0
        for round in 0..<rounds {
            var query = round % 2 == 0 ? words[Int(random.next() % UInt64(words.count))]
                : word(Int.random(in: tokenLengths, using: &random))
            for _ in 0..<(round % 2 == 0 ? Int(random.next() % 4) : 0) where query.count > 2 {
                let place = 1 + Int(random.next() % UInt64(query.count - 1))
                switch random.next() % 4 {
                case 0: query.remove(at: place)
                case 1: query.insert(letter(), at: place)
                case 2: query[place] = letter()
                default: if place + 1 < query.count { query.swapAt(place, place + 1) }
                }
            }
            query = Array(query.prefix(Int.random(in: tokenLengths, using: &random)))
            let text = String(query)
            let scalars = Array(text.unicodeScalars)
            let budget = TypoBudget.edits(for: scalars.map(\.value))
            guard budget > 0 else { continue }
            var expected: [Int: Int] = [:]
            for (offset, term) in terms.enumerated() {
                let distance = OptimalStringAlignment.prefixDistance(scalars, term).distance
                if distance <= budget { expected[bucket.lowerBound + offset] = distance }
            }
            if !expected.isEmpty { matched += 1 }
            for _ in 0..<3 {
                let found = try Array(text.utf8).withUnsafeBufferPointer {
                    try walk.matches(of: scalars.map(\.value), bytes: $0, budget: budget)
                }
                var actual: [Int: Int] = [:]
                for (range, distance) in found {
                    for term in range {
                        XCTAssertNil(actual[term], "\(text): term \(term) in two ranges", file: file, line: line)
                        actual[term] = distance
                    }
                }
                XCTAssertEqual(actual, expected, "\(text), budget \(budget)", file: file, line: line)
            }
        }
        XCTAssertGreaterThan(matched, rounds / 10, "tokens that match something", file: file, line: line)
    }
}
