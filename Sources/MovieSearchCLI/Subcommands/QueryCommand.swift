import MovieSearch

/// `moviesearch query <text> | --stdin [--cache <file>] [--per-year <K>] [--json]`: word-prefix search, grouped by
/// year.
struct QueryCommand: Subcommand {
    static let defaultPerYear = 5

    static let text = Argument<String>(
        "text", isOptional: true,
        help: "The words to look for: a movie matches when each word starts a word of its title ('dark kni'). "
            + "A text without words ('') lists every movie. Put '--' before a text that starts with '-'.")
    static let readsStandardInput = Flag(
        "stdin",
        help: "Read one query per line from standard input and print one JSON object per line; an empty line "
            + "is a query too.")
    static let perYear = Option<Int>(
        "per-year", valueName: "K", rule: .nonNegative,
        help: "List at most K movies per year (default \(defaultPerYear)).")
    static let json = Flag(
        "json",
        help: "Print the answer as one JSON object on one line: query, total, and years, each with year, count "
            + "and movies (id, title, year, rating, genres, cast); rating is null when unrated.")

    static let configuration = CommandConfiguration(
        name: "query",
        abstract: "Search titles by word prefixes; answers grouped by year, best-rated first.",
        discussion: """
            Years come newest first, each with its number of matches; inside a year, rating descending, unrated \
            last, catalog order on ties.
            """,
        usageForms: [
            "<text> [--cache <file>] [--per-year <K>] [--json]",
            "--stdin [--cache <file>] [--per-year <K>]",
        ],
        arguments: [text, readsStandardInput, CacheLocation.option, perYear, json])

    var query: String?
    var cache: String?
    var perYear: Int
    var printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        query = arguments[Self.text]
        cache = arguments[CacheLocation.option]
        perYear = arguments[Self.perYear] ?? Self.defaultPerYear
        let batch = arguments[Self.readsStandardInput]
        printsJSON = batch || arguments[Self.json]
        if batch, let query {
            throw UsageError("give a query text or --stdin, not both (got '\(query)' and --stdin)")
        }
        if !batch, query == nil { throw UsageError("missing argument '<text>' (or --stdin)") }
    }

    func run(_ context: CommandContext) throws {
        let index = try CacheLocation.open(cache, context)
        let out = context.standardOutput
        guard let query else { return try runBatch(index, context) }
        let result = try index.search(query, perYear: perYear)
        if printsJSON {
            out.line(try Self.json(result, movie: index.movie(id:)))
        } else {
            try Self.printHuman(result, movie: index.movie(id:), to: out)
        }
    }

    /// One JSON line per input line, flushed whenever the input pauses (see `InputSource.forEachLine`).
    private func runBatch(_ index: MovieIndex, _ context: CommandContext) throws {
        let out = context.standardOutput
        var failure: (any Error)?
        let readFailure = context.standardInput.forEachLine({ line in
            do {
                out.line(try Self.json(index.search(line, perYear: perYear), movie: index.movie(id:)))
            } catch {
                failure = error
            }
            return failure == nil && !out.isClosed
        }, beforeWaiting: out.flush)
        if let failure { throw failure }
        if let readFailure { throw FileReadError(role: "queries from", path: "<stdin>", cause: readFailure) }
    }

    /// The answer as one line of JSON, keys in the documented order; `movie` looks up the listed ids.
    static func json(_ result: SearchResult, movie: (Int) throws -> Movie) throws -> String {
        var text = "{\"query\":\(JSONText.string(result.query)),\"total\":\(result.total),\"years\":["
        for (yearIndex, year) in result.years.enumerated() {
            if yearIndex > 0 { text += "," }
            text += "{\"year\":\(year.year),\"count\":\(year.count),\"movies\":["
            for (movieIndex, id) in year.movieIDs.enumerated() {
                if movieIndex > 0 { text += "," }
                text += movieJSON(try movie(id))
            }
            text += "]}"
        }
        return text + "]}"
    }

    /// `{"id":…,"title":…,"year":…,"rating":…,"genres":[…],"cast":[…]}`.
    static func movieJSON(_ movie: Movie) -> String {
        "{\"id\":\(movie.id),\"title\":\(JSONText.string(movie.title)),\"year\":\(movie.year),"
            + "\"rating\":\(JSONText.rating(movie.rating)),\"genres\":\(JSONText.array(movie.genres)),"
            + "\"cast\":\(JSONText.array(movie.cast))}"
    }

    /// ```
    /// "dark": 7 matches in 3 years
    ///
    /// 2018 · 3 matches
    ///         5  The Darkest Hour
    ///   unrated  Darkroom
    /// ```
    static func printHuman(_ result: SearchResult, movie: (Int) throws -> Movie, to out: TextOutput) throws {
        let quoted = JSONText.string(result.query)
        if result.total == 0 {
            out.line("No movie matches \(quoted).")
            return
        }
        let groups = try result.years.map { year in (year, try year.movieIDs.map(movie)) }
        let ratings = groups.map { $0.1.map { TextLayout.rating($0.rating) ?? "unrated" } }
        let ratingWidth = ratings.joined().map(\.count).max() ?? 0

        var summary = "\(quoted): \(TextLayout.count(result.total, "match", "matches")) in "
            + TextLayout.count(result.years.count, "year", "years")
        if Tokenizer.tokens(in: result.query).isEmpty { summary += " (no words in the query: every movie matches)" }
        out.line(summary)
        for ((year, movies), yearRatings) in zip(groups, ratings) {
            out.line()
            var header = "\(year.year) · \(TextLayout.count(year.count, "match", "matches"))"
            if movies.count < year.count { header += ", \(movies.count) shown" }
            out.line(header)
            for (movie, rating) in zip(movies, yearRatings) {
                out.line("  \(TextLayout.padLeft(rating, ratingWidth))  \(movie.title)")
            }
        }
    }
}
