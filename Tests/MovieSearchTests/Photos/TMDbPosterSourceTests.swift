import Foundation
import Synchronization
import XCTest

import MovieSearchPlatform
import TestSupport
@testable import MovieSearchPhotos

/// `TMDbPosterSource` with a fake `HTTPFetching`: which result gives the poster (folded title and year), TMDb's
/// errors, "no poster" kept for 7 days, and the rate limit that waits. (The real `moviesearch-fetch` against the
/// stand-in: ServePostersEndToEndTests.)
final class TMDbPosterSourceTests: XCTestCase {
    /// Answers every search with `body` and `status`, counting requests and keeping their headers.
    private final class FakeTMDb: HTTPFetching {
        let requests = Mutex<[(url: String, headers: [String])]>([])
        let status: Int
        let body: String

        init(status: Int = 200, body: String) {
            self.status = status
            self.body = body
        }

        var count: Int { requests.withLock { $0.count } }

        func fetch(_ url: String, limits: FetchLimits) throws(FetchFailure) -> [UInt8] {
            throw .failed("TMDb is asked with fetchAnyStatus")
        }

        func fetchAnyStatus(_ url: String, headers: [String], limits: FetchLimits) throws(FetchFailure)
            -> (status: Int, body: [UInt8])
        {
            requests.withLock { $0.append((url, headers)) }
            return (status, Array(body.utf8))
        }
    }

    private func results(_ items: [(String, String, String?)]) -> String {
        let list = items.map { title, date, poster in
            #"{"title":"\#(title)","release_date":"\#(date)","poster_path":\#(poster.map { "\"\($0)\"" } ?? "null")}"#
        }
        return #"{"page":1,"results":["# + list.joined(separator: ",") + "]}"
    }

    private func poster(_ body: String, _ title: String, _ year: Int) throws -> String? {
        try TMDbPosterSource.interpret(status: 200, body: Array(body.utf8), title: title, year: year).path
    }

    func testTheFirstResultOfTheFoldedTitleAndTheYearGivesThePoster() throws {
        let body = results([("Don’t Look Up", "2020-01-01", "/year.jpg"), ("Don't Look Up Again", "2021-12-05", "/t.jpg"),
                            ("DONT LOOK UP", "2021-12-05", "/right.jpg"), ("Don't Look Up", "2021-01-01", "/second.jpg")])
        XCTAssertEqual(try poster(body, "Don't Look Up", 2021), "/right.jpg")
        XCTAssertNil(try poster(body, "Don't Look Up", 2019), "no result of that year")
        XCTAssertNil(try poster(body, "Look Up", 2021), "no result of that title")
        XCTAssertNil(try poster(results([("Heat", "1995-12-15", nil), ("Heat", "1995-01-01", "/b.jpg")]), "Heat", 1995),
                     "the first match decides, without a poster too")
        XCTAssertNil(try poster(results([("Heat", "1995-12-15", "https://evil.example/x.jpg")]), "Heat", 1995))
        XCTAssertNil(try poster(results([("Heat", "", "/a.jpg")]), "Heat", 1995))
        XCTAssertNil(try poster(#"{"results":[]}"#, "Heat", 1995))
    }

    func testTMDbsErrors() {
        func error(_ status: Int, _ body: String) -> PhotoSourceError? {
            do {
                _ = try TMDbPosterSource.interpret(status: status, body: Array(body.utf8), title: "Heat", year: 1995)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error(401, #"{"status_code":7,"status_message":"Invalid API key.\nAgain"}"#),
                       .badGateway("TMDb refused the request: HTTP status 401, Invalid API key.Again (check the TMDb "
                           + "API key or read access token)"))
        XCTAssertEqual(error(429, "{}")?.status, 503)
        XCTAssertEqual(error(500, "oops"), .badGateway("cannot get a poster from TMDb: HTTP status 500"))
        XCTAssertEqual(error(200, "<html>"), .badGateway("TMDb's answer is not JSON"))
        XCTAssertEqual(error(200, #"{"page":1}"#)?.status, 502)
    }

    func testNoPosterIsKeptForSevenDaysThenAskedAgainAndABearerTokenIsAHeader() throws {
        let fake = FakeTMDb(body: results([]))
        let now = Mutex<Double>(1_700_000_000)
        var settings = TMDbPosterSource.Settings(apiKey: nil, bearerToken: "tok")
        settings.cacheFolder = FilePath(try TestPaths.temporaryFolder(self).path)
        let source = TMDbPosterSource(settings: settings, fetcher: fake, clock: { now.withLock { $0 } })
        XCTAssertEqual(try source.poster(title: "Heat", year: 1995), .init(posterPath: nil, origin: .fetched))
        XCTAssertEqual(fake.requests.withLock { $0[0].headers }, ["Authorization: Bearer tok"])
        XCTAssertFalse(fake.requests.withLock { $0[0].url }.contains("api_key"))
        now.withLock { $0 += 7 * 24 * 3600 - 1 }
        XCTAssertEqual(try source.poster(title: "HEAT", year: 1995), .init(posterPath: nil, origin: .cached))
        // A new source (a restart) reads it from disk.
        let restarted = TMDbPosterSource(settings: settings, fetcher: nil, clock: { now.withLock { $0 } })
        XCTAssertEqual(restarted.cachedPoster(title: "Heat", year: 1995), TMDbPoster(path: nil))
        XCTAssertNil(restarted.cachedPoster(title: "Heat", year: 1996))
        XCTAssertEqual(fake.count, 1)
        now.withLock { $0 += 2 }
        XCTAssertEqual(try source.poster(title: "Heat", year: 1995).origin, .fetched)
        XCTAssertEqual(fake.count, 2)
    }

    func testOverTheRateARequestWaitsForItsTurn() throws {
        let fake = FakeTMDb(body: results([("A", "2000-01-01", "/a.jpg")]))
        var settings = TMDbPosterSource.Settings(apiKey: "k")
        settings.rateLimit = .init(calls: 2, seconds: 0.6, waits: true)
        let source = TMDbPosterSource(settings: settings, fetcher: fake)
        let start = Date()
        for title in ["A", "B", "C"] { _ = try source.poster(title: title, year: 2000) }
        XCTAssertEqual(fake.count, 3, "the third request waited, and was made")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.4, "the third request did not wait")
        // A limit that refuses (Flickr's way) says when to come back instead.
        settings.rateLimit.waits = false
        let refusing = TMDbPosterSource(settings: settings, fetcher: fake)
        for title in ["A", "B"] { _ = try refusing.poster(title: title, year: 2000) }
        XCTAssertThrowsError(try refusing.poster(title: "C", year: 2000)) { error in
            XCTAssertEqual((error as? PhotoSourceError)?.status, 503)
        }
    }
}
