import MovieSearch

/// `moviesearch show <id> [--cache <file>] [--flickr-key <key>]`: one movie's details.
struct ShowCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a movie's details: title, year, rating, genres, cast, and the Flickr request for photos.",
        arguments: [id, CacheLocation.option, FlickrKey.option])

    static let id = Argument<Int>(
        "id", rule: .movieID,
        help: "The movie's id: its position in the catalog, counting from 0, as 'query --json' prints it.")

    var id: Int
    var cache: FilePath?
    var flickrKey: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = arguments[Self.id]!
        cache = arguments[CacheLocation.option]
        flickrKey = arguments[FlickrKey.option]
    }

    func run(_ context: CommandContext) throws {
        let movie = try CacheLocation.open(cache, context).movie(id: id)
        let request = FlickrPhotos.searchURL(title: movie.title, apiKey: FlickrKey.resolve(flickrKey, context))
        let rows = [
            ("id", String(movie.id)),
            ("year", String(movie.year)),
            ("rating", TextLayout.rating(movie.rating) ?? "unrated"),
            ("genres", movie.genres.isEmpty ? "none listed" : safeList(movie.genres)),
            ("cast", movie.cast.isEmpty ? "none listed" : safeList(movie.cast)),
            ("flickr", TerminalSafeText.escaped(request)),
        ]
        let out = context.standardOutput
        out.line(TerminalSafeText.escaped(movie.title))
        let labelWidth = rows.map(\.0.count).max()!
        let indent = String(repeating: " ", count: labelWidth + 4)
        for (label, value) in rows {
            let prefix = "  " + TextLayout.padRight(label, labelWidth) + "  "
            // Long cast lists wrap under themselves on a terminal; a pipe gets one line per field, for grep.
            if let width = context.terminal.width, label != "flickr" {
                out.write(TextLayout.wrap(value, width: width, firstPrefix: prefix, indent: indent))
            } else {
                out.line(prefix + value)
            }
        }
    }

    /// Names as one line, each escaped (TerminalSafeText), so a name cannot break the line or drive the terminal.
    private func safeList(_ names: [String]) -> String {
        names.map(TerminalSafeText.escaped).joined(separator: ", ")
    }
}
