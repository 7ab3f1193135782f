import XCTest
import MovieSearch
import TestSupport

/// The brute-force reference of SPEC.md (`SpecReference`) checked on its own, before the engine is checked
/// against it: its steps 5 and 6 against the tokenizer on every title and query of the shared data, its per-scalar
/// fold against the standard library's categories, its distance against hand-worked values.
final class SpecReferenceTests: XCTestCase {
    private func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    private func referenceTokens(_ text: String, joiningWords: Bool = true) -> [[Unicode.Scalar]] {
        FoldedTitle(text, joiningWords: joiningWords, folding: ScalarFolding()).tokens.map(\.scalars)
    }

    private func tokenizerTokens(_ text: String, joiningWords: Bool = true) -> [[Unicode.Scalar]] {
        Tokenizer.tokens(in: text, joiningWords: joiningWords).map { Array($0.unicodeScalars) }
    }

    func testJoinedWordsOfTheSpec() {
        let expected: [(String, [String])] = [
            ("Spider-Man", ["spider", "man", "spiderman"]),
            ("X-Men", ["x", "men", "xmen"]),
            ("WALL·E", ["wall", "e", "walle"]),
            ("E.T.", ["e", "t", "et"]),
            ("AC/DC", ["ac", "dc", "acdc"]),
            ("$40,000", ["40", "000", "40000"]),
            ("S.W.A.T.", ["s", "w", "a", "t", "swat"]),
            ("Dr. No", ["dr", "no"]),
            ("Mission: Impossible", ["mission", "impossible"]),
            ("Spider-Man 2", ["spider", "man", "spiderman", "2"]),
            ("Nancy Drew… Trouble", ["nancy", "drew", "trouble"]),  // "…" folds to "...": three separators
            ("9½ Weeks", ["91", "2", "912", "weeks"]),  // "½" folds to 1, U+2044 (Sm), 2
            ("x'-y", ["x", "y", "xy"]),  // the apostrophe is gone before step 5
            ("-a-b", ["a", "b", "ab"]),
            ("a - b", ["a", "b"]),
            ("a\u{3220}b", ["a", "\u{4E00}", "b", "a\u{4E00}b"]),  // ㈠ folds to "(一)"
        ]
        for (title, tokens) in expected {
            XCTAssertEqual(referenceTokens(title), tokens.map(scalars), title)
            XCTAssertEqual(tokenizerTokens(title), tokens.map(scalars), "the tokenizer on \(title)")
        }
        XCTAssertEqual(referenceTokens("Spider-Man", joiningWords: false), ["spider", "man"].map(scalars))
    }

    /// The reference's steps 5–6, on folds of single scalars, give the tokenizer's tokens of whole titles and
    /// queries of the shared data (the spec says folding scalar by scalar changes nothing there), and every token
    /// character is of category L, N, Mc or Me by the standard library's tables. A sampled run (`TestScale`) takes
    /// every fifth title and query of the century's.
    func testTokensEqualTheTokenizerOnSharedData() throws {
        let every = TestScale.pick(sampled: 5, full: 1)
        var texts: [(String, Bool)] = []
        for (name, stride) in [("movies.json", 1), ("century-movies.json", every)] {
            texts += try SharedData.titles(name).enumerated().filter { $0.offset % stride == 0 }.map { ($0.element, true) }
        }
        for (name, stride) in [("decade-typing.txt", 1), ("century-typing.txt", every)] {
            texts += try SharedData.queries(name).enumerated().filter { $0.offset % stride == 0 }.map { ($0.element, false) }
        }
        let folding = ScalarFolding()
        var differences = 0
        for (text, isTitle) in texts {
            let folded = FoldedTitle(text, joiningWords: isTitle, folding: folding)
            let tokens = folded.tokens.map(\.scalars)
            if tokens != tokenizerTokens(text, joiningWords: isTitle) {
                differences += 1
                if differences <= 5 { XCTFail("\(text.debugDescription): \(tokens) vs \(tokenizerTokens(text, joiningWords: isTitle))") }
            }
            for scalar in tokens.joined() {
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                     .decimalNumber, .letterNumber, .otherNumber, .spacingMark, .enclosingMark:
                    continue
                default:
                    XCTFail("\(text.debugDescription): token character U+\(String(scalar.value, radix: 16)) is \(scalar.properties.generalCategory)")
                }
            }
        }
        XCTAssertEqual(differences, 0)
        XCTAssertGreaterThan(texts.count, TestScale.pick(sampled: 15_000, full: 50_000))
    }

    func testFoldOfSingleScalars() {
        let folding = ScalarFolding()
        XCTAssertEqual(folding.pieces(of: "ß"), [.character("s"), .character("s")])
        XCTAssertEqual(folding.pieces(of: "\u{308}"), [])
        XCTAssertEqual(folding.pieces(of: "\u{2019}"), [])
        XCTAssertEqual(folding.pieces(of: "–"), [.separator(joins: true)])
        XCTAssertEqual(folding.pieces(of: "\u{A0}"), [.separator(joins: false)])
        XCTAssertEqual(folding.pieces(of: "…"), [.separator(joins: false)])
        XCTAssertEqual(folding.pieces(of: "½"), [.character("1"), .separator(joins: true), .character("2")])
        XCTAssertEqual(folding.pieces(of: "\u{3220}"), [.separator(joins: true), .character("\u{4E00}"), .separator(joins: true)])
        XCTAssertEqual(folding.pieces(of: "\u{2474}"), [.separator(joins: true), .character("1"), .separator(joins: true)])  // ⑴ = (1)
        XCTAssertEqual(folding.pieces(of: "😀"), [.separator(joins: true)])
        XCTAssertEqual(folding.pieces(of: "É"), [.character("e")])
    }

    func testSpansMapFoldedScalarsBack() {
        let folding = ScalarFolding()
        let decomposed = FoldedTitle("Bru\u{308}no", joiningWords: true, folding: folding)
        XCTAssertEqual(decomposed.tokens[0].origins, [0, 1, 2, 4, 5])
        XCTAssertEqual(decomposed.span(ofToken: 0, length: 3), 0..<4)
        XCTAssertEqual(decomposed.span(ofToken: 0, length: 2), 0..<2)
        let straße = FoldedTitle("Straße", joiningWords: true, folding: folding)
        XCTAssertEqual(straße.tokens[0].origins, [0, 1, 2, 3, 4, 4, 5])
        XCTAssertEqual(straße.span(ofToken: 0, length: 5), 0..<5)
        XCTAssertEqual(straße.span(ofToken: 0, length: 6), 0..<5)
        let emoji = FoldedTitle("😀 Dark", joiningWords: true, folding: folding)
        XCTAssertEqual(emoji.span(ofToken: 0, length: 4), 3..<7)
        let spider = FoldedTitle("Spider-Man", joiningWords: true, folding: folding)
        XCTAssertEqual(spider.tokens[2].isJoined, true)
        XCTAssertEqual(spider.span(ofToken: 2, length: 7), 0..<8)
        XCTAssertEqual(FoldedTitle.merged([9..<12, 4..<8, 0..<2, 2..<3, 5..<6]), [0..<3, 4..<8, 9..<12])
    }

    func testOptimalStringAlignment() {
        func d(_ a: String, _ b: String) -> Int { OptimalStringAlignment.distance(scalars(a), scalars(b)) }
        XCTAssertEqual(d("darkenss", "darkness"), 1)  // one swap
        XCTAssertEqual(d("ca", "abc"), 3)  // no substring edited twice: not 2, as with unrestricted transpositions
        XCTAssertEqual(d("kitten", "sitting"), 3)
        XCTAssertEqual(d("", "abc"), 3)
        XCTAssertEqual(d("abc", ""), 3)
        XCTAssertEqual(d("abcd", "badc"), 2)
        let (distance, length) = OptimalStringAlignment.prefixDistance(scalars("godfahter"), scalars("godfather"))
        XCTAssertEqual(distance, 1)
        XCTAssertEqual(length, 9)
        // pd takes the closest prefix, and the matched part is the shortest prefix at that distance.
        XCTAssertEqual(OptimalStringAlignment.prefixDistance(scalars("sherlok"), scalars("sherlockholmes")).distance, 1)
        XCTAssertEqual(OptimalStringAlignment.prefixDistance(scalars("sherlok"), scalars("sherlockholmes")).length, 6)  // "sherlo": delete the k
    }

    func testBudgets() {
        XCTAssertEqual(SpecReference.budget(scalars("drak")), 0)
        XCTAssertEqual(SpecReference.budget(scalars("darke")), 1)
        XCTAssertEqual(SpecReference.budget(scalars("darkenss")), 1)
        XCTAssertEqual(SpecReference.budget(scalars("godfahter")), 2)
        XCTAssertEqual(SpecReference.budget(scalars("matrix2019")), 0)
        XCTAssertEqual(SpecReference.budget(scalars("20112")), 0)
        XCTAssertEqual(SpecReference.budget(scalars("brüno")), 1)
        XCTAssertNil(SpecReference.typoMatch(scalars("xarkness"), scalars("darkness")))  // first scalars differ
        XCTAssertEqual(SpecReference.typoMatch(scalars("darkenss"), scalars("darkness"))?.edits, 1)
        XCTAssertNil(SpecReference.typoMatch(scalars("drakness"), scalars("darkxess")))  // 2 edits, budget 1
    }
}
