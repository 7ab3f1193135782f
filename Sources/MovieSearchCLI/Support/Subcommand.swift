import MovieSearchCommandLine

/// One subcommand of `moviesearch`: one type, in one file, listed once in `MovieSearchCommand.subcommands`.
///
/// The dispatcher parses the command line against `configuration`, builds the command from the parsed values
/// (where it checks what the parser cannot, such as two arguments that exclude each other), then runs it.
protocol Subcommand {
    /// The word after `moviesearch`: the configuration's `name`, which the dispatcher compares without building
    /// the configuration (a `static let` each, with its help texts and argument definitions), so that running one
    /// subcommand builds no other's. A subcommand declares it as `static let name = "query"` and passes it to its
    /// configuration; the default reads the configuration.
    static var name: String { get }
    static var configuration: CommandConfiguration { get }

    /// Reads the parsed values. Throws a `UsageError` for a combination of values that makes no sense.
    init(_ arguments: ParsedArguments) throws(UsageError)

    /// Does the work. A `UsageError` exits with status 2 and the usage line; any other error exits with status 1
    /// and its description as one line.
    func run(_ context: CommandContext) throws
}

extension Subcommand {
    static var name: String { configuration.name }
}
