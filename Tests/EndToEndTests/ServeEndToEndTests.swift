import Foundation
import Synchronization
import XCTest
import TestSupport

/// `moviesearch serve` run as the built binary on port 0, talked to over sockets: the API against the CLI's JSON
/// byte for byte, favorites shared with the CLI, the cache replaced under load. Heavier variants run in a full run
/// only (`TestScale`). The Host and Origin rules, slow clients and usage errors: `ServeSafetyEndToEndTests`; stop
/// signals: `ServeSignalEndToEndTests`.
final class ServeEndToEndTests: XCTestCase {
    private static let flickrKey = "k3y"

    private func cli(_ arguments: [String], input: String = "", file: StaticString = #filePath,
                     line: UInt = #line) throws -> String {
        let run = try BinaryRun.run(arguments, input: Data(input.utf8), file: file, line: line)
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.standardError)", file: file, line: line)
        return run.standardOutput
    }

    /// Every query's `/api/search` answer (one keep-alive connection) against `query --stdin`'s line for it.
    private func assertSearchesMatchTheCLI(_ queries: [String], cache: String, file: StaticString = #filePath,
                                           line: UInt = #line) throws {
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        let output = try cli(["query", "--stdin", "--cache", cache], input: queries.joined(separator: "\n") + "\n")
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, queries.count, file: file, line: line)
        var connection = try server.connect()
        var mismatches = 0
        for (query, expected) in zip(queries, lines) {
            let target = "/api/search?q=\(percentEncoded(query))"
            let request = HTTPConnection.request("GET", target, host: "127.0.0.1:\(server.port)")
            let answer: HTTPAnswer
            do {
                try connection.send(request)
                answer = try connection.readAnswer()
            } catch {
                // The server may close an idle keep-alive connection between two requests: one retry, afresh.
                connection = try server.connect()
                try connection.send(request)
                answer = try connection.readAnswer()
            }
            XCTAssertEqual(answer.status, 200, query, file: file, line: line)
            XCTAssertEqual(answer.header("Content-Type"), "application/json", file: file, line: line)
            if answer.text != expected + "\n" {
                mismatches += 1
                if mismatches <= 3 {
                    XCTAssertEqual(answer.text, expected + "\n", query.debugDescription, file: file, line: line)
                }
            }
        }
        XCTAssertEqual(mismatches, 0, "answers that differ from the CLI's", file: file, line: line)
    }

    // MARK: The API against the CLI

    func testSearchesAreTheCLIsOnTheDecadeQueries() throws {
        let all = try SharedData.queries("decade-typing.txt")
        // A sampled run: every 32nd line (some 120 queries), keystroke prefixes of all lengths.
        let queries = TestScale.isFull ? all : stride(from: 0, to: all.count, by: 32).map { all[$0] }
        try assertSearchesMatchTheCLI(queries, cache: try servedDecadeCache())
    }

    /// In full runs only (`.ci/run` runs the end-to-end tests in full against the installed binary): indexing the
    /// century catalog with a debug binary costs seconds of README's `swift test`, and the decade set above already
    /// holds the API to the CLI's bytes on every kind of answer.
    func testSearchesAreTheCLIsOnACenturySample() throws {
        try TestScale.requireFullRun("the century sample through the API")
        let all = try SharedData.queries("century-typing.txt")
        let step = 10
        let queries = stride(from: 0, to: all.count, by: step).map { all[$0] }
        try assertSearchesMatchTheCLI(queries, cache: try indexedCache(
            try Requirement.sharedData("data/century-movies.json")))
    }

    func testMoviesTopAndPhotosAreTheCLIs() throws {
        let cache = try servedDecadeCache()
        let photos = try TestPaths.temporaryFolder(self).path
        let response = """
            {"photos":{"page":1,"pages":1,"perpage":10,"total":"3","photo":[
              {"id":"53001","owner":"1@N01","secret":"abc123","server":"65535","farm":66,"title":"one"},
              {"id":"53002","owner":"2@N01","secret":"def456","server":"65535","farm":"66","title":"two"},
              {"id":"53003","owner":"3@N01","server":"65535","farm":66,"title":"no secret"}
            ]},"stat":"ok"}
            """
        try Data(response.utf8).write(to: URL(fileURLWithPath: photos + "/682.json"))
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet",
                                             "--photos-dir", photos, "--flickr-key", Self.flickrKey,
                                             "--offline"])
        for id in [0, 682, 1025, 2271] {
            let answer = try server.request("/api/movies/\(id)")
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.text, try cli(["show", "\(id)", "--json", "--cache", cache]), "movie \(id)")
        }
        XCTAssertEqual(try server.request("/api/movies/2272").status, 404)
        // Each order with every limit in a full run; a sampled one shares the limits out between the orders.
        for by in ["rating", "critic"] {
            for limit in TestScale.pick(sampled: by == "rating" ? [nil, 3] : [0, 40], full: [nil, 0, 3, 40]) {
                let target = "/api/top?by=\(by)" + (limit.map { "&limit=\($0)" } ?? "")
                let answer = try server.request(target)
                XCTAssertEqual(answer.status, 200, target)
                let arguments = ["top", "--by", by, "--json", "--cache", cache] + (limit.map { ["--limit", "\($0)"] }
                    ?? [])
                XCTAssertEqual(answer.text, try cli(arguments), target)
            }
        }
        XCTAssertEqual(try server.request("/api/top").text, try cli(["top", "--json", "--cache", cache]))

        let saved = try server.request("/api/photos/682")
        XCTAssertEqual(saved.status, 200)
        let responsePath = photos + "/682.json"
        XCTAssertEqual(saved.text, try cli(["photos", "682", "--response", responsePath, "--json", "--cache", cache,
                                            "--flickr-key", Self.flickrKey]))
        XCTAssertTrue(saved.text.contains("53002_def456.jpg"), saved.text)
        let alone = try server.request("/api/photos/5")
        XCTAssertEqual(alone.status, 200)
        XCTAssertEqual(alone.text, try cli(["photos", "5", "--json", "--cache", cache, "--flickr-key", Self.flickrKey,
                                            "--offline"]))
    }

    // MARK: Favorites shared with the CLI

    func testFavoritesAreSharedWithTheCLI() throws {
        let cache = try servedSmallCache()
        let favorites = try TestPaths.temporaryFolder(self).path + "/favorites.json"
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet",
                                             "--favorites", favorites])
        let list = ["favorites", "list", "--json", "--cache", cache, "--favorites", favorites]

        // PUT through the API, seen by `favorites list`.
        let put = try server.request("PUT", "/api/favorites/2")
        XCTAssertEqual(put.status, 200, put.text)
        XCTAssertTrue(put.text.contains(#""title":"Heat""#) && put.text.contains(#""added":true"#), put.text)
        let listed = try cli(list)
        XCTAssertTrue(listed.contains(#""id":2,"title":"Heat""#), listed)
        XCTAssertEqual(try server.request("/api/favorites").text, listed)

        // `favorites add` through the CLI, seen by the API's list and its marks.
        _ = try cli(["favorites", "add", "1", "--cache", cache, "--favorites", favorites])
        let both = try cli(list)
        XCTAssertEqual(try server.request("/api/favorites").text, both)
        XCTAssertTrue(both.contains(#""title":"Dark Shadows""#), both)
        let search = try server.request("/api/search?q=dark")
        XCTAssertTrue(search.text.contains(#""title":"Dark Shadows","year":2012,"rating":3,"rating_scale":5,"genres":[],"cast":[],"#
            + #""favorite":true"#), search.text)
        XCTAssertTrue(search.text.contains(#""title":"The Dark Knight Rises","year":2012,"rating":5,"rating_scale":5,"genres":[],"#
            + #""cast":[],"favorite":false"#), search.text)
        XCTAssertEqual(search.text, try cli(["query", "dark", "--json", "--cache", cache, "--favorites", favorites]))

        // DELETE through the API, and `favorites remove` through the CLI.
        XCTAssertEqual(try server.request("DELETE", "/api/favorites/2").status, 200)
        _ = try cli(["favorites", "remove", "1", "--cache", cache, "--favorites", favorites])
        let none = try cli(list)
        XCTAssertEqual(none, "{\"favorites\":[]}\n")
        XCTAssertEqual(try server.request("/api/favorites").text, none)
        XCTAssertFalse(try server.request("/api/search?q=dark").text.contains(#""favorite":true"#))
    }

    /// A default favorites file that cannot be read, or no place for one: served, with a warning after the first
    /// line (which scripts read for the port), and a damaged file is never written.
    func testFavoritesWarningsComeAfterTheFirstLine() throws {
        let cache = try servedSmallCache()
        let dataHome = try TestPaths.temporaryFolder(self).path
        try FileManager.default.createDirectory(atPath: dataHome + "/moviesearch", withIntermediateDirectories: true)
        let file = dataHome + "/moviesearch/favorites.json"
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: file))
        let damaged = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"],
                                       environment: ["XDG_DATA_HOME": dataHome])
        XCTAssertEqual(damaged.firstLine, "moviesearch: serving 4 movies at http://127.0.0.1:\(damaged.port)/")
        let put = try damaged.request("PUT", "/api/favorites/2")
        XCTAssertEqual(put.status, 500, put.text)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "garbage")
        XCTAssertEqual(try damaged.request("/api/search?q=heat").status, 200)
        let lines = damaged.errorLines(atLeast: 2)
        XCTAssertGreaterThanOrEqual(lines.count, 2, damaged.standardError)
        XCTAssertTrue(lines.dropFirst().first?.hasPrefix("moviesearch: warning: \(file): not a valid favorites file")
            ?? false, damaged.standardError)

        let nowhere = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"],
                                       environment: ["XDG_DATA_HOME": "", "HOME": ""])
        XCTAssertEqual(nowhere.firstLine, "moviesearch: serving 4 movies at http://127.0.0.1:\(nowhere.port)/")
        XCTAssertEqual(try nowhere.request("PUT", "/api/favorites/2").status, 200)
        XCTAssertTrue(try nowhere.request("/api/favorites").text.contains(#""title":"Heat""#))
        let nowhereLines = nowhere.errorLines(atLeast: 2)
        XCTAssertEqual(nowhereLines.count, 2, nowhere.standardError)
        XCTAssertTrue(nowhereLines.last?.hasSuffix("favorites are kept in memory") ?? false, nowhere.standardError)
    }

    // MARK: The cache replaced

    func testAReplacedCacheIsServedWithoutAFailedRequest() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let cache = try servedDecadeCache()  // a copy of its own, in a folder of its own
        let small = try temporaryFile("small.json", ServeProcess.smallCatalog)
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        XCTAssertTrue(server.waitForHealth(within: 1) { $0.contains(#""movies":2272,"#) })

        /// A client that searches in a loop until told to stop (or 20 s pass), counting answers and failures.
        final class Load: Sendable {
            let stop = Atomic<Bool>(false)
            let answered = Atomic<Int>(0)
            let failures = Mutex<[String]>([])
        }
        let load = Load()
        let port = server.port
        let thread = Thread {
            let deadline = ChildProcess.now() + 20
            while !load.stop.load(ordering: .relaxed), ChildProcess.now() < deadline {
                do {
                    let connection = try HTTPConnection(port: port, timeout: 5)
                    try connection.send(HTTPConnection.request("GET", "/api/search?q=dark", host: "127.0.0.1:\(port)",
                                                               headers: ["Connection": "close"]))
                    let answer = try connection.readAnswer()
                    if answer.status == 200, answer.text.hasPrefix(#"{"query":"dark","total":"#) {
                        load.answered.add(1, ordering: .relaxed)
                    } else {
                        load.failures.withLock { $0.append("\(answer.status) \(answer.text)") }
                    }
                } catch {
                    load.failures.withLock { $0.append("\(error)") }
                }
            }
        }
        thread.start()
        defer {
            load.stop.store(true, ordering: .relaxed)
            while !thread.isFinished { usleep(1_000) }
        }
        /// Waits until the client has had `count` more answers (at most 2 s): the load running, not a fixed time.
        func waitForAnswers(_ count: Int) {
            let wanted = load.answered.load(ordering: .relaxed) + count
            let deadline = ChildProcess.now() + 2
            while load.answered.load(ordering: .relaxed) < wanted, ChildProcess.now() < deadline { usleep(1_000) }
        }
        waitForAnswers(5)

        let index = try BinaryRun.run(["index", small, "-o", cache])
        XCTAssertEqual(index.status, 0, index.standardError)
        let indexed = ChildProcess.now()
        XCTAssertTrue(server.waitForHealth(within: 1) { $0.contains(#""movies":4,"#) }, "the new cache not served")
        XCTAssertLessThan(ChildProcess.now() - indexed, 1)
        waitForAnswers(5)
        let served = try server.request("/api/search?q=dark")
        XCTAssertEqual(served.text, try cli(["query", "dark", "--json", "--cache", cache]))

        // A damaged replacement: logged, the previous cache kept.
        let garbage = folder + "/garbage.tmp"
        try Data("this is not a cache\n".utf8).write(to: URL(fileURLWithPath: garbage))
        XCTAssertEqual(rename(garbage, cache), 0)
        let warnings = server.errorLines { $0.contains { $0.contains("warning") } }.filter { $0.contains("warning") }
        XCTAssertEqual(warnings.count, 1, server.standardError)
        XCTAssertTrue(warnings.first?.hasPrefix("moviesearch: warning: the new cache at \(cache) cannot be served, "
            + "still serving the previous one: ") ?? false, server.standardError)
        XCTAssertTrue(server.waitForHealth(within: 0.1) { $0.contains(#""movies":4,"#) })
        XCTAssertEqual(try server.request("/api/search?q=dark").text, served.text)
        // Past the next of the server's looks at the file (four a second): a retry would warn again.
        usleep(300_000)
        XCTAssertEqual(server.errorLines.filter { $0.contains("warning") }.count, 1, "the refused file retried")

        load.stop.store(true, ordering: .relaxed)
        while !thread.isFinished { usleep(1_000) }
        XCTAssertEqual(load.failures.withLock { $0 }, [])
        XCTAssertGreaterThan(load.answered.load(ordering: .relaxed), 10)
        XCTAssertTrue(server.process.isRunning)
    }

}
