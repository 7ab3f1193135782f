import XCTest
import MovieSearch
import TestSupport

/// SPEC.md "Tokens" step 6, joined words, on the spec's own examples: the tokens a title gets, and what a query
/// typed the way people say the word finds, in the engine and in the reference (which must agree on every answer).
final class JoinedWordsTests: XCTestCase {
    private var both: EngineAndReference!

    override func setUpWithError() throws {
        both = try EngineAndReference(SpecExampleCatalog.catalog, self)
    }

    private func assertTokens(_ title: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        // Scalar by scalar: `String` equality would hide a wrong decomposition.
        let scalars = { (tokens: [String]) in tokens.map { Array($0.unicodeScalars) } }
        XCTAssertEqual(scalars(Tokenizer.tokens(in: title, joiningWords: true)), scalars(expected),
                       "the tokenizer on \(title)", file: file, line: line)
        XCTAssertEqual(both.reference.title(id: SpecExampleCatalog.id(title)).tokens.map(\.scalars), scalars(expected),
                       "the reference on \(title)", file: file, line: line)
    }

    /// The titles the engine lists for `query` (at most 100 a year), after checking it against the reference.
    private func titles(_ query: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let answer = try both.answer(query, perYear: 100, file: file, line: line)
        XCTAssertEqual(answer.mode, .exact, "joined words are exact matches", file: file, line: line)
        return try both.titles(answer)
    }

    func testSpiderMan() throws {
        assertTokens("Spider-Man", ["spider", "man", "spiderman"])
        assertTokens("Spider-Man 2", ["spider", "man", "spiderman", "2"])
        XCTAssertEqual(try titles("spiderman"), ["Spider-Man 2", "Spider-Man"])
        XCTAssertEqual(try titles("spiderm"), ["Spider-Man 2", "Spider-Man"])
        XCTAssertEqual(try titles("spiderman 2"), ["Spider-Man 2"])
        XCTAssertEqual(try titles("spider man"), ["Spider-Man 2", "Spider-Man"])
        XCTAssertEqual(Tokenizer.tokens(in: "spider-man"), ["spider", "man"], "queries are never joined")
    }

    func testXMen() throws {
        assertTokens("X-Men", ["x", "men", "xmen"])
        XCTAssertEqual(try titles("xmen"), ["X-Men"])
        XCTAssertEqual(try titles("x-men"), ["X-Men"])
    }

    func testWallE() throws {
        assertTokens("WALL·E", ["wall", "e", "walle"])  // U+00B7 MIDDLE DOT is punctuation (Po)
        XCTAssertEqual(try titles("walle"), ["WALL·E"])
        XCTAssertEqual(try titles("WALL-E"), ["WALL·E"])
    }

    func testET() throws {
        assertTokens("E.T. the Extra-Terrestrial", ["e", "t", "et", "the", "extra", "terrestrial", "extraterrestrial"])
        XCTAssertEqual(try titles("et"), ["E.T. the Extra-Terrestrial"])
        XCTAssertEqual(try titles("extraterr"), ["E.T. the Extra-Terrestrial"])
    }

    /// Only maximal runs are joined: `swat`, not `sw` or `wat`.
    func testSWAT() throws {
        assertTokens("S.W.A.T.", ["s", "w", "a", "t", "swat"])
        XCTAssertEqual(try titles("swat"), ["S.W.A.T."])
        XCTAssertEqual(try titles("wat"), [])
        XCTAssertEqual(try titles("wa"), ["WALL·E"])
    }

    /// Two separators, or white space, never join.
    func testDrNoAndMissionImpossibleAreNotJoined() throws {
        assertTokens("Dr. No", ["dr", "no"])
        assertTokens("Mission: Impossible", ["mission", "impossible"])
        XCTAssertEqual(try titles("drno"), [])
        XCTAssertEqual(try titles("dr no"), ["Dr. No"])
        XCTAssertEqual(try both.answer("missionimpossible", perYear: 100).total, 0)
        XCTAssertEqual(try titles("mission impossible"), ["Mission: Impossible"])
    }

    func testDollarsForty() throws {
        assertTokens("$40,000", ["40", "000", "40000"])  // the "$" before the first token joins nothing
        XCTAssertEqual(try titles("40000"), ["$40,000"])
        XCTAssertEqual(try titles("40 000"), ["$40,000"])
    }

    func testACDC() throws {
        assertTokens("AC/DC: Let There Be Rock", ["ac", "dc", "acdc", "let", "there", "be", "rock"])
        XCTAssertEqual(try titles("acdc"), ["AC/DC: Let There Be Rock"])
        XCTAssertEqual(try titles("acd"), ["AC/DC: Let There Be Rock"])
    }
}
