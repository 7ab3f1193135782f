import MovieSearch
import MovieSearchHTTP
import MovieSearchOutput

/// The API's routes: each answers with the bytes the matching CLI command prints with `--json` (the same renderers
/// of `MovieSearchOutput`), and each error as `{"error": "<one line>"}` with its status.
///
/// | request | answer |
/// |---|---|
/// | `GET /api/search?q=&per_year=&typos=auto\|off` | `query <q> --json` |
/// | `GET /api/movies/<id>` | `show <id> --json` |
/// | `GET /api/top?by=rating\|critic&limit=N` | `top --by … --limit N --json` |
/// | `GET /api/photos/<id>` | `photos <id> --json`, with the saved answer `<photos-dir>/<id>.json` if there is one |
/// | `GET /api/favorites` | `favorites list --json` |
/// | `PUT`, `DELETE /api/favorites/<id>` | `favorites add`, `favorites remove <id> --json` |
/// | `GET /healthz` | `{"status":"ok","movies":N,"cache":"<path>","format":<version>}` |
/// | `GET /`, `GET /movie/<id>` | the web page, `index.html` (the page's script reads the path and query) |
/// | `GET /static/app.js`, `/static/app.css` | its script and style sheet |
///
/// The page's files come from `WebAssets` (embedded at build time), looked up by name: no URL is ever mapped to a
/// file path.
package struct APIResponder: HTTPResponder {
    /// What the routes answer from, and their options.
    package struct Configuration: Sendable {
        /// The most movies per year a search may ask for: a whole year of a large catalog, and an answer of
        /// bounded size (the request's other limits bound its cost too).
        package static let maximumPerYear = 1000
        /// The longest top list a request may ask for.
        package static let maximumLimit = 1000
        /// The longest saved Flickr answer read, as `photos --response` allows.
        package static let maximumPhotoResponseBytes = 16 << 20

        /// The default of `typos` when a search does not give it.
        package var typos: TypoTolerance = .auto
        /// The folder of saved Flickr answers, `<id>.json` each; nil for none.
        package var photosDirectory: FilePath?
        /// The Flickr API key the photo requests carry.
        package var flickrKey: String

        /// A configuration with this key and the defaults.
        package init(flickrKey: String) {
            self.flickrKey = flickrKey
        }
    }

    package let cache: ServedCache
    package let favorites: ServedFavorites
    package let configuration: Configuration
    /// The movies' JSON, rendered once for all the answers that list them.
    private let rendered = RenderedMovies()

    /// Routes over this cache and these favorites.
    package init(cache: ServedCache, favorites: ServedFavorites, configuration: Configuration) {
        self.cache = cache
        self.favorites = favorites
        self.configuration = configuration
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        do {
            if let page = try webPage(request) { return page }
            let body = try route(request)
            var json = body.bytes
            json.append(0x0A)  // as the CLI prints it: one line
            return HTTPResponse(status: 200, contentType: Self.jsonType, body: json, isRevalidatable: true,
                                isCompressible: true)
        } catch {
            let failure = APIError.from(error)
            var response = errorResponse(status: failure.status, message: failure.description)
            if let allow = failure.allow { response.headers.append(HTTPRequest.Field(name: "Allow", value: allow)) }
            return response
        }
    }

    package func errorResponse(status: Int, message: String) -> HTTPResponse {
        var json = JSONWriter(capacity: message.utf8.count + 16)
        json.object { $0.member("error", message) }
        var body = json.bytes
        body.append(0x0A)
        return HTTPResponse(status: status, contentType: Self.jsonType, body: body)
    }

    static let jsonType = "application/json"

    // MARK: - Routing

    private func route(_ request: HTTPRequest) throws -> JSONWriter {
        let path: String
        do {
            path = try HTTPPercentDecoding.decodePath(request.path)
        } catch {
            throw APIError(400, error.description)
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch (parts.first, parts.count) {
        case ("healthz", 1):
            try allow(request, Self.reads)
            return try health(query(request, allowed: []))
        case ("api", _) where parts.count >= 2:
            let rest = Array(parts.dropFirst())
            switch (rest[0], rest.count) {
            case ("search", 1):
                try allow(request, Self.reads)
                return try search(query(request, allowed: ["q", "per_year", "typos"]))
            case ("movies", 2):
                try allow(request, Self.reads)
                _ = try query(request, allowed: [])
                return try movie(movieID(rest[1]))
            case ("top", 1):
                try allow(request, Self.reads)
                return try top(query(request, allowed: ["by", "limit"]))
            case ("photos", 2):
                try allow(request, Self.reads)
                _ = try query(request, allowed: [])
                return try photos(movieID(rest[1]))
            case ("favorites", 1):
                try allow(request, Self.reads)
                _ = try query(request, allowed: [])
                return try favoritesList()
            case ("favorites", 2):
                try allow(request, Self.writes)
                _ = try query(request, allowed: [])
                return try changeFavorite(movieID(rest[1]), add: request.method == "PUT")
            default:
                break
            }
        default:
            break
        }
        throw APIError(404, "no such endpoint: \(HTTPRequest.excerpt(path)) (the API is under /api: search, "
            + "movies/<id>, top, photos/<id>, favorites; and /healthz)")
    }

    /// The web page's answer to `request`, or nil when its path is not the page's: `/` and `/movie/<id>` (deep
    /// links the script resolves) are `index.html`, `/static/<name>` the script and style sheet, any other
    /// `/static/` path 404. The query is the script's (`/?q=dark`): not checked here.
    private func webPage(_ request: HTTPRequest) throws -> HTTPResponse? {
        let path = request.path
        let name: String
        if path == "/" || Self.isMoviePage(path) {
            name = "index.html"
        } else if path.hasPrefix("/static/") {
            let asked = path.dropFirst("/static/".count)
            guard asked != "index.html", WebAssets.files[String(asked)] != nil else {
                throw APIError(404, "no such file: \(HTTPRequest.excerpt(path)) (the page's files are "
                    + "/static/app.js and /static/app.css)")
            }
            name = String(asked)
        } else {
            return nil
        }
        try allow(request, Self.reads)
        guard let file = WebAssets.files[name] else { throw APIError(500, "the page's \(name) is not embedded") }
        return HTTPResponse(status: 200, contentType: file.contentType, body: file.bytes, isRevalidatable: true,
                            isCompressible: true)
    }

    /// Whether `path` is `/movie/<digits>`, a movie's details page.
    private static func isMoviePage(_ path: Substring) -> Bool {
        let prefix = "/movie/"
        guard path.hasPrefix(prefix) else { return false }
        let id = path.utf8.dropFirst(prefix.utf8.count)
        return !id.isEmpty && id.count <= 18 && id.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The methods of the endpoints that read, and of those that change favorites.
    private static let reads = ["GET", "HEAD"], writes = ["PUT", "DELETE"]

    /// 405 with `Allow` unless the method is one of `methods` (a `HEAD` arrives as `GET`).
    private func allow(_ request: HTTPRequest, _ methods: [String]) throws {
        guard !methods.contains(request.method) else { return }
        let list = methods.joined(separator: ", ")
        throw APIError(405, "\(HTTPRequest.excerpt(request.method)) is not allowed here (allowed: \(list))",
                       allow: list)
    }

    /// The query's parameters by name: each at most once, and only those `allowed` (a misspelt one is an error,
    /// not silently a default).
    private func query(_ request: HTTPRequest, allowed: Set<String>) throws -> [String: String] {
        guard let query = request.query, !query.isEmpty else { return [:] }
        let items: [HTTPPercentDecoding.QueryItem]
        do {
            items = try HTTPPercentDecoding.queryItems(query)
        } catch {
            throw APIError(400, error.description)
        }
        var parameters: [String: String] = [:]
        for item in items {
            guard allowed.contains(item.name) else {
                let known = allowed.isEmpty ? "this endpoint takes none" : "known: " + allowed.sorted().joined(
                    separator: ", ")
                throw APIError(400, "unknown parameter '\(HTTPRequest.excerpt(item.name))' (\(known))")
            }
            guard parameters.updateValue(item.value, forKey: item.name) == nil else {
                throw APIError(400, "parameter '\(item.name)' is given more than once")
            }
        }
        return parameters
    }

    private func movieID(_ text: Substring) throws -> Int {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(text) else {
            throw APIError(400, "'\(HTTPRequest.excerpt(text))' is not a movie id (a number from 0)")
        }
        return id
    }

    private func integer(_ parameters: [String: String], _ name: String, default value: Int, range: ClosedRange<Int>)
        throws -> Int
    {
        guard let text = parameters[name] else { return value }
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text),
              range.contains(number) else {
            throw APIError(400, "\(name) must be a number from \(range.lowerBound) to \(range.upperBound), "
                + "not '\(HTTPRequest.excerpt(text))'")
        }
        return number
    }

    // MARK: - Endpoints

    private func health(_ parameters: [String: String]) throws -> JSONWriter {
        let snapshot = cache.snapshot()
        var json = JSONWriter()
        json.object { json in
            json.member("status", "ok")
            json.member("movies", snapshot.index.movieCount)
            json.member("cache", cache.path.description)
            json.member("format", Int(CacheFormat.version))
        }
        return json
    }

    private func search(_ parameters: [String: String]) throws -> JSONWriter {
        guard let text = parameters["q"] else { throw APIError(400, "missing parameter 'q' (the words to look for)") }
        let perYear = try integer(parameters, "per_year", default: 5, range: 0...Configuration.maximumPerYear)
        var typos = configuration.typos
        if let given = parameters["typos"] {
            guard let value = TypoTolerance(rawValue: given) else {
                throw APIError(400, "typos must be auto or off, not '\(HTTPRequest.excerpt(given))'")
            }
            typos = value
        }
        let snapshot = cache.snapshot()
        let result = try snapshot.index.search(text, perYear: perYear, typos: typos)
        let movies = try rendered.renderings(of: result.years.flatMap(\.movieIDs), in: snapshot)
        var next = 0
        // `AnswerJSON` asks for the listed movies in their order, the order `renderings` returns them in.
        return try AnswerJSON.object(result, rendered: { id in
            guard next < movies.count, movies[next].id == id else {
                throw APIError(500, "movie \(id) of the answer was not rendered")
            }
            next += 1
            return movies[next - 1]
        }, favorites: favorites.ids(in: snapshot))
    }

    private func movie(_ id: Int) throws -> JSONWriter {
        let snapshot = cache.snapshot()
        let movie = try snapshot.index.movie(id: id)
        return MovieJSON.object(movie, scales: snapshot.index.ratingScales, posterSize: PosterSize.defaultSize,
                                favorite: favorites.ids(in: snapshot).contains(movie.id))
    }

    private func top(_ parameters: [String: String]) throws -> JSONWriter {
        var order = TopListOrder.rating
        if let given = parameters["by"] {
            guard let value = TopListOrder(rawValue: given) else {
                throw APIError(400, "by must be rating or critic, not '\(HTTPRequest.excerpt(given))'")
            }
            order = value
        }
        let limit = try integer(parameters, "limit", default: 15, range: 0...Configuration.maximumLimit)
        let snapshot = cache.snapshot()
        let movies = try snapshot.index.topRated(by: order, limit: limit)
        return TopListJSON.object(movies, by: order, scales: snapshot.index.ratingScales, favorites: favorites.ids(in: snapshot))
    }

    private func photos(_ id: Int) throws -> JSONWriter {
        let movie = try cache.snapshot().index.movie(id: id)
        let request = FlickrPhotos.searchURL(title: movie.title, apiKey: configuration.flickrKey)
        var photos: PhotoList?
        if let folder = configuration.photosDirectory {
            let path = folder + "/\(id).json"
            let source = "\(id).json"
            do {
                let input = try JSONInput.read(path: path, maximumBytes: Configuration.maximumPhotoResponseBytes,
                                               waitingForAWriter: false)
                photos = try FlickrPhotos.photos(fromResponse: input.bytes, source: source)
            } catch let FileReader.Failure.system(error) where error.code == Syscalls.Errno.noSuchFile {
                photos = nil  // no saved answer for this movie: the request alone, as `photos` without --response
            } catch let error as FileReader.Failure {
                throw APIError(500, "cannot read the saved Flickr answer \(source): \(error)")
            }
        }
        return PhotosOutput.json(movie, request: request, photos: photos)
    }

    private func favoritesList() throws -> JSONWriter {
        let snapshot = cache.snapshot()
        let store = try favorites.store(in: snapshot)
        let movies = try AnswerOrder.sorted(store.favorites.map { try snapshot.index.movie(id: $0.id) })
        return FavoritesOutput.listJSON(movies, scales: snapshot.index.ratingScales, missing: store.missingWithReasons)
    }

    private func changeFavorite(_ id: Int, add: Bool) throws -> JSONWriter {
        let snapshot = cache.snapshot()
        if add {
            let movie = try snapshot.index.movie(id: id)
            return try favorites.update(in: snapshot) { store in
                let changed = store.add(movie)
                return (FavoritesOutput.changeJSON(movie, scales: snapshot.index.ratingScales, favorite: true, changed: ("added", changed)), changed)
            }
        }
        return try favorites.update(in: snapshot) { store in
            guard store.remove(id: id) != nil else {
                if let movie = try? snapshot.index.movie(id: id) {
                    return (FavoritesOutput.changeJSON(movie, scales: snapshot.index.ratingScales, favorite: false,
                                                       changed: ("removed", false)), false)
                }
                return (FavoritesOutput.changeJSON(id: id), false)
            }
            let movie = try snapshot.index.movie(id: id)
            return (FavoritesOutput.changeJSON(movie, scales: snapshot.index.ratingScales, favorite: false,
                                               changed: ("removed", true)), true)
        }
    }
}
