import MovieSearchCommandLine
import MovieSearchOutput

/// `moviesearch man`: prints the man page `moviesearch.1` in roff, generated from the same declarations the parser
/// and the help use (see `ManPage`). `moviesearch man > moviesearch.1; man -l moviesearch.1` reads it.
struct ManCommand: Subcommand {
    static let name = "man"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Print the man page moviesearch.1 (roff); read it with 'moviesearch man | man -l -'.",
        arguments: [])

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) throws {
        let commands = MovieSearchCommand.subcommands.map { $0.configuration }
        context.standardOutput.write(ManPage.page(commands, release: Version.release))
    }
}
