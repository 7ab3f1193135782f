import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchCommandLine
import XCTest

/// "Did you mean …?" for mistyped subcommands and options.
final class SuggestionTests: XCTestCase {
    /// The words the dispatcher suggests among: every subcommand of the command table, and `help`.
    private let subcommands = MovieSearchCommand.subcommandNames

    func testEditDistanceCountsSwapsAsOneEdit() {
        func distance(_ a: String, _ b: String) -> Int {
            Suggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: 5)
        }
        XCTAssertEqual(distance("query", "query"), 0)
        XCTAssertEqual(distance("qeury", "query"), 1)
        XCTAssertEqual(distance("quer", "query"), 1)
        XCTAssertEqual(distance("querry", "query"), 1)
        XCTAssertEqual(distance("qvery", "query"), 1)
        XCTAssertEqual(distance("kitten", "sitting"), 3)
        XCTAssertEqual(distance("", "abc"), 3)
        XCTAssertEqual(distance("abc", ""), 3)
        // Capped above the limit.
        XCTAssertEqual(Suggestion.editDistance(Array("a".unicodeScalars), Array("abcdefgh".unicodeScalars), limit: 2), 3)
    }

    func testClosestWords() {
        XCTAssertEqual(Suggestion.closest(to: "qeury", among: subcommands), ["query"])
        XCTAssertEqual(Suggestion.closest(to: "shwo", among: subcommands), ["show"])
        XCTAssertEqual(Suggestion.closest(to: "indx", among: subcommands), ["index"])
        XCTAssertEqual(Suggestion.closest(to: "Query", among: subcommands), ["query"])
        XCTAssertEqual(Suggestion.closest(to: "comp", among: subcommands), ["completions"])
        XCTAssertEqual(Suggestion.closest(to: "search", among: subcommands), [])
        XCTAssertEqual(Suggestion.closest(to: "xyz", among: subcommands), [])
        XCTAssertEqual(Suggestion.closest(to: "", among: subcommands), [])
        // Ties are all named.
        XCTAssertEqual(Suggestion.phrase(for: "to", among: ["top", "tv"]), "; did you mean 'top' or 'tv'?")
        XCTAssertEqual(Suggestion.phrase(for: "search", among: subcommands), "")
    }

    func testUnknownSubcommandsAndOptionsSuggestTheClosest() {
        let subcommand = MovieSearchCommand.run(arguments: ["qeury", "dark"])
        XCTAssertEqual(subcommand.status, 2)
        XCTAssertTrue(subcommand.standardError.hasPrefix(
            "moviesearch: unknown subcommand 'qeury'; did you mean 'query'?\n"), subcommand.standardError)

        let option = MovieSearchCommand.run(arguments: ["query", "--per-yaer", "3", "dark"])
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.standardError.hasPrefix(
            "moviesearch: unknown option '--per-yaer'; did you mean '--per-year'?\n"), option.standardError)

        let valued = MovieSearchCommand.run(arguments: ["query", "--tpyos=off", "dark"])
        XCTAssertTrue(valued.standardError.hasPrefix(
            "moviesearch: unknown option '--tpyos'; did you mean '--typos'?\n"), valued.standardError)

        let topLevel = MovieSearchCommand.run(arguments: ["--verison"])
        XCTAssertEqual(topLevel.status, 2)
        XCTAssertTrue(topLevel.standardError.hasPrefix(
            "moviesearch: expected a subcommand before '--verison'; did you mean '--version'?\n"),
                      topLevel.standardError)

        let help = MovieSearchCommand.run(arguments: ["help", "shwo"])
        XCTAssertTrue(help.standardError.hasPrefix("moviesearch: unknown subcommand 'shwo'; did you mean 'show'?\n"),
                      help.standardError)

        // Nothing close: no suggestion.
        let far = MovieSearchCommand.run(arguments: ["frobnicate"])
        XCTAssertTrue(far.standardError.hasPrefix("moviesearch: unknown subcommand 'frobnicate'\n"), far.standardError)
        let farOption = MovieSearchCommand.run(arguments: ["top", "--zzz"])
        XCTAssertTrue(farOption.standardError.hasPrefix("moviesearch: unknown option '--zzz'\n"), farOption.standardError)
    }
}
