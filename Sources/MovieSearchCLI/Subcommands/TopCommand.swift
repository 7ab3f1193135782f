import MovieSearch
import MovieSearchOutput

/// `moviesearch top [--limit <N>] [--cache <file>] [--favorites <file>]`: the best-rated movies over all years,
/// favorites marked with ♥.
struct TopCommand: Subcommand {
    static let name = "top"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "List the best-rated movies over all years: rating descending, catalog order on ties.",
        arguments: [limit] + CacheOptions.arguments)

    static let defaultLimit = 15

    static let limitRange = 0...1_000_000
    static let limit = Option<Int>(
        "limit", valueName: "N", range: limitRange, default: defaultLimit, help: "How many movies to list")

    var limit: Int
    var files: CacheOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        limit = arguments[Self.limit] ?? Self.defaultLimit
        files = CacheOptions(arguments)
    }

    func run(_ context: CommandContext) throws {
        let index = try files.openCache(context)
        let movies = try index.topRated(limit: limit)
        let favoriteIDs = try files.favoriteIDs(index: index, context)
        TopListText.write(movies, of: index.movieCount, favorites: favoriteIDs, to: context.standardOutput)
    }
}
