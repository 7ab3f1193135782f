import Foundation
import MovieSearch
import XCTest
import TestSupport

/// `--typos`, the JSON members that say how an answer matched (`mode`, `typos`, `match`), bold match spans and
/// `--color`, through the built binary on `Fixtures.typos` (its doc comment works out the expected answers from
/// SPEC.md). Bold on a terminal is checked under a real pseudo-terminal (`script`), plain text in a pipe and with
/// `NO_COLOR` or `TERM=dumb`.
final class TyposAndColorEndToEndTests: XCTestCase {
    private static let on = "\u{1B}[1m", off = "\u{1B}[22m"
    private var cache = ""

    override func setUpWithError() throws {
        cache = try Fixtures.cache(Fixtures.typos, self)
    }

    // MARK: JSON

    /// The parsed JSON object of one answer line, failing the test when it is not one.
    private func object(_ line: Substring, file: StaticString = #filePath, line number: UInt = #line) throws
        -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try XCTUnwrap(parsed as? [String: Any], String(line), file: file, line: number)
    }

    private func query(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any] {
        let run = try BinaryRun.run(["query"] + arguments + ["--cache", cache, "--json"], file: file, line: line)
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        XCTAssertEqual(run.standardError, "", file: file, line: line)
        return try object(Substring(run.standardOutput.dropLast()), file: file, line: line)
    }

    /// (id, typos, match) of every listed movie, in answer order.
    private func listed(_ answer: [String: Any]) -> [[AnyHashable]] {
        let years = answer["years"] as? [[String: Any]] ?? []
        return years.flatMap { ($0["movies"] as? [[String: Any]]) ?? [] }.map { movie in
            [movie["id"] as? Int, movie["typos"] as? Int, movie["match"] as? [[Int]]] as [AnyHashable]
        }
    }

    func testTyposOffGivesTheExactAnswerAndAutoTheTypoOne() throws {
        let off = try query(["godfahter", "--typos", "off"])
        XCTAssertEqual(off["mode"] as? String, "exact")
        XCTAssertEqual(off["total"] as? Int, 0)
        XCTAssertEqual((off["years"] as? [Any])?.count, 0)

        let match = [[11, 20]], part = [[4, 13]]
        for arguments in [["godfahter"], ["godfahter", "--typos", "auto"], ["godfahter", "--typos=auto"]] {
            let auto = try query(arguments)
            XCTAssertEqual(auto["mode"] as? String, "typo", "\(arguments)")
            XCTAssertEqual(auto["total"] as? Int, 3, "\(arguments)")
            XCTAssertEqual(listed(auto), [[7, 1, match], [1, 1, part], [0, 1, part]], "\(arguments)")
        }
        // A query that matches exactly gets the exact answer, whatever --typos says.
        for typos in ["auto", "off"] {
            let exact = try query(["godfather", "--typos", typos])
            XCTAssertEqual(exact["mode"] as? String, "exact", typos)
            XCTAssertEqual(listed(exact), [[7, 0, match], [1, 0, part], [0, 0, part]], typos)
        }
    }

    /// Top-level keys in order (query, total, mode, years) and movie keys in order, the new ones last: checked on
    /// the text, since a parsed object has no order.
    func testJSONKeysInOrder() throws {
        let run = try BinaryRun.run(["query", "the godfather part", "--cache", cache, "--json"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, """
            {"query":"the godfather part","total":1,"mode":"exact","years":[{"year":1974,"count":1,"movies":[\
            {"id":1,"title":"The Godfather Part II","year":1974,"rating":5,"rating_scale":5,"genres":[],"cast":[],"favorite":false,\
            "typos":0,"match":[[0,3],[4,13],[14,18]]}]}]}

            """)
    }

    /// Every line of `--stdin` carries the mode and, for each listed movie, its typo count and well-formed spans:
    /// pairs of UTF-16 offsets into the title, sorted, apart, non-empty.
    func testEveryStdinLineHasModeTyposAndMatch() throws {
        let queries = ["godfahter", "dark kni", "", "zzzzzz", "spiderman", "darkenss", "dark", "x-men", "brü", "2011"]
        let input = Data((queries.joined(separator: "\n") + "\n").utf8)
        for typos in [[], ["--typos", "off"]] {
            // `--color always` styles text output only: JSON is for programs, never styled.
            let run = try BinaryRun.run(["query", "--stdin", "--cache", cache, "--per-year", "100", "--color", "always"]
                                        + typos, input: input)
            XCTAssertEqual(run.status, 0, run.standardError)
            let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            XCTAssertEqual(lines.count, queries.count, run.standardOutput)
            var answers: [String: [String: Any]] = [:]
            for line in lines {
                let answer = try object(line)
                let query = try XCTUnwrap(answer["query"] as? String)
                answers[query] = answer
                let mode = try XCTUnwrap(answer["mode"] as? String, query)
                XCTAssertTrue(["exact", "typo"].contains(mode), "\(query): \(mode)")
                if typos == ["--typos", "off"] { XCTAssertEqual(mode, "exact", query) }
                for year in try XCTUnwrap(answer["years"] as? [[String: Any]], query) {
                    for movie in try XCTUnwrap(year["movies"] as? [[String: Any]], query) {
                        let title = try XCTUnwrap(movie["title"] as? String, query)
                        let typoCount = try XCTUnwrap(movie["typos"] as? Int, "\(query): \(title)")
                        XCTAssertTrue(mode == "typo" ? typoCount > 0 : typoCount == 0, "\(query): \(title)")
                        let spans = try XCTUnwrap(movie["match"] as? [[Int]], "\(query): \(title)")
                        XCTAssertTrue(spans.allSatisfy { $0.count == 2 && 0 <= $0[0] && $0[0] < $0[1] },
                                      "\(query): \(title) \(spans)")
                        XCTAssertTrue(spans.allSatisfy { $0.count == 2 && $0[1] <= title.utf16.count },
                                      "\(query): \(title) \(spans)")
                        XCTAssertTrue(zip(spans, spans.dropFirst()).allSatisfy { $0[1] < $1[0] },
                                      "\(query): \(title) \(spans): sorted and merged")
                        // A query with words has a span in every title it matched; one without has none.
                        XCTAssertEqual(spans.isEmpty, Tokenizer.tokens(in: query).isEmpty, "\(query): \(title)")
                    }
                }
            }
            let label = typos.isEmpty ? "auto" : "off"
            XCTAssertFalse(run.standardOutput.contains("\u{1B}"), "\(label): JSON holds no raw ESC")
            XCTAssertEqual(answers["dark kni"].map(listed), [[3, 0, [[4, 8], [9, 12]]]], label)
            XCTAssertEqual(answers["spiderman"].map(listed), [[2, 0, [[0, 10]]]], label)
            XCTAssertEqual(answers["x-men"].map(listed), [[8, 0, [[0, 1], [2, 5]]]], label)
            XCTAssertEqual(answers["brü"].map(listed), [[6, 0, [[0, 3]]]], label)
            XCTAssertEqual(answers["dark"]?["total"] as? Int, 4, label)
            XCTAssertEqual(answers[""]?["total"] as? Int, Fixtures.typos.movies.count, label)
            XCTAssertEqual(answers["2011"]?["total"] as? Int, 0, "\(label): a word with a digit has no typo budget")
            if typos.isEmpty {
                XCTAssertEqual(answers["godfahter"]?["mode"] as? String, "typo")
                XCTAssertEqual(answers["darkenss"].map(listed), [[4, 1, [[15, 23]]], [5, 1, [[0, 8]]]])
            } else {
                XCTAssertEqual(answers["godfahter"]?["total"] as? Int, 0)
                XCTAssertEqual(answers["darkenss"]?["total"] as? Int, 0)
            }
        }
    }

    func testBenchTakesTypos() throws {
        let queries = try temporaryFile("queries.txt", "godfahter\n")
        func checksum(_ typos: [String]) throws -> Int? {
            let run = try BinaryRun.run(["bench", "--cache", cache, "--queries", queries, "--passes", "1", "--json"]
                + typos)
            XCTAssertEqual(run.status, 0, run.standardError)
            let answer = try object(Substring(run.standardOutput.dropLast()))
            return answer["checksum"] as? Int
        }
        // The checksum adds each answer's total once untimed, then total + years per timed call: 3 + (3 + 3).
        XCTAssertEqual(try checksum([]), 9)
        XCTAssertEqual(try checksum(["--typos", "auto"]), 9)
        XCTAssertEqual(try checksum(["--typos", "off"]), 0)
    }

    // MARK: Usage errors

    func testBadTyposAndColorValuesAreUsageErrors() throws {
        let queries = try temporaryFile("queries.txt", "dark\n")
        for (arguments, problem) in [
            (["query", "dark", "--typos", "sometimes"], "invalid value 'sometimes' for '--typos <auto|off>': expected 'auto' or 'off'"),
            (["query", "--stdin", "--typos=Off"], "invalid value 'Off' for '--typos <auto|off>': expected 'auto' or 'off'; did you mean 'off'?"),
            (["bench", "--cache", cache, "--queries", queries, "--typos", "1"],
             "invalid value '1' for '--typos <auto|off>': expected 'auto' or 'off'"),
            (["query", "dark", "--color", "yes"],
             "invalid value 'yes' for '--color <auto|always|never>': expected 'auto', 'always' or 'never'"),
            (["query", "dark", "--color"], "missing value for '--color <auto|always|never>'"),
        ] {
            let run = try BinaryRun.run(arguments + (arguments[0] == "query" ? ["--cache", cache] : []))
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertEqual(run.standardOutput, "", "\(arguments)")
            XCTAssertEqual(run.errorLines.first, "moviesearch: \(problem)", "\(arguments)")
            XCTAssertTrue(run.standardError.contains("\nUsage: moviesearch \(arguments[0]) "), "\(arguments)")
        }
    }

    // MARK: Text output and colour

    func testTypoAnswerSaysSoInItsSummaryLine() throws {
        let run = try BinaryRun.run(["query", "godfahter", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput.split(separator: "\n").first,
                       #""godfahter": no exact match; 3 matches with typos in 3 years"#)
        let darkness = try BinaryRun.run(["query", "darkenss", "--cache", cache])
        XCTAssertEqual(darkness.standardOutput.split(separator: "\n").first,
                       #""darkenss": no exact match; 2 matches with typos in 2 years"#)
        let off = try BinaryRun.run(["query", "godfahter", "--cache", cache, "--typos", "off"])
        XCTAssertEqual(off.standardOutput, "No movie matches \"godfahter\".\n")
        // The typo search ran and found nothing either: the line says so. Words of 4 letters or fewer have no typo
        // budget, so no second search runs for them.
        let nothing = try BinaryRun.run(["query", "zzzzzz", "--cache", cache])
        XCTAssertEqual(nothing.standardOutput, "No movie matches \"zzzzzz\", even with typos.\n")
        let short = try BinaryRun.run(["query", "zzzz", "--cache", cache])
        XCTAssertEqual(short.standardOutput, "No movie matches \"zzzz\".\n")
    }

    /// `--color always` writes bold even into a file; `auto` (the default) and `never` write no escape code there.
    func testBoldWithColorAlwaysAndPlainInAPipe() throws {
        let always = try BinaryRun.run(["query", "godfather", "--cache", cache, "--color", "always"])
        XCTAssertEqual(always.status, 0, always.standardError)
        XCTAssertTrue(always.standardOutput.contains("  5/5  The \(Self.on)Godfather\(Self.off)\n"), always.standardOutput)
        XCTAssertTrue(always.standardOutput.contains("  5/5  The \(Self.on)Godfather\(Self.off) Part II\n"))
        // The span after the title's own control characters: they stay escaped, the bold is around the match.
        XCTAssertTrue(always.standardOutput.contains(#"  1/5  Evil\e]0;x\x07 "# + "\(Self.on)Godfather\(Self.off)\n"),
                      always.standardOutput)
        let typo = try BinaryRun.run(["query", "darkenss", "--cache", cache, "--color=always"])
        XCTAssertTrue(typo.standardOutput.contains("  4/5  Star Trek Into \(Self.on)Darkness\(Self.off)\n"),
                      typo.standardOutput)

        for arguments in [[], ["--color", "auto"], ["--color", "never"]] {
            for environment in [["NO_COLOR": "", "TERM": "xterm-256color"], ["NO_COLOR": "1"], ["TERM": "dumb"]] {
                let run = try BinaryRun.run(["query", "godfather", "--cache", cache] + arguments, environment: environment)
                XCTAssertEqual(run.status, 0, run.standardError)
                XCTAssertFalse(run.standardOutput.contains("\u{1B}"), "\(arguments) \(environment): \(run.standardOutput)")
                XCTAssertTrue(run.standardOutput.contains("  5/5  The Godfather\n"), run.standardOutput)
            }
        }
    }

    /// Under a real pseudo-terminal: bold around the matched part by default, none with `NO_COLOR=1` or
    /// `TERM=dumb`, whatever else, and bold again with `--color always` despite them.
    func testBoldOnARealTerminalUnlessNOCOLOROrDumb() throws {
        let script = try Requirement.tool("script", package: "bsdutils")
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        func underTerminal(_ arguments: [String], _ environment: [String: String]) throws -> String {
            let command = ([try ChildProcess.binary(), "query"] + arguments + ["--cache", cache]).map(quoted)
                .joined(separator: " ")
            let run = try ChildProcess.run(script, ["-qec", command, "/dev/null"], environment: environment,
                                           timeLimit: 20)
            XCTAssertTrue(run.finished, "\(arguments) \(environment): still running after 20 s, killed")
            XCTAssertTrue(run.exited(0), "\(arguments) \(environment): \(run.summary) \(run.standardOutput)")
            return run.standardOutput
        }
        let terminal = ["NO_COLOR": "", "TERM": "xterm-256color"]
        let exact = try underTerminal(["dark kni"], terminal)
        XCTAssertTrue(exact.contains("  4/5  The \(Self.on)Dark\(Self.off) \(Self.on)Kni\(Self.off)ght Rises\r\n"),
                      exact.debugDescription)
        let typo = try underTerminal(["godfahter"], terminal)
        XCTAssertTrue(typo.contains("  5/5  The \(Self.on)Godfather\(Self.off) Part II\r\n"), typo.debugDescription)
        XCTAssertTrue(typo.contains(#""godfahter": no exact match; 3 matches with typos in 3 years"#),
                      typo.debugDescription)

        for environment in [["NO_COLOR": "1", "TERM": "xterm-256color"], ["NO_COLOR": "", "TERM": "dumb"]] {
            for arguments in [["dark kni"], ["dark kni", "--color", "auto"], ["dark kni", "--color", "never"]] {
                let output = try underTerminal(arguments, environment)
                XCTAssertTrue(output.contains("  4/5  The Dark Knight Rises\r\n"), "\(environment): \(output.debugDescription)")
                XCTAssertFalse(output.contains("\u{1B}"), "\(arguments) \(environment): \(output.debugDescription)")
            }
            let forced = try underTerminal(["dark kni", "--color", "always"], environment)
            XCTAssertTrue(forced.contains("The \(Self.on)Dark\(Self.off) \(Self.on)Kni\(Self.off)ght Rises\r\n"),
                          "\(environment): \(forced.debugDescription)")
        }
    }
}
