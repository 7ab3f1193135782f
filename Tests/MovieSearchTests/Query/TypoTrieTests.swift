import XCTest
@testable import MovieSearch
import TestSupport

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
            XCTAssertEqual(Int(node.termLow)..<Int(nodes[Int(node.end)].termLow), below.first!..<(below.last! + 1),
                           "subtree of \(description)")
            XCTAssertEqual(Int(node.height), below.map { terms[$0 - bucket.lowerBound].count }.max()! - path.count,
                           "height of \(description)")
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
