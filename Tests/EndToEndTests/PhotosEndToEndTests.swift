import Foundation
import MovieSearch
import MovieSearchCLI
import XCTest
import TestSupport

/// `photos` through the built binary, with saved Flickr answers written by the tests.
final class PhotosEndToEndTests: XCTestCase {
    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(TestPaths.sampleCatalog)
    }

    /// Three photos: `farm` as a number and as a string, and one without its `secret`, which is skipped.
    private static let response = """
        {"photos":{"page":1,"pages":1,"perpage":10,"total":"3","photo":[
          {"id":"53001","owner":"1@N01","secret":"abc123","server":"65535","farm":66,"title":"one","ispublic":1},
          {"id":"53002","owner":"2@N01","secret":"def456","server":"65535","farm":"66","title":"two"},
          {"id":"53003","owner":"3@N01","server":"65535","farm":66,"title":"no secret"}
        ]},"stat":"ok"}
        """
    private static let urls = [
        "http://farm66.static.flickr.com/65535/53001_abc123.jpg",
        "http://farm66.static.flickr.com/65535/53002_def456.jpg",
    ]
    private static let title = "The Clockmaker's Daughter"
    private static let request = FlickrPhotos.searchURL(title: title, apiKey: "k3y")

    func testPhotosOfASavedResponse() throws {
        let response = try temporaryFile("response.json", Self.response)
        let run = try BinaryRun.run(["photos", "7", "--cache", cache, "--response", response, "--flickr-key", "k3y"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardOutput, """
            \(Self.title) (2015)
            request: \(Self.request)
            2 photos:
            \(Self.urls[0])
            \(Self.urls[1])

            """)
        XCTAssertEqual(run.standardError,
                       "moviesearch: warning: skipped 1 photo with a missing or bad field in \(response)\n")
    }

    func testPhotosAsJSONFromStandardInput() throws {
        let run = try BinaryRun.run(["photos", "7", "--cache", cache, "--response", "-", "--json"],
                                    input: Data(Self.response.utf8), environment: ["FLICKR_API_KEY": "k3y"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardError, "moviesearch: warning: skipped 1 photo with a missing or bad field in <stdin>\n")
        XCTAssertEqual(run.standardOutput.filter { $0 == "\n" }.count, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["id", "title", "request", "photos", "pictures"])
        XCTAssertEqual(object["id"] as? Int, 7)
        XCTAssertEqual(object["title"] as? String, Self.title)
        XCTAssertEqual(object["request"] as? String, Self.request)
        XCTAssertEqual(object["photos"] as? [String], Self.urls)
        XCTAssertTrue(run.standardOutput.hasPrefix(#"{"id":7,"title":"#))
    }

    func testTwoColumnsOnAWideTerminal() throws {
        let response = try temporaryFile("response.json", Self.response)
        let arguments = ["photos", "7", "--cache", cache, "--response", response, "--flickr-key", "k3y"]
        let wide = MovieSearchCommand.run(arguments: arguments, terminalWidth: 130)
        XCTAssertEqual(wide.status, 0)
        XCTAssertTrue(wide.standardOutput.hasSuffix("2 photos:\n\(Self.urls[0])" + String(repeating: " ", count: 65 - 54)
                                                    + "\(Self.urls[1])\n"), wide.standardOutput)
        // Too narrow for two: one a line, as in a pipe.
        let narrow = MovieSearchCommand.run(arguments: arguments, terminalWidth: 80)
        XCTAssertTrue(narrow.standardOutput.hasSuffix("2 photos:\n\(Self.urls[0])\n\(Self.urls[1])\n"), narrow.standardOutput)
    }

    func testOfflineWithoutAResponseOnlyTheRequest() throws {
        let run = try BinaryRun.run(["photos", "7", "--cache", cache, "--flickr-key", "k3y", "--offline"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardOutput, "\(Self.title) (2015)\nrequest: \(Self.request)\n")
        let json = try BinaryRun.run(["photos", "7", "--cache", cache, "--flickr-key", "k3y", "--json", "--offline"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        XCTAssertTrue(object["photos"] is NSNull)
    }

    func testNoPictures() throws {
        let response = try temporaryFile(
            "empty.json", #"{"photos":{"page":1,"pages":0,"perpage":10,"total":0,"photo":[]},"stat":"ok"}"#)
        let run = try BinaryRun.run(["photos", "7", "--cache", cache, "--response", response, "--flickr-key", "k3y"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardError, "")
        XCTAssertEqual(run.standardOutput, "\(Self.title) (2015)\nrequest: \(Self.request)\nno pictures\n")
        let json = try BinaryRun.run(["photos", "7", "--cache", cache, "--response", response, "--json", "--flickr-key", "k"])
        XCTAssertTrue(json.standardOutput.hasSuffix(#","photos":[],"pictures":[]}"# + "\n"), json.standardOutput)
    }

    func testBadResponses() throws {
        let failed = try temporaryFile(
            "fail.json", #"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#)
        let malformed = try temporaryFile("malformed.json", #"{"photos":{"photo":[{"id":"1",}]}"#)
        for (arguments, expected) in [
            (["--response", failed], ["100", "Invalid API Key (Key has invalid format)"]),
            (["--response", malformed], [malformed]),
            (["--response", "/nonexistent/response.json"],
             ["moviesearch: cannot read Flickr response /nonexistent/response.json: No such file or directory"]),
        ] {
            let run = try BinaryRun.run(["photos", "7", "--cache", cache, "--flickr-key", "k"] + arguments)
            XCTAssertEqual(run.status, 1, "\(arguments)")
            XCTAssertEqual(run.standardOutput, "")
            XCTAssertEqual(run.errorLines.count, 1, run.standardError)
            XCTAssertTrue(run.standardError.hasPrefix("moviesearch: "), run.standardError)
            for part in expected { XCTAssertTrue(run.standardError.contains(part), "\(part) in \(run.standardError)") }
        }
    }

    /// A FIFO named as the response, with no program writing to it, is one line and exit 1 at once, never a process
    /// frozen in `open` (deaf to Ctrl-C while it waits); the run is killed after 10 s if it hangs, and then fails.
    func testAFIFOThatNoOneWritesToFailsAtOnce() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let fifo = folder + "/7.json"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, String(cString: strerror(errno)))
        let run = try ChildProcess.run(try ChildProcess.binary(), ["photos", "7", "--cache", cache, "--response", fifo],
                                       timeLimit: 10)
        XCTAssertTrue(run.finished, "photos waited for a writer of the FIFO")
        XCTAssertTrue(run.exited(1), "\(run)")
        XCTAssertEqual(run.standardError, "moviesearch: cannot read Flickr response \(fifo): it is a FIFO (named pipe), "
            + "not a regular file, and no program was writing to it (use '-' to read standard input)\n")
    }
}
