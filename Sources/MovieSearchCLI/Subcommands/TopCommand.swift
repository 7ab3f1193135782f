import MovieSearchCommandLine
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchQuery

/// `moviesearch top [--by rating|critic] [--limit <N>] [--year …] [--genre …] [--cast …] [--min-rating …]
/// [--min-critic …] [--json] [--cache <file>] [--favorites <file>]`: the best-rated movies over all years, by the
/// users' rating or by the critics', of those that pass the filters (`FilterOptions`).
struct TopCommand: Subcommand {
    static let name = "top"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "List the best-rated movies over all years, by the users' rating or by the critics'.",
        discussion: """
            --by rating (the default): rating descending, unrated last, catalog order on ties. --by critic: the \
            critics' rating descending, catalog order on ties, only the movies that have one. Each line shows \
            both ratings when the catalog has critics' ratings.
            --year, --genre, --cast, --min-rating and --min-critic keep the movies that pass them all, as for \
            query; the first line then counts those movies and names the filters (The 15 best-rated movies of \
            220 that pass Drama · 2010–2012). When none passes, a genre or cast name that no movie has is noted \
            on standard error with the closest ones the catalog has ('moviesearch genres' lists the genres).
            """,
        arguments: [by, limit] + FilterOptions.arguments + [json] + CacheOptions.arguments)

    static let limitRange = 0...1_000_000
    static let limit = DefaultedOption<Int>(
        "limit", valueName: "N", range: limitRange, default: SearchLimits.topListLength,
        help: "How many movies to list")
    static let by = DefaultedOption<TopListOrder>(
        "by", default: .rating,
        help: "rating: the users' rating; critic: the critics' rating, leaving out movies without one")
    static let json = JSONOutput.flag(members: TopListJSON.members.helpList)

    var order: TopListOrder
    var limit: Int
    var printsJSON: Bool
    var files: CacheOptions
    var filters: FilterOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        order = arguments[Self.by]
        limit = arguments[Self.limit]
        printsJSON = arguments[Self.json]
        files = CacheOptions(arguments)
        filters = FilterOptions(arguments)
    }

    func run(_ context: CommandContext) throws {
        let index = try files.openCache(context)
        let movies = try index.topRated(by: order, limit: limit, filters: filters.filters)
        if movies.isEmpty { for note in try filters.unknownNameNotes(index) { context.note(note) } }
        let favoriteIDs = try files.favoriteIDs(index: index, context)
        if printsJSON {
            let json = TopListJSON.object(movies, by: order, scales: index.ratingScales, favorites: favoriteIDs)
            return context.standardOutput.line(bytes: json.bytes)
        }
        TopListText.write(movies, by: order, of: try index.passingCount(filters.filters), filters: filters.filters,
                          scales: index.ratingScales, favorites: favoriteIDs,
                          to: context.standardOutput)
    }
}
