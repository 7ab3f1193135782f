import MovieSearch

/// `moviesearch show <id> [--cache <file>] [--flickr-key <key>] [--poster-size <size>] [--json]
/// [--favorites <file>]`: one movie's details, a ♥ after the title of a favorite.
struct ShowCommand: Subcommand {
    static let name = "show"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Show a movie's details: title, year, rating, genres, cast, and the Flickr request for photos.",
        discussion: """
            When the catalog gave them, also: the original title, the overview, the poster's URL, the TMDb id \
            with the movie's TMDb page, and the IMDb id with its IMDb page.
            """,
        arguments: [id, CacheLocation.option, FlickrKey.option, PosterSize.option, json, FavoritesLocation.option])

    static let id = Argument<Int>(
        "id", rule: .movieID,
        help: "The movie's id: its position in the catalog, counting from 0, as 'query --json' prints it.")
    static let json = JSONOutput.flag(
        members: "id, title, year, rating (null when unrated), genres, cast, then, only when the catalog gave "
            + "them, original_title, overview, poster (the poster's URL, see --poster-size), tmdb_id and imdb_id, "
            + "then favorite (true for one of the favorites): the movie as 'query --json' lists it")

    var id: Int
    var cache: FilePath?
    var flickrKey: String?
    var posterSize: PosterSize
    var printsJSON: Bool
    var favorites: FilePath?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = arguments[Self.id]!
        cache = arguments[CacheLocation.option]
        flickrKey = arguments[FlickrKey.option]
        posterSize = arguments[PosterSize.option] ?? PosterSize.defaultSize
        printsJSON = arguments[Self.json]
        favorites = arguments[FavoritesLocation.option]
    }

    func run(_ context: CommandContext) throws {
        let index = try CacheLocation.open(cache, context)
        let movie = try index.movie(id: id)
        let isFavorite = try FavoritesLocation.favoriteIDs(favorites, index: index, context).contains(movie.id)
        let out = context.standardOutput
        if printsJSON {
            out.line(bytes: MovieJSON.object(movie, posterSize: posterSize, favorite: isFavorite).bytes)
            return
        }
        let request = FlickrPhotos.searchURL(title: movie.title, apiKey: FlickrKey.resolve(flickrKey, context))
        // Texts wrap on a terminal (`wraps`); numbers and URLs stay whole on their line, to be copied.
        var rows: [(label: String, value: String, wraps: Bool)] = [
            ("id", String(movie.id), false),
            ("year", String(movie.year), false),
            ("rating", TextLayout.rating(movie.rating) ?? "unrated", false),
            ("genres", movie.genres.isEmpty ? "none listed" : safeList(movie.genres), true),
            ("cast", movie.cast.isEmpty ? "none listed" : safeList(movie.cast), true),
        ]
        rows += optionalRows(movie)
        rows.append(("flickr", TerminalSafeText.escaped(request), false))
        out.line(TerminalSafeText.escaped(movie.title) + (isFavorite ? TextLayout.favoriteMark : ""))
        let labelWidth = rows.map { $0.label.count }.max()!
        let indent = String(repeating: " ", count: labelWidth + 4)
        for (label, value, wraps) in rows {
            let prefix = "  " + TextLayout.padRight(label, labelWidth) + "  "
            // Long cast lists and overviews wrap under themselves on a terminal, by the columns each character
            // takes (`DisplayWidth`: a CJK character two), a long word cut between characters and a URL never;
            // a pipe gets one line per field, for grep.
            guard let width = context.terminal.width, wraps else {
                out.line(prefix + value)
                continue
            }
            let valueColumns = width - indent.count
            if valueColumns < 8 {
                // Too narrow for a column of values: the value under its label, across the whole width.
                out.line("  " + label)
                for piece in DisplayWidth.wrapped(value, toColumns: width, keptWhole: DisplayWidth.isURL) {
                    out.line(piece)
                }
                continue
            }
            for (number, piece) in DisplayWidth.wrapped(value, toColumns: valueColumns,
                                                         keptWhole: DisplayWidth.isURL).enumerated() {
                out.line((number == 0 ? prefix : indent) + piece)
            }
        }
    }

    /// The rows of the fields only some catalogs have, each only when the movie has it and it is not empty (an
    /// empty text shows nothing): original title, overview, poster URL, TMDb id and page, IMDb id and page.
    private func optionalRows(_ movie: Movie) -> [(label: String, value: String, wraps: Bool)] {
        var rows: [(label: String, value: String, wraps: Bool)] = []
        if let originalTitle = movie.originalTitle, !originalTitle.isEmpty {
            rows.append(("original title", TerminalSafeText.escaped(originalTitle), true))
        }
        if let overview = movie.overview, !overview.isEmpty {
            rows.append(("overview", TerminalSafeText.escaped(overview), true))
        }
        if let poster = movie.posterPath.flatMap(posterSize.url(posterPath:)) {
            rows.append(("poster", TerminalSafeText.escaped(poster), false))
        }
        if let tmdbID = movie.tmdbID {
            rows.append(("tmdb", "\(tmdbID)  \(MovieLinks.tmdb(id: tmdbID))", false))
        }
        if let imdbID = movie.imdbID, !imdbID.isEmpty {
            rows.append(("imdb", TerminalSafeText.escaped(imdbID) + "  " + TerminalSafeText.escaped(MovieLinks.imdb(id: imdbID)), false))
        }
        return rows
    }

    /// Names as one line, each escaped (TerminalSafeText), so a name cannot break the line or drive the terminal.
    private func safeList(_ names: [String]) -> String {
        names.map(TerminalSafeText.escaped).joined(separator: ", ")
    }
}
