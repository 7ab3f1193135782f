import Foundation
import MovieSearch
import MovieSearchHTTP
import MovieSearchOutput
import MovieSearchServer
import Synchronization
import TestSupport
import XCTest

/// `APIResponder` in-process, without a socket: each route answers the output layer's bytes (what the CLI prints
/// with `--json`) and a line feed; each bad request a `{"error": …}` with its status.
final class APIResponderTests: XCTestCase {
    /// `Fixtures.small`, some with a critics' rating, so that `top --by critic` lists a few.
    static let catalog = Catalog(movies: Fixtures.small.movies.map { movie in
        var movie = movie
        if movie.id % 3 == 0 { movie.criticRating = Double(movie.id % 7) + 1.5 }
        return movie
    })

    private var folder = ""
    private var cache: ServedCache!
    private var warnings: Warnings!

    /// The lines `ServedFavorites` warns, gathered from whatever thread warns them.
    final class Warnings: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    override func setUpWithError() throws {
        folder = try TestPaths.temporaryFolder(self).path
        let path = folder + "/test.mscache"
        _ = try CacheWriter.write(Self.catalog, to: path)
        cache = try ServedCache(path: FilePath(path))
        warnings = Warnings()
    }

    private var index: MovieIndex { cache.snapshot().index }

    private func responder(_ storage: ServedFavorites.Storage? = nil, photos: String? = nil) -> APIResponder {
        let warnings = warnings!
        let favorites = ServedFavorites(storage ?? .memory(FavoriteList()), warn: { warnings.add($0) })
        var configuration = APIResponder.Configuration(flickrKey: "k3y")
        configuration.photosDirectory = photos.map(FilePath.init)
        return APIResponder(cache: cache, favorites: favorites, configuration: configuration)
    }

    private func request(_ target: String, method: String = "GET") -> HTTPRequest {
        HTTPRequest(method: method, target: target, version: .http1_1,
                    headers: [HTTPRequest.Field(name: "Host", value: "127.0.0.1:8080")])
    }

    /// The answer of `api` to `method target`.
    private func answer(_ api: APIResponder, _ target: String, method: String = "GET") -> HTTPResponse {
        api.respond(to: request(target, method: method))
    }

    /// The bytes of a renderer's JSON, as the CLI prints them: one line.
    private func line(_ json: JSONWriter) -> [UInt8] {
        json.bytes + [0x0A]
    }

    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Checks a 200 JSON answer with `expected` as its body.
    private func assertAnswer(_ response: HTTPResponse, _ expected: [UInt8], _ message: String = "",
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, 200, "\(message): \(text(response.body))", file: file, line: line)
        XCTAssertEqual(response.contentType, "application/json", message, file: file, line: line)
        XCTAssertTrue(response.isRevalidatable, message, file: file, line: line)
        XCTAssertEqual(text(response.body), text(expected), message, file: file, line: line)
    }

    /// Checks an error answer: `status`, and a body that is one line of JSON, an object with `error` only.
    @discardableResult
    private func assertError(_ response: HTTPResponse, _ status: Int, _ message: String = "",
                             file: StaticString = #filePath, line: UInt = #line) -> String {
        XCTAssertEqual(response.status, status, "\(message): \(text(response.body))", file: file, line: line)
        XCTAssertEqual(response.contentType, "application/json", message, file: file, line: line)
        XCTAssertEqual(response.body.last, 0x0A, message, file: file, line: line)
        XCTAssertEqual(response.body.filter { $0 == 0x0A }.count, 1, message, file: file, line: line)
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        XCTAssertEqual(object.map { Array($0.keys) }, ["error"], "\(message): \(text(response.body))",
                       file: file, line: line)
        let error = object?["error"] as? String ?? ""
        XCTAssertFalse(error.isEmpty, message, file: file, line: line)
        return error
    }

    // MARK: Answers: the renderers' bytes

    func testSearchAnswersTheRenderersBytes() throws {
        let api = responder()
        let cases: [(target: String, query: String, perYear: Int, typos: TypoTolerance)] = [
            ("/api/search?q=dark", "dark", 5, .auto),
            ("/api/search?q=dark&per_year=2", "dark", 2, .auto),
            ("/api/search?per_year=0&q=knight", "knight", 0, .auto),
            ("/api/search?q=", "", 5, .auto),
            ("/api/search?q=drak", "drak", 5, .auto),
            ("/api/search?q=drak&typos=off", "drak", 5, .off),
            ("/api/search?q=dark%20knight", "dark knight", 5, .auto),
            ("/api/search?q=dark+kni", "dark kni", 5, .auto),
            ("/api/search?q=br%C3%BCno", "brüno", 5, .auto),
            ("/api/search?q=don%27t", "don't", 5, .auto),
            ("/api/search?q=%26%3D%3F", "&=?", 5, .auto),
            ("/api/search?q=xyzzy&per_year=1000", "xyzzy", 1000, .auto),
        ]
        for item in cases {
            let result = try index.search(item.query, perYear: item.perYear, typos: item.typos)
            let expected = try AnswerJSON.object(result, movie: index.movie(id:), scales: index.ratingScales)
            assertAnswer(answer(api, item.target), line(expected), item.target)
        }
    }

    func testMoviesTopAndHealth() throws {
        let api = responder()
        for id in [0, 7, 15] {
            let expected = MovieJSON.object(try index.movie(id: id), scales: index.ratingScales, posterSize: .defaultSize, favorite: false)
            assertAnswer(answer(api, "/api/movies/\(id)"), line(expected), "movie \(id)")
        }
        let tops: [(String, TopListOrder, Int)] = [
            ("/api/top", .rating, 15), ("/api/top?by=rating&limit=3", .rating, 3),
            ("/api/top?by=critic", .critic, 15), ("/api/top?limit=0&by=critic", .critic, 0),
            ("/api/top?limit=1000", .rating, 1000),
        ]
        for (target, order, limit) in tops {
            let expected = TopListJSON.object(try index.topRated(by: order, limit: limit), by: order, scales: index.ratingScales, favorites: [])
            assertAnswer(answer(api, target), line(expected), target)
        }
        let health = answer(api, "/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(text(health.body), #"{"status":"ok","movies":16,"cache":"\#(folder)/test.mscache","format":"#
            + "\(CacheFormat.version)}\n")
    }

    /// `/api/config` says the numbers the other routes apply: its defaults are what a search and a top list give
    /// when a request leaves them out, and its maximums the largest values they take.
    func testConfigSaysTheNumbersTheRoutesApply() throws {
        let api = responder()
        let response = answer(api, "/api/config")
        XCTAssertEqual(response.status, 200, text(response.body))
        XCTAssertEqual(response.contentType, "application/json")
        XCTAssertEqual(response.body.last, 0x0A)
        let config = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Int])
        XCTAssertEqual(config, [
            "default_per_year": SearchLimits.defaultPerYear,
            "maximum_per_year": APIResponder.Configuration.maximumPerYear,
            "top_list_length": SearchLimits.topListLength,
            "maximum_top_length": APIResponder.Configuration.maximumLimit,
        ])
        let perYear = try XCTUnwrap(config["default_per_year"]), maximumPerYear = try XCTUnwrap(config["maximum_per_year"])
        let length = try XCTUnwrap(config["top_list_length"]), maximumLength = try XCTUnwrap(config["maximum_top_length"])
        // The defaults the routes use are the ones it says: an empty query lists every movie, 7 of them in 2012,
        // enough to tell the default from one more.
        XCTAssertNotEqual(answer(api, "/api/search?q=").body, answer(api, "/api/search?q=&per_year=\(perYear + 1)").body)
        assertAnswer(answer(api, "/api/search?q="), answer(api, "/api/search?q=&per_year=\(perYear)").body)
        XCTAssertNotEqual(answer(api, "/api/top").body, answer(api, "/api/top?limit=\(length - 1)").body)
        assertAnswer(answer(api, "/api/top"), answer(api, "/api/top?limit=\(length)").body)
        // The maximums are the largest values taken.
        XCTAssertEqual(answer(api, "/api/search?q=the&per_year=\(maximumPerYear)").status, 200)
        assertError(answer(api, "/api/search?q=the&per_year=\(maximumPerYear + 1)"), 400)
        XCTAssertEqual(answer(api, "/api/top?limit=\(maximumLength)").status, 200)
        assertError(answer(api, "/api/top?limit=\(maximumLength + 1)"), 400)
        // Like every route: no parameter it does not know, no method but reading.
        assertError(answer(api, "/api/config?x=1"), 400)
        assertError(answer(api, "/api/config", method: "PUT"), 405)
        assertError(answer(api, "/api/config/"), 404)
    }

    func testPhotosWithAndWithoutASavedResponse() throws {
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let response = """
            {"photos":{"page":1,"pages":1,"perpage":10,"total":"2","photo":[
              {"id":"53001","owner":"1@N01","secret":"abc123","server":"65535","farm":66,"title":"one"},
              {"id":"53003","owner":"3@N01","server":"65535","farm":66,"title":"no secret"}
            ]},"stat":"ok"}
            """
        try Data(response.utf8).write(to: URL(fileURLWithPath: photos + "/3.json"))
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: photos + "/4.json"))
        let api = responder(photos: photos)

        let movie = try index.movie(id: 3)
        let request = FlickrPhotos.searchURL(title: movie.title, apiKey: "k3y")
        let saved = try FlickrPhotos.photos(fromResponse: Array(response.utf8), source: "3.json")
        XCTAssertEqual(saved.urls.count, 1)
        assertAnswer(answer(api, "/api/photos/3"), line(PhotosOutput.json(movie, request: request, photos: saved)))

        // No saved answer: the request alone, as `photos` without --response; no folder at all: the same.
        let other = try index.movie(id: 5)
        let alone = line(PhotosOutput.json(other, request: FlickrPhotos.searchURL(title: other.title, apiKey: "k3y"),
                                           photos: nil))
        assertAnswer(answer(api, "/api/photos/5"), alone)
        assertAnswer(answer(responder(), "/api/photos/5"), alone)

        assertError(answer(api, "/api/photos/4"), 500, "a damaged saved answer")
        assertError(answer(api, "/api/photos/99999"), 404)
    }

    /// A fetcher that answers every title with no photos, counting its requests.
    private final class EmptyFlickr: HTTPFetching {
        let count = Mutex(0)
        func fetch(_ url: String, limits: FetchLimits) throws(FetchFailure) -> [UInt8] {
            count.withLock { $0 += 1 }
            return Array(#"{"photos":{"photo":[]},"stat":"ok"}"#.utf8)
        }
    }

    func testOverTheHourlyLimitPhotosAre503WithRetryAfter() throws {
        var settings = FlickrPhotoSource.Settings(apiKey: "k3y")
        settings.callsPerHour = 2
        let flickr = EmptyFlickr()
        var configuration = APIResponder.Configuration(flickrKey: "k3y")
        configuration.photoSource = FlickrPhotoSource(settings: settings, fetcher: flickr)
        let api = APIResponder(cache: cache, favorites: ServedFavorites(.memory(FavoriteList()), warn: { _ in }),
                               configuration: configuration)
        XCTAssertEqual(answer(api, "/api/photos/1").status, 200)
        XCTAssertEqual(answer(api, "/api/photos/1").status, 200, "cached: no second request")
        XCTAssertEqual(answer(api, "/api/photos/2").status, 200)
        let over = answer(api, "/api/photos/3")
        XCTAssertEqual(over.status, 503)
        let retryAfter = over.headers.first { $0.name == "Retry-After" }.flatMap { Int($0.value) }
        XCTAssertNotNil(retryAfter)
        XCTAssertGreaterThan(retryAfter ?? 0, 3000)
        XCTAssertTrue(String(decoding: over.body, as: UTF8.self).contains("over Flickr's limit of 2 requests an hour"))
        XCTAssertEqual(flickr.count.withLock { $0 }, 2)
    }

    // MARK: Errors

    func testFileAndLockWorkTakesTheBlockingLaneAndSearchesTheHeavyOne() {
        let api = responder()
        for (target, method) in [("/api/favorites/1", "PUT"), ("/api/favorites/1", "DELETE"), ("/api/favorites", "GET"),
                                 ("/api/photos/1?cached_only=1", "GET"), ("/api/%66avorites/1", "PUT")] {
            XCTAssertEqual(api.lane(for: request(target, method: method)), .blocking, "\(method) \(target)")
        }
        // A photo request may wait on Flickr: a lane of its own.
        for target in ["/api/photos/1", "/api/%70hotos/1"] {
            XCTAssertEqual(api.lane(for: request(target)), .network, target)
        }
        for target in ["/api/search?q=&per_year=1000", "/api/top?limit=1000"] {
            XCTAssertEqual(api.lane(for: request(target)), .heavy, target)
        }
        for target in ["/healthz", "/api/movies/1", "/", "/static/app.js"] {
            XCTAssertEqual(api.lane(for: request(target)), .quick, target)
        }
    }

    func testAPosterTakesTheNetworkLaneOnlyWhenTMDbMayBeAsked() {
        let asking = TMDbPosterSource(settings: .init(apiKey: "k3y"), fetcher: EmptyFlickr())
        var offlineSettings = TMDbPosterSource.Settings(apiKey: "k3y")
        offlineSettings.offline = true
        let offline = TMDbPosterSource(settings: offlineSettings, fetcher: EmptyFlickr())
        let keyless = TMDbPosterSource(settings: .init(apiKey: nil), fetcher: EmptyFlickr())
        for (source, lane) in [(asking, HTTPLane.network), (offline, .blocking), (keyless, .blocking)] {
            var configuration = APIResponder.Configuration(flickrKey: "k3y")
            configuration.posterSource = source
            let api = APIResponder(cache: cache, favorites: ServedFavorites(.memory(FavoriteList()), warn: { _ in }),
                                   configuration: configuration)
            XCTAssertEqual(api.lane(for: request("/api/movies/1/poster")), lane)
            XCTAssertEqual(api.lane(for: request("/api/movies/1")), .quick)
        }
        XCTAssertEqual(responder().lane(for: request("/api/movies/1/poster")), .blocking, "no poster source")
    }

    func testParameterErrorsAre400() {
        let api = responder()
        let targets = [
            "/api/search",  // no q
            "/api/search?per_year=3",
            "/api/search?q=dark&per_year=1001",
            "/api/search?q=dark&per_year=-1",
            "/api/search?q=dark&per_year=abc",
            "/api/search?q=dark&per_year=",
            "/api/search?q=dark&per_year=%EF%BC%95",  // a fullwidth digit
            "/api/search?q=dark&per_year=99999999999999999999999",
            "/api/search?q=dark&typos=maybe",
            "/api/search?q=dark&typos=",
            "/api/search?q=dark&perYear=3",  // unknown parameter
            "/api/search?q=dark&q=light",  // repeated
            "/api/search?q=dark&typos=off&typos=off",
            "/api/search?q=%ZZ",  // bad percent-encoding
            "/api/search?q=%E",
            "/api/search?q=%FF",  // not UTF-8
            "/api/top?by=critics",
            "/api/top?limit=1001",
            "/api/top?limit=ten",
            "/api/top?order=rating",
            "/api/movies/3?verbose=1",
            "/api/favorites?x=1",
            "/healthz?full",
            "/api/movies/abc",
            "/api/movies/-1",
            "/api/movies/3.0",
            "/api/movies/%33x",
            "/api/movies/1234567890123456789",
            "/api/photos/abc",
            "/api/mov%ZZies/3",  // bad percent-encoding in the path
        ]
        for target in targets {
            assertError(answer(api, target), 400, target)
        }
        XCTAssertTrue(assertError(answer(api, "/api/search"), 400).contains("'q'"))
        XCTAssertTrue(assertError(answer(api, "/api/search?q=a&typo=off"), 400).contains("'typo'"))
    }

    func testUnknownIdsAndPathsAre404() {
        let api = responder()
        for target in ["/api/movies/99999", "/api/movies/16", "/api/photos/99999", "/api", "/api/",
                       "/api/search/", "/api/searches?q=a", "/api/movies", "/api/movies/3/x", "/healthz/",
                       "/index.html", "/../etc/passwd", "/api/%2E%2E/etc/passwd", "/API/search?q=a"] {
            assertError(answer(api, target), 404, target)
        }
        assertError(answer(api, "/api/favorites/99999", method: "PUT"), 404)
    }

    func testAWrongMethodIs405WithAllow() {
        let api = responder()
        let cases: [(String, String, String)] = [
            ("POST", "/api/search?q=a", "GET, HEAD"), ("PUT", "/api/movies/3", "GET, HEAD"),
            ("DELETE", "/healthz", "GET, HEAD"), ("POST", "/api/top", "GET, HEAD"),
            ("PUT", "/api/favorites", "GET, HEAD"), ("GET", "/api/favorites/3", "PUT, DELETE"),
            ("POST", "/api/favorites/3", "PUT, DELETE"), ("get", "/api/top", "GET, HEAD"),
        ]
        for (method, target, allow) in cases {
            let response = answer(api, target, method: method)
            assertError(response, 405, "\(method) \(target)")
            XCTAssertEqual(response.headers.filter { $0.name == "Allow" }.map(\.value), [allow], "\(method) \(target)")
        }
    }

    // MARK: The web page

    func testThePageAndItsFilesAreServedFromTheEmbeddedBytes() throws {
        let api = responder()
        let cases: [(target: String, file: String, type: String)] = [
            ("/", "index.html", "text/html; charset=utf-8"),
            ("/?q=dark", "index.html", "text/html; charset=utf-8"),
            ("/?q=%3Cimg%20src%3Dx%3E&view=top", "index.html", "text/html; charset=utf-8"),
            ("/movie/0", "index.html", "text/html; charset=utf-8"),
            ("/movie/745", "index.html", "text/html; charset=utf-8"),
            ("/movie/123456789012345678", "index.html", "text/html; charset=utf-8"),
            ("/static/app.js", "app.js", "text/javascript; charset=utf-8"),
            ("/static/app.css", "app.css", "text/css; charset=utf-8"),
            ("/static/app.css?v=2", "app.css", "text/css; charset=utf-8"),
        ]
        for item in cases {
            for method in ["GET", "HEAD"] {
                let response = answer(api, item.target, method: method)
                XCTAssertEqual(response.status, 200, "\(method) \(item.target): \(text(response.body))")
                XCTAssertEqual(response.contentType, item.type, item.target)
                XCTAssertEqual(response.body, WebAssets.files[item.file]?.bytes, item.target)
                XCTAssertTrue(response.isRevalidatable, item.target)
                XCTAssertTrue(response.isCompressible, item.target)
            }
        }
        XCTAssertTrue(text(answer(api, "/").body).contains(#"<script src="/static/app.js" defer></script>"#))
    }

    func testNoOtherPathIsAFile() {
        let api = responder()
        for target in ["/static/", "/static/x", "/static/index.html", "/static/app.js/", "/static/App.js",
                       "/static/../Package.swift", "/static/%2E%2E/Package.swift", "/static/app%2Ejs",
                       "/static/Web/app.js", "/static", "/index.html", "/app.js", "/movie/", "/movie/x",
                       "/movie/-1", "/movie/1/", "/movie/1/x", "/movie/1234567890123456789", "/movies/1",
                       "/movie/%31", "//", "/web/app.js"] {
            assertError(answer(api, target), 404, target)
        }
        XCTAssertTrue(assertError(answer(api, "/static/x"), 404).contains("/static/app.js"))
    }

    func testThePageIsReadOnly() {
        let api = responder()
        for (method, target) in [("POST", "/"), ("PUT", "/movie/3"), ("DELETE", "/static/app.js"),
                                 ("POST", "/static/app.css")] {
            let response = answer(api, target, method: method)
            assertError(response, 405, "\(method) \(target)")
            XCTAssertEqual(response.headers.filter { $0.name == "Allow" }.map(\.value), ["GET, HEAD"], target)
        }
    }

    // MARK: Favorites

    func testFavoritesInAFile() throws {
        let path = folder + "/favorites.json"
        let api = responder(.file(FilePath(path), isDefault: false))
        assertAnswer(answer(api, "/api/favorites"), line(FavoritesOutput.listJSON([], scales: index.ratingScales, missing: [])))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "a GET writes nothing")

        let heat = try index.movie(id: 7), dark = try index.movie(id: 0)
        assertAnswer(answer(api, "/api/favorites/7", method: "PUT"),
                     line(FavoritesOutput.changeJSON(heat, scales: index.ratingScales, favorite: true, changed: ("added", true))))
        assertAnswer(answer(api, "/api/favorites/0", method: "PUT"),
                     line(FavoritesOutput.changeJSON(dark, scales: index.ratingScales, favorite: true, changed: ("added", true))))
        assertAnswer(answer(api, "/api/favorites/7", method: "PUT"),
                     line(FavoritesOutput.changeJSON(heat, scales: index.ratingScales, favorite: true, changed: ("added", false))))
        XCTAssertEqual(try FavoritesFile.read(path: path).entries.map(\.id).sorted(), [0, 7])

        let both = AnswerOrder.sorted([heat, dark])
        assertAnswer(answer(api, "/api/favorites"), line(FavoritesOutput.listJSON(both, scales: index.ratingScales, missing: [])))
        // The marks of the other routes.
        let result = try index.search("dark", perYear: 5)
        assertAnswer(answer(api, "/api/search?q=dark"),
                     line(try AnswerJSON.object(result, movie: index.movie(id:), scales: index.ratingScales, favorites: [0, 7])))
        assertAnswer(answer(api, "/api/movies/0"), line(MovieJSON.object(dark, scales: index.ratingScales, posterSize: .defaultSize,
                                                                         favorite: true)))

        assertAnswer(answer(api, "/api/favorites/7", method: "DELETE"),
                     line(FavoritesOutput.changeJSON(heat, scales: index.ratingScales, favorite: false, changed: ("removed", true))))
        assertAnswer(answer(api, "/api/favorites/7", method: "DELETE"),
                     line(FavoritesOutput.changeJSON(heat, scales: index.ratingScales, favorite: false, changed: ("removed", false))))
        assertAnswer(answer(api, "/api/favorites/99999", method: "DELETE"),
                     line(FavoritesOutput.changeJSON(id: 99999)))
        XCTAssertEqual(try FavoritesFile.read(path: path).entries.map(\.id), [0])
        assertAnswer(answer(api, "/api/favorites"), line(FavoritesOutput.listJSON([dark], scales: index.ratingScales, missing: [])))

        // A change by another process (the CLI) is seen by the next answer.
        try FavoritesFile.write(FavoriteList(), to: path, creatingFolder: false)
        assertAnswer(answer(api, "/api/favorites"), line(FavoritesOutput.listJSON([], scales: index.ratingScales, missing: [])))
        assertAnswer(answer(api, "/api/movies/0"), line(MovieJSON.object(dark, scales: index.ratingScales, posterSize: .defaultSize,
                                                                         favorite: false)))
        XCTAssertEqual(warnings.all, [])
    }

    func testADamagedFavoritesFileIs500AndStaysAsItWas() throws {
        let path = folder + "/favorites.json"
        let damaged = Data(#"{"version":1,"favorites":[{"id":"#.utf8)
        try damaged.write(to: URL(fileURLWithPath: path))
        let api = responder(.file(FilePath(path), isDefault: false))
        assertError(answer(api, "/api/favorites/7", method: "PUT"), 500, "PUT")
        assertError(answer(api, "/api/favorites/0", method: "DELETE"), 500, "DELETE")
        assertError(answer(api, "/api/favorites"), 500, "GET")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), damaged)
        // Searches still answer, unmarked, with one warning.
        let result = try index.search("dark", perYear: 5)
        assertAnswer(answer(api, "/api/search?q=dark"), line(try AnswerJSON.object(result, movie: index.movie(id:), scales: index.ratingScales)))
        assertAnswer(answer(api, "/api/search?q=dark"), line(try AnswerJSON.object(result, movie: index.movie(id:), scales: index.ratingScales)))
        XCTAssertEqual(warnings.all.count, 1, "\(warnings.all)")
        XCTAssertTrue(warnings.all.first?.hasSuffix("; favorites are not marked") ?? false, "\(warnings.all)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), damaged)
    }

    func testFavoritesInMemoryNeverWriteAFile() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let start = FavoriteList(entries: [Favorite(id: 3, title: "Star Trek Into Darkness", year: 2013)])
        let api = responder(.memory(start))
        let trek = try index.movie(id: 3), heat = try index.movie(id: 7)
        assertAnswer(answer(api, "/api/favorites"), line(FavoritesOutput.listJSON([trek], scales: index.ratingScales, missing: [])))
        assertAnswer(answer(api, "/api/favorites/7", method: "PUT"),
                     line(FavoritesOutput.changeJSON(heat, scales: index.ratingScales, favorite: true, changed: ("added", true))))
        assertAnswer(answer(api, "/api/movies/7"), line(MovieJSON.object(heat, scales: index.ratingScales, posterSize: .defaultSize,
                                                                         favorite: true)))
        assertAnswer(answer(api, "/api/favorites"),
                     line(FavoritesOutput.listJSON(AnswerOrder.sorted([trek, heat]), scales: index.ratingScales, missing: [])))
        assertAnswer(answer(api, "/api/favorites/3", method: "DELETE"),
                     line(FavoritesOutput.changeJSON(trek, scales: index.ratingScales, favorite: false, changed: ("removed", true))))
        assertAnswer(answer(api, "/api/favorites"), line(FavoritesOutput.listJSON([heat], scales: index.ratingScales, missing: [])))
        let result = try index.search("", perYear: 5)
        assertAnswer(answer(api, "/api/search?q="),
                     line(try AnswerJSON.object(result, movie: index.movie(id:), scales: index.ratingScales, favorites: [7])))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), before)
    }

    // MARK: Hostile requests and careless folders

    /// The target is split at its slashes before each segment is decoded: an encoded slash is a character of its
    /// segment, never a separator, so `/api%2Fsearch` is no route (and `%33` still the digit of an id).
    func testAnEncodedSlashIsNoSeparator() throws {
        let api = responder()
        for target in ["/api%2Fsearch?q=dark", "/api%2fsearch?q=dark", "/api/movies%2F3", "/api%2Fmovies%2F3",
                       "/healthz%2F", "/api/favorites%2F3"] {
            let error = assertError(answer(api, target), 404, target)
            XCTAssertTrue(error.hasPrefix("no such endpoint: "), error)
        }
        assertAnswer(answer(api, "/api/movies/%33"),
                     line(MovieJSON.object(try index.movie(id: 3), scales: index.ratingScales, posterSize: .defaultSize,
                                           favorite: false)))
    }

    /// A saved answer in which Flickr refused the request is the upstream's fault: 502, with Flickr's words.
    func testASavedFlickrRefusalIs502() throws {
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try Data(#"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#.utf8)
            .write(to: URL(fileURLWithPath: photos + "/3.json"))
        let error = assertError(answer(responder(photos: photos), "/api/photos/3"), 502)
        XCTAssertEqual(error, "3.json: Flickr refused the request: error 100, Invalid API Key (Key has invalid "
            + "format) (check the Flickr API key)")
    }

    /// A saved answer that is a link to some other file (`/etc/passwd`) answers an error that says where the
    /// file stops being JSON, never what it holds.
    func testAnErrorAboutALinkedFileQuotesNoneOfItsBytes() throws {
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let secret = folder + "/secret"
        try Data("Zq:x:0:0:Zq:/Zq:/bin/sh\n".utf8).write(to: URL(fileURLWithPath: secret))
        XCTAssertEqual(symlink(secret, photos + "/3.json"), 0)
        XCTAssertEqual(symlink("/etc/passwd", photos + "/4.json"), 0)
        let api = responder(photos: photos)
        let error = assertError(answer(api, "/api/photos/3"), 500)
        XCTAssertEqual(error, "3.json: not a Flickr response: malformed JSON at line 1, column 1 (byte 0)")
        if FileManager.default.isReadableFile(atPath: "/etc/passwd") {
            let passwd = assertError(answer(api, "/api/photos/4"), 500)
            XCTAssertFalse(passwd.contains("'") || passwd.contains("\"") || passwd.contains("root"), passwd)
        }
    }

    /// A FIFO, a folder or a device named `<id>.json` is refused at once, as not a regular file, without a read.
    func testAPhotosEntryThatIsNoRegularFileIsRefused() throws {
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(photos + "/3.json", 0o600), 0)
        try FileManager.default.createDirectory(atPath: photos + "/4.json", withIntermediateDirectories: true)
        XCTAssertEqual(symlink("/dev/zero", photos + "/5.json"), 0)
        // A writer that stays idle: a read of the FIFO would wait for it for ever.
        let writer = open(photos + "/3.json", O_RDWR)
        XCTAssertGreaterThanOrEqual(writer, 0)
        defer { close(writer) }
        let api = responder(photos: photos)
        for (id, kind) in [(3, "a FIFO (named pipe)"), (4, "a directory"), (5, "a character device")] {
            XCTAssertEqual(assertError(answer(api, "/api/photos/\(id)"), 500),
                           "cannot read the saved Flickr answer \(id).json: it is \(kind), not a regular file")
        }
    }

    // MARK: A cache written over in place

    /// The cache cut short in place (`truncate -s 0`): every request that reads it answers 503 with `Retry-After`,
    /// `/healthz` too (a load balancer takes this server out), the page still loads; once a complete cache is
    /// there and checked, the answers are its.
    func testACacheWrittenOverInPlaceAnswers503UntilItIsComplete() throws {
        let api = responder()
        let path = cache.path.description
        XCTAssertEqual(answer(api, "/api/search?q=dark").status, 200)
        XCTAssertEqual(truncate(path, 0), 0)
        for target in ["/api/search?q=dark", "/api/movies/3", "/api/top", "/api/favorites", "/healthz"] {
            let response = answer(api, target)
            let message = assertError(response, 503, target)
            XCTAssertTrue(response.headers.contains { $0.name == "Retry-After" && $0.value == "1" }, target)
            XCTAssertTrue(message.contains("test.mscache"), message)
        }
        XCTAssertEqual(answer(api, "/").status, 200, "the page needs no cache")
        guard case .unavailable? = cache.reloadIfChanged() else { return XCTFail("not reported") }
        XCTAssertTrue(assertError(answer(api, "/healthz"), 503).contains("changed in place"))

        let other = Catalog(movies: [Movie(id: 0, title: "Dark Water", year: 2005, rating: 3)])
        _ = try CacheWriter.write(other, to: folder + "/other.mscache")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: folder + "/other.mscache")))
        try handle.close()
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 1))
        let search = answer(api, "/api/search?q=dark")
        XCTAssertEqual(search.status, 200)
        XCTAssertTrue(text(search.body).contains("Dark Water"), text(search.body))
        XCTAssertTrue(text(answer(api, "/healthz").body).contains(#""status":"ok""#))
    }

    /// A mapping damaged by a fault (the guard's flag) answers 503 even though the file's status is unchanged.
    func testADamagedMappingAnswers503() throws {
        let api = responder()
        cache.snapshot().index.markDamaged()
        assertError(answer(api, "/api/search?q=dark"), 503)
    }

    /// A replacement with one damaged block, renamed into place: refused, the old cache answers, and `/healthz`
    /// answers 200 (this server still answers correctly: keep it in rotation) with "degraded" and the problem.
    func testARefusedReplacementMakesHealthDegraded() throws {
        let api = responder()
        let before = answer(api, "/api/search?q=dark")
        let damaged = try ServedCacheTests.damagedBlock(folder: folder)
        try Data(damaged).write(to: URL(fileURLWithPath: folder + "/new.tmp"))
        XCTAssertEqual(rename(folder + "/new.tmp", cache.path.description), 0)
        guard case .failed? = cache.reloadIfChanged() else { return XCTFail("served") }
        XCTAssertEqual(text(answer(api, "/api/search?q=dark").body), text(before.body))
        let health = answer(api, "/healthz")
        XCTAssertEqual(health.status, 200)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any])
        XCTAssertEqual(object["status"] as? String, "degraded")
        XCTAssertTrue((object["problem"] as? String ?? "").contains("checksum mismatch in block"), text(health.body))
        XCTAssertEqual(object["movies"] as? Int, 16)
    }
}
