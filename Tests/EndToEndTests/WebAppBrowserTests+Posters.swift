import Foundation
import XCTest
import TestSupport

extension WebAppBrowserTests {
    /// Posters found on TMDb: `serve` asks the stand-in's search/movie through `moviesearch-fetch`, and Chromium
    /// loads the posters from `image.tmdb.org` mapped to a local HTTPS stand-in with a certificate made here by
    /// `openssl` (`Scripts/browser-posters-test.py`). Then a restart with TMDb gone serves every poster the page
    /// asked for from the disk cache, without one request.
    func testTMDbPostersInHeadlessChromium() throws {
        try TestScale.requireFullRun("TMDb posters in a headless Chromium")
        let tools = try browserTools()
        let cache = try indexedCache(try Requirement.sharedData("data/movies.json"))
        let folder = try TestPaths.temporaryFolder(self).path
        let (cert, key) = try certificate(for: "image.tmdb.org", in: folder)
        let tmdb = try FlickrStandIn(self)
        let images = try FlickrStandIn(self, tls: (cert, key))
        let environment = tmdb.environment(cacheHome: folder + "/cache-home")
        let arguments = ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet", "--no-save", "--tmdb-key", "k3y",
                         "--tmdb-endpoint", tmdb.tmdbEndpoint]
        let server = try ServeProcess(self, arguments, environment: environment)
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("moviesearch-screenshots").path
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/browser-posters-test.py").path
        let run = try ChildProcess.run(
            tools.python,
            [script, "--url", "http://127.0.0.1:\(server.port)/", "--images", String(images.port),
             "--tmdb-log", tmdb.log, "--screenshots", screenshots],
            environment: ["CHROMIUM": tools.chromium, "CHROMEDRIVER": tools.driver], timeLimit: 120)
        XCTAssertTrue(run.finished, "browser-posters-test.py did not end within 120 s:\n\(run.standardOutput)")
        XCTAssertTrue(run.exited(0),
                      "browser-posters-test.py: \(run.summary)\n\(run.standardOutput)\nserve: \(server.standardError)")
        XCTAssertFalse(images.requests.isEmpty, "no poster was asked of the image stand-in")
        print(run.standardOutput, terminator: "")

        // A restart with TMDb gone: every poster the page asked for, from disk.
        let line = run.standardOutput.split(separator: "\n").last { $0.hasPrefix("asked ids: ") } ?? ""
        let ids = line.dropFirst("asked ids: ".count).split(separator: ",").compactMap { Int($0) }
        XCTAssertFalse(ids.isEmpty, run.standardOutput)
        let asked = tmdb.requests.count
        tmdb.stop()
        let restarted = try ServeProcess(self, arguments, environment: environment)
        for id in ids {
            let first = try server.request("/api/movies/\(id)/poster")
            let again = try restarted.request("/api/movies/\(id)/poster")
            XCTAssertEqual(again.status, 200, again.text)
            XCTAssertEqual(again.text, first.text)
            XCTAssertTrue(again.text.contains(#""poster":"https://image.tmdb.org/t/p/w185/"#), again.text)
        }
        XCTAssertEqual(tmdb.requests.count, asked, "the restarted server asked TMDb")
    }
}
