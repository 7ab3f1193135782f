import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// `--color`: when text output may hold escape codes.
final class ColorChoiceTests: XCTestCase {
    private func allows(_ choice: ColorChoice, terminal: Bool, _ environment: [String: String] = [:]) -> Bool {
        choice.allowsEscapes(outputIsTerminal: terminal, environment: .fixed(environment))
    }

    func testAutoOnlyOnATerminalWithoutNOCOLORAndNotDumb() {
        XCTAssertTrue(allows(.auto, terminal: true))
        XCTAssertTrue(allows(.auto, terminal: true, ["TERM": "xterm-256color"]))
        XCTAssertFalse(allows(.auto, terminal: false), "never into a pipe or a file")
        XCTAssertFalse(allows(.auto, terminal: false, ["TERM": "xterm-256color"]))
        for value in ["1", "0", "false", "yes", " "] {
            XCTAssertFalse(allows(.auto, terminal: true, ["NO_COLOR": value]), "any non-empty NO_COLOR: \(value)")
        }
        XCTAssertTrue(allows(.auto, terminal: true, ["NO_COLOR": ""]), "an empty NO_COLOR counts as unset")
        XCTAssertFalse(allows(.auto, terminal: true, ["TERM": "dumb"]))
        XCTAssertTrue(allows(.auto, terminal: true, ["TERM": "dumber"]))
        XCTAssertTrue(allows(.auto, terminal: true, ["TERM": ""]))
    }

    func testAlwaysAndNeverIgnoreTheOutputAndTheEnvironment() {
        for terminal in [true, false] {
            for environment in [[:], ["NO_COLOR": "1"], ["TERM": "dumb"], ["NO_COLOR": "1", "TERM": "dumb"]] {
                XCTAssertTrue(allows(.always, terminal: terminal, environment), "\(terminal) \(environment)")
                XCTAssertFalse(allows(.never, terminal: terminal, environment), "\(terminal) \(environment)")
            }
        }
    }

    func testChoicesReadAsTheirWordsOnly() {
        XCTAssertEqual(ColorChoice.allCases.compactMap { ColorChoice(argument: $0.rawValue) }, [.auto, .always, .never])
        for word in ["", "Always", "yes", "none", "auto "] { XCTAssertNil(ColorChoice(argument: word), word) }
        XCTAssertEqual(ColorChoice.valueName, "auto|always|never")
        XCTAssertEqual(ColorChoice.expectation, "'auto', 'always' or 'never'")
    }

    /// In-process runs of `query` with output on a terminal of 80 columns or into a pipe: bold exactly when
    /// the choice allows it. (`EndToEndTests.TyposAndColorEndToEndTests` does the same with the built binary
    /// under a real pseudo-terminal.)
    func testQueryTextIsBoldOnlyWhenTheChoiceAllowsIt() throws {
        let cache = try Fixtures.cache(Fixtures.typos, self)
        for (arguments, environment, terminal, bold) in [
            ([String](), [String: String](), true, true),
            ([], ["NO_COLOR": "1"], true, false),
            ([], ["TERM": "dumb"], true, false),
            ([], [:], false, false),
            (["--color", "always"], [:], false, true),
            (["--color", "always"], ["NO_COLOR": "1", "TERM": "dumb"], false, true),
            (["--color=never"], [:], true, false),
            (["--color", "auto"], [:], true, true),
            (["--json", "--color", "always"], [:], true, false),
        ] {
            let result = MovieSearchCommand.run(arguments: ["query", "godfather", "--cache", cache] + arguments,
                                                environment: environment, terminalWidth: terminal ? 80 : nil)
            let label = "\(arguments) \(environment) terminal: \(terminal)"
            XCTAssertEqual(result.status, 0, "\(label): \(result.standardError)")
            XCTAssertEqual(result.standardOutput.contains(Highlight.boldOn), bold, "\(label): \(result.standardOutput)")
            XCTAssertEqual(result.standardOutput.contains("\u{1B}"), bold, label)
            if bold {
                XCTAssertTrue(result.standardOutput.contains("The \(Highlight.boldOn)Godfather\(Highlight.boldOff)\n"),
                              "\(label): \(result.standardOutput)")
            }
        }
    }
}
