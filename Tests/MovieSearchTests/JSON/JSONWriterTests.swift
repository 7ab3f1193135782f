import MovieSearch
@testable import MovieSearchJSON
import XCTest

final class JSONWriterTests: XCTestCase {
    func testSearchResultShape() {
        var json = JSONWriter()
        json.object { json in
            json.member("query", "dark")
            json.member("total", 30)
            json.key("years")
            json.array { json in
                json.object { json in
                    json.member("year", 2018)
                    json.member("count", 5)
                    json.key("movies")
                    json.array { json in
                        json.object { json in
                            json.member("id", 2175)
                            json.member("title", "The Darkest Minds")
                            json.member("year", 2018)
                            json.member("rating", 5.0)
                            json.member("genres", ["Sci-Fi", "Thriller"])
                            json.member("cast", ["Amandla Stenberg"])
                        }
                    }
                }
            }
        }
        XCTAssertEqual(json.text, #"{"query":"dark","total":30,"years":[{"year":2018,"count":5,"movies":[{"id":2175,"#
            + #""title":"The Darkest Minds","year":2018,"rating":5,"genres":["Sci-Fi","Thriller"],"#
            + #""cast":["Amandla Stenberg"]}]}]}"#)
    }

    func testCommasBetweenSiblingsOnly() {
        var json = JSONWriter()
        json.beginArray()
        json.beginArray()
        json.endArray()
        json.beginObject()
        json.endObject()
        json.value(1)
        json.null()
        json.value(true)
        json.value(false)
        json.value([String]())
        json.beginObject()
        json.key("a")
        json.beginArray()
        json.endArray()
        json.member("b", false)
        json.endObject()
        json.endArray()
        XCTAssertEqual(json.text, #"[[],{},1,null,true,false,[],{"a":[],"b":false}]"#)
    }

    func testIntegers() {
        for (integer, text) in [(0, "0"), (7, "7"), (-1, "-1"), (2010, "2010"), (Int.max, "9223372036854775807"),
                                (Int.min, "-9223372036854775808")] {
            var json = JSONWriter()
            json.value(integer)
            XCTAssertEqual(json.text, text)
        }
    }

    func testDoublesUseTheShortestForm() {
        let cases: [(Double, String)] = [
            (5, "5"), (4.5, "4.5"), (-0.5, "-0.5"), (0, "0"), (-0.0, "0"), (0.1, "0.1"), (1e-7, "1e-07"),
            (1e300, "1e+300"), (123456.75, "123456.75"), (9007199254740991, "9007199254740991"),
            (9007199254740992, "9007199254740992"), (1e16, "1e+16"),
            (.infinity, "null"), (-.infinity, "null"), (.nan, "null"),
        ]
        for (double, text) in cases {
            var json = JSONWriter()
            json.value(double)
            XCTAssertEqual(json.text, text, "\(double)")
        }
    }

    func testDoublesReadBackExactly() throws {
        for double in [5, 4.5, 0.1, 1.0 / 3, -2.5e-300, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
                       9007199254740994, 1e22, 1e23, 123456789.125] {
            var json = JSONWriter()
            json.value(double)
            XCTAssertEqual(try JSONParser.parse(json.bytes).numberValue?.double, double, json.text)
        }
    }

    func testStringEscapes() {
        let cases: [(String, String)] = [
            ("plain", #""plain""#),
            ("say \"hi\"", #""say \"hi\"""#),
            (#"back\slash"#, #""back\\slash""#),
            ("a/b", #""a/b""#),
            ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#),
            ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
            ("\u{7F}", "\"\u{7F}\""),
            ("Amélie 千と千尋 🎬", "\"Amélie 千と千尋 🎬\""),
            ("", #""""#),
        ]
        for (string, text) in cases {
            var json = JSONWriter()
            json.value(string)
            XCTAssertEqual(json.text, text)
            XCTAssertEqual(json.bytes, Array(text.utf8), "non-ASCII is written as its UTF-8")
        }
    }

    func testStringsRoundTripThroughTheParser() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar($0)! }))
        let strings = [controls, #""quoted" and \back\slashed\ / "#, "🎬👩‍👩‍👧 emoji", "千と千尋の神隠し", "Straße",
                       "\u{2028}\u{2029}\u{FEFF}", "e\u{301}", String(repeating: "long \"x\" ", count: 1000)]
        for string in strings {
            var json = JSONWriter()
            json.object { $0.member(string, string) }
            let parsed = try JSONParser.parse(json.bytes)
            XCTAssertEqual(parsed.objectValue?.keys, [string])
            XCTAssertEqual(parsed[string]?.stringValue, string)
            // `==` on `String` is canonical equivalence; the bytes must be the very same.
            XCTAssertEqual(parsed[string]?.stringValue.map { Array($0.utf8) }, Array(string.utf8))
        }
    }

    func testParsedDocumentsWriteBackCompactly() throws {
        let compact = #"{"a":[1,-2.5e3,"x\"y",true,false,null,{}],"é":{"b":[[]]},"a":0}"#
        let value = try JSONParser.parse("{ \"a\" : [ 1 , -2.5e3 , \"x\\\"y\" , true , false , null , { } ] ,\n"
            + "\"\\u00e9\" : { \"b\" : [ [ ] ] } , \"a\" : 0 }")
        var json = JSONWriter()
        json.value(value)
        XCTAssertEqual(json.text, compact)
    }
}
