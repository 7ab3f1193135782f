import MovieSearch

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
            "<text> [--cache <file>] [--per-year <K>] [--typos <auto|off>] [--color <auto|always|never>] [--json] "
                + "[--poster-size <\(PosterSize.valueName)>] [--favorites <file>]",
            "--stdin [--cache <file>] [--per-year <K>] [--typos <auto|off>] [--poster-size <\(PosterSize.valueName)>] "
                + "[--favorites <file>]",
        ],
        arguments: [text, readsStandardInput, CacheLocation.option, perYear, typos, ColorChoice.option, json,
                    PosterSize.option, FavoritesLocation.option])

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
    static let typos = Option<TypoTolerance>(
        "typos", default: .auto,
        help: "auto: when no movie matches exactly, search again allowing typos; off: exact matches only")
    static let json = JSONOutput.flag(
        members: "query, total, mode (exact, or typo when only a search allowing typos matched), and years, each "
            + "with year, count and movies (id, title, year, rating, genres, cast, then original_title, overview, "
            + "poster, tmdb_id and imdb_id only when the catalog gave them, then favorite, typos, match); rating "
            + "is null when unrated, favorite says whether the movie is a favorite (♥ in text), poster is the poster's URL (see --poster-size), typos is the movie's typo count (0 in "
            + "exact mode), match lists the matched parts of the title as [start, end) offsets in UTF-16 code units")

    var query: String?
    var cache: FilePath?
    var perYear: Int
    var typos: TypoTolerance
    var color: ColorChoice
    var printsJSON: Bool
    var posterSize: PosterSize
    var favorites: FilePath?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        query = arguments[Self.text]
        cache = arguments[CacheLocation.option]
        perYear = arguments[Self.perYear] ?? Self.defaultPerYear
        typos = arguments[Self.typos] ?? .auto
        color = arguments[ColorChoice.option] ?? .auto
        posterSize = arguments[PosterSize.option] ?? PosterSize.defaultSize
        favorites = arguments[FavoritesLocation.option]
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
        let favoriteIDs = try FavoritesLocation.favoriteIDs(favorites, index: index, context)
        guard let query else { return try runBatch(index, favoriteIDs: favoriteIDs, context) }
        let result = try index.search(query, perYear: perYear, typos: typos)
        // One answer reads each movie once: decoded straight from the file, without the index's LRU cache (which
        // `--stdin` keeps using, as its queries share movies); for text, only the fields a line shows.
        if printsJSON {
            let movie = { (id: Int) throws -> Movie in try index.decodedMovie(id: id) }
            out.line(bytes: try Self.json(result, movie: movie, posterSize: posterSize, favorites: favoriteIDs).bytes)
        } else {
            let bold = color.allowsEscapes(outputIsTerminal: context.terminal.isTerminal, environment: context.environment)
            let listing = { (id: Int) throws -> MovieListing in try index.decodedListing(id: id) }
            context.keepUntilExit(try Self.printHuman(result, movie: listing, to: out, bold: bold, favorites: favoriteIDs))
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
                let result = try index.search(line, perYear: perYear, typos: typos)
                out.line(bytes: try Self.json(result, movie: index.movie(id:), posterSize: posterSize,
                                              favorites: favoriteIDs).bytes)
            } catch {
                failure = error
            }
            return failure == nil && !out.isClosed
        }, beforeWaiting: out.flush)
        if let failure { throw failure }
        if let readFailure { throw FileReadError(role: "queries from", path: "<stdin>", cause: readFailure) }
    }

    /// The answer as one line of JSON, keys in the documented order; `movie` looks up the listed ids, whose poster
    /// URLs name `posterSize`, and whose `favorite` says whether `favorites` holds them. Spans are computed for
    /// the listed movies only, with one highlighter (the query folded once) for all of them.
    static func json(_ result: SearchResult, movie: (Int) throws -> Movie,
                     posterSize: PosterSize = PosterSize.defaultSize, favorites: Set<Int> = []) throws -> JSONWriter {
        var json = JSONWriter(capacity: 256)
        let highlighter = result.highlighter
        try json.object { json in
            json.member("query", result.query)
            json.member("total", result.total)
            json.member("mode", result.mode.rawValue)
            json.key("years")
            try json.array { json in
                for year in result.years {
                    try json.object { json in
                        json.member("year", year.year)
                        json.member("count", year.count)
                        json.key("movies")
                        try json.array { json in
                            for (id, typos) in zip(year.movieIDs, year.typoCounts) {
                                write(try movie(id), typos: typos, highlighter: highlighter, posterSize: posterSize,
                                      favorite: favorites.contains(id), to: &json)
                            }
                        }
                    }
                }
            }
        }
        return json
    }

    /// `{"id":…,"title":…,"year":…,"rating":…,"genres":[…],"cast":[…],"favorite":…,"typos":…,"match":[[start,end],…]}`:
    /// the movie's members as `show --json` writes them (`MovieJSON`, with the optional ones when the movie has
    /// them, and `favorite`), then `typos` and `match`, the spans `highlighter` finds in the title as UTF-16 offsets.
    static func write(_ movie: Movie, typos: Int, highlighter: MatchHighlighter, posterSize: PosterSize,
                      favorite: Bool, to json: inout JSONWriter) {
        json.object { json in
            MovieJSON.writeMembers(of: movie, posterSize: posterSize, favorite: favorite, to: &json)
            json.member("typos", typos)
            json.key("match")
            json.array { json in
                for span in highlighter.utf16Ranges(in: movie.title) {
                    json.array { json in
                        json.value(span.lowerBound)
                        json.value(span.upperBound)
                    }
                }
            }
        }
    }

    /// ```
    /// "dark": 7 matches in 3 years
    ///
    /// 2018 · 3 matches
    ///         5  The Darkest Hour
    ///   unrated  Darkroom ♥
    /// ```
    ///
    /// With `bold`, the matched spans of each title are in bold (`Highlight`); titles are escaped either way. A
    /// movie whose id `favorites` holds has a ♥ after its title. Returns the movies it listed, year by year (for
    /// `CommandContext.keepUntilExit(_:)`).
    @discardableResult
    static func printHuman(_ result: SearchResult, movie: (Int) throws -> MovieListing, to out: TextOutput,
                           bold: Bool = false, favorites: Set<Int> = []) throws -> [[MovieListing]] {
        let quoted = TerminalSafeText.quoted(result.query)
        if result.total == 0 {
            // A typo answer with no match: the second search ran too, and the user should know it did.
            out.line(result.mode == .typo ? "No movie matches \(quoted), even with typos." : "No movie matches \(quoted).")
            return []
        }
        let movieLists = try result.years.map { year in try year.movieIDs.map(movie) }
        let ratings = movieLists.map { $0.map { TextLayout.rating($0.rating) ?? "unrated" } }
        // A loop rather than `ratings.joined()`, whose flattened view is a generic type built at run time.
        var ratingWidth = 0
        for yearRatings in ratings {
            for rating in yearRatings { ratingWidth = max(ratingWidth, rating.count) }
        }

        var summary = summary(result)
        if Tokenizer.tokens(in: result.query).isEmpty { summary += " (no words in the query: every movie matches)" }
        out.line(summary)
        let highlighter = bold ? result.highlighter : nil
        // Indices rather than nested `zip`s: the iterator of a zip of zips is a generic type the runtime would
        // build, looking up its associated types by name.
        for group in result.years.indices {
            let year = result.years[group], movies = movieLists[group], yearRatings = ratings[group]
            out.line()
            var header = "\(year.year) · \(TextLayout.count(year.count, "match", "matches"))"
            if movies.count < year.count { header += ", \(movies.count) shown" }
            out.line(header)
            for (movie, rating) in zip(movies, yearRatings) {
                let title = highlighter.map { Highlight.escaped(movie.title, bold: $0.utf16Ranges(in: movie.title)) }
                    ?? TerminalSafeText.escaped(movie.title)
                // In pieces, straight into the output's buffer, rather than one interpolated string per line.
                out.write("  ")
                out.write(TextLayout.padLeft(rating, ratingWidth))
                out.write("  ")
                out.write(title)
                out.line(favorites.contains(movie.id) ? TextLayout.favoriteMark : "")
            }
        }
        return movieLists
    }

    /// The first line of an answer that matched: `"dark": 7 matches in 3 years`, or for a typo answer
    /// `"godfahter": no exact match; 5 matches with typos in 4 years`.
    static func summary(_ result: SearchResult) -> String {
        let quoted = TerminalSafeText.quoted(result.query)
        let years = TextLayout.count(result.years.count, "year", "years")
        switch result.mode {
        case .exact:
            return "\(quoted): \(TextLayout.count(result.total, "match", "matches")) in \(years)"
        case .typo:
            return "\(quoted): no exact match; \(TextLayout.count(result.total, "match", "matches")) with typos in \(years)"
        }
    }
}
