import MovieSearch

/// `moviesearch query <text> | --stdin [--cache <file>] [--per-year <K>] [--json]`: word-prefix search, grouped by
/// year.
struct QueryCommand: Subcommand {
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

    static let defaultPerYear = 5
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
    static let perYearRange = 0...1_000_000
    static let perYear = Option<Int>(
        "per-year", valueName: "K", range: perYearRange, default: defaultPerYear,
        help: "List at most K movies per year")
    static let json = JSONOutput.flag(
        members: "query, total, and years, each with year, count and movies (id, title, year, rating, genres, "
            + "cast); rating is null when unrated")

    var query: String?
    var cache: FilePath?
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
            out.line(bytes: try Self.json(result, movie: index.movie(id:)).bytes)
        } else {
            try Self.printHuman(result, movie: index.movie(id:), to: out)
        }
    }

    /// One JSON line per input line, flushed whenever the input pauses (see `InputSource.forEachLine`).
    private func runBatch(_ index: MovieIndex, _ context: CommandContext) throws {
        let out = context.standardOutput
        var failure: (any Error)?
        let readFailure = context.standardInput.forEachLine(maximumLineBytes: Self.maximumLineBytes, { line in
            do {
                out.line(bytes: try Self.json(index.search(line, perYear: perYear), movie: index.movie(id:)).bytes)
            } catch {
                failure = error
            }
            return failure == nil && !out.isClosed
        }, beforeWaiting: out.flush)
        if let failure { throw failure }
        if let readFailure { throw FileReadError(role: "queries from", path: "<stdin>", cause: readFailure) }
    }

    /// The answer as one line of JSON, keys in the documented order; `movie` looks up the listed ids.
    static func json(_ result: SearchResult, movie: (Int) throws -> Movie) throws -> JSONWriter {
        var json = JSONWriter(capacity: 256)
        try json.object { json in
            json.member("query", result.query)
            json.member("total", result.total)
            json.key("years")
            try json.array { json in
                for year in result.years {
                    try json.object { json in
                        json.member("year", year.year)
                        json.member("count", year.count)
                        json.key("movies")
                        try json.array { json in
                            for id in year.movieIDs { write(try movie(id), to: &json) }
                        }
                    }
                }
            }
        }
        return json
    }

    /// `{"id":…,"title":…,"year":…,"rating":…,"genres":[…],"cast":[…]}`, rating `null` when unrated.
    static func write(_ movie: Movie, to json: inout JSONWriter) {
        json.object { json in
            json.member("id", movie.id)
            json.member("title", movie.title)
            json.member("year", movie.year)
            json.key("rating")
            if let rating = movie.rating { json.value(rating) } else { json.null() }
            json.member("genres", movie.genres)
            json.member("cast", movie.cast)
        }
    }

    /// ```
    /// "dark": 7 matches in 3 years
    ///
    /// 2018 · 3 matches
    ///         5  The Darkest Hour
    ///   unrated  Darkroom
    /// ```
    static func printHuman(_ result: SearchResult, movie: (Int) throws -> Movie, to out: TextOutput) throws {
        let quoted = TerminalSafeText.quoted(result.query)
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
                out.line("  \(TextLayout.padLeft(rating, ratingWidth))  \(TerminalSafeText.escaped(movie.title))")
            }
        }
    }
}
