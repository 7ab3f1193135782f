import Foundation
import XCTest
import TestSupport

/// The signals `serve` gives a meaning to, as nginx does: SIGTERM and SIGINT stop it gracefully, the request in
/// flight answered; SIGHUP (a terminal that closed, or a reload asked for) looks at the cache and the favorites now
/// and cuts no request; SIGQUIT stops gracefully; SIGUSR1 prints a status line; SIGUSR2 does nothing. None of them ends the
/// process with a request half answered, as their default actions did.
final class ServeSignalEndToEndTests: XCTestCase {
    private static let small = """
        [{"title":"The Dark Knight Rises","year":2012,"rating":5},
         {"title":"Dark Shadows","year":2012,"rating":3},
         {"title":"Heat","year":1995,"rating":4},
         {"title":"Gone Girl","year":2014,"rating":4}]
        """
    private static let other = """
        [{"title":"Heat","year":1995,"rating":4},
         {"title":"Amelia","year":2009,"rating":3}]
        """

    /// A connection with a request sent up to its last header line: in flight until `finish` sends the rest.
    private func halfRequest(_ server: ServeProcess, _ target: String) throws -> HTTPConnection {
        let connection = try server.connect()
        try connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n")
        // Answered requests on other connections, so that the half request has surely reached the server.
        XCTAssertTrue(server.waitForHealth(within: 2) { _ in true })
        usleep(50_000)
        return connection
    }

    /// Waits (at most 2 s) until standard error has `count` lines containing `text`: the signal taken, not a fixed
    /// wait.
    private func waitForLines(_ server: ServeProcess, containing text: String, count: Int = 1) {
        _ = server.errorLines { $0.filter { $0.contains(text) }.count >= count }
    }

    private func finish(_ connection: HTTPConnection) throws -> HTTPAnswer {
        try connection.send("Connection: close\r\n\r\n")
        return try connection.readAnswer()
    }

    /// SIGHUP while a request is in flight: the request is answered, the server goes on, and the cache and the
    /// favorites replaced just before are served (a note on standard error says the signal was taken for a reload).
    func testSIGHUPCutsNoRequestAndReloadsTheCacheAndTheFavorites() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let cache = folder + "/served.mscache", favorites = folder + "/favorites.json"
        let small = try temporaryFile("small.json", Self.small), other = try temporaryFile("other.json", Self.other)
        XCTAssertEqual(try BinaryRun.run(["index", small, "-o", cache]).status, 0)
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet",
                                             "--favorites", favorites])
        XCTAssertTrue(server.waitForHealth(within: 2) { $0.contains(#""movies":4,"#) })
        for round in 1...2 {
            let connection = try halfRequest(server, "/api/search?q=heat")
            let catalog = round == 1 ? other : small
            XCTAssertEqual(try BinaryRun.run(["index", catalog, "-o", cache]).status, 0)
            XCTAssertEqual(try BinaryRun.run(["favorites", "add", "0", "--cache", cache, "--favorites", favorites])
                .status, 0)
            server.send(SIGHUP)
            waitForLines(server, containing: "note: SIGHUP: reloading", count: round)
            let answer = try finish(connection)
            XCTAssertEqual(answer.status, 200, "round \(round)")
            XCTAssertTrue(answer.text.hasPrefix(#"{"query":"heat","total":1,"#), answer.text)
            XCTAssertTrue(server.process.isRunning, "round \(round): SIGHUP ended the server: \(server.standardError)")
            let movies = round == 1 ? 2 : 4
            XCTAssertTrue(server.waitForHealth(within: 2) { $0.contains(#""movies":\#(movies),"#) }, "round \(round)")
            let movie = try server.request("/api/movies/0")
            XCTAssertTrue(movie.text.hasSuffix(#""favorite":true}"# + "\n"), movie.text)
        }
        XCTAssertEqual(server.errorLines.filter { $0 == "moviesearch: note: SIGHUP: reloading the cache and the "
            + "favorites" }.count, 2, server.standardError)
        server.send(SIGTERM)
        XCTAssertTrue(server.waitForExit(within: 5))
        XCTAssertEqual(server.process.terminationStatus, 0, server.standardError)
    }

    /// SIGQUIT drains as SIGTERM does: the request in flight is answered, then the process exits 0 (no core, no
    /// backtrace).
    func testSIGQUITAnswersTheRequestInFlightAndExits0() throws {
        let cache = try indexedCache(try temporaryFile("small.json", Self.small))
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        let connection = try halfRequest(server, "/api/search?q=heat")
        server.send(SIGQUIT)
        waitForLines(server, containing: "note: SIGQUIT: finishing")
        let answer = try finish(connection)
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(answer.text.hasPrefix(#"{"query":"heat","total":1,"#), answer.text)
        XCTAssertTrue(server.waitForExit(within: 5), "still running after SIGQUIT")
        XCTAssertEqual(server.process.terminationReason, .exit)
        XCTAssertEqual(server.process.terminationStatus, 0, server.standardError)
        XCTAssertTrue(server.errorLines.contains("moviesearch: note: SIGQUIT: finishing the requests in flight, then "
            + "stopping"), server.standardError)
    }

    /// SIGUSR1 prints one status line and SIGUSR2 nothing; neither cuts a request nor ends the server.
    func testSIGUSR1PrintsAStatusLineAndSIGUSR2NothingAndNeitherKills() throws {
        let cache = try indexedCache(try temporaryFile("small.json", Self.small))
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        let connection = try halfRequest(server, "/api/movies/2")
        server.send(SIGUSR1)
        server.send(SIGUSR2)
        // Both delivered (sent before), once the first is seen taken.
        waitForLines(server, containing: "status:")
        let answer = try finish(connection)
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(answer.text.hasPrefix(#"{"id":2,"title":"Heat","#), answer.text)
        XCTAssertTrue(server.process.isRunning, server.standardError)
        let lines = server.errorLines
        XCTAssertEqual(lines.count, 2, server.standardError)
        XCTAssertTrue(lines.last?.hasPrefix("moviesearch: status: serving 4 movies from \(cache) at "
            + "http://127.0.0.1:\(server.port)/, up ") ?? false, server.standardError)
        XCTAssertTrue(lines.last?.hasSuffix(" s, 0 reloads of the cache") ?? false, server.standardError)
        XCTAssertEqual(try server.request("/healthz").status, 200)
    }

    // MARK: Stop signals

    /// A request half sent before `signal` and completed after it is answered; the process exits 0 within 2 s.
    /// `stalledClient`: also a client that never finishes its request, which costs the test the server's grace
    /// period (shortened to 200 ms, `MOVIESEARCH_SERVE_GRACE_MS`), so only one of the two signals' tests has one.
    private func checkGracefulStop(_ signal: Int32, stalledClient: Bool, file: StaticString = #filePath,
                                   line: UInt = #line) throws {
        let server = try ServeProcess(self, ["--cache", try servedSmallCache(), "--listen", "127.0.0.1:0"],
                                      environment: ["MOVIESEARCH_SERVE_GRACE_MS": "200"])
        let connection = try server.connect()
        try connection.send("GET /api/search?q=heat HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n")
        // Neither a client that never finishes its request nor an idle keep-alive one holds the stop up.
        let stalled = stalledClient ? try server.connect() : nil
        try stalled?.send("GET /healthz HTTP/1.1\r\nHo")
        let idle = try server.connect()
        try idle.send(HTTPConnection.request("GET", "/healthz", host: "127.0.0.1:\(server.port)"))
        XCTAssertEqual(try idle.readAnswer().status, 200, file: file, line: line)
        // Answered requests on another connection, so that the half request has surely reached the server.
        XCTAssertTrue(server.waitForHealth(within: 2) { _ in true }, file: file, line: line)
        usleep(50_000)
        let start = ChildProcess.now()
        server.send(signal)
        usleep(100_000)
        try connection.send("Connection: close\r\n\r\n")
        let answer = try connection.readAnswer()
        XCTAssertEqual(answer.status, 200, file: file, line: line)
        XCTAssertTrue(answer.text.hasPrefix(#"{"query":"heat","total":1,"#), answer.text, file: file, line: line)
        XCTAssertTrue(server.waitForExit(within: 2 - (ChildProcess.now() - start)),
                      "still running 2 s after the signal", file: file, line: line)
        XCTAssertEqual(server.process.terminationReason, .exit, file: file, line: line)
        XCTAssertEqual(server.process.terminationStatus, 0, server.standardError, file: file, line: line)
        // No new connection is accepted once it stopped.
        XCTAssertThrowsError(try server.request("/healthz"), file: file, line: line)
    }

    func testSIGTERMAnswersTheRequestInFlightAndExits0() throws {
        try checkGracefulStop(SIGTERM, stalledClient: true)
    }

    func testSIGINTAnswersTheRequestInFlightAndExits0() throws {
        try checkGracefulStop(SIGINT, stalledClient: false)
    }
}
