import MovieSearchCatalog
import MovieSearchCommandLine
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPhotos
import MovieSearchQuery

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
        members: MovieJSON.members.helpList + ": the movie as 'query --json' lists it")

    var id: Int
    var files: CacheOptions
    var flickrKey: String?
    var posterSize: PosterSize
    var printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = arguments[Self.id]!
        files = CacheOptions(arguments)
        flickrKey = arguments[FlickrKey.option]
        posterSize = arguments[PosterSize.option] ?? PosterSize.defaultSize
        printsJSON = arguments[Self.json]
    }

    func run(_ context: CommandContext) throws {
        let index = try files.openCache(context)
        let movie = try index.movie(id: id)
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
