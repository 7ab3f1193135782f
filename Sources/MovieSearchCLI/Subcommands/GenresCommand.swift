import MovieSearchCommandLine
import MovieSearchOutput
import MovieSearchPlatform
import MovieSearchQuery

/// `moviesearch genres [--cache <file>]`: the catalog's genres, one a line, for a person choosing a `--genre` and
/// for the completion scripts, which run it at Tab (`ValueCompletion.listed`). It reads the cache's genre table
/// only, so that Tab answers at once.
struct GenresCommand: Subcommand {
    static let name = "genres"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "List the catalog's genres, one a line, as --genre takes them.",
        discussion: """
            In the order of their names with case, accents and spacing aside, each spelled as the first movie \
            that has it spells it. 'moviesearch query "" --facets genre' counts the movies of each. The shell \
            completions offer these names after --genre.
            """,
        arguments: [CacheLocation.option])

    var cache: FilePath?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        cache = arguments[CacheLocation.option]
    }

    func run(_ context: CommandContext) throws {
        let index = try CacheLocation.open(cache, context)
        // Escaped as every text from data is: a shell shows these names as it offers them.
        for genre in try index.genreNames() { context.standardOutput.line(TerminalSafeText.escaped(genre)) }
    }
}
