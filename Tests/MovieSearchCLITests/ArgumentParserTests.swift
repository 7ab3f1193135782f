import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchCommandLine
import XCTest

/// The parser alone, against a declaration of every kind.
final class ArgumentParserTests: XCTestCase {
    private static let name = Argument<String>("name", help: "A name.")
    private static let extra = Argument<String>("extra", isOptional: true, help: "Optional.")
    private static let output = Option<String>("output", short: "o", valueName: "file", help: "Where.")
    private static let count = Option<Int>("count", valueName: "N", rule: .inRange(0...1_000), help: "How many.")
    private static let json = Flag("json", help: "JSON.")

    private let parser = ArgumentParser(
        [name, extra, output, count, json].map { (declaration: any ArgumentDeclaration) in declaration.definition })

    private func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try parser.parse(arguments)
    }

    private func assertUsageError(_ arguments: [String], _ message: String, line: UInt = #line) {
        XCTAssertThrowsError(try parse(arguments), line: line) { error in
            XCTAssertEqual(error as? UsageError, UsageError(message), line: line)
        }
    }

    func testEveryFormOfAValue() throws {
        for arguments in [["n", "--output", "x"], ["n", "--output=x"], ["n", "-o", "x"], ["n", "-ox"], ["-o", "x", "n"]] {
            let parsed = try parse(arguments)
            XCTAssertEqual(parsed[Self.output], "x", "\(arguments)")
            XCTAssertEqual(parsed[Self.name], "n", "\(arguments)")
        }
    }

    func testDefaultsAndFlags() throws {
        let bare = try parse(["n"])
        XCTAssertNil(bare[Self.output])
        XCTAssertNil(bare[Self.count])
        XCTAssertNil(bare[Self.extra])
        XCTAssertFalse(bare[Self.json])

        let full = try parse(["n", "e", "--json", "--count", "7"])
        XCTAssertTrue(full[Self.json])
        XCTAssertEqual(full[Self.count], 7)
        XCTAssertEqual(full[Self.extra], "e")
    }

    /// An option declared with a default reads as that default when left out, and as the value given otherwise;
    /// `isGiven` tells the two apart. The commands' own declarations read the shared numbers.
    func testADeclaredDefaultIsWhatALeftOutOptionReads() throws {
        let level = DefaultedOption<Int>("level", valueName: "N", range: 0...9, default: 4, help: "How high")
        let parser = ArgumentParser([level.definition, Self.json.definition])
        XCTAssertEqual(level.definition.help, "How high, 0 to 9 (default 4).")
        let bare = try parser.parse([String]())
        XCTAssertEqual(bare[level], 4)
        XCTAssertFalse(bare.isGiven(level))
        XCTAssertFalse(bare.isGiven(Self.json))
        for given in [0, 4, 9] {
            let parsed = try parser.parse(["--level", "\(given)", "--json"])
            XCTAssertEqual(parsed[level], given)
            XCTAssertTrue(parsed.isGiven(level))
            XCTAssertTrue(parsed.isGiven(Self.json))
        }
        XCTAssertEqual(try parser.parse(["--level", "2", "--level=7"])[level], 7)

        XCTAssertEqual(SearchOptions.perYear.defaultValue, SearchLimits.defaultPerYear)
        XCTAssertEqual(TopCommand.limit.defaultValue, SearchLimits.topListLength)
        let search = SearchOptions(try ArgumentParser(SearchOptions.arguments.map(\.definition)).parse([String]()))
        XCTAssertEqual(search.perYear, SearchLimits.defaultPerYear)
        XCTAssertEqual(search.typos, .auto)
        let top = try TopCommand(ArgumentParser(TopCommand.configuration.arguments).parse([String]()))
        XCTAssertEqual(top.limit, SearchLimits.topListLength)
        XCTAssertEqual(top.order, .rating)
    }

    func testTheLastValueWins() throws {
        XCTAssertEqual(try parse(["n", "--count", "1", "--count=2"])[Self.count], 2)
    }

    func testValuesThatLookOdd() throws {
        // `-` is standard input, an empty word is an empty query, and after `--` everything is positional.
        XCTAssertEqual(try parse(["-"])[Self.name], "-")
        XCTAssertEqual(try parse([""])[Self.name], "")
        XCTAssertEqual(try parse(["--", "--json", "-x"])[Self.name], "--json")
        XCTAssertEqual(try parse(["--", "--json", "-x"])[Self.extra], "-x")
        XCTAssertEqual(try parse(["n", "--output", "-"])[Self.output], "-")
        XCTAssertEqual(try parse(["n", "--output="])[Self.output], "")
        XCTAssertEqual(try parse(["n", "--output", "a=b"])[Self.output], "a=b")
    }

    func testUsageErrors() {
        assertUsageError([], "missing argument '<name>'")
        assertUsageError(["n", "e", "f"], "unexpected argument 'f'")
        assertUsageError(["n", "--nope"], "unknown option '--nope'")
        assertUsageError(["n", "--nope=1"], "unknown option '--nope'")
        assertUsageError(["n", "-x"], "unknown option '-x'")
        assertUsageError(["n", "--output"], "missing value for '--output <file>'")
        assertUsageError(["n", "--output", "--json"], "missing value for '--output <file>'")
        assertUsageError(["n", "--json=yes"], "option '--json' takes no value")
        assertUsageError(["n", "--count", "-1"], "invalid value '-1' for '--count <N>': expected a whole number from 0 to 1,000")
        assertUsageError(["n", "--count=abc"], "invalid value 'abc' for '--count <N>': expected a whole number from 0 to 1,000")
        assertUsageError(["n", "--count", "1.5"], "invalid value '1.5' for '--count <N>': expected a whole number from 0 to 1,000")
        assertUsageError(["n", "--count", "99999999999999999999"],
                         "invalid value '99999999999999999999' for '--count <N>': expected a whole number from 0 to 1,000")
        assertUsageError(["n", "--count", ""], "invalid value '' for '--count <N>': expected a whole number from 0 to 1,000")
        assertUsageError(["n", "--count", "1001"], "invalid value '1001' for '--count <N>': expected a whole number from 0 to 1,000")
    }

    func testPositionalValuesAreChecked() {
        let id = Argument<Int>("id", rule: .inRange(0...1_000), help: "An id.")
        XCTAssertThrowsError(try ArgumentParser([id.definition]).parse(["x"])) { error in
            XCTAssertEqual(error as? UsageError,
                           UsageError("invalid value 'x' for '<id>': expected a whole number from 0 to 1,000"))
        }
        XCTAssertEqual(try ArgumentParser([id.definition]).parse(["12"])[id], 12)
    }

    func testHelpIsAskedBeforeTheEndOfOptionsOnly() {
        XCTAssertTrue(ArgumentParser.asksForHelp(["dark", "--help"]))
        XCTAssertTrue(ArgumentParser.asksForHelp(["-h", "--nope"]))
        XCTAssertFalse(ArgumentParser.asksForHelp(["--", "-h"]))
        XCTAssertFalse(ArgumentParser.asksForHelp(["--helpful"]))
    }

    private enum Fruit: String, ArgumentChoice {
        case apple, pear, plum
    }

    private enum Switch: String, ArgumentChoice {
        case on
    }

    /// A choice takes exactly its words, names them all when given another, and shows them as its value name.
    func testChoices() throws {
        let fruit = DefaultedOption<Fruit>("fruit", default: .pear, help: "Which")
        let parser = ArgumentParser([fruit.definition])
        XCTAssertEqual(fruit.definition.synopsis, "--fruit <apple|pear|plum>")
        XCTAssertEqual(fruit.definition.help, "Which (default pear).")
        XCTAssertEqual(try parser.parse([String]())[fruit], .pear)
        for word in ["apple", "pear", "plum"] {
            XCTAssertEqual(try parser.parse(["--fruit", word])[fruit].rawValue, word)
            XCTAssertEqual(try parser.parse(["--fruit=\(word)"])[fruit].rawValue, word)
        }
        XCTAssertEqual(try parser.parse(["--fruit", "plum", "--fruit", "apple"])[fruit], .apple)
        // A word close to one of them gets it suggested, as a mistyped option does.
        let meant = ["Apple": "apple", "": nil, "apples": "apple", "-": nil, " pear": "pear", "1": nil, "plm": "plum"]
        for (word, suggested) in meant {
            XCTAssertThrowsError(try parser.parse(["--fruit", word]), word) { error in
                let hint = suggested.map { "; did you mean '\($0)'?" } ?? ""
                XCTAssertEqual(error as? UsageError, UsageError(
                    "invalid value '\(word)' for '--fruit <apple|pear|plum>': expected 'apple', 'pear' or 'plum'\(hint)"))
            }
        }
        XCTAssertEqual(Switch.expectation, "'on'")
        XCTAssertEqual(Switch.valueName, "on")
    }

    /// `index --format` takes `auto` and the name of every format the library reads, in its order, and nothing else.
    func testFormatChoicesAreTheLibrarysFormats() {
        XCTAssertEqual(CatalogFormatChoice.allCases, [.auto] + CatalogFormat.allCases.map { .named($0) })
        XCTAssertEqual(CatalogFormatChoice.allCases.map(\.format), [nil] + CatalogFormat.allCases)
        XCTAssertEqual(CatalogFormatChoice.valueName, (["auto"] + CatalogFormat.allCases.map(\.rawValue))
            .joined(separator: "|"))
        for choice in CatalogFormatChoice.allCases {
            XCTAssertEqual(CatalogFormatChoice(argument: choice.rawValue), choice)
        }
        XCTAssertNil(CatalogFormatChoice(argument: "JSON"))
        XCTAssertNil(CatalogFormatChoice(argument: "xml"))
    }
}
