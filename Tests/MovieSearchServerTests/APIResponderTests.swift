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

    // MARK: Errors

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
}
