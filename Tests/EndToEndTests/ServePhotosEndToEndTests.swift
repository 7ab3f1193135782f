import Dispatch
import Foundation
import Synchronization
import XCTest
import TestSupport

/// `serve`'s `/api/photos/<id>` asking a loopback stand-in for Flickr through the real `moviesearch-fetch`: the
/// bytes of `photos <id> --json`, one upstream request for simultaneous ones, Flickr's refusal as 502, a hanging
/// Flickr as 504 while searches answer at once, `cached_only=1` never fetching.
final class ServePhotosEndToEndTests: XCTestCase {
    private var cacheHome = ""

    override func setUpWithError() throws {
        cacheHome = try TestPaths.temporaryFolder(self).path
    }

    private func serve(_ standIn: FlickrStandIn, _ more: [String: String] = [:]) throws -> ServeProcess {
        try ServeProcess(self, ["--cache", TestPaths.sampleCache, "--listen", "127.0.0.1:0", "--no-save", "--quiet",
                                "--flickr-key", "k3y", "--flickr-endpoint", standIn.endpoint],
                         environment: standIn.environment(cacheHome: cacheHome).merging(more) { $1 })
    }

    /// One GET on a connection of its own, from any thread.
    private static func get(_ port: UInt16, _ target: String, timeout: Double = 10) throws -> HTTPAnswer {
        let connection = try HTTPConnection(port: port, timeout: timeout)
        try connection.send(HTTPConnection.request("GET", target, host: "127.0.0.1:\(port)",
                                                   headers: ["Connection": "close"]))
        return try connection.readAnswer()
    }

    func testSimultaneousRequestsMakeOneUpstreamRequestWithTheBytesOfPhotosJSON() throws {
        // Its answer 0.3 s late, so that the six requests meet one fetch in flight.
        let standIn = try FlickrStandIn(self, delay: 0.3)
        let server = try serve(standIn)
        let answers = Mutex<[HTTPAnswer?]>([])
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let answer = try? Self.get(port, "/api/photos/7")
            answers.withLock { $0.append(answer) }
        }
        let all = answers.withLock { $0 }
        XCTAssertEqual(all.compactMap { $0?.status }, Array(repeating: 200, count: 6))
        XCTAssertEqual(Set(all.compactMap { $0?.text }).count, 1)
        XCTAssertEqual(standIn.requests.count, 1, "\(standIn.requests)")
        let cli = try BinaryRun.run(["photos", "7", "--cache", TestPaths.sampleCache, "--flickr-key", "k3y",
                                     "--flickr-endpoint", standIn.endpoint, "--json"],
                                    environment: standIn.environment(cacheHome: cacheHome))
        XCTAssertEqual(all.first??.text, cli.standardOutput)
        XCTAssertEqual(standIn.requests.count, 1, "the CLI read the cache serve wrote")
        XCTAssertTrue(cli.standardOutput.contains(#""pictures":[{"image":"https://live.staticflickr.com/65535/"#))

        // cached_only: this title's answer; another title's nothing, and no request.
        let cached = try server.request("/api/photos/7?cached_only=1")
        XCTAssertEqual(cached.text, cli.standardOutput)
        let none = try server.request("/api/photos/3?cached_only=1")
        XCTAssertEqual(none.status, 200)
        XCTAssertTrue(none.text.hasSuffix(#""photos":null,"pictures":null}"# + "\n"), none.text)
        XCTAssertEqual(try server.request("/api/photos/3?cached_only=yes").status, 400)
        XCTAssertEqual(standIn.requests.count, 1)
    }

    func testFlickrsRefusalIs502WithItsCodeAndMessage() throws {
        // One stand-in and one server for both answers: the stand-in's mode for every title from its modes file.
        let modes = try TestPaths.temporaryFolder(self).appendingPathComponent("modes.json")
        try Data("{}".utf8).write(to: modes)
        let standIn = try FlickrStandIn(self, mode: "fail", modes: modes.path)
        let server = try serve(standIn)
        let answer = try server.request("/api/photos/7")
        XCTAssertEqual(answer.status, 502)
        XCTAssertEqual(answer.text, #"{"error":"Flickr refused the request: error 100, Invalid API Key (Key has "#
            + #"invalid format) (check the Flickr API key)"}"# + "\n")
        let title = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(server.request("/api/movies/7").text.utf8))
            as? [String: Any])["title"] as? String
        try JSONSerialization.data(withJSONObject: [try XCTUnwrap(title): "garbage"]).write(to: modes, options: .atomic)
        let garbage = try server.request("/api/photos/7")
        XCTAssertEqual(garbage.status, 502)
        XCTAssertEqual(garbage.text, #"{"error":"Flickr's answer is not JSON (line 1, column 1, byte 0)"}"# + "\n")
        XCTAssertEqual(standIn.requests.count, 2)
    }

    /// Two rounds of Flickr's time limit (2.5 s here) waited out: a full run's check (`TestScale.requireFullRun`).
    func testSearchesAnswerAtOnceWhileFlickrHangsAndThePhotosGet504() throws {
        try TestScale.requireFullRun("searches beside photo requests to a hanging Flickr")
        let standIn = try FlickrStandIn(self, mode: "hang")
        let server = try serve(standIn, ["MOVIESEARCH_FLICKR_TIMEOUT_MS": "2500"])
        let photos = Mutex<[HTTPAnswer?]>([])
        let group = DispatchGroup()
        // More hanging photo requests than the blocking lane has workers, for different titles.
        let port = server.port
        for id in 0..<6 {
            DispatchQueue.global().async(group: group) {
                let answer = try? Self.get(port, "/api/photos/\(id)", timeout: 20)
                photos.withLock { $0.append(answer) }
            }
        }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertGreaterThanOrEqual(standIn.requests.count, 1, "the photo requests reached the stand-in")
        XCTAssertLessThanOrEqual(standIn.requests.count, 4, "at most 4 fetches in flight")
        for word in ["lighthouse", "paper", "kites", "dark", "love"] {
            let start = Date()
            let search = try server.request("/api/search?q=\(word)")
            XCTAssertEqual(search.status, 200)
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, "a search waited for Flickr")
        }
        let start = Date()
        XCTAssertEqual(try server.request("/api/favorites").status, 200)
        XCTAssertEqual(try server.request("/api/photos/1?cached_only=1").status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "favorites or a cached photo waited for Flickr")
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        let statuses = photos.withLock { $0.map { $0?.status } }
        XCTAssertEqual(statuses.count, 6)
        XCTAssertTrue(statuses.allSatisfy { $0 == 504 || $0 == 503 }, "\(statuses)")
        XCTAssertTrue(statuses.contains(504), "\(statuses)")
    }
}
