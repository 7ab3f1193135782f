import Foundation
import XCTest
import TestSupport

/// `serve`'s `/api/movies/<id>/poster` and `show --fetch` asking a loopback stand-in for TMDb's search/movie through
/// the real `moviesearch-fetch`: the first result of the movie's folded title and year gives the poster, another
/// year or title none; TMDb's 401 quoted in a 502, its 429 a 503 with Retry-After, garbage a 502, a hang a 504;
/// answers (a poster or none) kept on disk, so that a restart with TMDb gone serves them all.
final class ServePostersEndToEndTests: XCTestCase {
    private var cacheHome = ""
    private var modesFile = ""

    /// The sample catalog's first movies (none has a catalog poster), and how the stand-in answers for each.
    private static let modes = [
        "The Dark Lighthouse": "ok", "Paper Kites Over Lisbon": "other", "Café Solitude": "empty",
        "Harbor of Small Hours": "fail", "Don't Wake the Orchard": "limit", "Sixteen Lanterns": "garbage",
    ]

    override func setUpWithError() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        cacheHome = folder + "/cache"
        modesFile = folder + "/modes.json"
        try JSONSerialization.data(withJSONObject: Self.modes).write(to: URL(fileURLWithPath: modesFile))
    }

    private func serve(_ standIn: FlickrStandIn, _ more: [String] = [], environment: [String: String] = [:]) throws
        -> ServeProcess
    {
        try ServeProcess(self, ["--cache", TestPaths.sampleCache, "--listen", "127.0.0.1:0", "--no-save", "--quiet",
                                "--tmdb-endpoint", standIn.tmdbEndpoint] + more,
                         environment: standIn.environment(cacheHome: cacheHome).merging(environment) { $1 })
    }

    /// The id of the sample movie titled `title`.
    private func id(_ server: ServeProcess, _ title: String) throws -> Int {
        for id in 0..<62 {
            let movie = try server.request("/api/movies/\(id)")
            if movie.text.contains(#""title":"\#(title)""#) { return id }
        }
        XCTFail("no sample movie titled \(title)")
        return -1
    }

    func testPostersByTitleAndYearErrorsAndARestartFromDisk() throws {
        let standIn = try FlickrStandIn(self, modes: modesFile)
        let server = try serve(standIn, ["--tmdb-key", "k3y"], environment: ["MOVIESEARCH_TMDB_TIMEOUT_MS": "1500"])
        var ids: [String: Int] = [:]
        for title in Self.modes.keys { ids[title] = try id(server, title) }

        // A match: the result of this title (folded: the stand-in writes it in capitals) and year, not the ones of
        // another year or another title before it.
        let found = try server.request("/api/movies/\(ids["The Dark Lighthouse"]!)/poster")
        XCTAssertEqual(found.status, 200, found.text)
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(found.text.utf8)) as? [String: Any])
        let poster = try XCTUnwrap(answer["poster"] as? String)
        XCTAssertTrue(poster.hasPrefix("https://image.tmdb.org/t/p/w185/"), poster)
        XCTAssertFalse(poster.contains("other-"), poster)
        XCTAssertEqual(answer["poster_large"] as? String, poster.replacingOccurrences(of: "/w185/", with: "/w500/"))
        XCTAssertEqual(answer["id"] as? Int, ids["The Dark Lighthouse"])
        let request = try XCTUnwrap(standIn.requests.first)
        XCTAssertTrue(request.hasPrefix("/3/search/movie?query=The%20Dark%20Lighthouse&year=2014&include_adult=false"
            + "&api_key=k3y"), request)

        // Another year or title only, or no result: no poster, kept too.
        for title in ["Paper Kites Over Lisbon", "Café Solitude"] {
            let none = try server.request("/api/movies/\(ids[title]!)/poster")
            XCTAssertEqual(none.text, #"{"id":\#(ids[title]!),"poster":null,"poster_large":null}"# + "\n", title)
        }
        let asked = standIn.requests.count
        XCTAssertEqual(asked, 3)
        _ = try server.request("/api/movies/\(ids["Paper Kites Over Lisbon"]!)/poster")
        _ = try server.request("/api/movies/\(ids["The Dark Lighthouse"]!)/poster")
        XCTAssertEqual(standIn.requests.count, asked, "a kept answer (a poster or none) is not asked again")

        // TMDb's refusal quoted; its rate limit a 503 with Retry-After; garbage a 502; none of them kept.
        let refused = try server.request("/api/movies/\(ids["Harbor of Small Hours"]!)/poster")
        XCTAssertEqual(refused.status, 502)
        XCTAssertEqual(refused.text, #"{"error":"TMDb refused the request: HTTP status 401, Invalid API key: You must "#
            + #"be granted a valid key. (check the TMDb API key or read access token)"}"# + "\n")
        let limited = try server.request("/api/movies/\(ids["Don't Wake the Orchard"]!)/poster")
        XCTAssertEqual(limited.status, 503)
        XCTAssertEqual(limited.header("Retry-After"), "10")
        let garbage = try server.request("/api/movies/\(ids["Sixteen Lanterns"]!)/poster")
        XCTAssertEqual(garbage.status, 502)
        XCTAssertEqual(garbage.text, #"{"error":"TMDb's answer is not JSON"}"# + "\n")
        _ = try server.request("/api/movies/\(ids["Harbor of Small Hours"]!)/poster")
        XCTAssertEqual(standIn.requests.count, asked + 4, "a failure is asked again")

        // A hang (the same stand-in, told so through its modes file): 504 after the (shortened) time limit.
        var modes = Self.modes
        modes["Don't Wake the Orchard"] = "hang"
        try JSONSerialization.data(withJSONObject: modes).write(to: URL(fileURLWithPath: modesFile), options: .atomic)
        let hanging = try serve(standIn, ["--tmdb-key", "k3y"], environment: ["MOVIESEARCH_TMDB_TIMEOUT_MS": "200"])
        let start = Date()
        let slow = try hanging.request("/api/movies/\(ids["Don't Wake the Orchard"]!)/poster")
        XCTAssertEqual(slow.status, 504)
        XCTAssertEqual(slow.text, #"{"error":"TMDb did not answer within 200 ms"}"# + "\n")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)

        // `show --json` gains the kept poster (and only it); `show` without a kept one is as before.
        let base = ["--cache", TestPaths.sampleCache, "--json"]
        let environment = standIn.environment(cacheHome: cacheHome)
        let shown = try BinaryRun.run(["show", "\(ids["The Dark Lighthouse"]!)"] + base, environment: environment)
        XCTAssertTrue(shown.standardOutput.contains(#""poster":"\#(poster.replacingOccurrences(of: "/w185/", with: "/w500/"))""#),
                      shown.standardOutput)
        let plain = try BinaryRun.run(["show", "\(ids["Café Solitude"]!)"] + base, environment: environment)
        XCTAssertFalse(plain.standardOutput.contains("poster"), plain.standardOutput)
        let fetchRefused = try BinaryRun.run(["show", "\(ids["Harbor of Small Hours"]!)", "--fetch", "--tmdb-key", "k3y",
                                              "--tmdb-endpoint", standIn.tmdbEndpoint] + base, environment: environment)
        XCTAssertEqual(fetchRefused.status, 1)
        XCTAssertEqual(fetchRefused.standardError, "moviesearch: TMDb refused the request: HTTP status 401, Invalid API "
            + "key: You must be granted a valid key. (check the TMDb API key or read access token)\n")

        // A restart with TMDb gone: every kept answer from disk, nothing asked.
        standIn.stop()
        let restarted = try serve(standIn, ["--tmdb-key", "k3y"])
        XCTAssertEqual(try restarted.request("/api/movies/\(ids["The Dark Lighthouse"]!)/poster").text, found.text)
        XCTAssertEqual(try restarted.request("/api/movies/\(ids["Café Solitude"]!)/poster").text,
                       #"{"id":\#(ids["Café Solitude"]!),"poster":null,"poster_large":null}"# + "\n")
        let offline = try serve(standIn, ["--offline"])
        XCTAssertEqual(try offline.request("/api/movies/\(ids["The Dark Lighthouse"]!)/poster").text, found.text)
    }

    /// The URL and the token go to `moviesearch-fetch` on its standard input: its command line, which every user of
    /// the machine can read (`ps`, /proc/<pid>/cmdline), holds no secret.
    func testTheBearerTokenIsNotOnTheFetchProgramsCommandLine() throws {
        // Its answer half a second late: the fetch program runs that long at least, for /proc to be read meanwhile.
        let standIn = try FlickrStandIn(self, delay: 0.5, modes: modesFile)
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = ["show", "0", "--cache", TestPaths.sampleCache, "--json", "--fetch", "--tmdb-endpoint",
                             standIn.tmdbEndpoint]
        process.environment = standIn.environment(cacheHome: cacheHome)
            .merging(["TMDB_READ_ACCESS_TOKEN": "s3cret-t0ken", "PATH": "/usr/bin:/bin"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        addTeardownBlock { if process.isRunning { process.terminate() } }
        var commandLines: [String] = []
        let deadline = Date().addingTimeInterval(5)
        while commandLines.isEmpty, Date() < deadline, process.isRunning {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
                guard let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
                let line = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
                if line.contains("moviesearch-fetch"), line.contains("--request-from-stdin") { commandLines.append(line) }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertFalse(commandLines.isEmpty, "moviesearch-fetch was not seen running")
        for line in commandLines {
            XCTAssertFalse(line.contains("s3cret-t0ken"), line)
            XCTAssertFalse(line.contains(standIn.tmdbEndpoint), "the URL is on the command line: \(line)")
        }
        XCTAssertTrue(standIn.requests.first?.hasSuffix(" auth=Bearer s3cret-t0ken") == true, "\(standIn.requests)")
    }

    func testAReadAccessTokenIsSentAsABearerTokenAndShowFetchKeepsTheAnswer() throws {
        let standIn = try FlickrStandIn(self, modes: modesFile)
        let environment = standIn.environment(cacheHome: cacheHome).merging(["TMDB_READ_ACCESS_TOKEN": "t0ken"]) { $1 }
        let run = try BinaryRun.run(["show", "0", "--cache", TestPaths.sampleCache, "--json", "--fetch",
                                     "--tmdb-endpoint", standIn.tmdbEndpoint], environment: environment)
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains(#""poster":"https://image.tmdb.org/t/p/w500/"#), run.standardOutput)
        XCTAssertEqual(standIn.requests.count, 1)
        XCTAssertTrue(standIn.requests[0].hasSuffix("include_adult=false auth=Bearer t0ken"), standIn.requests[0])
        // Kept: a second show asks nothing, with --fetch or without.
        let again = try BinaryRun.run(["show", "0", "--cache", TestPaths.sampleCache, "--json", "--fetch",
                                       "--tmdb-endpoint", standIn.tmdbEndpoint], environment: environment)
        XCTAssertEqual(again.standardOutput, run.standardOutput)
        XCTAssertEqual(standIn.requests.count, 1)
        let noKey = try BinaryRun.run(["show", "1", "--cache", TestPaths.sampleCache, "--fetch"],
                                      environment: standIn.environment(cacheHome: cacheHome))
        XCTAssertEqual(noKey.status, 2)
        XCTAssertTrue(noKey.standardError.contains("--fetch needs a TMDb key"), noKey.standardError)
    }
}
