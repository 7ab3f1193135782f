import MovieSearch
@testable import MovieSearchJSON
import TestSupport
import XCTest

final class JSONParserTests: XCTestCase {
    // MARK: - Valid documents

    func testScalarsAtTheTopLevel() throws {
        XCTAssertEqual(try JSONParser.parse("null"), .null)
        XCTAssertEqual(try JSONParser.parse("true"), .bool(true))
        XCTAssertEqual(try JSONParser.parse("false"), .bool(false))
        XCTAssertEqual(try JSONParser.parse("0"), .number(JSONNumber(checkedLiteral: "0")))
        XCTAssertEqual(try JSONParser.parse("-12.5e-3"), .number(JSONNumber(checkedLiteral: "-12.5e-3")))
        XCTAssertEqual(try JSONParser.parse(#""""#), .string(""))
        XCTAssertEqual(try JSONParser.parse(#""Inception""#), .string("Inception"))
    }

    func testWhiteSpaceAroundAndBetweenTokens() throws {
        XCTAssertEqual(try JSONParser.parse(" \t\r\n 1 \n"), 1)
        XCTAssertEqual(try JSONParser.parse("[ 1 ,\n\t2\r\n]"), [1, 2])
        XCTAssertEqual(try JSONParser.parse("{ \"a\" :\n 1 , \"b\":[ ] }"), ["a": 1, "b": []])
    }

    func testByteOrderMarkIsSkipped() throws {
        XCTAssertEqual(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), [1])
    }

    func testContainers() throws {
        XCTAssertEqual(try JSONParser.parse("[]"), .array([]))
        XCTAssertEqual(try JSONParser.parse("{}"), .object(JSONObject()))
        XCTAssertEqual(try JSONParser.parse("[[],{},[[]]]"), [[], [:], [[]]])
        let value = try JSONParser.parse(#"{"photos":{"page":1,"photo":[{"id":"1","farm":2},{"id":"3"}]},"stat":"ok"}"#)
        XCTAssertEqual(value, ["photos": ["page": 1, "photo": [["id": "1", "farm": 2], ["id": "3"]]], "stat": "ok"])
        XCTAssertEqual(value["photos"]?["photo"]?.arrayValue?.count, 2)
        XCTAssertEqual(value["stat"]?.stringValue, "ok")
        XCTAssertNil(value["missing"])
        XCTAssertNil(value["stat"]?["deeper"], "a lookup in a string is nil, not a crash")
    }

    func testObjectsKeepMemberOrderAndTheFirstDuplicateWins() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":2,"b":3}"#)
        let object = try XCTUnwrap(value.objectValue)
        XCTAssertEqual(object.keys, ["b", "a", "b"])
        XCTAssertEqual(object["b"], 1)
        XCTAssertEqual(object.count, 3)
        XCTAssertNotEqual(value, ["a": 2, "b": 1, "b": 3], "member order is part of equality")
    }

    func testAccessors() throws {
        let value = try JSONParser.parse(#"[null, true, 2.5, "s", [], {}]"#)
        let elements = try XCTUnwrap(value.arrayValue)
        XCTAssertTrue(elements[0].isNull)
        XCTAssertEqual(elements[1].boolValue, true)
        XCTAssertEqual(elements[2].numberValue?.double, 2.5)
        XCTAssertEqual(elements[3].stringValue, "s")
        XCTAssertEqual(elements[4].arrayValue, [])
        XCTAssertEqual(elements[5].objectValue, JSONObject())
        XCTAssertNil(elements[3].numberValue)
        XCTAssertEqual(elements.map(\.kindDescription),
                       ["null", "a Boolean", "a number", "a string", "an array", "an object"])
    }

    // MARK: - Strings

    func testEscapes() throws {
        XCTAssertEqual(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#), .string("\"\\/\u{08}\u{0C}\n\r\t"))
        XCTAssertEqual(try JSONParser.parse(#""\u0041\u00e9\u00E9\u4E2D\u0000""#), .string("Aéé中\u{0}"))
        XCTAssertEqual(try JSONParser.parse(#""a\nb""#), .string("a\nb"))
        XCTAssertEqual(try JSONParser.parse(#"{"ti\u0074le":1}"#), ["title": 1], "keys are unescaped too")
    }

    func testSurrogatePairsAreCombined() throws {
        XCTAssertEqual(try JSONParser.parse(#""\uD83D\uDE00""#), .string("😀"))
        XCTAssertEqual(try JSONParser.parse(#""\ud83c\udfac!""#), .string("🎬!"))
        XCTAssertEqual(try JSONParser.parse(#""\uDBFF\uDFFF""#), .string("\u{10FFFF}"))
    }

    func testLoneSurrogatesBecomeReplacementCharacters() throws {
        XCTAssertEqual(try JSONParser.parse(#""\uD800""#), .string("\u{FFFD}"))
        XCTAssertEqual(try JSONParser.parse(#""\uDC00x""#), .string("\u{FFFD}x"))
        XCTAssertEqual(try JSONParser.parse(#""\uD800\u0041""#), .string("\u{FFFD}A"))
        XCTAssertEqual(try JSONParser.parse(#""\uD800\uD800\uDC00""#), .string("\u{FFFD}𐀀"))
        XCTAssertEqual(try JSONParser.parse(#""\uD800\n""#), .string("\u{FFFD}\n"))
    }

    func testRawUTF8PassesThrough() throws {
        XCTAssertEqual(try JSONParser.parse(#"["Brüno", "千と千尋の神隠し", "🎬", "Ωmega"]"#),
                       ["Brüno", "千と千尋の神隠し", "🎬", "Ωmega"])
        XCTAssertEqual(try JSONParser.parse("\"\u{7F}\""), .string("\u{7F}"), "DEL is not a control character in JSON")
    }

    // MARK: - Numbers

    func testNumberLiteralsAreKept() throws {
        for literal in ["0", "-0", "2010", "2010.0", "1e3", "1E+3", "1e-3", "-0.5", "123456789012345678901234567890"] {
            XCTAssertEqual(try JSONParser.parse(literal).numberValue?.text, literal)
        }
    }

    func testIntegerValues() {
        func int(_ literal: String) -> Int? { JSONNumber(checkedLiteral: literal).int }
        XCTAssertEqual(int("2010"), 2010)
        XCTAssertEqual(int("-42"), -42)
        XCTAssertEqual(int("-0"), 0)
        XCTAssertEqual(int("9223372036854775807"), Int.max)
        XCTAssertEqual(int("-9223372036854775808"), Int.min)
        XCTAssertNil(int("9223372036854775808"))
        XCTAssertNil(int("-9223372036854775809"))
        // 18 digits take the path without overflow checks, 19 the checked one.
        XCTAssertEqual(int("999999999999999999"), 999_999_999_999_999_999)
        XCTAssertEqual(int("-999999999999999999"), -999_999_999_999_999_999)
        XCTAssertEqual(int("1000000000000000000"), 1_000_000_000_000_000_000)
        XCTAssertNil(int("99999999999999999.9"))
        XCTAssertNil(int("2010.0"), "a fraction makes a literal non-integer, even .0")
        XCTAssertNil(int("1e3"), "an exponent makes a literal non-integer")
        XCTAssertEqual(JSONNumber(7).int, 7)
    }

    func testWholeValues() {
        func whole(_ literal: String) -> JSONNumber.WholeValue { JSONNumber(checkedLiteral: literal).wholeValue }
        for literal in ["2010", "2010.0", "2.01e3", "2.01E+3", "201000e-2", "0.00201e6", "00", "2010.000000000000000000"] {
            XCTAssertEqual(whole(literal), literal == "00" ? .value(0) : .value(2010), literal)
        }
        XCTAssertEqual(whole("-7.0"), .value(-7))
        XCTAssertEqual(whole("-0.0e-5"), .value(0))
        XCTAssertEqual(whole("0e99999999999999999999"), .value(0), "zero whatever the exponent")
        XCTAssertEqual(whole("9223372036854775807"), .value(Int.max))
        XCTAssertEqual(whole("9.223372036854775807e18"), .value(Int.max))
        XCTAssertEqual(whole("-9.223372036854775808e18"), .value(Int.min))
        XCTAssertEqual(whole("9.223372036854775808e18"), .outOfRange)
        XCTAssertEqual(whole("9999999999999999999"), .outOfRange, "19 digits that overflow")
        XCTAssertEqual(whole("1e19"), .outOfRange)
        XCTAssertEqual(whole("1e18"), .value(1_000_000_000_000_000_000))
        XCTAssertEqual(whole("-1e400"), .outOfRange)
        XCTAssertEqual(whole("1e99999999999999999999999"), .outOfRange)
        XCTAssertEqual(whole("2010.5"), .fraction)
        XCTAssertEqual(whole("0.1"), .fraction)
        XCTAssertEqual(whole("1e-1"), .fraction)
        XCTAssertEqual(whole("1e-99999999999999999999999"), .fraction)
        XCTAssertEqual(whole("9007199254740993.0000000000000000001"), .fraction, "a fraction a double would round away")
        XCTAssertEqual(whole("9007199254740993"), .value(9_007_199_254_740_993), "exact, not the nearest double")
        XCTAssertEqual(whole("12345678901234567890123e-4"), .fraction)
        XCTAssertEqual(whole("12345678901234567890000e-4"), .value(1_234_567_890_123_456_789))
    }

    func testDoubleValues() {
        func double(_ literal: String) -> Double? { JSONNumber(checkedLiteral: literal).double }
        XCTAssertEqual(double("4"), 4)
        XCTAssertEqual(double("4.5"), 4.5)
        XCTAssertEqual(double("-0.25"), -0.25)
        XCTAssertEqual(double("1e3"), 1000)
        XCTAssertEqual(double("2.5E-1"), 0.25)
        XCTAssertEqual(double("1.7976931348623157e308"), .greatestFiniteMagnitude)
        XCTAssertNil(double("1e999"))
        XCTAssertNil(double("-1e999"))
        XCTAssertEqual(double("1e-999"), 0)
        XCTAssertEqual(double("-0")?.sign, .minus)
        XCTAssertEqual(double("9223372036854775808"), 9223372036854775808)
    }

    func testFastDoublePathAgreesWithTheStandardLibrary() {
        let literals = ["0.1", "0.2", "0.3", "1.1", "2.675", "4.35", "8.5", "123456789012345", "12345678901234.5",
                        "-999999999999999", "0.000000000000000000001", "9007199254740993", "0.1000000000000000055511",
                        "3.141592653589793", "1.00000000000000011102230246251565"]
        for literal in literals {
            XCTAssertEqual(JSONNumber(checkedLiteral: literal).double, Double(literal), literal)
        }
    }

    // MARK: - Nesting

    func testNestingUpToTheLimit() throws {
        let depth = JSONReader.maximumDepth
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(arrays)
        for _ in 1..<depth { value = try XCTUnwrap(value.arrayValue?.first) }
        XCTAssertEqual(value, [])

        let objects = String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        XCTAssertNoThrow(try JSONParser.parse(objects))
    }

    func testNestingPastTheLimitIsAnError() {
        let depth = JSONReader.maximumDepth + 1
        assertSyntaxError(String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
                          line: 1, column: depth, offset: depth - 1,
                          reason: "arrays and objects nest deeper than 512 levels")
        // Far past the limit, without closing brackets: still an error, not a stack overflow.
        assertSyntaxError(String(repeating: "[{\"a\":", count: 100_000), line: 1, column: 6 * 256 + 1,
                          offset: 6 * 256, reason: "arrays and objects nest deeper than 512 levels")
    }

    // MARK: - Malformed documents

    func testMalformedDocumentsReportLineColumnOffsetAndReason() {
        let cases: [(String, Int, Int, Int, String)] = [
            ("", 1, 1, 0, "the input holds no JSON value"),
            (" \n ", 2, 2, 3, "the input holds no JSON value"),
            ("[1,]", 1, 4, 3, "a trailing comma is not allowed: expected a value after ','"),
            (#"{"a":1,}"#, 1, 8, 7, "a trailing comma is not allowed: expected a string key after ','"),
            ("[1 2]", 1, 4, 3, "unexpected '2', expected ',' or ']' after an array element"),
            (#"{"a":1 "b":2}"#, 1, 8, 7, "unexpected '\"', expected ',' or '}' after an object member"),
            (#"{"a" 1}"#, 1, 6, 5, "unexpected '1', expected ':' after an object key"),
            ("{a:1}", 1, 2, 1, "unexpected 'a', expected a string key or '}'"),
            (#"{"a":1,b:2}"#, 1, 8, 7, "unexpected 'b', expected a string key after ','"),
            ("[1,,2]", 1, 4, 3, "unexpected ',', expected a value"),
            ("[", 1, 2, 1, "unexpected end of input, expected a value or ']'"),
            ("[1", 1, 3, 2, "unexpected end of input, expected ',' or ']' after an array element"),
            ("{", 1, 2, 1, "unexpected end of input, expected a string key or '}'"),
            (#"{"a""#, 1, 5, 4, "unexpected end of input, expected ':' after an object key"),
            (#"{"a":"#, 1, 6, 5, "unexpected end of input, expected a value"),
            ("[1]]", 1, 4, 3, "unexpected ']' after the top-level value"),
            ("1 2", 1, 3, 2, "unexpected '2' after the top-level value"),
            ("[1}", 1, 3, 2, "unexpected '}', expected ',' or ']' after an array element"),
            (#"{"a":1]"#, 1, 7, 6, "unexpected ']', expected ',' or '}' after an object member"),
            ("NaN", 1, 1, 0, "unexpected 'N', expected a value"),
            ("[Infinity]", 1, 2, 1, "unexpected 'I', expected a value or ']'"),
            ("-Infinity", 1, 2, 1, "unexpected 'I', expected a digit after '-'"),
            ("[01]", 1, 2, 1, "a number must not start with a leading zero"),
            ("-012", 1, 1, 0, "a number must not start with a leading zero"),
            ("+1", 1, 1, 0, "unexpected '+', expected a value"),
            (".5", 1, 1, 0, "unexpected '.', expected a value"),
            ("1.", 1, 3, 2, "unexpected end of input, expected a digit after the decimal point"),
            ("[1.e3]", 1, 4, 3, "unexpected 'e', expected a digit after the decimal point"),
            ("1e", 1, 3, 2, "unexpected end of input, expected a digit in the exponent"),
            ("1e+", 1, 4, 3, "unexpected end of input, expected a digit in the exponent"),
            ("-", 1, 2, 1, "unexpected end of input, expected a digit after '-'"),
            ("0x1F", 1, 2, 1, "unexpected 'x' after the top-level value"),
            ("tru", 1, 1, 0, "invalid literal: expected 'true'"),
            ("[nul]", 1, 2, 1, "invalid literal: expected 'null'"),
            ("True", 1, 1, 0, "unexpected 'T', expected a value"),
            ("falsey", 1, 6, 5, "unexpected 'y' after the top-level value"),
            ("'a'", 1, 1, 0, "unexpected ''', expected a value"),
            ("[1] // comment", 1, 5, 4, "unexpected '/' after the top-level value"),
            ("/* c */ 1", 1, 1, 0, "unexpected '/', expected a value"),
            (#""abc"#, 1, 1, 0, "unterminated string"),
            (#"["abc\"]"#, 1, 2, 1, "unterminated string"),
            (#""\u12"#, 1, 1, 0, "unterminated string"),
            ("\"a\nb\"", 1, 3, 2,
             "line break in a string (a string must be closed on its line; write \\n for a line break)"),
            ("\"a\tb\"", 1, 3, 2, "control character U+0009 in a string must be escaped"),
            ("\"\u{0}\"", 1, 2, 1, "control character U+0000 in a string must be escaped"),
            (#""\x""#, 1, 2, 1,
             #"invalid escape 'x' after a backslash (valid escapes: \" \\ \/ \b \f \n \r \t \uXXXX)"#),
            (#""\u12G4""#, 1, 2, 1, "invalid escape: \\u must be followed by four hexadecimal digits"),
            (#""\U0041""#, 1, 2, 1,
             #"invalid escape 'U' after a backslash (valid escapes: \" \\ \/ \b \f \n \r \t \uXXXX)"#),
            ("[1,\u{A0}2]", 1, 4, 3, "unexpected U+00A0, expected a value"),
            ("[é]", 1, 2, 1, "unexpected 'é', expected a value or ']'"),
            ("\u{FEFF}\u{FEFF}1", 1, 1, 3, "unexpected U+FEFF, expected a value"),
            ("[\u{1}]", 1, 2, 1, "unexpected control character U+0001, expected a value or ']'"),
        ]
        for (text, line, column, offset, reason) in cases {
            assertSyntaxError(text, line: line, column: column, offset: offset, reason: reason)
        }
    }

    func testLinesAndColumnsOfAMultiLineDocument() {
        // Columns count Unicode scalars; CR LF, LF and a lone CR each end one line.
        assertSyntaxError("{\n  \"title\": \"Amélie\",\n  \"year\": 2001 x\n}", line: 3, column: 16, offset: 39,
                          reason: "unexpected 'x', expected ',' or '}' after an object member")
        assertSyntaxError("[\r\n1,\r\n2,\r3 4]", line: 4, column: 3, offset: 12,
                          reason: "unexpected '4', expected ',' or ']' after an array element")
        assertSyntaxError("[\"千と千尋\" 1]", line: 1, column: 9, offset: 16,
                          reason: "unexpected '1', expected ',' or ']' after an array element")
    }

    // MARK: - Invalid UTF-8

    func testInvalidUTF8IsRejectedAtItsFirstByte() {
        let cases: [([UInt8], Int, String)] = [
            ([0x22, 0xFF, 0x22], 1, "invalid UTF-8 (bytes 0xFF 0x22)"),
            ([0x22, 0x41, 0x80, 0x22], 2, "invalid UTF-8 (bytes 0x80 0x22)"),  // a lone continuation byte
            ([0x22, 0xC0, 0x80, 0x22], 1, "invalid UTF-8 (bytes 0xC0 0x80 0x22)"),  // overlong NUL
            ([0x22, 0xE0, 0x80, 0x80, 0x22], 1, "invalid UTF-8 (bytes 0xE0 0x80 0x80 0x22)"),  // overlong
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8 (bytes 0xED 0xA0 0x80 0x22)"),  // a surrogate
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8 (bytes 0xF4 0x90 0x80 0x80)"),  // > U+10FFFF
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, "invalid UTF-8 (bytes 0xF5 0x80 0x80 0x80)"),
            ([0x22, 0xE2, 0x82, 0x22], 1, "invalid UTF-8 (bytes 0xE2 0x82 0x22)"),  // cut short
            ([0x5B, 0xFF, 0x5D], 1, "invalid UTF-8 (bytes 0xFF 0x5D)"),  // outside a string
            ([0x31, 0x20, 0xC3], 2, "invalid UTF-8 (bytes 0xC3)"),  // after the top-level value
        ]
        for (bytes, offset, reason) in cases {
            XCTAssertThrowsError(try JSONParser.parse(bytes), "\(bytes)") { error in
                XCTAssertEqual(error as? JSONSyntaxError,
                               JSONSyntaxError(line: 1, column: offset + 1, offset: offset, reason: reason), "\(bytes)")
            }
        }
        // Valid sequences of every length, including the boundaries of the ranges above.
        let valid: [UInt8] = [0x22, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80,
                              0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]
        XCTAssertEqual(try JSONParser.parse(valid).stringValue?.unicodeScalars.map(\.value),
                       [0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0x10000, 0x10FFFF])
        // A string cut inside a multi-byte sequence is unterminated, like any other cut string.
        assertSyntaxError([0x22, 0xE2, 0x82], line: 1, column: 1, offset: 0, reason: "unterminated string")
    }

    /// The reader skips plain ASCII in strings eight bytes at a time and finishes byte by byte near the end of
    /// the input: a byte that ends the plain run must be found at every offset, in both.
    func testEveryStringByteIsFoundAtEveryOffset() throws {
        for length in 1...20 {
            for offset in 0..<length {
                // The string as the last value of the input (read byte by byte at the end), and followed by enough
                // to be read in whole words.
                for (prefix, suffix) in [("", ""), ("[", #", "0123456789abcdef"]"#)] {
                    func document(_ special: String) -> [UInt8] {
                        Array((prefix + "\"" + String(repeating: "a", count: offset)).utf8) + Array(special.utf8)
                            + Array((String(repeating: "a", count: length - offset - 1) + "\"" + suffix).utf8)
                    }
                    func parsed(_ special: String) throws -> String? {
                        let value = try JSONParser.parse(document(special))
                        return (prefix.isEmpty ? value : value.arrayValue?.first)?.stringValue
                    }
                    func expected(_ middle: String) -> String {
                        let before = String(repeating: "a", count: offset)
                        return before + middle + String(repeating: "a", count: length - offset - 1)
                    }
                    let at = prefix.utf8.count + 1 + offset
                    XCTAssertEqual(try parsed("a"), expected("a"))
                    XCTAssertEqual(try parsed("\u{7F}"), expected("\u{7F}"))
                    XCTAssertEqual(try parsed("é"), expected("é"))
                    XCTAssertEqual(try parsed(#"\""#), expected("\""))
                    assertSyntaxError(document("\u{01}"), line: 1, column: at + 1, offset: at,
                                      reason: "control character U+0001 in a string must be escaped")
                    var invalid = document("é")
                    invalid[at] = 0xFF
                    let shown = invalid[at..<min(at + 4, invalid.count)]
                        .map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
                    assertSyntaxError(invalid, line: 1, column: at + 1, offset: at,
                                      reason: "invalid UTF-8 (bytes \(shown))")
                }
            }
        }
    }

    // MARK: - Never crash

    func testEveryTruncationOfADocumentThrows() throws {
        let document = Array("""
        {"movies": [{"title": "Amélie \\u00e9\\uD83C\\uDFAC 🎬", "year": 2001, "rating": -4.5e-1,
         "cast": ["Audrey Tautou"], "genres": [], "seen": true, "notes": null, "x": false}]}
        """.utf8)
        XCTAssertNoThrow(try JSONParser.parse(document))
        for length in 0..<document.count {
            XCTAssertThrowsError(try JSONParser.parse(Array(document[..<length])), "prefix of \(length) bytes") { error in
                let error = error as? JSONSyntaxError
                XCTAssertNotNil(error)
                XCTAssertLessThanOrEqual(error?.offset ?? .max, length)
            }
        }
    }

    func testRandomMutationsNeverCrash() {
        let document = Array(#"{"a":[1,-2.5e3,"x\u00e9\"y",true,false,null,{"b":[]}],"é":"千"}"#.utf8)
        let alphabet = Array(#"{}[]:,"\-+.0123456789eEtrufalsn u"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        var generator = SplitMix64(seed: 0x6d6f7669)
        var parsed = 0
        for _ in 0..<20_000 {
            var bytes = document
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = alphabet.randomElement(using: &generator)!
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
                default: if bytes.count > 1 { bytes.remove(at: index) }
                }
            }
            do {
                _ = try JSONParser.parse(bytes)
                parsed += 1
            } catch {
                XCTAssertTrue((0...bytes.count).contains(error.offset), "\(error) in \(bytes)")
                XCTAssertGreaterThanOrEqual(error.line, 1)
                XCTAssertGreaterThanOrEqual(error.column, 1)
            }
        }
        XCTAssertGreaterThan(parsed, 0, "some mutations (inside strings, digits) keep the document valid")
    }

    // MARK: - Reader

    func testSkipValueConsumesExactlyOneValue() throws {
        let bytes = Array(#"[{"a":[1,{"b":2}],"c":"d"}, 7]"#.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer)
            XCTAssertEqual(try reader.next(), .beginArray)
            let first = try reader.next()
            XCTAssertEqual(first, .beginObject)
            XCTAssertEqual(reader.tokenStart, 1)
            try reader.skipValue(startingWith: first)
            XCTAssertEqual(reader.depth, 1)
            guard case .number(let seven) = try reader.next() else { return XCTFail("expected 7") }
            XCTAssertEqual(reader.integer(seven), 7)
            XCTAssertEqual(reader.tokenStart, 28)
            XCTAssertEqual(try reader.next(), .endArray)
            XCTAssertEqual(try reader.next(), .end)
            XCTAssertEqual(try reader.next(), .end)
        }
    }

    // MARK: - Helpers

    private func assertSyntaxError(_ text: String, line: Int, column: Int, offset: Int, reason: String,
                                   file: StaticString = #filePath, lineNumber: UInt = #line) {
        assertSyntaxError(Array(text.utf8), line: line, column: column, offset: offset, reason: reason,
                          file: file, lineNumber: lineNumber)
    }

    private func assertSyntaxError(_ bytes: [UInt8], line: Int, column: Int, offset: Int, reason: String,
                                   file: StaticString = #filePath, lineNumber: UInt = #line) {
        let expected = JSONSyntaxError(line: line, column: column, offset: offset, reason: reason)
        let shown = String(decoding: bytes.prefix(60), as: UTF8.self)
        do {
            let value = try JSONParser.parse(bytes)
            XCTFail("\(shown) parsed as \(value), expected \(expected)", file: file, line: lineNumber)
        } catch {
            XCTAssertEqual(error, expected, shown, file: file, line: lineNumber)
        }
    }
}
