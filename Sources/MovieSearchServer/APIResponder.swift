import MovieSearchCatalog
import MovieSearchFavorites
import MovieSearchHTTP
import MovieSearchIndex
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPhotos
import MovieSearchPlatform
import MovieSearchQuery

/// The API's routes: each answers with the bytes the matching CLI command prints with `--json` (the same renderers
/// of `MovieSearchOutput`), and each error as `{"error": "<one line>"}` with its status.
///
/// | request | answer |
/// |---|---|
/// | `GET /api/search?q=&per_year=&typos=auto\|off` | `query <q> --json` |
/// | `…&year=Y\|A..B\|A..\|..B&genre=&cast=&min_rating=&min_critic=&facets=genre` | `query <q> --year … --genre … --json`: `genre` and `cast` may be repeated |
/// | `GET /api/movies/<id>` | `show <id> --json` |
/// | `GET /api/top?by=rating\|critic&limit=N` | `top --by … --limit N --json`, with the filters of `/api/search` |
/// | `GET /api/genres` | every genre with its count, as the genre facet orders them: `{"genres":[{"name":"Drama","count":N},…]}` |
/// | `GET /api/movies/<id>/poster` | the catalog's poster, else TMDb's by title and year (w185 and w500), or null |
/// | `GET /api/photos/<id>` | `photos <id> --json`: saved (`<photos-dir>/<id>.json`), cached, or fetched from Flickr |
/// | `GET /api/photos/<id>?cached_only=1` | the same, saved or cached only: never a fetch (`photos` null) |
/// | `GET /api/favorites` | `favorites list --json` |
/// | `PUT`, `DELETE /api/favorites/<id>` | `favorites add`, `favorites remove <id> --json` |
/// | `GET /api/config` | the numbers the page uses: `{"default_per_year":5,"maximum_per_year":1000,"top_list_length":15,"maximum_top_length":1000}` (`APIResponder.config`) |
/// | `GET /healthz` | `{"status":"ok","movies":N,"cache":"<path>","format":<version>}`; `"degraded"` with a `"problem"` when a replacement was refused; 503 when the cache was changed in place |
/// | `GET /`, `GET /movie/<id>` | the web page, `index.html` (the page's script reads the path and query) |
/// | `GET /static/app.js`, `/static/app.css` | its script and style sheet |
///
/// The page's files come from `WebAssets` (embedded at build time), looked up by name: no URL is ever mapped to a
/// file path.
///
/// Every other request takes one snapshot of the cache and answers from it, checking that its file is intact
/// (`ServedCache.isIntact`: an atomic load and one `fstat`) once its answer is computed (a `PUT` or `DELETE` before
/// as well): when the file was written over in place, the answer (or the error its damaged bytes caused) is thrown
/// away for a 503 with `Retry-After: 1`.
package struct APIResponder: HTTPResponder {
    /// What the routes answer from, and their options.
    package struct Configuration: Sendable {
        /// The most movies per year a search may ask for: a whole year of a large catalog, and an answer of
        /// bounded size (the request's other limits bound its cost too).
        package static let maximumPerYear = 1000
        /// The longest top list a request may ask for.
        package static let maximumLimit = 1000
        /// The most values a repeatable filter (`genre`, `cast`) may have in one request: every one is a filter
        /// each movie is tested against, and no real search needs more.
        package static let maximumFilterValues = 16
        /// The longest genre or cast name a filter may give, in bytes: longer than any name of a catalog.
        package static let maximumFilterNameBytes = 200

        /// The default of `typos` when a search does not give it.
        package var typos: TypoTolerance = .auto
        /// The folder of saved Flickr answers, `<id>.json` each; nil for none.
        package var photosDirectory: FilePath?
        /// The Flickr API key the photo requests carry.
        package var flickrKey: String
        /// Where photos come from (saved, cached, fetched); `nil`: the saved folder and the key above, never a fetch.
        package var photoSource: FlickrPhotoSource?
        /// Where posters the catalog does not give come from (kept, or asked of TMDb); `nil`: the catalog's only.
        package var posterSource: TMDbPosterSource?

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
    /// The photos' one reader.
    private let photoSource: FlickrPhotoSource

    /// Routes over this cache and these favorites.
    package init(cache: ServedCache, favorites: ServedFavorites, configuration: Configuration) {
        self.cache = cache
        self.favorites = favorites
        self.configuration = configuration
        var settings = FlickrPhotoSource.Settings(apiKey: configuration.flickrKey)
        settings.savedFolder = configuration.photosDirectory
        photoSource = configuration.photoSource ?? FlickrPhotoSource(settings: settings, fetcher: nil)
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let snapshot = cache.snapshot()
        do {
            if let page = try webPage(request) { return page }
            // One check after the answer is computed is enough for a read: the snapshot's identity is fixed, so a
            // change at any moment before the check is seen by it. A write checks before as well, so that a
            // favorite is never added from bytes that are not the checked file's.
            if Self.writes.contains(request.method) { try checkIntact(snapshot, request) }
            let body = try route(request, snapshot)
            try checkIntact(snapshot, request)
            var json = body.bytes
            json.append(0x0A)  // as the CLI prints it: one line
            return HTTPResponse(status: 200, contentType: Self.jsonType, body: json, isRevalidatable: true,
                                isCompressible: true)
        } catch {
            var failure = APIError.from(error)
            // An error may come from bytes that changed underneath (a checksum that no longer matches, zeros):
            // while the file is being replaced, the answer is the 503 that says so, not the error.
            if failure.status != 503, !cache.isIntact(snapshot) { failure = Self.beingReplaced(cache.path) }
            var response = errorResponse(status: failure.status, message: failure.description)
            if let allow = failure.allow { response.headers.append(HTTPRequest.Field(name: "Allow", value: allow)) }
            if let seconds = failure.retryAfter {
                response.headers.append(HTTPRequest.Field(name: "Retry-After", value: "\(seconds)"))
            }
            return response
        }
    }

    /// Photos, which may be fetched from Flickr, by the `.network` workers, so that a Flickr that hangs holds no
    /// other answer; favorites (the file and its lock) and cached photos by the `.blocking` workers, so that
    /// a lock held by another process never holds the others; searches and top lists, whose answers may be large
    /// and slow to render, by the `.heavy` ones; the rest (health, one movie, the page) by the `.quick` ones.
    package func lane(for request: HTTPRequest) -> HTTPLane {
        // Decoded as `route` decodes it, so that `/api/%66avorites` takes the lane of `/api/favorites`.
        let path = (try? HTTPPercentDecoding.decodePath(request.path)) ?? String(request.path)
        // A photo fetch waits on Flickr (up to its time limit): a lane of its own. Asking for the cached answer
        // only reads a small file at most.
        if path.hasPrefix("/api/photos") { return request.query?.contains("cached_only") == true ? .blocking : .network }
        // A poster may be asked of TMDb (up to its time limit, or a wait for its rate): the same lane. Without a key
        // (or offline) it reads a small file at most: then never behind a Flickr that hangs.
        if path.hasPrefix("/api/movies/") && path.hasSuffix("/poster") {
            return configuration.posterSource?.asksTMDb == true ? .network : .blocking
        }
        if path.hasPrefix("/api/favorites") { return .blocking }
        if path.hasPrefix("/api/search") || path.hasPrefix("/api/top") { return .heavy }
        return .quick
    }

    /// Throws the 503 of a cache being replaced unless `snapshot`'s file is intact (`ServedCache.isIntact`);
    /// `/healthz` says why at length (`ServedCache.health()`).
    private func checkIntact(_ snapshot: ServedCache.Snapshot, _ request: HTTPRequest) throws(APIError) {
        guard cache.isIntact(snapshot) else {
            if request.path == "/healthz", case let .unavailable(reason) = cache.health() {
                throw APIError(503, reason, retryAfter: 1)
            }
            throw Self.beingReplaced(cache.path)
        }
    }

    /// The answer while the cache file is written over in place: the bytes are not the checked file's any more.
    static func beingReplaced(_ path: FilePath) -> APIError {
        APIError(503, "the cache \(path) is being replaced (it was written over in place); try again",
                 retryAfter: 1)
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

    private func route(_ request: HTTPRequest, _ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        // Split at the slashes of the target before decoding each segment: an encoded slash (`/api%2Fsearch`) is
        // a character of its segment, not a separator, as RFC 3986 has it.
        let path: String
        let parts: ArraySlice<Substring>
        do {
            path = try HTTPPercentDecoding.decodePath(request.path)
            parts = try request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                (segment) throws(HTTPParseError) in Substring(try HTTPPercentDecoding.decodePath(segment))
            }[...]
        } catch {
            throw APIError(400, "\(error)")
        }
        switch (parts.first, parts.count) {
        case ("api", 2) where parts.last == "config":
            try allow(request, Self.reads)
            _ = try query(request, allowed: [])
            return Self.config()
        case ("healthz", 1):
            try allow(request, Self.reads)
            _ = try query(request, allowed: [])
            return try health(snapshot)
        case ("api", _) where parts.count >= 2:
            let rest = Array(parts.dropFirst())
            switch (rest[0], rest.count) {
            case ("search", 1):
                try allow(request, Self.reads)
                let parameters = try parameters(request, allowed: Self.filterParameters.union(["q", "per_year", "typos",
                                                                                               "facets"]))
                return try search(parameters, snapshot)
            case ("genres", 1):
                try allow(request, Self.reads)
                _ = try query(request, allowed: [])
                return try genres(snapshot)
            case ("movies", 2):
                try allow(request, Self.reads)
                _ = try query(request, allowed: [])
                return try movie(movieID(rest[1]), snapshot)
            case ("movies", 3) where rest[2] == "poster":
                try allow(request, Self.reads)
                _ = try query(request, allowed: [])
                return try poster(movieID(rest[1]), snapshot)
            case ("top", 1):
                try allow(request, Self.reads)
                return try top(parameters(request, allowed: Self.filterParameters.union(["by", "limit"])), snapshot)
            case ("photos", 2):
                try allow(request, Self.reads)
                return try photos(movieID(rest[1]), query(request, allowed: ["cached_only"]), snapshot)
            case ("favorites", 1):
                try allow(request, Self.reads)
                _ = try query(request, allowed: [])
                return try favoritesList(snapshot)
            case ("favorites", 2):
                try allow(request, Self.writes)
                _ = try query(request, allowed: [])
                return try changeFavorite(movieID(rest[1]), add: request.method == "PUT", snapshot)
            default:
                break
            }
        default:
            break
        }
        throw APIError(404, "no such endpoint: \(HTTPRequest.excerpt(path)) (the API is under /api: search, "
            + "movies/<id>, top, genres, photos/<id>, favorites, config; and /healthz)")
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
        try parameters(request, allowed: allowed).single
    }

    /// The filters' parameters (SEARCH-SPEC, "Filters and facets"), which `/api/search` and `/api/top` take.
    private static let filterParameters: Set<String> = ["year", "genre", "cast", "min_rating", "min_critic"]
    /// The parameters that may be given more than once, each value one more filter that must hold: the CLI's
    /// repeatable `--genre` and `--cast`.
    private static let repeatable: Set<String> = ["genre", "cast"]

    /// A query's parameters: those given once by name, and the repeatable ones (`repeatable`) with all their
    /// values in order.
    private struct Parameters {
        var single: [String: String] = [:]
        var repeated: [String: [String]] = [:]

        subscript(name: String) -> String? { single[name] }
    }

    /// The query's parameters: only those `allowed`, each at most once but for the `repeatable` ones.
    private func parameters(_ request: HTTPRequest, allowed: Set<String>) throws -> Parameters {
        guard let query = request.query, !query.isEmpty else { return Parameters() }
        let items: [HTTPPercentDecoding.QueryItem]
        do {
            items = try HTTPPercentDecoding.queryItems(query)
        } catch {
            throw APIError(400, error.description)
        }
        var parameters = Parameters()
        for item in items {
            guard allowed.contains(item.name) else {
                let known = allowed.isEmpty ? "this endpoint takes none" : "known: " + allowed.sorted().joined(
                    separator: ", ")
                throw APIError(400, "unknown parameter '\(HTTPRequest.excerpt(item.name))' (\(known))")
            }
            if Self.repeatable.contains(item.name) {
                guard item.value.utf8.count <= Configuration.maximumFilterNameBytes else {
                    throw APIError(400, "\(item.name) '\(HTTPRequest.excerpt(item.value))' is too long (at most "
                        + "\(Configuration.maximumFilterNameBytes) bytes)")
                }
                guard parameters.repeated[item.name, default: []].count < Configuration.maximumFilterValues else {
                    throw APIError(400, "parameter '\(item.name)' is given more than "
                        + "\(Configuration.maximumFilterValues) times")
                }
                parameters.repeated[item.name, default: []].append(item.value)
                continue
            }
            guard parameters.single.updateValue(item.value, forKey: item.name) == nil else {
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

    /// The filters the parameters give (`year`, `genre`, `cast`, `min_rating`, `min_critic`), read as the CLI reads
    /// its options (`FilterValue`).
    private func filters(_ parameters: Parameters) throws -> SearchFilters {
        var filters = SearchFilters(genres: parameters.repeated["genre"] ?? [], cast: parameters.repeated["cast"] ?? [])
        if let text = parameters["year"] {
            guard let range = FilterValue.yearRange(text) else {
                throw APIError(400, "year must be \(FilterValue.yearRangeExpectation), not '\(HTTPRequest.excerpt(text))'")
            }
            filters.lowestYear = range.lowest
            filters.highestYear = range.highest
        }
        for (name, path) in [("min_rating", \SearchFilters.minimumRating), ("min_critic", \.minimumCriticRating)] {
            guard let text = parameters[name] else { continue }
            guard let value = FilterValue.number(text) else {
                throw APIError(400, "\(name) must be \(FilterValue.numberExpectation), not '\(HTTPRequest.excerpt(text))'")
            }
            filters[keyPath: path] = value
        }
        return filters
    }

    private func integer(_ parameters: Parameters, _ name: String, default value: Int, range: ClosedRange<Int>)
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

    /// `ok`, or `degraded` with the `problem` (a replacement was refused; the previous cache still answers, so a
    /// load balancer should keep this server: 200). A cache written over in place answers nothing: 503 (thrown by
    /// the check before the route, or here if it happened since).
    private func health(_ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        var problem: String?
        switch cache.health() {
        case .ok: break
        case let .degraded(reason): problem = reason
        case let .unavailable(reason): throw APIError(503, reason, retryAfter: 1)
        }
        var json = JSONWriter()
        json.object { json in
            json.member("status", problem == nil ? "ok" : "degraded")
            json.member("movies", snapshot.index.movieCount)
            json.member("cache", cache.path.description)
            json.member("format", Int(CacheFormat.version))
            if let problem { json.member("problem", problem) }
        }
        return json
    }

    /// The numbers the page asks with and caps its requests by, read at its start instead of copied into it: the
    /// defaults that `search` and `top` use when a request leaves them out, and the largest values they take.
    /// They are the server's alone (no snapshot: the cache is not read, and nothing here can be replaced).
    static func config() -> JSONWriter {
        var json = JSONWriter()
        json.object { json in
            json.member("default_per_year", SearchLimits.defaultPerYear)
            json.member("maximum_per_year", Configuration.maximumPerYear)
            json.member("top_list_length", SearchLimits.topListLength)
            json.member("maximum_top_length", Configuration.maximumLimit)
        }
        return json
    }

    private func search(_ parameters: Parameters, _ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        guard let text = parameters["q"] else { throw APIError(400, "missing parameter 'q' (the words to look for)") }
        let perYear = try integer(parameters, "per_year", default: SearchLimits.defaultPerYear,
                                  range: 0...Configuration.maximumPerYear)
        var typos = configuration.typos
        if let given = parameters["typos"] {
            guard let value = TypoTolerance(rawValue: given) else {
                throw APIError(400, "typos must be auto or off, not '\(HTTPRequest.excerpt(given))'")
            }
            typos = value
        }
        let filters = try filters(parameters)
        var genreFacet = false
        if let facets = parameters["facets"] {
            guard FilterValue.facetNames.contains(facets) else {
                throw APIError(400, "facets must be \(FilterValue.facetNames.joined(separator: " or ")), not "
                    + "'\(HTTPRequest.excerpt(facets))'")
            }
            genreFacet = true
        }
        let result = try snapshot.index.search(text, perYear: perYear, typos: typos, filters: filters,
                                               genreFacet: genreFacet)
        let movies = try rendered.renderings(of: result.years.flatMap(\.movieIDs), in: snapshot)
        var next = 0
        // `AnswerJSON` asks for the listed movies in their order, the order `renderings` returns them in.
        return try AnswerJSON.object(result, rendered: { id in
            guard next < movies.count, movies[next].id == id else {
                throw APIError(500, "movie \(id) of the answer was not rendered")
            }
            next += 1
            return movies[next - 1]
        }, favorites: favorites.ids(in: snapshot), filters: filters)
    }

    /// Every genre with how many movies have it (`MovieIndex.genreCounts`): the chips of a page with no query yet.
    private func genres(_ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        let counts = try snapshot.index.genreCounts()
        var json = JSONWriter()
        json.object { json in
            json.key("genres")
            json.array { json in
                for entry in counts {
                    json.object { json in
                        json.member("name", entry.name)
                        json.member("count", entry.count)
                    }
                }
            }
        }
        return json
    }

    private func movie(_ id: Int, _ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        let movie = try snapshot.index.movie(id: id)
        return MovieJSON.object(movie, scales: snapshot.index.ratingScales, posterSize: PosterSize.defaultSize,
                                favorite: favorites.ids(in: snapshot).contains(movie.id))
    }

    /// `{"id":7,"poster":"https://image.tmdb.org/t/p/w185/….jpg","poster_large":"…/w500/….jpg"}`: the catalog's
    /// poster when it gives one, else TMDb's found by title and year (kept, or asked: see `TMDbPosterSource`), else
    /// `null` for both: the card keeps its grey box.
    private func poster(_ id: Int, _ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        let movie = try snapshot.index.movie(id: id)
        var path = movie.posterPath.flatMap { PosterSize.w185.url(posterPath: $0) == nil ? nil : $0 }
        if path == nil, let source = configuration.posterSource {
            do {
                path = try source.poster(title: movie.title, year: movie.year).posterPath
            } catch {
                var retryAfter: Int?
                if case let .busy(_, seconds) = error { retryAfter = seconds }
                throw APIError(error.status, error.description, retryAfter: retryAfter)
            }
        }
        var json = JSONWriter()
        json.object { object in
            object.member("id", movie.id)
            for (name, size) in [("poster", PosterSize.w185), ("poster_large", PosterSize.w500)] {
                if let url = path.flatMap(size.url(posterPath:)) {
                    object.member(name, url)
                } else {
                    object.key(name)
                    object.null()
                }
            }
        }
        return json
    }

    private func top(_ parameters: Parameters, _ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        var order = TopListOrder.rating
        if let given = parameters["by"] {
            guard let value = TopListOrder(rawValue: given) else {
                throw APIError(400, "by must be rating or critic, not '\(HTTPRequest.excerpt(given))'")
            }
            order = value
        }
        let limit = try integer(parameters, "limit", default: SearchLimits.topListLength,
                                range: 0...Configuration.maximumLimit)
        let movies = try snapshot.index.topRated(by: order, limit: limit, filters: filters(parameters))
        return TopListJSON.object(movies, by: order, scales: snapshot.index.ratingScales, favorites: favorites.ids(in: snapshot))
    }

    /// `photos <id> --json`'s bytes, through the one `FlickrPhotoSource` (saved, cached, fetched); with
    /// `cached_only=1`, the saved or cached answer only, never a fetch (what a card without a poster shows).
    private func photos(_ id: Int, _ parameters: [String: String], _ snapshot: ServedCache.Snapshot) throws
        -> JSONWriter
    {
        let movie = try snapshot.index.movie(id: id)
        let request = photoSource.request(title: movie.title)
        if let flag = parameters["cached_only"] {
            guard flag == "1" else {
                throw APIError(400, "cached_only must be 1, not '\(HTTPRequest.excerpt(flag))'")
            }
            return PhotosOutput.json(movie, request: request, photos: photoSource.cachedPhotos(movieID: id, title: movie.title))
        }
        do {
            let answer = try photoSource.photos(movieID: id, title: movie.title)
            return PhotosOutput.json(movie, request: request, photos: answer.list)
        } catch {
            var retryAfter: Int?
            if case let .busy(_, seconds) = error { retryAfter = seconds }
            throw APIError(error.status, error.description, retryAfter: retryAfter)
        }
    }

    private func favoritesList(_ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        let store = try favorites.store(in: snapshot)
        let movies = try AnswerOrder.sorted(store.favorites.map { try snapshot.index.movie(id: $0.id) })
        return FavoritesOutput.listJSON(movies, scales: snapshot.index.ratingScales, missing: store.missingWithReasons)
    }

    private func changeFavorite(_ id: Int, add: Bool, _ snapshot: ServedCache.Snapshot) throws -> JSONWriter {
        let scales = snapshot.index.ratingScales
        if add {
            let movie = try snapshot.index.movie(id: id)
            return try favorites.change(in: snapshot) { try FavoritesOutput.changeJSON($0.add(movie), scales: scales) }
        }
        return try favorites.change(in: snapshot) { try FavoritesOutput.changeJSON($0.remove(id: id), scales: scales) }
    }
}
