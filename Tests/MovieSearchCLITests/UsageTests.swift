import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchCommandLine
@testable import MovieSearchOutput
import XCTest

/// Help and every usage error, run in-process: none of these reach the engine.
final class UsageTests: XCTestCase {
    private func run(_ arguments: [String], environment: [String: String] = [:])
        -> (status: Int32, standardOutput: String, standardError: String) {
        MovieSearchCommand.run(arguments: arguments, environment: environment)
    }

    private static let toolUsage = "Usage: moviesearch <subcommand> [<arguments>] [<options>]\nSee 'moviesearch --help'.\n"
    private static let usages = [
        "index": """
            Usage: moviesearch index <catalog> [-o|--output <cache>]
                     [--format <auto|json|tmdb|imdb|csv>] [--ratings <file>]
                     [--title-types <types>] [--column <field=column>]
                     [--rating-scale <5|10|100>] [--critic-scale <10|100>]
                     [--max-movies <N>] [--skip-invalid] [--quiet]

            """,
        "query": """
            Usage: moviesearch query <text> [--cache <file>] [--per-year <K>]
                     [--typos <auto|off>] [--year <Y|A..B|A..|..B>] [--genre <name>]
                     [--cast <name>] [--min-rating <R>] [--min-critic <C>]
                     [--facets <genre>] [--color <auto|always|never>] [--json]
                     [--poster-size <w92|w154|w185|w342|w500|w780|original>]
                     [--favorites <file>]
                   moviesearch query --stdin [--cache <file>] [--per-year <K>]
                     [--typos <auto|off>] [--year <Y|A..B|A..|..B>] [--genre <name>]
                     [--cast <name>] [--min-rating <R>] [--min-critic <C>]
                     [--facets <genre>]
                     [--poster-size <w92|w154|w185|w342|w500|w780|original>]
                     [--favorites <file>]

            """,
        "show": """
            Usage: moviesearch show <id> [--cache <file>] [--flickr-key <key>]
                     [--poster-size <w92|w154|w185|w342|w500|w780|original>] [--json]
                     [--favorites <file>] [--fetch] [--tmdb-key <key>]
                     [--tmdb-endpoint <url>]

            """,
        "top": """
            Usage: moviesearch top [--by <rating|critic>] [--limit <N>]
                     [--year <Y|A..B|A..|..B>] [--genre <name>] [--cast <name>]
                     [--min-rating <R>] [--min-critic <C>] [--json] [--cache <file>]
                     [--favorites <file>]

            """,
        "genres": "Usage: moviesearch genres [--cache <file>]\n",
        "favorites": """
            Usage: moviesearch favorites [list] [--json] [--favorites <file>]
                     [--cache <file>]
                   moviesearch favorites add <id> [--json] [--favorites <file>]
                     [--cache <file>]
                   moviesearch favorites remove <id> [--json] [--favorites <file>]
                     [--cache <file>]
                   moviesearch favorites remove --missing [--json] [--favorites <file>]
                     [--cache <file>]

            """,
        "browse": """
            Usage: moviesearch browse [--cache <file>] [--favorites <file> | --no-save]
                     [--typos <auto|off>] [--year <Y|A..B|A..|..B>] [--genre <name>]
                     [--cast <name>] [--min-rating <R>] [--min-critic <C>]
                     [--color <auto|always|never>] [--photos-dir <dir>] [--flickr-key <key>]
                     [--flickr-endpoint <url>] [--offline] [--print]

            """,
        "info": "Usage: moviesearch info [--cache <file>] [--json]\n",
        "version": "Usage: moviesearch version\n",
        "completions": "Usage: moviesearch completions <shell>\n",
        "man": "Usage: moviesearch man\n",
        "photos": """
            Usage: moviesearch photos <id> [--cache <file>] [--response <file|->]
                     [--photos-dir <dir>] [--flickr-key <key>] [--flickr-endpoint <url>]
                     [--offline] [--refresh] [--json]

            """,
        "serve": """
            Usage: moviesearch serve [--cache <file>] [--listen <host:port>]
                     [--favorites <file> | --no-save] [--photos-dir <dir>]
                     [--typos <auto|off>] [--max-connections <N>] [--allow-host <names>]
                     [--cors-origin <origin>] [--flickr-key <key>] [--flickr-endpoint <url>]
                     [--tmdb-key <key>] [--tmdb-endpoint <url>] [--offline] [--quiet]

            """,
        "bench": """
            Usage: moviesearch bench --cache <file> --queries <file> [--per-year <K>]
                     [--typos <auto|off>] [--year <Y|A..B|A..|..B>] [--genre <name>]
                     [--cast <name>] [--min-rating <R>] [--min-critic <C>]
                     [--facets <genre>] [--passes <N>] [--slowest <N>] [--json]
                   moviesearch bench --browse --cache <file> --queries <file>...
                     [--typos <auto|off>] [--passes <N>] [--json]
                   moviesearch bench --details <id> --cache <file> [--passes <N>]

            """,
    ]

    /// Exit status 2, nothing on stdout, and on stderr exactly the problem, the usage lines and the pointer to help.
    private func assertUsageError(_ arguments: [String], _ problem: String, file: StaticString = #filePath,
                                  line: UInt = #line) {
        let result = run(arguments)
        let command = arguments[0]
        guard let usage = Self.usages[command] else {
            return XCTFail("no usage written out here for \(command)", file: file, line: line)
        }
        XCTAssertEqual(result.status, 2, "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.standardOutput, "", "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.standardError,
                       "moviesearch: \(problem)\n\(usage)See 'moviesearch \(command) --help'.\n",
                       "\(arguments)", file: file, line: line)
    }

    func testNoArgumentsPrintsTheOverviewOnStandardErrorAndFails() {
        let result = run([])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.standardOutput, "")
        XCTAssertTrue(result.standardError.hasPrefix("OVERVIEW: "), result.standardError)
        for command in MovieSearchCommand.subcommands {
            XCTAssertTrue(result.standardError.contains("\n  \(command.name) "), command.name)
        }
    }

    func testToolHelp() {
        let overview = run([]).standardError
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments)")
            XCTAssertEqual(result.standardOutput, overview, "\(arguments)")
            XCTAssertEqual(result.standardError, "", "\(arguments)")
        }
    }

    /// `top` and `browse` take the filters of `query`: their usage, help and man page section name each filter
    /// flag, and their discussions say what the filters do there; `genres`, which lists the values of `--genre`,
    /// has its own section.
    func testTopAndBrowseHelpAndManPageNameTheFilters() throws {
        let flags = FilterOptions.arguments.map(\.definition)
        XCTAssertEqual(flags.map(\.name), ["year", "genre", "cast", "min-rating", "min-critic"])
        let man = run(["man"])
        XCTAssertEqual(man.status, 0, man.standardError)
        for name in ["top", "browse"] {
            let help = run([name, "--help"]).standardOutput
            let usage = try XCTUnwrap(help.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE: ") })
            let section = try XCTUnwrap(man.standardOutput.components(separatedBy: ".SS ").first {
                $0.hasPrefix("\"\(name)\"")
            }, name)
            for flag in flags {
                XCTAssertTrue(usage.contains("[--\(flag.name) <\(flag.valueName)>]"), "\(name): \(usage)")
                XCTAssertTrue(help.contains("\n  --\(flag.name) <\(flag.valueName)>"), "\(name) --\(flag.name)")
                let roffName = "--\(flag.name)".replacingOccurrences(of: "-", with: "\\-")
                XCTAssertTrue(section.contains("[\(roffName) <\(flag.valueName)>]"), "\(name) man: \(roffName)")
                XCTAssertTrue(section.contains("\\fB\(roffName)\\fR \\fI\(flag.valueName)\\fR"),
                              "\(name) man: \(roffName)")
            }
            // The help's lines joined, the indentation of wrapped lines dropped.
            let discussion = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(discussion.contains("--year, --genre, --cast, --min-rating and --min-critic"), name)
            XCTAssertTrue(discussion.contains("'moviesearch genres' lists them"), "--genre's help: \(name)")
        }
        let browse = run(["browse", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        XCTAssertTrue(browse.contains("Ctrl-G opens the filter line"), browse)
        XCTAssertTrue(browse.contains("Esc cancels"), browse)
        XCTAssertTrue(man.standardOutput.contains(".SS \"genres\""))
    }

    func testSubcommandHelpListsEveryOption() throws {
        for configuration in MovieSearchCommand.subcommands.map({ $0.configuration }) {
            let name = configuration.name
            let usage = try XCTUnwrap(Self.usages[name], "no usage written out here for \(name)")
            let help = run([name, "--help"])
            XCTAssertEqual(help.status, 0, name)
            XCTAssertEqual(help.standardError, "", name)
            XCTAssertTrue(help.standardOutput.hasPrefix("OVERVIEW: "), name)
            XCTAssertTrue(help.standardOutput.contains(usage.replacingOccurrences(of: "Usage: ", with: "USAGE: ")),
                          name)
            for argument in configuration.arguments {
                // Every option's help is one or more sentences, as the man page prints it too.
                XCTAssertTrue(argument.help.hasSuffix("."), "\(name): \(argument.name): \(argument.help)")
                // A label too long for its column has a line of its own, the help below it.
                XCTAssertTrue(help.standardOutput.contains("\n  \(argument.helpLabel) ")
                                  || help.standardOutput.contains("\n  \(argument.helpLabel)\n"),
                              "\(name): \(argument.name)")
            }
            XCTAssertTrue(help.standardOutput.contains("\n  -h, --help "), name)
            for line in help.standardOutput.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, HelpFormatter.width, "\(name): \(line)")
            }
            // `-h`, `help <name>` and a `--help` after other words give the same page.
            XCTAssertEqual(run([name, "-h"]).standardOutput, help.standardOutput, name)
            XCTAssertEqual(run(["help", name]).standardOutput, help.standardOutput, name)
            XCTAssertEqual(run([name, "--bogus", "--help"]).standardOutput, help.standardOutput, name)
        }
    }

    /// The dispatcher finds a subcommand by `name` without building its configuration: the two must agree.
    func testSubcommandNamesAreTheirConfigurationsNames() {
        for command in MovieSearchCommand.subcommands {
            XCTAssertEqual(command.name, command.configuration.name)
        }
        XCTAssertEqual(Set(MovieSearchCommand.subcommands.map { $0.name }).count, MovieSearchCommand.subcommands.count)
    }

    func testUnknownSubcommands() {
        for (arguments, problem) in [
            (["bogus"], "unknown subcommand 'bogus'"),
            (["Query"], "unknown subcommand 'Query'; did you mean 'query'?"),
            (["--json"], "expected a subcommand before '--json'"),
            (["help", "bogus"], "unknown subcommand 'bogus'"),
            (["help", "query", "x"], "unexpected argument 'x'"),
        ] {
            let result = run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.standardOutput, "")
            XCTAssertEqual(result.standardError, "moviesearch: \(problem)\n" + Self.toolUsage, "\(arguments)")
        }
    }

    func testQueryUsageErrors() {
        assertUsageError(["query"], "missing argument '<text>' (or --stdin)")
        assertUsageError(["query", "dark", "--per-year", "-1"],
                         "invalid value '-1' for '--per-year <K>': expected a whole number from 0 to 1,000,000")
        assertUsageError(["query", "dark", "--per-year", "abc"],
                         "invalid value 'abc' for '--per-year <K>': expected a whole number from 0 to 1,000,000")
        assertUsageError(["query", "dark", "--per-year"], "missing value for '--per-year <K>'")
        assertUsageError(["query", "dark", "--cache"], "missing value for '--cache <file>'")
        assertUsageError(["query", "dark", "--cache", "--json"], "missing value for '--cache <file>'")
        assertUsageError(["query", "dark", "--frobnicate"], "unknown option '--frobnicate'")
        assertUsageError(["query", "dark", "-x"], "unknown option '-x'")
        assertUsageError(["query", "dark", "knight"], "unexpected argument 'knight'")
        assertUsageError(["query", "dark", "--stdin"], "give a query text or --stdin, not both (got 'dark' and --stdin)")
        assertUsageError(["browse", "--favorites", "f.json", "--no-save"],
                         "give --favorites <file> or --no-save, not both (got 'f.json' and --no-save)")
        assertUsageError(["query", "dark", "--json=yes"], "option '--json' takes no value")
        assertUsageError(["serve", "--favorites", "f.json", "--no-save"],
                         "give --favorites <file> or --no-save, not both (got 'f.json' and --no-save)")
        for listen in ["8080", "127.0.0.1", "127.0.0.1:65536", "127.0.0.01:80", "example.com:80", "[::1:80", ":80"] {
            assertUsageError(["serve", "--listen", listen], "--listen takes host:port with an IPv4 address, [IPv6] "
                + "or localhost, and a port from 0 to 65535, not '\(listen)'")
        }
        for origin in ["example.com", "http://example.com/", "ftp://example.com", "http://"] {
            assertUsageError(["serve", "--cors-origin", origin], "--cors-origin takes an origin, http://host[:port] or "
                + "https://host[:port], not '\(origin)'")
        }
    }

    /// A choice is one of its words, spelled exactly; anything else names them all, and the word meant when one is
    /// close (as for an unknown option).
    func testTyposAndColorUsageErrors() {
        let hints = ["maybe": "", "": "", "AUTO": "; did you mean 'auto'?", "on": "", "auto ": "; did you mean 'auto'?"]
        for (value, hint) in hints {
            assertUsageError(["query", "dark", "--typos", value],
                             "invalid value '\(value)' for '--typos <auto|off>': expected 'auto' or 'off'\(hint)")
            assertUsageError(["query", "--stdin", "--typos=\(value)"],
                             "invalid value '\(value)' for '--typos <auto|off>': expected 'auto' or 'off'\(hint)")
            assertUsageError(["bench", "--cache", "c", "--queries", "q", "--typos", value],
                             "invalid value '\(value)' for '--typos <auto|off>': expected 'auto' or 'off'\(hint)")
            assertUsageError(["query", "dark", "--color", value],
                             "invalid value '\(value)' for '--color <auto|always|never>': expected 'auto', 'always' or 'never'\(hint)")
        }
        assertUsageError(["query", "dark", "--typos"], "missing value for '--typos <auto|off>'")
        assertUsageError(["query", "dark", "--color"], "missing value for '--color <auto|always|never>'")
        assertUsageError(["query", "dark", "--color", "--json"], "missing value for '--color <auto|always|never>'")
        assertUsageError(["bench", "--cache", "c", "--queries", "q", "--color", "never"], "unknown option '--color'")
    }

    func testPosterSizeUsageErrors() {
        let sizes = "'w92', 'w154', 'w185', 'w342', 'w500', 'w780' or 'original'"
        let hints = ["w100": "w500", "": nil, "W500": "w500", "500": "w500", "w500 ": "w500", "Original": "original",
                     "large": nil]
        for (value, meant) in hints {
            let hint = meant.map { "; did you mean '\($0)'?" } ?? ""
            for command in [["show", "1"], ["query", "dark"], ["query", "--stdin"]] {
                assertUsageError(command + ["--poster-size", value],
                                 "invalid value '\(value)' for '--poster-size <w92|w154|w185|w342|w500|w780|original>': expected \(sizes)\(hint)")
            }
        }
        assertUsageError(["show", "1", "--poster-size"], "missing value for '--poster-size <w92|w154|w185|w342|w500|w780|original>'")
        assertUsageError(["top", "--poster-size", "w92"], "unknown option '--poster-size'")
        assertUsageError(["show", "1", "--json=1"], "option '--json' takes no value")
    }

    /// Every word of a choice is accepted (the run then fails on the missing cache, a data error, not a usage one).
    func testEveryChoiceIsAccepted() {
        for typos in TypoTolerance.allCases {
            for color in ColorChoice.allCases {
                let result = run(["query", "dark", "--cache", "/nonexistent/c.mscache", "--typos", typos.rawValue,
                                  "--color=\(color.rawValue)"])
                XCTAssertEqual(result.status, 1, "\(typos) \(color): \(result.standardError)")
            }
        }
    }

    func testIndexUsageErrors() {
        assertUsageError(["index"], "missing argument '<catalog>'")
        assertUsageError(["index", "a.csv", "--format", "xml"],
                         "invalid value 'xml' for '--format <auto|json|tmdb|imdb|csv>': expected 'auto', 'json', "
                             + "'tmdb', 'imdb' or 'csv'")
        assertUsageError(["index", "a.json", "--format", "json", "--ratings", "r.tsv"],
                         "--ratings applies to IMDb TSV only, and the catalog is moviesearch JSON")
        assertUsageError(["index", "a.tsv", "--format", "imdb", "--column", "rating=score"],
                         "--column applies to CSV only, and the catalog is IMDb TSV")
        assertUsageError(["index", "a.csv", "--format", "csv", "--title-types", "all"],
                         "--title-types applies to IMDb TSV only, and the catalog is CSV")
        assertUsageError(["index", "a.csv", "--column", "score"],
                         "invalid value 'score' for '--column <field=column>': expected <field>=<column>, where the "
                             + "field is one of title, year, release_date, rating, critic_rating, genres, cast, "
                             + "original_title, "
                             + "overview, poster_path, tmdb_id, imdb_id")
        assertUsageError(["index", "a.json", "-o"], "missing value for '--output <cache>'")
        assertUsageError(["index", "a.json", "--output"], "missing value for '--output <cache>'")
        assertUsageError(["index", "a.json", "--skip"], "unknown option '--skip'; did you mean '--skip-invalid'?")
        assertUsageError(["index", "a.json", "b.json"], "unexpected argument 'b.json'")
    }

    func testShowTopAndPhotosUsageErrors() {
        assertUsageError(["show"], "missing argument '<id>'")
        assertUsageError(["show", "x"], "invalid value 'x' for '<id>': expected a whole number from 0 to 4,294,967,295")
        assertUsageError(["show", "-1"], "invalid value '-1' for '<id>': expected a whole number from 0 to 4,294,967,295")
        assertUsageError(["show", "1", "2"], "unexpected argument '2'")
        assertUsageError(["top", "--limit", "abc"], "invalid value 'abc' for '--limit <N>': expected a whole number from 0 to 1,000,000")
        assertUsageError(["top", "--limit", "-3"], "invalid value '-3' for '--limit <N>': expected a whole number from 0 to 1,000,000")
        assertUsageError(["top", "5"], "unexpected argument '5'")
        assertUsageError(["photos"], "missing argument '<id>'")
        assertUsageError(["photos", "1", "--response"], "missing value for '--response <file|->'")
        assertUsageError(["photos", "1", "--flickr-key"], "missing value for '--flickr-key <key>'")
        assertUsageError(["top", "--favorites"], "missing value for '--favorites <file>'")
        assertUsageError(["favorites", "add"], "missing argument '<id>' for 'add'")
        assertUsageError(["favorites", "remove", "x"],
                         "invalid value 'x' for '<id>': expected a whole number from 0 to 4,294,967,295")
        assertUsageError(["favorites", "list", "3"], "unexpected argument '3': 'list' takes no id")
        assertUsageError(["favorites", "toggle"], "invalid value 'toggle' for '<action>': expected 'list', 'add' or 'remove'")
        assertUsageError(["favorites", "ad", "3"],
                         "invalid value 'ad' for '<action>': expected 'list', 'add' or 'remove'; did you mean 'add'?")
        assertUsageError(["query", "dark", "--color", "alwys"],
                         "invalid value 'alwys' for '--color <auto|always|never>': expected 'auto', 'always' or 'never'; did you mean 'always'?")
        assertUsageError(["favorites", "add", "1", "2"], "unexpected argument '2'")
        assertUsageError(["favorites", "add", "--missing"], "'--missing' goes with 'remove' only")
        assertUsageError(["favorites", "remove", "3", "--missing"], "unexpected argument '3': 'remove --missing' takes no id")
    }

    func testInfoUsageErrors() {
        assertUsageError(["info", "movies.mscache"], "unexpected argument 'movies.mscache'")
        assertUsageError(["info", "--cache"], "missing value for '--cache <file>'")
        assertUsageError(["info", "--jsn"], "unknown option '--jsn'; did you mean '--json'?")
        assertUsageError(["info", "--limit", "3"], "unknown option '--limit'")
    }

    func testNoCacheAnywhereIsAUsageError() throws {
        let usage = try XCTUnwrap(Self.usages["top"])
        let context = CommandContext(
            standardOutput: TextOutput(.memory), standardError: TextOutput(.memory), standardInput: .bytes([]),
            environment: .fixed(["MOVIESEARCH_CACHE": ""]), terminal: Terminal(width: nil),
            sampleCachePath: "/nonexistent/sample-movies.mscache")
        let status = MovieSearchCommand.run(["top"], context)
        XCTAssertEqual(status, 2)
        XCTAssertEqual(context.standardOutput.capturedText, "")
        XCTAssertEqual(context.standardError.capturedText, """
            moviesearch: no cache to read: pass --cache <file> or set MOVIESEARCH_CACHE (build a cache with \
            'moviesearch index <catalog.json>')
            \(usage)See 'moviesearch top --help'.

            """)
    }

    /// The help of each subcommand that reads a bounded input states its bound (StreamInputEndToEndTests checks the
    /// bounds themselves through the built binary).
    func testHelpStatesTheLimits() {
        for (command, limit) in [("index", "2 GiB"), ("photos", "1 MiB"), ("query", "1 MiB"), ("bench", "1,000,000")] {
            let help = run([command, "--help"])
            XCTAssertEqual(help.status, 0)
            let words = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(words.contains(limit), "\(command) --help should say \(limit): \(help.standardOutput)")
        }
    }
}
