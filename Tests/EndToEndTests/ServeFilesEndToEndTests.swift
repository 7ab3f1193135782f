import Foundation
import XCTest
import TestSupport

/// `serve` against careless folders and catalogs, through the built binary: a FIFO with an idle writer in
/// `--photos-dir` holds no loop, and a catalog's poster URL never points the page at a host of its choosing.
final class ServeFilesEndToEndTests: XCTestCase {
    private static let catalog = """
        [{"title":"Heat","year":1995,"rating":4,"poster_path":"/heat.jpg"},
         {"title":"Gone Girl","year":2014,"rating":4,"poster_path":"https://127.0.0.1:8080/api/favorites/0"},
         {"title":"Dark Shadows","year":2012,"rating":3,"poster_path":"https://tracker.example/p.jpg"},
         {"title":"Amelia","year":2009,"rating":3,"poster_path":"https://image.tmdb.org/t/p/w500/amelia.jpg"}]
        """

    /// A FIFO named `<id>.json` in `--photos-dir`, held open by a writer that never writes: the photo request is
    /// answered at once with an error, the server goes on answering, and SIGTERM still stops it. (A read of the
    /// FIFO would wait for the writer for ever, deaf to SIGTERM, on the loop that took the request.)
    func testAFIFOWithAnIdleWriterInThePhotosFolderIsRefusedAtOnce() throws {
        let cache = try indexedCache(try temporaryFile("movies.json", Self.catalog))
        let photos = try TestPaths.temporaryFolder(self).path + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(photos + "/0.json", 0o600), 0, String(cString: strerror(errno)))
        let writer = open(photos + "/0.json", O_RDWR)
        XCTAssertGreaterThanOrEqual(writer, 0)
        defer { close(writer) }
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet",
                                             "--photos-dir", photos])
        for _ in 0..<4 {  // more requests than a machine has loops: each would freeze one
            let connection = try server.connect(timeout: 5)
            try connection.send(HTTPConnection.request("GET", "/api/photos/0", host: "127.0.0.1:\(server.port)",
                                                       headers: ["Connection": "close"]))
            let answer = try connection.readAnswer()
            XCTAssertEqual(answer.status, 500, answer.text)
            XCTAssertEqual(answer.text, #"{"error":"cannot read the saved Flickr answer 0.json: it is a FIFO "#
                + #"(named pipe), not a regular file"}"# + "\n")
        }
        XCTAssertEqual(try server.request("/healthz").status, 200)
        server.send(SIGTERM)
        XCTAssertTrue(server.waitForExit(within: 5), "SIGTERM did not stop the server")
        XCTAssertEqual(server.process.terminationStatus, 0, server.standardError)
    }

    /// A poster URL on a host other than TMDb's image host (a loopback address, any site) is no poster: left out
    /// of `/api/movies/<id>` and of `show --json` alike, so the page has nothing to load; a TMDb path and a TMDb
    /// URL stay. The page's policy lets images come from those hosts only.
    func testAPosterOnAnotherHostIsNoPoster() throws {
        let cache = try indexedCache(try temporaryFile("movies.json", Self.catalog))
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        let expected: [Int: String?] = [
            0: "https://image.tmdb.org/t/p/w500/heat.jpg", 1: nil, 2: nil,
            3: "https://image.tmdb.org/t/p/w500/amelia.jpg",
        ]
        for (id, poster) in expected {
            let answer = try server.request("/api/movies/\(id)")
            XCTAssertEqual(answer.status, 200, answer.text)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            XCTAssertEqual(object["poster"] as? String, poster, "movie \(id): \(answer.text)")
            XCTAssertFalse(answer.text.contains("127.0.0.1") || answer.text.contains("tracker"), answer.text)
            let show = try BinaryRun.run(["show", "\(id)", "--cache", cache, "--json"])
            XCTAssertEqual(show.standardOutput, answer.text, "show --json and the API differ on movie \(id)")
            let text = try BinaryRun.run(["show", "\(id)", "--cache", cache])
            XCTAssertEqual(text.standardOutput.contains("poster"), poster != nil, text.standardOutput)
        }
        let page = try server.request("/")
        let policy = try XCTUnwrap(page.header("Content-Security-Policy"))
        XCTAssertTrue(policy.contains("img-src 'self' https://image.tmdb.org https://*.static.flickr.com "
                                      + "https://live.staticflickr.com data:"), policy)
        XCTAssertFalse(policy.contains("https: "), policy)
    }
}
