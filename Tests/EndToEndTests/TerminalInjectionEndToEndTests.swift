import Foundation
import MovieSearch
import MovieSearchCLI
import XCTest
import TestSupport

/// A catalog, a Flickr answer, file names and arguments that try to drive the terminal (set its title with
/// `ESC ] 0 ; … BEL`, forge lines with `\n`, overwrite with `\r`, reorder with U+202E, CSI as U+009B), through the
/// built binary: text output shows them escaped and holds no raw control character; JSON output keeps the
/// original strings, escaped by JSON's rules.
final class TerminalInjectionEndToEndTests: XCTestCase {
    /// Written as JSON text, so the hostile characters reach the tool exactly as a catalog would hold them.
    private static let catalog = #"""
        [
          {"title": "Evil\u001b]0;pwned\u0007 Night", "year": 2001, "rating": 9,
           "genres": ["Dra\nma", "Bidi\u202eReversed"], "cast": ["Over\rwritten", "CSI\u009b2J Person"]},
          {"title": "Forged\nmoviesearch: error: fake", "year": 2002, "rating": 8, "genres": ["Back\\slash"],
           "cast": []},
          {"title": "Right\u202eto left \u009b31m red", "year": 2003, "rating": 7, "genres": [],
           "cast": ["Iso\u2066late\u2069d"]}
        ]
        """#
    /// The titles as the catalog holds them, and as text output must show them.
    private static let titles = [
        "Evil\u{1B}]0;pwned\u{07} Night", "Forged\nmoviesearch: error: fake", "Right\u{202E}to left \u{9B}31m red",
    ]
    private static let shownTitles = [
        #"Evil\e]0;pwned\x07 Night"#, #"Forged\nmoviesearch: error: fake"#, #"Right\u{202E}to left \x9B31m red"#,
    ]

    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(try temporaryFile("hostile.json", Self.catalog))
    }

    /// Whether a terminal would act on `scalar`: C0 and C1 controls, DEL, bidirectional overrides and isolates.
    private static func isControlOrBidi(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// No control character but the line feeds that end lines.
    private func assertNoRawControls(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let raw = text.unicodeScalars.filter { $0 != "\n" && Self.isControlOrBidi($0) }
        let found = raw.map { String($0.value, radix: 16) }
        XCTAssertTrue(raw.isEmpty, "raw control characters \(found) in: \(text.debugDescription)", file: file, line: line)
    }

    // MARK: Text output

    func testQueryShowsTitlesEscaped() throws {
        let run = try BinaryRun.run(["query", "evil", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, """
            "evil": 1 match in 1 year

            2001 · 1 match
              9/10  \(Self.shownTitles[0])

            """)
        assertNoRawControls(run.standardOutput)
    }

    func testQueryOfEveryMovieHasOneLinePerTitle() throws {
        let run = try BinaryRun.run(["query", "", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        assertNoRawControls(run.standardOutput)
        // A summary, then per year a blank line, a header and the one title: a forged line would add one.
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 1 + 3 * 3, run.standardOutput)
        for (title, rating) in zip(Self.shownTitles, [9, 8, 7]) {
            XCTAssertTrue(lines.contains("  \(rating)/10  \(title)"), title)
        }
        XCTAssertFalse(lines.contains { $0.hasPrefix("moviesearch:") })
    }

    func testTheQueryEchoedInTheSummaryIsEscaped() throws {
        let run = try BinaryRun.run(["query", "evil\u{1B}]0;x\u{07}\u{9B}\u{202E}\"\\", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        assertNoRawControls(run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(#""evil\e]0;x\x07\x9B\u{202E}\"\\""#), run.standardOutput)
    }

    func testShowEscapesTitleGenresAndCast() throws {
        let run = try BinaryRun.run(["show", "0", "--cache", cache, "--flickr-key", "k"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, """
            \(Self.shownTitles[0])
              id      0
              year    2001
              rating  9/10
              genres  Dra\\nma, Bidi\\u{202E}Reversed
              cast    Over\\rwritten, CSI\\x9B2J Person
              flickr  \(FlickrPhotos.searchURL(title: Self.titles[0], apiKey: "k"))

            """)
        assertNoRawControls(run.standardOutput)
        let other = try BinaryRun.run(["show", "1", "--cache", cache, "--flickr-key", "k"])
        XCTAssertTrue(other.standardOutput.contains(#"  genres  Back\\slash"#), other.standardOutput)
        let isolated = try BinaryRun.run(["show", "2", "--cache", cache, "--flickr-key", "k"])
        XCTAssertTrue(isolated.standardOutput.contains(#"  cast    Iso\u{2066}late\u{2069}d"#), isolated.standardOutput)
        assertNoRawControls(isolated.standardOutput)
    }

    /// On a terminal `show` wraps long fields: the escaping happens before, so no wrap splits an escape's line.
    func testShowOnANarrowTerminal() {
        let run = MovieSearchCommand.run(arguments: ["show", "0", "--cache", cache, "--flickr-key", "k"],
                                         terminalWidth: 24)
        XCTAssertEqual(run.status, 0, run.standardError)
        assertNoRawControls(run.standardOutput)
        XCTAssertTrue(run.standardOutput.hasPrefix(Self.shownTitles[0] + "\n"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(#"Over\rwritten,"#), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(#"CSI\x9B2J"#), run.standardOutput)
    }

    func testTopShowsTitlesEscaped() throws {
        let run = try BinaryRun.run(["top", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, """
            The 3 best-rated movies of 3:
              1.  9/10  2001  \(Self.shownTitles[0])
              2.  8/10  2002  \(Self.shownTitles[1])
              3.  7/10  2003  \(Self.shownTitles[2])

            """)
        assertNoRawControls(run.standardOutput)
    }

    func testPhotosShowsTitleAndURLsEscaped() throws {
        let response = #"""
            {"photos":{"photo":[{"id":"1","secret":"s","server":"2","farm":3},{"id":"\u001b"}]},"stat":"ok"}
            """#
        let path = try temporaryFile("answer\u{1B}[31m.json", response)
        let run = try BinaryRun.run(["photos", "2", "--cache", cache, "--response", path, "--flickr-key", "k"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, """
            \(Self.shownTitles[2]) (2003)
            request: \(FlickrPhotos.searchURL(title: Self.titles[2], apiKey: "k"))
            1 photo:
            http://farm3.static.flickr.com/2/1_s.jpg

            """)
        let shownPath = path.replacingOccurrences(of: "\u{1B}", with: #"\e"#)
        XCTAssertEqual(run.standardError,
                       "moviesearch: warning: skipped 1 photo with a missing or bad field in \(shownPath)\n")
        assertNoRawControls(run.standardOutput + run.standardError)
    }

    func testAFlickrErrorMessageIsEscapedOnItsOneLine() throws {
        let response = #"""
            {"stat":"fail","code":100,"message":"Invalid key\u001b]0;owned\u0007\nmoviesearch: forged\u009b2J"}
            """#
        let path = try temporaryFile("refused.json", response)
        let run = try BinaryRun.run(["photos", "0", "--cache", cache, "--response", path, "--flickr-key", "k"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines, [
            // The library quotes a message with control characters as a JSON string (one line whatever it holds);
            // the C1 control JSON leaves as it is, the CLI's escaping shows.
            #"moviesearch: \#(path): Flickr refused the request: error 100, "Invalid key\u001b]0;owned\u0007\n"#
                + #"moviesearch: forged\x9B2J" (check the Flickr API key)"#,
        ])
        assertNoRawControls(run.standardError)
    }

    func testBenchShowsItsSlowestQueriesAndFileNamesEscaped() throws {
        let queries = try temporaryFile("queries\u{1B}.txt", "evil\u{1B}]0;x\u{07}\nfor\u{9B}ged\n")
        let run = try BinaryRun.run(["bench", "--cache", cache, "--queries", queries, "--passes", "1", "--slowest", "2"])
        XCTAssertEqual(run.status, 0, run.standardError)
        assertNoRawControls(run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(#"queries\e.txt"#), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(#"  "evil\e]0;x\x07"\#n"#), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(#"  "for\x9Bged"\#n"#), run.standardOutput)
    }

    // MARK: Errors, warnings, usage

    func testACatalogErrorQuotingAValueAndAPathIsEscaped() throws {
        let catalog = try temporaryFile("bad\u{1B}]0;x\u{07}.json", #"[{"title":"T","year":"\u009b2J\u202e\u001b"}]"#)
        let run = try BinaryRun.run(["index", catalog, "-o", catalog + ".mscache"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines.count, 1, run.standardError)
        assertNoRawControls(run.standardError)
        XCTAssertTrue(run.standardError.contains(#"bad\e]0;x\x07.json: movie 0: "#), run.standardError)
        // The value is quoted as a JSON string (ESC as \u001b), and what JSON leaves raw is escaped too.
        XCTAssertTrue(run.standardError.contains(#""\x9B2J\u{202E}\u001b""#), run.standardError)
    }

    func testSkippedMoviesAndTheIndexedLineAreEscaped() throws {
        let text = #"[{"title":"Fine","year":2000},{"title":"T","year":"\u202e\u009b"}]"#
        let catalog = try temporaryFile("skip\u{1B}[2J.json", text)
        let output = try TestPaths.temporaryFolder(self).appendingPathComponent("out\u{1B}.mscache").path
        let run = try BinaryRun.run(["index", catalog, "--skip-invalid", "-o", output])
        XCTAssertEqual(run.status, 0, run.standardError)
        assertNoRawControls(run.standardOutput + run.standardError)
        func shown(_ path: String) -> String { path.replacingOccurrences(of: "\u{1B}", with: #"\e"#) }
        XCTAssertTrue(run.standardOutput.hasPrefix("Indexed \(shown(catalog)) into \(shown(output))\n"), run.standardOutput)
        XCTAssertTrue(run.standardError.contains(#""\u{202E}\x9B""#), run.standardError)
    }

    func testACachePathInAnErrorIsEscaped() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let run = try BinaryRun.run(["query", "x", "--cache", folder + "/no\u{1B}]0;t\u{07}\nsuch\u{202E}"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines.count, 1, run.standardError)
        assertNoRawControls(run.standardError)
        XCTAssertTrue(run.standardError.contains(#"/no\e]0;t\x07\nsuch\u{202E}"#), run.standardError)
    }

    func testAUsageErrorQuotingAnArgumentIsEscaped() throws {
        let run = try BinaryRun.run(["bogus\u{1B}]0;x\u{07}\n"])
        XCTAssertEqual(run.status, 2)
        assertNoRawControls(run.standardError)
        XCTAssertTrue(run.standardError.hasPrefix(#"moviesearch: unknown subcommand 'bogus\e]0;x\x07\n'"# + "\n"),
                      run.standardError)
    }

    // MARK: JSON output keeps the original strings

    func testQueryJSONKeepsTheStringsEscapedByJSONRules() throws {
        let run = try BinaryRun.run(["query", "evil", "--cache", cache, "--json"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains(#""title":"Evil\u001b]0;pwned\u0007 Night""#), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(#""genres":["Dra\nma","#), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(#""cast":["Over\rwritten","#), run.standardOutput)
        XCTAssertFalse(run.standardOutput.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        XCTAssertEqual(run.standardOutput.filter { $0 == "\n" }.count, 1, "one line")

        let every = try BinaryRun.run(["query", "", "--cache", cache, "--json"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(every.standardOutput.utf8)) as? [String: Any])
        let years = try XCTUnwrap(object["years"] as? [[String: Any]])
        let movies = try years.flatMap { try XCTUnwrap($0["movies"] as? [[String: Any]]) }
        XCTAssertEqual(Set(movies.compactMap { $0["title"] as? String }), Set(Self.titles))
        let first = try XCTUnwrap(movies.first { $0["id"] as? Int == 0 })
        XCTAssertEqual(first["genres"] as? [String], ["Dra\nma", "Bidi\u{202E}Reversed"])
        XCTAssertEqual(first["cast"] as? [String], ["Over\rwritten", "CSI\u{9B}2J Person"])
    }

    func testBatchAndPhotosJSONKeepTheOriginalStrings() throws {
        let batch = try BinaryRun.run(["query", "--stdin", "--cache", cache], input: Data("forged\nevil\u{1B}\n".utf8))
        XCTAssertEqual(batch.status, 0, batch.standardError)
        let answers = try batch.standardOutput.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(answers.count, 2)
        XCTAssertEqual(answers[1]["query"] as? String, "evil\u{1B}")
        XCTAssertTrue(batch.standardOutput.contains(#""title":"Forged\nmoviesearch: error: fake""#),
                      batch.standardOutput)

        let photos = try BinaryRun.run(["photos", "0", "--cache", cache, "--json", "--flickr-key", "k"])
        XCTAssertEqual(photos.status, 0, photos.standardError)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(photos.standardOutput.utf8))
                                   as? [String: Any])
        XCTAssertEqual(object["title"] as? String, Self.titles[0])
        XCTAssertTrue(photos.standardOutput.contains(#"\u001b]0;pwned\u0007"#), photos.standardOutput)
    }
}
