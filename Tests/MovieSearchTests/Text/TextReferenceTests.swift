import Foundation
import MovieSearch
@_spi(Engine) @testable import MovieSearchText
import TestSupport
import XCTest

/// `Tokenizer` against `PythonTokenizer`, an independent reading of the spec: on every title and query of the shared
/// data, on every code point in runs, and on random strings mixing many scripts, marks and symbols.
final class TextReferenceTests: XCTestCase {
    /// Every title of both catalogs in a full run (`TestScale`); a sampled run takes every eighth of the century's.
    func testTitlesOfBothCatalogsMatchPython() throws {
        var titles: [String] = []
        for (name, every) in [("movies.json", 1), ("century-movies.json", TestScale.pick(sampled: 8, full: 1))] {
            let found = try SharedData.titles(name)
            XCTAssertGreaterThan(found.count, 1_000, name)
            titles += stride(from: 0, to: found.count, by: every).map { found[$0] }
        }
        XCTAssertTrue(titles.contains { !$0.allSatisfy(\.isASCII) }, "the catalogs should hold some non-ASCII titles")
        try assertMatchesPython(titles)
    }

    func testQueriesMatchPython() throws {
        let folder = try Requirement.sharedData("queries")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".txt") }.sorted()
        XCTAssertFalse(names.isEmpty, "no query sets in \(folder)")
        var queries: [String] = []
        for name in names { queries += try SharedData.queries(name) }
        try assertMatchesPython(queries)
    }

    /// Every code point of planes 0–3 and 14 (the others hold no assigned characters but private use ones), 16
    /// consecutive ones per string so that neighbouring marks also meet, in a full run (`TestScale`); a sampled run
    /// takes every 17th.
    func testEveryCodePointMatchesPython() throws {
        let all = Array(0..<0x4_0000) + Array(0xE_0000..<0xE_1000)
        let codePoints = TestScale.positions(all.count, keeping: [], stride: 17).map { all[$0] }
        var strings: [String] = []
        var scalars = String.UnicodeScalarView()
        for value in codePoints {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }  // surrogates
            scalars.append(scalar)
            if scalars.count == 16 {
                strings.append(String(scalars))
                scalars = String.UnicodeScalarView()
            }
        }
        strings.append(String(scalars))
        // And each one alone, where nothing can reorder or join it: what single-scalar lookups give.
        strings += codePoints.compactMap { Unicode.Scalar(UInt32($0)).map { String(Character($0)) } }
        try assertMatchesPython(strings)
    }

    /// Random strings (fixed seed) weighted towards what is hard: combining marks of every class, the few marks
    /// that survive deletion with a nonzero class, compatibility forms, case folding outside the BMP, apostrophes.
    func testRandomStringsMatchPython() throws {
        var generator = SplitMix64(seed: 0x6D6F_7669_6573_6561)
        var strings: [String] = []
        for _ in 0..<4_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...24, using: &generator) {
                let range = Self.ranges.randomElement(using: &generator)!
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
            }
            strings.append(String(scalars))
        }
        try assertMatchesPython(strings)
    }

    /// Blocks to draw scalars from; a range listed twice is drawn twice as often.
    private static let ranges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x20...0x7E, 0x20...0x7E,  // ASCII
        0x27...0x27, 0x2018...0x2019, 0x2BC...0x2BC, 0xFF07...0xFF07, 0x149...0x149,  // apostrophes
        0xA0...0x24F, 0x250...0x2FF,  // Latin-1, Latin Extended, IPA, modifier letters
        0x300...0x36F, 0x300...0x36F, 0x300...0x36F, 0x34F...0x34F,  // combining diacritics, CGJ
        0x370...0x3FF, 0x1F00...0x1FFF,  // Greek
        0x400...0x52F, 0x531...0x58F, 0x591...0x5FF,  // Cyrillic, Armenian, Hebrew with points
        0x600...0x6FF, 0x8A0...0x8FF,  // Arabic
        0x900...0x97F, 0x980...0x9FF, 0xB80...0xBFF, 0xD00...0xDFF,  // Devanagari, Bengali, Tamil, Malayalam
        0xE00...0xE7F, 0xF00...0xFFF, 0x1000...0x109F,  // Thai, Tibetan (marks of many classes), Myanmar
        0x10A0...0x10FF, 0x1C90...0x1CBF,  // Georgian, Mtavruli
        0x1100...0x11FF, 0xAC00...0xD7A3,  // Hangul jamo and syllables
        0x13A0...0x13FF, 0xAB70...0xABBF,  // Cherokee (folds small letters to capitals)
        0x1715...0x1715, 0x1734...0x1734, 0x1B44...0x1B44, 0x1BAA...0x1BAA, 0x1BF2...0x1BF3,  // Mc of class 9
        0xA953...0xA953, 0xA9C0...0xA9C0, 0x111C0...0x111C0, 0x1134D...0x1134D, 0x116B6...0x116B6,
        0x302E...0x302F, 0x16FF0...0x16FF1, 0x1D165...0x1D172, 0x1D165...0x1D172,  // Mc of classes 224, 6, 216, 226
        0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,  // more marks, Me included
        0x1E00...0x1EFF,  // Latin Extended Additional
        0x2000...0x206F, 0x2070...0x209F, 0x20A0...0x20CF,  // punctuation, super- and subscripts, currency
        0x2100...0x214F, 0x2150...0x218F, 0x2460...0x24FF,  // letterlike, number forms, enclosed
        0x2C00...0x2C7F, 0x2C80...0x2CFF, 0xA640...0xA69F, 0xA720...0xA7FF,  // Glagolitic, Coptic, Cyrillic/Latin ext
        0x3000...0x303F, 0x3040...0x30FF, 0x3099...0x309A,  // CJK punctuation, kana, voicing marks
        0x3130...0x318F, 0x3200...0x33FF,  // compatibility jamo, enclosed CJK, CJK compatibility
        0x4E00...0x9FFF, 0xF900...0xFAFF, 0x2F800...0x2FA1F,  // ideographs, compatibility ideographs
        0xFB00...0xFB4F, 0xFB50...0xFDFF, 0xFE70...0xFEFF, 0xFF00...0xFFEF,  // presentation forms, half/full width
        0xFE00...0xFE0F, 0xFE10...0xFE6F,  // variation selectors, vertical and small forms
        0x10400...0x1044F, 0x104B0...0x104FF, 0x10C80...0x10CFF, 0x118A0...0x118FF,  // astral cased scripts
        0x16E40...0x16E9F, 0x1E900...0x1E95F,  // Medefaidrin, Adlam
        0x11000...0x111FF, 0x1D100...0x1D1FF, 0x1D400...0x1D7FF,  // Brahmi..Sharada, music, math alphanumerics
        0x1F100...0x1F2FF, 0x1F300...0x1F6FF, 0x1F900...0x1F9FF,  // enclosed supplement, emoji
        0xE0000...0xE007F, 0xE0100...0xE01EF, 0xE000...0xF8FF, 0x50000...0x50010,  // tags, VS, private, unassigned
        0x0...0x1F, 0x7F...0x9F, 0x10FFF0...0x10FFFF,  // controls, the very end of the code space
    ]

    // MARK: Comparison

    private func assertMatchesPython(_ strings: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try PythonTokenizer.tokens(of: strings, unicodeVersion: UnicodeTables.unicodeVersion)
        var mismatches = 0
        for (text, expected) in zip(strings, expected) {
            let actual = Tokenizer.tokenBytes(in: text)
            if actual == expected { continue }
            mismatches += 1
            if mismatches <= 10 {
                XCTFail("tokens of \(TextTokenizerTests.describe(text)): \(Self.describe(actual)) but Python says "
                        + Self.describe(expected), file: file, line: line)
            }
        }
        XCTAssertEqual(mismatches, 0, "strings whose tokens differ from Python's, of \(strings.count)",
                       file: file, line: line)
    }
}

extension TextReferenceTests {
    fileprivate static func describe(_ tokens: [[UInt8]]) -> String {
        "\(tokens.map { TextTokenizerTests.describe(String(decoding: $0, as: UTF8.self)) })"
    }
}
