import MovieSearch
@_spi(Engine) @testable import MovieSearchText
import XCTest

/// Hand-worked cases of SPEC.md "Tokens". Expected tokens are written out from the spec and the Unicode data
/// (decompositions noted where they are not obvious), never taken from the implementation.
///
/// Tokens are compared scalar by scalar: `String` equality follows canonical equivalence and would hide a wrong
/// mark order or a missing decomposition.
final class TextTokenizerTests: XCTestCase {
    // MARK: The spec's examples

    func testSpecExamples() {
        assertTokens("Brüno", ["bruno"])
        assertTokens("Straße", ["strasse"])
        assertTokens("Don't", ["dont"])
        assertTokens("Don’t", ["dont"])
        assertTokens("Mission: Impossible – Ghost Protocol", ["mission", "impossible", "ghost", "protocol"])
        assertTokens("(500) Days of Summer", ["500", "days", "of", "summer"])
        assertTokens("½", ["1", "2"])  // NFKD: 1, U+2044 FRACTION SLASH (Sm), 2
    }

    // MARK: ASCII

    func testASCIIFoldsCaseAndSplitsOnEverythingButLettersAndDigits() {
        assertTokens("The Dark Knight", ["the", "dark", "knight"])
        assertTokens("the dark kni", ["the", "dark", "kni"])
        assertTokens("A-B_C.d/e\\f\"g", ["a", "b", "c", "d", "e", "f", "g"])
        assertTokens("  \tSe7en\n", ["se7en"])
        assertTokens("~!@#$%^&*()+={}[]|:;<>,?`", [])
        assertTokens("\u{0}x\u{7F}y\u{1F}", ["x", "y"])
    }

    func testApostrophesAreDeletedNotSeparators() {
        assertTokens("rock'n'roll", ["rocknroll"])
        assertTokens("'''", [])
        assertTokens("x' 'y", ["x", "y"])
        assertTokens("‘Salem’s Lot", ["salems", "lot"])  // U+2018, U+2019
        assertTokens("rock\u{2BC}n\u{2BC}roll", ["rocknroll"])  // U+02BC is a letter (Lm), deleted all the same
        assertTokens("don\u{FF07}t", ["dont"])  // FULLWIDTH APOSTROPHE: NFKD gives U+0027
        assertTokens("\u{149}", ["n"])  // ŉ: NFKD gives U+02BC n
        assertTokens("l`x", ["l", "x"])  // a grave accent is no apostrophe
    }

    func testEmptyWhitespaceAndPunctuationOnlyGiveNoTokens() {
        assertTokens("", [])
        assertTokens("   \t\r\n \u{A0}\u{3000}\u{2028}", [])
        assertTokens("…—–!?¿¡«»·•", [])
    }

    // MARK: Letters beyond ASCII

    func testMarksAreStrippedWhetherPrecomposedOrNot() {
        assertTokens("Amélie", ["amelie"])
        assertTokens("Ame\u{301}lie", ["amelie"])
        assertTokens("café au lait", ["cafe", "au", "lait"])
        assertTokens("ÀÉÎÕÜÇÑ", ["aeioucn"])
        assertTokens("\u{1E69}", ["s"])  // ṩ: s, dot below, dot above
    }

    func testGreekWithAccentsAndFinalSigma() {
        // Ὀ = Ο + U+0313 (Mn), ύ = υ + U+0301; final ς folds to σ.
        assertTokens("Ὀδυσσεύς", ["\u{3BF}\u{3B4}\u{3C5}\u{3C3}\u{3C3}\u{3B5}\u{3C5}\u{3C3}"])
        assertTokens("ΣΊΣΥΦΟΣ", ["\u{3C3}\u{3B9}\u{3C3}\u{3C5}\u{3C6}\u{3BF}\u{3C3}"])
        XCTAssertEqual(Tokenizer.tokenBytes(in: "σίσυφος"), Tokenizer.tokenBytes(in: "ΣΊΣΥΦΟΣ"))
        // ᾼ = Α + U+0345 YPOGEGRAMMENI (Mn): step 1 deletes the mark before folding could turn it into ι.
        assertTokens("ᾼ", ["\u{3B1}"])
    }

    func testFullCaseFolding() {
        assertTokens("STRASSE straße STRAẞE", ["strasse", "strasse", "strasse"])  // U+1E9E folds to ss
        assertTokens("İstanbul", ["istanbul"])  // İ: NFKD I + U+0307, mark deleted, I folds to i
        assertTokens("\u{212A}\u{2126}", ["k\u{3C9}"])  // KELVIN SIGN, OHM SIGN
        assertTokens("\u{1C5}", ["dz"])  // ǅ: NFKD D, z, U+030C
        assertTokens("\u{10400}", ["\u{10428}"])  // DESERET CAPITAL LONG I, outside the BMP
        assertTokens("\u{AB70}", ["\u{13A0}"])  // Cherokee folds small letters to capitals
        assertTokens("ΜΆΙΟΣ µ", ["\u{3BC}\u{3B1}\u{3B9}\u{3BF}\u{3C3}", "\u{3BC}"])  // MICRO SIGN: NFKD μ
    }

    func testCompatibilityForms() {
        assertTokens("ﬁlm", ["film"])
        assertTokens("ＡＢＣ １２", ["abc", "12"])
        assertTokens("x² H₂O", ["x2", "h2o"])
        assertTokens("Ⅻ", ["xii"])  // ROMAN NUMERAL TWELVE
        assertTokens("①②", ["12"])  // circled digits are numbers (No), and so is what they decompose to
        assertTokens("㍿", ["株式会社"])  // SQUARE CORPORATION
        // ARABIC LIGATURE SALLALLAHOU ALAYHE WASALLAM: four words with spaces between them.
        assertTokens("\u{FDFA}", ["صلى", "الله", "عليه", "وسلم"])
    }

    func testScriptsWithoutSpacesFormOneTokenPerRun() {
        assertTokens("千と千尋の神隠し", ["千と千尋の神隠し"])
        assertTokens("千と千尋の神隠し (2001)", ["千と千尋の神隠し", "2001"])
        // Thai ภาพยนตร์: the last scalar, U+0E4C THANTHAKHAT, is Mn.
        assertTokens("ภาพยนตร์", ["\u{E20}\u{E32}\u{E1E}\u{E22}\u{E19}\u{E15}\u{E23}"])
    }

    func testHangulDecomposesToJamo() {
        // 한 = U+1112 U+1161 U+11AB, 국 = U+1100 U+116E U+11A8 (The Unicode Standard, 3.12).
        assertTokens("한국 영화", ["\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}",
                                   "\u{110B}\u{1167}\u{11BC}\u{1112}\u{116A}"])
    }

    func testEmojiAndSymbolsSeparate() {
        assertTokens("Up 🎈 2", ["up", "2"])
        assertTokens("Love👨‍👩‍👧Actually", ["love", "actually"])
        assertTokens("WALL·E", ["wall", "e"])
        assertTokens("co\u{AD}op", ["co", "op"])  // SOFT HYPHEN is Cf: it separates
    }

    // MARK: Marks that remain, marks that go

    func testSpacingMarksStayInTokens() {
        // हिन्दी: ह, ि (Mc), न, ् (virama, Mn: deleted), द, ी (Mc).
        assertTokens("हिन्दी", ["\u{939}\u{93F}\u{928}\u{926}\u{940}"])
    }

    func testEnclosingMarksStayInTokens() {
        assertTokens("\u{20DD}", ["\u{20DD}"])
        assertTokens("a\u{20DD} b", ["a\u{20DD}", "b"])
    }

    func testLoneCombiningMarksVanish() {
        assertTokens("\u{301}", [])
        assertTokens("\u{301}abc", ["abc"])
        assertTokens("a\u{301}\u{301}\u{327}b", ["ab"])
        assertTokens(" \u{308} ", [])
        assertTokens("x\u{34F}y", ["xy"])  // COMBINING GRAPHEME JOINER: Mn of class 0
    }

    func testCanonicalReorderingOfMarksThatRemain() {
        // U+1D16D (Mc, class 226) before U+1D165 (Mc, class 216): NFKD swaps them.
        assertTokens("\u{1D16D}\u{1D165}", ["\u{1D165}\u{1D16D}"])
        // A nonspacing mark of class 220 between them is deleted after reordering: same result.
        assertTokens("\u{1D16D}\u{316}\u{1D165}", ["\u{1D165}\u{1D16D}"])
        // U+034F (class 0) blocks reordering in step 1 and is deleted; step 3 then reorders what it separated.
        assertTokens("\u{1D16D}\u{34F}\u{1D165}", ["\u{1D165}\u{1D16D}"])
        // Equal classes keep their order.
        assertTokens("\u{1D16F}\u{1D16E}\u{1D16D}\u{1D165}", ["\u{1D16F}\u{1D16E}\u{1D165}\u{1D16D}"])
        // MUSICAL SYMBOL EIGHTH NOTE decomposes to U+1D158 (So: a separator) U+1D165 U+1D16E (both 216);
        // U+1D16D (226) stays after them.
        assertTokens("\u{1D160}\u{1D16D}", ["\u{1D165}\u{1D16E}\u{1D16D}"])
        assertTokens("\u{1D16D}\u{1D160}", ["\u{1D16D}", "\u{1D165}\u{1D16E}"])
        // A starter ends the run: nothing moves across it.
        assertTokens("\u{1D16D}x\u{1D165}", ["\u{1D16D}x\u{1D165}"])
    }

    // MARK: Long text

    func testTenThousandCharacters() {
        let ascii = String(repeating: "The Dark Knight ", count: 625)
        XCTAssertEqual(ascii.count, 10_000)
        assertTokens(ascii, Array(repeating: ["the", "dark", "knight"], count: 625).flatMap { $0 })

        let word = String(repeating: "a", count: 10_000)
        assertTokens(word, [word])

        assertTokens(String(repeating: "Brüno ", count: 1_667), Array(repeating: "bruno", count: 1_667))
        assertTokens(String(repeating: "é", count: 10_000), [String(repeating: "e", count: 10_000)])
        assertTokens("a" + String(repeating: "\u{301}\u{316}", count: 5_000) + "b", ["ab"])
        assertTokens(String(repeating: "\u{1D16D}\u{1D165}", count: 5_000),
                     [String(repeating: "\u{1D165}", count: 5_000) + String(repeating: "\u{1D16D}", count: 5_000)])
    }

    func testTextThatGrowsWhenFolded() {
        // ㍿ (3 UTF-8 bytes) becomes 株式会社 (12 bytes): the token outgrows its input several times over.
        assertTokens("abc" + String(repeating: "㍿", count: 1_000) + "xyz",
                     ["abc" + String(repeating: "株式会社", count: 1_000) + "xyz"])
        assertTokens(String(repeating: "\u{FDFA} ", count: 100),
                     Array(repeating: ["صلى", "الله", "عليه", "وسلم"], count: 100).flatMap { $0 })
    }

    // MARK: The three entry points agree

    func testEntryPointsAgree() {
        for text in ["", "The Dark Knight", "Brüno (2009)", "千と千尋の神隠し", "a\u{301}'b c"] {
            var visited: [[UInt8]] = []
            Tokenizer.forEachToken(in: text) { visited.append(Array($0)) }
            XCTAssertEqual(visited, Tokenizer.tokenBytes(in: text), text)
            XCTAssertEqual(visited, Tokenizer.tokens(in: text).map { Array($0.utf8) }, text)
            XCTAssertFalse(visited.contains { $0.isEmpty }, text)
        }
    }

    // MARK: Helpers

    private func assertTokens(_ text: String, _ expected: [String], file: StaticString = #filePath,
                              line: UInt = #line) {
        let actual = Tokenizer.tokens(in: text)
        let scalars = { (tokens: [String]) in tokens.map { $0.unicodeScalars.map(\.value) } }
        if scalars(actual) != scalars(expected) {
            XCTFail("tokens of \(Self.describe(text)): \(actual.map(Self.describe)) instead of "
                    + "\(expected.map(Self.describe))", file: file, line: line)
        }
    }

    /// `text` with every non-ASCII scalar spelled out, so that a failure shows what differs.
    static func describe(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(60)) + "…(\(text.unicodeScalars.count) scalars)" : text
        let spelled = shown.unicodeScalars.map { scalar in
            scalar.isASCII && scalar.value >= 0x20
                ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
        return "\"" + spelled.joined() + "\""
    }
}
