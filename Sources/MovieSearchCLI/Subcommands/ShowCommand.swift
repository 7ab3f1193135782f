import MovieSearchCatalog
import MovieSearchCommandLine
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPhotos
import MovieSearchQuery

/// `moviesearch show <id> [--cache <file>] [--flickr-key <key>] [--poster-size <size>] [--json]
/// [--favorites <file>] [--fetch] [--tmdb-key <key>] [--tmdb-endpoint <url>]`: one movie's details, a ♥ after the
/// title of a favorite; the poster TMDb gave for its title and year when it is kept (`serve` or `--fetch` found
/// it), or asked of TMDb with `--fetch`.
struct ShowCommand: Subcommand {
    static let name = "show"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Show a movie's details: title, year, rating, genres, cast, and the Flickr request for photos.",
        discussion: """
            When the catalog gave them, also: the original title, the overview, the poster's URL, the TMDb id \
            with the movie's TMDb page, and the IMDb id with its IMDb page. A poster found on TMDb by title and \
            year (by 'serve', or by --fetch) is shown when the catalog gives none.
            """,
        arguments: [id, CacheLocation.option, FlickrKey.option, PosterSize.option, json, FavoritesLocation.option,
                    fetch, TMDbOptions.key, TMDbOptions.endpoint])

    static let fetch = Flag(
        "fetch", help: "Ask TMDb for the poster (by title and year) when the catalog gives none and none is kept: "
            + "needs --tmdb-key, TMDB_API_KEY or TMDB_READ_ACCESS_TOKEN.")

    static let id = Argument<Int>(
        "id", rule: .movieID,
        help: "The movie's id: its position in the catalog, counting from 0, as 'query --json' prints it.")
    static let json = JSONOutput.flag(
        members: MovieJSON.members.helpList + ": the movie as 'query --json' lists it")

    var id: Int
    var files: CacheOptions
    var flickrKey: String?
    var posterSize: PosterSize
    var printsJSON: Bool
    var fetches: Bool
    var tmdbKey: String?
    var tmdbEndpoint: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = arguments[Self.id]!
        files = CacheOptions(arguments)
        flickrKey = arguments[FlickrKey.option]
        posterSize = arguments[PosterSize.option]
        printsJSON = arguments[Self.json]
        fetches = arguments[Self.fetch]
        tmdbKey = arguments[TMDbOptions.key]
        tmdbEndpoint = arguments[TMDbOptions.endpoint]
    }

    func run(_ context: CommandContext) throws {
        let index = try files.openCache(context)
        var movie = try index.movie(id: id)
        if movie.posterPath?.isEmpty ?? true {
            // The poster kept for this title and year; with --fetch, asked of TMDb when none is kept (a failure is
            // its one line and status 1).
            let posters = TMDbOptions.source(key: tmdbKey, endpoint: tmdbEndpoint, offline: !fetches,
                                             environment: context.environment)
            if fetches, !posters.asksTMDb {
                throw UsageError("--fetch needs a TMDb key: --tmdb-key <key>, TMDB_API_KEY or "
                    + "TMDB_READ_ACCESS_TOKEN")
            }
            let answer = try posters.poster(title: movie.title, year: movie.year)
            if let note = answer.note { context.warning(note) }
            if let path = answer.posterPath { movie.posterPath = path }
        }
        let isFavorite = try files.favoriteIDs(index: index, context).contains(movie.id)
        let out = context.standardOutput
        if printsJSON {
            out.line(bytes: MovieJSON.object(movie, scales: index.ratingScales, posterSize: posterSize, favorite: isFavorite).bytes)
            return
        }
        let request = FlickrPhotos.searchURL(title: movie.title, apiKey: FlickrKey.resolve(flickrKey, context))
        MovieText.write(movie, scales: index.ratingScales, isFavorite: isFavorite, flickrRequest: request, posterSize: posterSize,
                        width: context.terminal.width, to: out)
    }
}
