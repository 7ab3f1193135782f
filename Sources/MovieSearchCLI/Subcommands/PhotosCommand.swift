import MovieSearch

/// `moviesearch photos <id> [--cache <file>] [--response <file|->] [--flickr-key <key>] [--json]`: the Flickr
/// request for a movie's photos and, from a saved response, the photo URLs. Never opens a network connection.
struct PhotosCommand: Subcommand {
    static let id = Argument<Int>("id", rule: .movieID, help: "The movie's id, as 'query --json' prints it.")
    static let response = Option<FilePath>(
        "response", valueName: "file|-",
        help: "A saved answer to the request (Flickr photos.search, JSON): a file, or '-' for standard input.")
    static let json = JSONOutput.flag(members: "id, title, request, and photos, the URLs (null without --response)")

    static let configuration = CommandConfiguration(
        name: "photos",
        abstract: "Print the Flickr photo search request for a movie, and the photo URLs of a saved answer.",
        discussion: """
            On a terminal the photo URLs come in two columns when they fit; otherwise one per line. Photos of the \
            answer that lack a field are skipped, with a warning that counts them.
            """,
        arguments: [id, CacheLocation.option, response, FlickrKey.option, json])

    var id: Int
    var cache: FilePath?
    var responsePath: FilePath?
    var flickrKey: String?
    var printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = arguments[Self.id]!
        cache = arguments[CacheLocation.option]
        responsePath = arguments[Self.response]
        flickrKey = arguments[FlickrKey.option]
        printsJSON = arguments[Self.json]
    }

    func run(_ context: CommandContext) throws {
        let movie = try CacheLocation.open(cache, context).movie(id: id)
        let request = FlickrPhotos.searchURL(title: movie.title, apiKey: FlickrKey.resolve(flickrKey, context))
        var photos: PhotoList?
        if let responsePath {
            // Errors and warnings name standard input as the library does.
            let source = responsePath == FilePath("-") ? "<stdin>" : responsePath.description
            let list = try readPhotos(responsePath, source: source, context)
            if list.skipped > 0 {
                context.warning("skipped \(TextLayout.count(list.skipped, "photo", "photos")) with a missing or bad "
                    + "field in \(source)")
            }
            photos = list
        }

        let out = context.standardOutput
        if printsJSON {
            var json = JSONWriter()
            json.object { json in
                json.member("id", movie.id)
                json.member("title", movie.title)
                json.member("request", request)
                json.key("photos")
                if let photos { json.value(photos.urls) } else { json.null() }
            }
            out.line(bytes: json.bytes)
            return
        }
        // Every string here comes from data (the URLs are built from it): escaped, see TerminalSafeText.
        out.line("\(TerminalSafeText.escaped(movie.title)) (\(movie.year))")
        out.line("request: \(TerminalSafeText.escaped(request))")
        guard let photos else { return }
        if photos.urls.isEmpty {
            out.line("no pictures")
            return
        }
        out.line(TextLayout.count(photos.urls.count, "photo:", "photos:"))
        let urls = photos.urls.map(TerminalSafeText.escaped)
        let lines = context.terminal.width.map { TextLayout.twoColumns(urls, width: $0) } ?? urls
        for line in lines { out.line(line) }
    }

    private func readPhotos(_ path: FilePath, source: String, _ context: CommandContext) throws -> PhotoList {
        let read = path == FilePath("-") ? context.standardInput.readAll() : System.readFile(path)
        switch read {
        case let .success(bytes):
            return try FlickrPhotos.photos(fromResponse: bytes, source: source)
        case let .failure(cause):
            throw FileReadError(role: "Flickr response", path: source, cause: cause)
        }
    }
}
