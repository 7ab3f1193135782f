import MovieSearchCatalog
import MovieSearchCommandLine
import MovieSearchIndex
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPlatform
import MovieSearchQuery

/// `moviesearch query <text> | --stdin [--cache <file>] [--per-year <K>] [--typos auto|off] [--poster-size <size>]
/// [--color …] [--json] [--favorites <file>]`:
/// word-prefix search, forgiving typos when nothing matches exactly, grouped by year.
struct QueryCommand: Subcommand {
    static let name = "query"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Search titles by word prefixes; answers grouped by year, best-rated first.",
        discussion: """
            Years come newest first, each with its number of matches; inside a year, rating descending, unrated \
            last, catalog order on ties.
            When no movie matches exactly, the query runs again allowing typos (unless --typos off): a word of 5 to \
            8 letters may be one edit away from the start of a title word, a word of 9 or more two (an edit adds, \
            drops or replaces a letter, or swaps two neighbours); the first letter must be right, and shorter words \
            and words with a digit must match exactly. Such an answer says so, and inside a year lists fewer typos \
            first.
            """,
        usageForms: [
            UsageForm([.required(text)] + .optionals([CacheLocation.option] + SearchOptions.arguments
                + FilterOptions.arguments + [facets, ColorChoice.option, json, PosterSize.option, FavoritesLocation.option])),
            UsageForm([.required(readsStandardInput)] + .optionals([CacheLocation.option] + SearchOptions.arguments
                + FilterOptions.arguments + [facets, PosterSize.option, FavoritesLocation.option])),
        ],
        arguments: [text, readsStandardInput] + [CacheLocation.option] + SearchOptions.arguments
            + FilterOptions.arguments + [facets, ColorChoice.option, json, PosterSize.option, FavoritesLocation.option])

    static let facets = Option<FacetChoice>(
        "facets", valueName: FacetChoice.valueName,
        help: "genre: count, per genre, the matches that have it (all of them, not only those listed).")

    /// The longest query line `--stdin` (and `bench --queries`) reads: far more than any title, small enough
    /// that a stream without line feeds (`/dev/zero`) is refused at once instead of filling memory.
    static let maximumLineBytes = 1 << 20

    static let text = Argument<String>(
        "text", isOptional: true,
        help: "The words to look for: a movie matches when each word starts a word of its title ('dark kni'). "
            + "A text without words ('') lists every movie. Put '--' before a text that starts with '-'.")
    static let readsStandardInput = Flag(
        "stdin",
        help: "Read one query per line from standard input and print one JSON object per line; an empty line "
            + "is a query too. A line may hold up to \(FileReader.byteLimitDescription(maximumLineBytes)).")
    static let json = JSONOutput.flag(members: AnswerJSON.members.helpList)

    var query: String?
    var files: CacheOptions
    var search: SearchOptions
    var filters: FilterOptions
    var countsGenres: Bool
    var color: ColorChoice
    var printsJSON: Bool
    var posterSize: PosterSize

    init(_ arguments: ParsedArguments) throws(UsageError) {
        query = arguments[Self.text]
        files = CacheOptions(arguments)
        search = SearchOptions(arguments)
        filters = FilterOptions(arguments)
        countsGenres = arguments[Self.facets] == .genre
        color = arguments[ColorChoice.option]
        posterSize = arguments[PosterSize.option]
        let batch = arguments[Self.readsStandardInput]
        printsJSON = batch || arguments[Self.json]
        if batch, let query {
            throw UsageError("give a query text or --stdin, not both (got '\(query)' and --stdin)")
        }
        if !batch, query == nil { throw UsageError("missing argument '<text>' (or --stdin)") }
    }

    func run(_ context: CommandContext) throws {
        let index = try files.openCache(context)
        let out = context.standardOutput
        let favoriteIDs = try files.favoriteIDs(index: index, context)
        guard let query else { return try runBatch(index, favoriteIDs: favoriteIDs, context) }
        let result = try index.search(query, perYear: search.perYear, typos: search.typos,
                                      filters: filters.filters, genreFacet: countsGenres)
        if result.total == 0 { for note in try filters.unknownNameNotes(index) { context.note(note) } }
        // One answer reads each movie once: decoded straight from the file, without the index's LRU cache (which
        // `--stdin` keeps using, as its queries share movies); for text, only the fields a line shows.
        if printsJSON {
            let movie = { (id: Int) throws -> Movie in try index.decodedMovie(id: id) }
            let json = try AnswerJSON.object(result, movie: movie, scales: index.ratingScales, posterSize: posterSize,
                                             favorites: favoriteIDs, filters: filters.filters)
            out.line(bytes: json.bytes)
        } else {
            let bold = color.allowsEscapes(outputIsTerminal: context.terminal.isTerminal, environment: context.environment)
            let listing = { (id: Int) throws -> MovieListing in try index.decodedListing(id: id) }
            context.keepUntilExit(try AnswerText.write(result, movie: listing, scale: index.ratingScales.rating, to: out,
                                                       bold: bold,
                                                       favorites: favoriteIDs))
        }
        context.keepUntilExit(result)
        context.keepUntilExit(index)
    }

    /// One JSON line per input line, flushed whenever the input pauses (see `InputSource.forEachLine`).
    private func runBatch(_ index: MovieIndex, favoriteIDs: Set<Int>, _ context: CommandContext) throws {
        let out = context.standardOutput
        var failure: (any Error)?
        let readFailure = context.standardInput.forEachLine(maximumLineBytes: Self.maximumLineBytes, { line in
            do {
                let result = try index.search(line, perYear: search.perYear, typos: search.typos,
                                              filters: filters.filters, genreFacet: countsGenres)
                out.line(bytes: try AnswerJSON.object(result, movie: index.movie(id:), scales: index.ratingScales,
                                                      posterSize: posterSize,
                                              favorites: favoriteIDs, filters: filters.filters).bytes)
            } catch {
                failure = error
            }
            return failure == nil && !out.isClosed
        }, beforeWaiting: out.flush)
        if let failure { throw failure }
        if let readFailure { throw FileReadError(role: "queries from", path: "<stdin>", cause: readFailure) }
    }
}
