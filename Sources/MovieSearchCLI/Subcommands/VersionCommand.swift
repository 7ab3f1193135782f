import MovieSearchCommandLine
import MovieSearchOutput

/// `moviesearch version` (also `moviesearch --version`): the tool's version, the cache format version it reads and
/// writes, and the Swift compiler it was built with (see `Version`).
struct VersionCommand: Subcommand {
    static let name = "version"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Print the version, the cache format version it reads and writes, and the Swift it was built with.",
        arguments: [])

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) throws {
        context.standardOutput.write(Version.description)
    }
}
