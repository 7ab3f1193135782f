import Foundation
import XCTest
import TestSupport

/// The web app in a real browser: `Scripts/browser-tests.py` drives headless Chromium through selenium against the
/// built binary's `serve` (the decade catalog, a favorites file and a photos folder of this test), as a person uses
/// the page. It needs `chromium`, `chromium-driver` and Python's `selenium`: without them the test is skipped with a
/// message saying what to install, and fails when `CI` is set (`.ci/run` installs them). A headless Chromium costs
/// seconds to start and the page's checks some twenty: these are a full run's checks (`TestScale.requireFullRun`),
/// which `.ci/run` makes against the installed binary.
final class WebAppBrowserTests: XCTestCase {
    /// What `.ci/run` installs; the skip message names it.
    private static let selenium = "selenium==4.27.1"

    /// The paths of python3, chromium and chromedriver, or one message naming everything missing.
    func browserTools() throws -> (python: String, chromium: String, driver: String) {
        var missing: [String] = []
        let python = Requirement.findTool("python3")
        let chromium = Requirement.findTool("chromium")
        let driver = Requirement.findTool("chromedriver")
        if python == nil { missing.append("no python3 on PATH (install python3)") }
        if chromium == nil { missing.append("no chromium on PATH (install chromium)") }
        if driver == nil { missing.append("no chromedriver on PATH (install chromium-driver)") }
        if let python {
            let probe = try ChildProcess.run(python, ["-c", "import selenium"], timeLimit: 30)
            if !probe.exited(0) { missing.append("python3 cannot import selenium (pip install \(Self.selenium))") }
        }
        guard let python, let chromium, let driver, missing.isEmpty else {
            throw Requirement.unmet("the browser tests cannot run: " + missing.joined(separator: "; "))
        }
        return (python, chromium, driver)
    }

    func testThePageInHeadlessChromium() throws {
        try TestScale.requireFullRun("the page in a headless Chromium (some 20 s)")
        let tools = try browserTools()
        let cache = try indexedCache(try Requirement.sharedData("data/movies.json"))
        let folder = try TestPaths.temporaryFolder(self).path
        let favorites = folder + "/favorites.json"
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet",
                                             "--favorites", favorites, "--photos-dir", photos])
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/browser-tests.py").path
        let run = try ChildProcess.run(
            tools.python,
            [script, "--url", "http://127.0.0.1:\(server.port)/", "--cli", try ChildProcess.binary(),
             "--cache", cache, "--favorites", favorites, "--photos-dir", photos],
            environment: ["CHROMIUM": tools.chromium, "CHROMEDRIVER": tools.driver], timeLimit: 120)
        XCTAssertTrue(run.finished, "browser-tests.py did not end within 120 s:\n\(run.standardOutput)")
        XCTAssertTrue(run.exited(0),
                      "browser-tests.py: \(run.summary)\n\(run.standardOutput)\nserve: \(server.standardError)")
    }

    /// Photos fetched for real: `serve` asks a Flickr stand-in through `moviesearch-fetch`, and Chromium loads the
    /// pictures from `live.staticflickr.com` mapped to a local HTTPS stand-in (`--host-resolver-rules`,
    /// `--ignore-certificate-errors`) with a certificate made here by `openssl` (nothing committed). A screenshot of
    /// the details page goes to `$TMPDIR/moviesearch-screenshots`.
    func testFetchedPhotosInHeadlessChromium() throws {
        try TestScale.requireFullRun("fetched photos in a headless Chromium")
        let tools = try browserTools()
        let cache = try indexedCache(try Requirement.sharedData("data/movies.json"))
        let folder = try TestPaths.temporaryFolder(self).path
        let (cert, key) = try certificate(for: "live.staticflickr.com", in: folder)
        let modes = folder + "/modes.json"
        let flickr = try FlickrStandIn(self, modes: modes)
        let images = try FlickrStandIn(self, tls: (cert, key))
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet", "--no-save",
                                             "--flickr-key", "k3y", "--flickr-endpoint", flickr.endpoint],
                                      environment: flickr.environment(cacheHome: folder + "/cache-home"))
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("moviesearch-screenshots").path
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/browser-tests.py").path
        let run = try ChildProcess.run(
            tools.python,
            [script, "--url", "http://127.0.0.1:\(server.port)/", "--cli", try ChildProcess.binary(),
             "--cache", cache, "--favorites", folder + "/unused.json", "--photos-dir", folder,
             "--flickr-images", String(images.port), "--flickr-modes", modes, "--flickr-log", flickr.log,
             "--screenshots", screenshots],
            environment: ["CHROMIUM": tools.chromium, "CHROMEDRIVER": tools.driver], timeLimit: 120)
        XCTAssertTrue(run.finished, "browser-tests.py did not end within 120 s:\n\(run.standardOutput)")
        XCTAssertTrue(run.exited(0),
                      "browser-tests.py: \(run.summary)\n\(run.standardOutput)\nserve: \(server.standardError)")
        XCTAssertFalse(images.requests.isEmpty, "no picture was asked of the image stand-in")
    }

    /// A self-signed certificate and its key for `host`, made by `openssl` in `folder` (nothing committed), for an
    /// HTTPS stand-in that Chromium reaches under that name.
    func certificate(for host: String, in folder: String) throws -> (certificate: String, key: String) {
        let openssl = try Requirement.tool("openssl")
        let (certificate, key) = (folder + "/cert.pem", folder + "/key.pem")
        let made = try ChildProcess.run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                                                  "-out", certificate, "-days", "1", "-subj", "/CN=\(host)",
                                                  "-addext", "subjectAltName=DNS:\(host)"],
                                        timeLimit: 60)
        XCTAssertTrue(made.exited(0), made.summary)
        return (certificate, key)
    }
}
