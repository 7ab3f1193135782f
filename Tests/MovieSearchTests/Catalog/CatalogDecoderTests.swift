import Foundation
import MovieSearch
@testable import MovieSearchCatalog
import TestSupport
import XCTest

final class CatalogDecoderTests: XCTestCase {
    // MARK: - Valid catalogs

    func testBothTopLevelShapes() throws {
        let movie = Movie(id: 0, title: "Up", year: 2009, rating: 4, cast: ["Ed Asner"], genres: ["Animation"])
        let fields = #"{"title":"Up","year":2009,"rating":4,"cast":["Ed Asner"],"genres":["Animation"]}"#
        XCTAssertEqual(try decode("[\(fields)]").movies, [movie])
        XCTAssertEqual(try decode(#"{"movies":[\#(fields)]}"#).movies, [movie])
        XCTAssertEqual(try decode(#"{"version":2,"movies":[\#(fields)],"extra":{"movies":1}}"#).movies, [movie])
        XCTAssertEqual(try decode("[]").movies, [])
        XCTAssertEqual(try decode(#"{"movies":[]}"#).movies, [])
    }

    func testOptionalFieldsAndNulls() throws {
        let catalog = try decode("""
        [{"title":"A","year":1},
         {"title":"B","year":2,"rating":null,"cast":null,"genres":null},
         {"title":"C","year":3,"rating":4.5,"cast":[],"genres":["Drama","Drama"]},
         {"title":"D","year":-4,"rating":-0.25},
         {"title":"E","year":2147483647,"rating":1e2},
         {"title":"F","year":-2147483648,"rating":0}]
        """)
        XCTAssertEqual(catalog.movies, [
            Movie(id: 0, title: "A", year: 1, rating: nil),
            Movie(id: 1, title: "B", year: 2, rating: nil),
            Movie(id: 2, title: "C", year: 3, rating: 4.5, genres: ["Drama", "Drama"]),
            Movie(id: 3, title: "D", year: -4, rating: -0.25),
            Movie(id: 4, title: "E", year: 2_147_483_647, rating: 100),
            Movie(id: 5, title: "F", year: -2_147_483_648, rating: 0),
        ])
        XCTAssertEqual(catalog.skipped, [])
    }

    func testYearsWrittenAsWholeDecimalsOrWithExponents() throws {
        let years = ["2010.0", "2.01e3", "2.010E+3", "201000e-2", "20100000000000000000000e-19", "2010.000", "-1.5e1",
                     "0.0", "-0", "0e999", "2e9", "-2.147483648e9", "2147483647.0"]
        let json = "[" + years.map { #"{"title":"A","year":\#($0)}"# }.joined(separator: ",") + "]"
        let catalog = try decode(json)
        XCTAssertEqual(catalog.movies.map(\.year), [2010, 2010, 2010, 2010, 2010, 2010, -15, 0, 0, 0, 2_000_000_000,
                                                     -2_147_483_648, 2_147_483_647])
        XCTAssertEqual(catalog.skipped, [])
    }

    func testOtherMembersAreIgnoredWhateverTheyHold() throws {
        let catalog = try decode("""
        [{"id":"x","title":"A","extract":{"deep":[1,{"x":null,"title":5}],"s":"\\u00e9"},"year":1,"href":null,
          "cast":["a"],"thumbnail_width":1e999,"Title":7}]
        """)
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "A", year: 1, rating: nil, cast: ["a"])])
    }

    func testTitlesAreKeptAsWrittenAndKeysMayBeEscaped() throws {
        let catalog = try decode(#"[{"ti\u0074le":"  Amélie \"\u00e9\" 🎬 ","\u0079ear":2001,"c\u0061st":["Zoë"]}]"#)
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "  Amélie \"é\" 🎬 ", year: 2001, rating: nil,
                                              cast: ["Zoë"])])
    }

    func testByteOrderMarkAndCRLF() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array("{\r\n\"movies\": [\r\n{\"title\": \"A\", \"year\": 1}\r\n]\r\n}\r\n".utf8)
        XCTAssertEqual(try CatalogDecoder.decode(bytes, source: "bom.json").movies.map(\.title), ["A"])
    }

    // MARK: - Malformed JSON

    func testMalformedJSONIsReportedWithItsPosition() {
        assertError(#"[{"title":"A","year":2010,}]"#, .malformedJSON(
            source: "test.json", line: 1, column: 27, offset: 26,
            reason: "a trailing comma is not allowed: expected a string key after ','"))
        assertError("[\n  {\"title\": \"A\", \"year\": 2010}\n  {\"title\": \"B\"}\n]", .malformedJSON(
            source: "test.json", line: 3, column: 3, offset: 35,
            reason: "unexpected '{', expected ',' or ']' after an array element"))
        assertError(#"[{"title":"A","year":2010,"rating":NaN}]"#, .malformedJSON(
            source: "test.json", line: 1, column: 36, offset: 35, reason: "unexpected 'N', expected a value"))
        assertError("", .malformedJSON(source: "test.json", line: 1, column: 1, offset: 0,
                                       reason: "the input holds no JSON value"))
        assertError(#"[{"title":"A","year":1}] x"#, .malformedJSON(
            source: "test.json", line: 1, column: 26, offset: 25, reason: "unexpected 'x' after the top-level value"))
    }

    func testMalformedJSONWinsOverEarlierProblems() {
        let malformed = CatalogError.malformedJSON(
            source: "test.json", line: 1, column: 33, offset: 32,
            reason: "unexpected '2', expected ',' or ']' after an array element")
        assertError(#"[{"title":"A","year":"x"}, 1, 1 2]"#, malformed)
        assertError(#"[{"title":"A","year":"x"}, 1, 1 2]"#, malformed, skipInvalid: true)
        assertError(#"{"films":[],"x":[1 2]}"#, .malformedJSON(
            source: "test.json", line: 1, column: 20, offset: 19,
            reason: "unexpected '2', expected ',' or ']' after an array element"))
    }

    func testEveryTruncationIsMalformedNeverACrash() throws {
        let document = Array(#"{"movies":[{"title":"Amélie \u00e9","year":2001,"rating":4.5,"cast":["A"],"genres":[]}]}"#.utf8)
        XCTAssertEqual(try CatalogDecoder.decode(document, source: "t").movies.count, 1)
        for length in 0..<document.count {
            XCTAssertThrowsError(try CatalogDecoder.decode(Array(document[..<length]), source: "t")) { error in
                guard case .malformedJSON(_, _, _, let offset, _)? = error as? CatalogError else {
                    return XCTFail("prefix of \(length) bytes: \(error)")
                }
                XCTAssertLessThanOrEqual(offset, length)
            }
        }
    }

    /// Random damage to a catalog: never a crash, and `skipInvalid` changes only what happens to invalid movies.
    func testRandomMutationsNeverCrashAndSkippingIsConsistent() throws {
        let document = Array("""
        {"movies":[{"title":"A","year":1,"rating":4.5,"cast":["x","y"],"genres":[]},
        {"title":"B","year":2,"rating":null,"extra":{"k":[1,{"t":"u"}]}},{"title":"C","year":30}]}
        """.utf8)
        let alphabet = Array(#"{}[]:,"\-.0123456789etrunl "#.utf8) + [0x0A, 0xC3, 0xFF]
        var generator = SplitMix64(seed: 0x63617461)
        var outcomes: [String: Int] = [:]
        for _ in 0..<5_000 {
            var bytes = document
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = alphabet.randomElement(using: &generator)!
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
                default: bytes.remove(at: index)
                }
            }
            let strict = Result { try CatalogDecoder.decode(bytes, source: "m", skipInvalid: false) }
            let lenient = Result { try CatalogDecoder.decode(bytes, source: "m", skipInvalid: true) }
            switch (strict, lenient) {
            case (.success(let catalog), .success(let skipping)):
                XCTAssertEqual(catalog.skipped, [])
                XCTAssertEqual(catalog.movies, skipping.movies)
                XCTAssertEqual(skipping.skipped, [])
                outcomes["valid", default: 0] += 1
            case (.failure(let error as CatalogError), .success(let skipping)):
                guard case .invalidMovie = error else { return XCTFail("\(error) thrown only without skipping") }
                XCTAssertEqual(skipping.skipped.first, error, "the first skipped movie is the error")
                let ids = skipping.movies.map(\.id) + skipping.skipped.map { error -> Int in
                    guard case .invalidMovie(_, let index, _, _) = error else { return -1 }
                    return index
                }
                XCTAssertEqual(ids.sorted(), Array(0..<ids.count), "every position is a movie or a skipped one")
                outcomes["invalid movie", default: 0] += 1
            case (.failure(let error as CatalogError), .failure(let skippingError as CatalogError)):
                XCTAssertEqual(error, skippingError)
                switch error {
                case .malformedJSON(_, _, _, let offset, _):
                    XCTAssertTrue((0...bytes.count).contains(offset))
                    outcomes["malformed", default: 0] += 1
                case .notACatalog: outcomes["not a catalog", default: 0] += 1
                default: XCTFail("\(error) thrown even when skipping")
                }
            default:
                XCTFail("inconsistent: \(strict) without skipping, \(lenient) with it")
            }
        }
        XCTAssertEqual(outcomes.count, 4, "the mutations reach every outcome: \(outcomes)")
    }

    // MARK: - Not a catalog

    func testDocumentsThatAreNotCatalogs() {
        let cases: [(String, String)] = [
            (#""movies""#, #"expected an array of movies or an object with a 'movies' array, got a string "movies""#),
            ("42", "expected an array of movies or an object with a 'movies' array, got 42"),
            ("null", "expected an array of movies or an object with a 'movies' array, got null"),
            ("{}", "the top-level object has no 'movies' member"),
            (#"{"films":[{"title":"A","year":1}]}"#, "the top-level object has no 'movies' member"),
            (#"{"movies":{"title":"A","year":1}}"#, "'movies' must be an array of movies, got an object"),
            (#"{"movies":null}"#, "'movies' must be an array of movies, got null"),
            (#"{"movies":[],"movies":[]}"#, "the top-level object has more than one 'movies' member"),
        ]
        for (json, reason) in cases {
            assertError(json, .notACatalog(source: "test.json", reason: reason))
        }
    }

    // MARK: - Invalid movies

    func testInvalidTitles() {
        // `[{"year":2010,"title":` puts the title's value at column 23.
        assertInvalidMovie(#"[{"year":2010}]"#, field: "title", reason: "title is required (line 1, column 2)")
        assertInvalidMovie(#"[{"year":2010,"title":""}]"#, field: "title", reason: "title is empty (line 1, column 23)")
        assertInvalidMovie(#"[{"year":2010,"title":" \t\u00A0\u2003\n"}]"#, field: "title",
                           reason: "title is only white space (line 1, column 23)")
        assertInvalidMovie(#"[{"year":2010,"title":42}]"#, field: "title",
                           reason: "title must be a string, got 42 (line 1, column 23)")
        assertInvalidMovie(#"[{"year":2010,"title":null}]"#, field: "title",
                           reason: "title must be a string, got null (line 1, column 23)")
        assertInvalidMovie(#"[{"year":2010,"title":["A"]}]"#, field: "title",
                           reason: "title must be a string, got an array (line 1, column 23)")
    }

    func testInvalidYears() {
        // `[{"title":"A","year":` puts the year's value at column 22.
        let cases: [(String, String)] = [
            (#""2010""#, #"year must be an integer, got a string "2010""#),
            ("2010.5", "year must be a whole number, got 2010.5"),
            ("-2010.25e1", "year must be a whole number, got -2010.25e1"),
            ("2010.0000000000000001", "year must be a whole number, got 2010.0000000000000001"),
            ("1e-400", "year must be a whole number, got 1e-400"),
            ("true", "year must be an integer, got true"),
            ("null", "year must be an integer, got null"),
            ("[2010]", "year must be an integer, got an array"),
            (#"{"y":2010}"#, "year must be an integer, got an object"),
            ("2147483648", "year 2147483648 is out of range (-2147483648 to 2147483647)"),
            ("-2147483649", "year -2147483649 is out of range (-2147483648 to 2147483647)"),
            ("99999999999999999999", "year 99999999999999999999 is out of range (-2147483648 to 2147483647)"),
            ("2.147483648e9", "year 2.147483648e9 is out of range (-2147483648 to 2147483647)"),
            ("-2147483649.0", "year -2147483649.0 is out of range (-2147483648 to 2147483647)"),
            ("3e9", "year 3e9 is out of range (-2147483648 to 2147483647)"),
            ("1e400", "year 1e400 is out of range (-2147483648 to 2147483647)"),
            ("-1E+99999999999999999999", "year -1E+99999999999999999999 is out of range (-2147483648 to 2147483647)"),
        ]
        for (year, reason) in cases {
            assertInvalidMovie(#"[{"title":"A","year":\#(year)}]"#, field: "year", reason: reason + " (line 1, column 22)")
        }
        assertInvalidMovie(#"[{"title":"A"}]"#, field: "year", reason: "year is required (line 1, column 2)")
    }

    func testInvalidRatings() {
        // `[{"title":"A","year":2010,"rating":` puts the rating's value at column 36.
        let cases: [(String, String)] = [
            (#""4""#, #"rating must be a number or null, got a string "4""#),
            ("1e999", "rating must be a finite number, got 1e999"),
            ("-1e999", "rating must be a finite number, got -1e999"),
            ("false", "rating must be a number or null, got false"),
            ("[4]", "rating must be a number or null, got an array"),
        ]
        for (rating, reason) in cases {
            assertInvalidMovie(#"[{"title":"A","year":2010,"rating":\#(rating)}]"#, field: "rating",
                               reason: reason + " (line 1, column 36)")
        }
    }

    func testInvalidCastAndGenres() {
        // `[{"title":"A","year":2010,"cast":` puts the value at column 34, `"genres":` at column 36.
        assertInvalidMovie(#"[{"title":"A","year":2010,"cast":"Tom Hanks"}]"#, field: "cast",
                           reason: #"cast must be an array of strings or null, got a string "Tom Hanks" (line 1, column 34)"#)
        assertInvalidMovie(#"[{"title":"A","year":2010,"cast":["X",5]}]"#, field: "cast",
                           reason: "cast[1] must be a string, got 5 (line 1, column 39)")
        assertInvalidMovie(#"[{"title":"A","year":2010,"cast":["X",["Y"],7]}]"#, field: "cast",
                           reason: "cast[1] must be a string, got an array (line 1, column 39)")
        assertInvalidMovie(#"[{"title":"A","year":2010,"genres":{}}]"#, field: "genres",
                           reason: "genres must be an array of strings or null, got an object (line 1, column 36)")
        assertInvalidMovie(#"[{"title":"A","year":2010,"genres":[null]}]"#, field: "genres",
                           reason: "genres[0] must be a string, got null (line 1, column 37)")
    }

    func testAFieldGivenTwiceIsInvalid() {
        assertInvalidMovie(#"[{"title":"A","year":1,"year":2}]"#, field: "year",
                           reason: "year is given twice (line 1, column 24)")
    }

    func testOnlyTheFirstProblemOfAMovieIsReported() {
        assertInvalidMovie(#"[{"year":"1","title":5,"cast":[1]}]"#, field: "year",
                           reason: #"year must be an integer, got a string "1" (line 1, column 10)"#)
    }

    func testLongValuesAreShortenedInMessages() {
        let title = String(repeating: "a", count: 100)
        assertInvalidMovie(#"[{"title":"A","year":"\#(title)"}]"#, field: "year",
                           reason: #"year must be an integer, got a string ""# + String(repeating: "a", count: 39)
                               + #"…" (line 1, column 22)"#)
        assertInvalidMovie(#"[{"title":"A","year":"say \"hi\"\n"}]"#, field: "year",
                           reason: #"year must be an integer, got a string "say \"hi\"\n" (line 1, column 22)"#)
    }

    func testMoviesThatAreNotObjects() throws {
        let catalog = try decode(#"[{"title":"A","year":1}, "B", [1], null]"#, skipInvalid: true)
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "A", year: 1, rating: nil)])
        XCTAssertEqual(catalog.skipped, [
            .invalidMovie(source: "test.json", index: 1, field: "movie",
                          reason: #"a movie must be an object, got a string "B" (line 1, column 26)"#),
            .invalidMovie(source: "test.json", index: 2, field: "movie",
                          reason: "a movie must be an object, got an array (line 1, column 31)"),
            .invalidMovie(source: "test.json", index: 3, field: "movie",
                          reason: "a movie must be an object, got null (line 1, column 36)"),
        ])
    }

    // MARK: - Skipping invalid movies

    func testSkipInvalidKeepsPositionsAsIds() throws {
        let json = """
        {"movies": [
          {"title": "A", "year": 1},
          {"title": "B"},
          {"title": "C", "year": 3, "rating": "x", "cast": [1]},
          {"title": "D", "year": 4},
          {"title": "   ", "year": 5}
        ]}
        """
        let catalog = try decode(json, skipInvalid: true)
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "A", year: 1, rating: nil),
                                        Movie(id: 3, title: "D", year: 4, rating: nil)])
        XCTAssertEqual(catalog.skipped, [
            .invalidMovie(source: "test.json", index: 1, field: "year", reason: "year is required (line 3, column 3)"),
            .invalidMovie(source: "test.json", index: 2, field: "rating",
                          reason: #"rating must be a number or null, got a string "x" (line 4, column 39)"#),
            .invalidMovie(source: "test.json", index: 4, field: "title",
                          reason: "title is only white space (line 6, column 13)"),
        ])
        // Without skipping, the first invalid movie is the error.
        assertError(json, catalog.skipped[0])
    }

    // MARK: - Messages and files

    func testErrorMessages() {
        XCTAssertEqual(CatalogError.malformedJSON(source: "m.json", line: 3, column: 16, offset: 39,
                                                  reason: "unexpected 'x'").description,
                       "m.json: malformed JSON at line 3, column 16 (byte 39): unexpected 'x'")
        XCTAssertEqual(CatalogError.invalidMovie(source: "m.json", index: 12, field: "year",
                                                 reason: #"year must be an integer, got a string "2010" (line 45, column 21)"#)
                           .description,
                       #"m.json: movie 12: year must be an integer, got a string "2010" (line 45, column 21)"#)
        XCTAssertEqual(CatalogError.notACatalog(source: "m.json", reason: "the top-level object has no 'movies' member")
                           .description,
                       "m.json: not a movie catalog: the top-level object has no 'movies' member")
        XCTAssertEqual(CatalogError.unreadable(source: "m.json", reason: "No such file or directory").description,
                       "cannot read catalog m.json: No such file or directory")
    }

    func testLoadReadsAFileAndNamesItInErrors() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalog-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let good = directory.appendingPathComponent("good.json").path
        try Data(#"[{"title":"A","year":1}]"#.utf8).write(to: URL(fileURLWithPath: good))
        XCTAssertEqual(try CatalogDecoder.load(path: good).movies, [Movie(id: 0, title: "A", year: 1, rating: nil)])

        let bad = directory.appendingPathComponent("bad.json").path
        try Data(#"[{"title":"A","year":1},]"#.utf8).write(to: URL(fileURLWithPath: bad))
        XCTAssertThrowsError(try CatalogDecoder.load(path: bad)) { error in
            XCTAssertEqual(error as? CatalogError, .malformedJSON(
                source: bad, line: 1, column: 25, offset: 24,
                reason: "a trailing comma is not allowed: expected a value after ','"))
        }

        let missing = directory.appendingPathComponent("missing.json").path
        XCTAssertThrowsError(try CatalogDecoder.load(path: missing)) { error in
            XCTAssertEqual(error as? CatalogError, .unreadable(source: missing, reason: "No such file or directory"))
        }
        XCTAssertThrowsError(try CatalogDecoder.load(path: directory.path)) { error in
            XCTAssertEqual(error as? CatalogError, .unreadable(source: directory.path, reason: "Is a directory"))
        }
    }

    // MARK: - Helpers

    private func decode(_ json: String, skipInvalid: Bool = false) throws -> Catalog {
        try CatalogDecoder.decode(Array(json.utf8), source: "test.json", skipInvalid: skipInvalid)
    }

    private func assertError(_ json: String, _ expected: CatalogError, skipInvalid: Bool = false,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(json, skipInvalid: skipInvalid), json, file: file, line: line) { error in
            XCTAssertEqual(error as? CatalogError, expected, json, file: file, line: line)
        }
    }

    /// Checks that the only movie of `json` is invalid, both ways: thrown without skipping, listed with it.
    private func assertInvalidMovie(_ json: String, field: String, reason: String,
                                    file: StaticString = #filePath, line: UInt = #line) {
        let expected = CatalogError.invalidMovie(source: "test.json", index: 0, field: field, reason: reason)
        assertError(json, expected, file: file, line: line)
        XCTAssertEqual(try decode(json, skipInvalid: true).skipped, [expected], json, file: file, line: line)
        XCTAssertEqual(try decode(json, skipInvalid: true).movies, [], json, file: file, line: line)
    }
}
