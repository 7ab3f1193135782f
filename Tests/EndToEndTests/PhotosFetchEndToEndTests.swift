import Foundation
import MovieSearch
import XCTest
import TestSupport

/// `photos <id>` asking a loopback stand-in for Flickr (Scripts/flickr-stand-in.py) through the real
/// `moviesearch-fetch`: answers, refusal, garbage, a hang, a slow answer, a status, a huge answer, a restart with
/// the stand-in gone (from disk), a stale answer, a rebuild that renumbers (same title, same photos), --offline and
/// --refresh.
final class PhotosFetchEndToEndTests: XCTestCase {
    private var cache = ""
    private var cacheHome = ""
    private static let title = "The Clockmaker's Daughter"

    override func setUpWithError() throws {
        cache = try indexedCache(TestPaths.sampleCatalog)
        cacheHome = try TestPaths.temporaryFolder(self).path
    }

    private func photos(_ standIn: FlickrStandIn?, _ id: Int = 7, cache: String? = nil, more: [String] = [],
                        environment: [String: String] = [:]) throws -> BinaryRun {
        let endpoint = standIn?.endpoint ?? "http://127.0.0.1:9/services/rest/"
        var variables = ["MOVIESEARCH_FETCH": FlickrStandIn.fetchProgram, "XDG_CACHE_HOME": cacheHome]
        variables.merge(environment) { $1 }
        return try BinaryRun.run(["photos", String(id), "--cache", cache ?? self.cache, "--flickr-key", "k3y",
                                  "--flickr-endpoint", endpoint, "--json"] + more, environment: variables)
    }

    /// A stand-in whose answer to the title follows a modes file, `setMode` its way: one stand-in (a Python start,
    /// a fifth of a second) for several modes.
    private func standInWithModes(delay: Double? = nil) throws -> (FlickrStandIn, setMode: (String) throws -> Void) {
        let modes = try TestPaths.temporaryFolder(self).appendingPathComponent("modes.json")
        func setMode(_ mode: String) throws {
            let json = try JSONSerialization.data(withJSONObject: [Self.title: mode])
            try json.write(to: modes, options: .atomic)
        }
        try setMode("ok")
        return (try FlickrStandIn(self, delay: delay, modes: modes.path), setMode)
    }

    private func object(_ run: BinaryRun) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    }

    /// `moviesearch-fetch --request-from-stdin` (how `moviesearch` runs it, so that the URL's API key never shows on
    /// a command line): the URL on standard input's first line, headers after it; anything else a usage error.
    func testTheFetchProgramReadsItsRequestFromStandardInput() throws {
        let standIn = try FlickrStandIn(self)
        let folder = try TestPaths.temporaryFolder(self)
        func fetch(_ input: String) throws -> ChildProcess.Outcome {
            let file = folder.appendingPathComponent("input-\(UUID().uuidString)")
            try Data(input.utf8).write(to: file)
            return try ChildProcess.run(FlickrStandIn.fetchProgram, ["--timeout-ms", "5000", "--request-from-stdin"],
                                        standardInput: try FileHandle(forReadingFrom: file), timeLimit: 20)
        }
        let url = FlickrPhotos.searchURL(title: Self.title, apiKey: "k3y-on-stdin", endpoint: standIn.endpoint)
        let fetched = try fetch(url + "\nX-Test: 1\n")
        XCTAssertEqual(fetched.status, 0, fetched.summary)
        XCTAssertTrue(fetched.standardOutput.contains("\"photos\""), fetched.standardOutput)
        XCTAssertTrue(standIn.requests.contains { $0.contains("k3y-on-stdin") }, "\(standIn.requests)")

        for input in ["", "\n", url + "\nnot a header\n"] {
            let refused = try fetch(input)
            XCTAssertEqual(refused.status, 2, "\(input.debugDescription): \(refused.summary)")
            XCTAssertTrue(refused.standardError.hasPrefix("moviesearch-fetch: --request-from-stdin needs"),
                          refused.standardError)
        }
    }

    func testFetchedOnceThenFromTheDiskCacheEvenWithFlickrGone() throws {
        let standIn = try FlickrStandIn(self)
        let first = try photos(standIn)
        XCTAssertEqual(first.status, 0, first.standardError)
        XCTAssertEqual(first.standardError, "")
        let answer = try object(first)
        let urls = try XCTUnwrap(answer["photos"] as? [String])
        XCTAssertEqual(urls.count, 3)
        XCTAssertTrue(urls.allSatisfy { $0.hasPrefix("http://farm66.static.flickr.com/65535/") }, "\(urls)")
        let pictures = try XCTUnwrap(answer["pictures"] as? [[String: String]])
        XCTAssertEqual(pictures.count, 3)
        XCTAssertTrue(pictures[0]["image"]!.hasPrefix("https://live.staticflickr.com/65535/"))
        XCTAssertTrue(pictures[0]["image"]!.hasSuffix("_w.jpg"))
        XCTAssertTrue(pictures[0]["page"]!.hasPrefix("https://www.flickr.com/photos/1000@N00/"), "\(pictures)")
        XCTAssertEqual(answer["request"] as? String, FlickrPhotos.searchURL(title: Self.title, apiKey: "k3y",
                                                                           endpoint: standIn.endpoint))
        XCTAssertEqual(standIn.requests.count, 1)
        XCTAssertTrue(standIn.requests[0].contains("text=The%20Clockmaker%27s%20Daughter&page=1&per_page=10"),
                      "\(standIn.requests)")

        let again = try photos(standIn)
        XCTAssertEqual(again.standardOutput, first.standardOutput)
        XCTAssertEqual(standIn.requests.count, 1, "the second run read the disk cache")
        let files = try FileManager.default.contentsOfDirectory(atPath: cacheHome + "/moviesearch/flickr")
        XCTAssertEqual(files, [FlickrAnswerCache.hash(Self.title) + ".json"])

        standIn.stop()
        let gone = try photos(standIn)
        XCTAssertEqual(gone.status, 0, gone.standardError)
        XCTAssertEqual(gone.standardOutput, first.standardOutput)

        // Past its 7 days, with Flickr gone: still served, with a warning.
        let path = cacheHome + "/moviesearch/flickr/" + files[0]
        var bytes = try String(contentsOfFile: path, encoding: .utf8)
        let header = bytes.prefix { $0 != "\n" }
        bytes.replaceSubrange(header.startIndex..<header.endIndex,
                              with: header.replacingOccurrences(of: #""fetched":\d+"#, with: #""fetched":1000"#,
                                                                options: .regularExpression))
        try Data(bytes.utf8).write(to: URL(fileURLWithPath: path))
        let stale = try photos(standIn)
        XCTAssertEqual(stale.status, 0, stale.standardError)
        XCTAssertEqual(stale.standardOutput, first.standardOutput)
        XCTAssertTrue(stale.standardError.contains("older than 7 days"), stale.standardError)
        XCTAssertTrue(stale.standardError.contains("cannot get photos from Flickr: unreachable"), stale.standardError)
    }

    func testARebuildThatRenumbersKeepsATitlesPhotos() throws {
        let standIn = try FlickrStandIn(self)
        let folder = try TestPaths.temporaryFolder(self).path
        let before = folder + "/before.json", after = folder + "/after.json"
        try Data(#"{"movies":[{"title":"Heat","year":1995},{"title":"Alien","year":1979}]}"#.utf8)
            .write(to: URL(fileURLWithPath: before))
        try Data(#"{"movies":[{"title":"Brazil","year":1985},{"title":"Alien","year":1979},{"title":"Heat","year":1995}]}"#
            .utf8).write(to: URL(fileURLWithPath: after))
        let first = try photos(standIn, 0, cache: try indexedCache(before))
        XCTAssertEqual(first.status, 0, first.standardError)
        standIn.stop()
        let renumbered = try photos(standIn, 2, cache: try indexedCache(after))
        XCTAssertEqual(renumbered.status, 0, renumbered.standardError)
        XCTAssertEqual(try object(renumbered)["photos"] as? [String], try object(first)["photos"] as? [String])
        XCTAssertEqual(try object(renumbered)["id"] as? Int, 2)
        XCTAssertEqual(standIn.requests.count, 1)
    }

    func testEachFailureIsOneLineAndNothingIsCached() throws {
        let cases: [(mode: String, words: String)] = [
            ("fail", "moviesearch: Flickr refused the request: error 100, Invalid API Key (Key has invalid format) "
                + "(check the Flickr API key)\n"),
            ("garbage", "moviesearch: Flickr's answer is not JSON (line 1, column 1, byte 0)\n"),
            ("status", "moviesearch: cannot get photos from Flickr: HTTP status 500\n"),
            ("big", "moviesearch: cannot get photos from Flickr: an answer larger than 1048576 bytes\n"),
        ]
        let (standIn, setMode) = try standInWithModes()
        for (index, (mode, words)) in cases.enumerated() {
            try setMode(mode)
            for _ in 0..<2 {
                let run = try photos(standIn)
                XCTAssertEqual(run.status, 1, mode)
                XCTAssertEqual(run.standardOutput, "", mode)
                XCTAssertEqual(run.standardError, words, mode)
            }
            XCTAssertEqual(standIn.requests.count, 2 * (index + 1), "\(mode): nothing failed was cached")
        }
        standIn.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheHome + "/moviesearch/flickr/"
            + FlickrAnswerCache.hash(Self.title) + ".json"))
        let nobody = try photos(nil)
        XCTAssertEqual(nobody.status, 1)
        XCTAssertTrue(nobody.standardError.hasPrefix("moviesearch: cannot get photos from Flickr: unreachable ("),
                      nobody.standardError)
    }

    func testAHangAndASlowAnswerEndAtTheTimeLimit() throws {
        try TestScale.requireFullRun("a hang and a slow answer waited out to the time limit")
        // One stand-in, its slow answers 400 ms late: twice the shortened limit (the variable takes 100 ms to 10 s).
        let (standIn, setMode) = try standInWithModes(delay: 0.4)
        for mode in ["hang", "slow"] {
            try setMode(mode)
            let start = Date()
            let run = try photos(standIn, environment: ["MOVIESEARCH_FLICKR_TIMEOUT_MS": "200"])
            XCTAssertLessThan(Date().timeIntervalSince(start), 4.5, mode)
            XCTAssertEqual(run.status, 1)
            XCTAssertEqual(run.standardError, "moviesearch: Flickr did not answer within 200 ms\n", mode)
        }
        XCTAssertEqual(standIn.requests.count, 2)
        // A slow answer within the limit (the default) is an answer.
        XCTAssertEqual(try photos(standIn).status, 0)
    }

    func testOfflineNeverAsksAndRefreshAsksAgain() throws {
        let standIn = try FlickrStandIn(self)
        let offline = try photos(standIn, more: ["--offline"])
        XCTAssertEqual(offline.status, 0)
        XCTAssertTrue(try object(offline)["photos"] is NSNull)
        XCTAssertEqual(standIn.requests.count, 0)
        XCTAssertEqual(try photos(standIn).status, 0)
        XCTAssertEqual(try photos(standIn, more: ["--offline"]).standardOutput, try photos(standIn).standardOutput)
        XCTAssertEqual(standIn.requests.count, 1)
        XCTAssertEqual(try photos(standIn, more: ["--refresh"]).status, 0)
        XCTAssertEqual(standIn.requests.count, 2)
        let both = try photos(standIn, more: ["--refresh", "--offline"])
        XCTAssertEqual(both.status, 2)
    }
}
