import Dispatch
import Foundation
import Synchronization
import XCTest

import MovieSearch
import MovieSearchPlatform
import TestSupport
@testable import MovieSearchPhotos

/// `FlickrPhotoSource` with a fake `HTTPFetching`: the order of saved, cached and fetched answers, freshness, stale
/// answers while Flickr fails, nothing failed cached, one request per title, at most four at once, the hourly limit.
/// (The real `moviesearch-fetch` against a loopback stand-in: PhotosFetchEndToEndTests.)
final class FlickrPhotoSourceTests: XCTestCase {
    /// Answers from a table by title (the request's `text`), counting requests; `gate` holds each request until
    /// released, and the most requests running at once is kept.
    private final class FakeFlickr: HTTPFetching {
        struct State {
            var answers: [String: Result<String, FetchFailure>] = [:]
            var requests: [String] = []
            var running = 0, mostRunning = 0
        }
        let state = Mutex(State())
        let delayMilliseconds: Int

        init(delayMilliseconds: Int = 0) { self.delayMilliseconds = delayMilliseconds }

        func set(_ title: String, _ answer: Result<String, FetchFailure>) {
            state.withLock { $0.answers[title] = answer }
        }

        var requests: [String] { state.withLock { $0.requests } }
        var mostRunning: Int { state.withLock { $0.mostRunning } }

        func fetch(_ url: String, limits: FetchLimits) throws(FetchFailure) -> [UInt8] {
            let encoded = url.split(separator: "&").first { $0.hasPrefix("text=") }.map { $0.dropFirst(5) } ?? ""
            let title = String(encoded).removingPercentEncoding ?? ""
            let answer = state.withLock { state in
                state.requests.append(title)
                state.running += 1
                state.mostRunning = max(state.mostRunning, state.running)
                return state.answers[title] ?? .success(FlickrResponseFixtures.emptyPhotoArray)
            }
            if delayMilliseconds > 0 { Syscalls.sleep(milliseconds: delayMilliseconds) }
            state.withLock { $0.running -= 1 }
            return Array(try answer.get().utf8)
        }
    }

    /// A clock the test moves.
    private final class TestClock: Sendable {
        let now = Mutex<Double>(1_700_000_000)
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
        var read: @Sendable () -> Double { { self.now.withLock { $0 } } }
    }

    private var folder = ""

    override func setUpWithError() throws {
        folder = try TestPaths.temporaryFolder(self).path
    }

    private func source(_ fake: FakeFlickr, clock: TestClock = TestClock(), key: String? = "k",
                        configure: (inout FlickrPhotoSource.Settings) -> Void = { _ in }) -> FlickrPhotoSource {
        var settings = FlickrPhotoSource.Settings(apiKey: key)
        settings.cacheFolder = FilePath(folder + "/cache")
        configure(&settings)
        return FlickrPhotoSource(settings: settings, fetcher: fake, clock: clock.read)
    }

    func testFetchedOnceThenFromMemoryThenFromDiskInANewSource() throws {
        let fake = FakeFlickr()
        fake.set("Heat", .success(FlickrResponseFixtures.normal))
        let first = try source(fake).photos(movieID: 1, title: "Heat")
        XCTAssertEqual(first.origin, .fetched)
        XCTAssertEqual(first.list?.urls, FlickrResponseFixtures.normalURLs)
        let shared = source(fake)
        XCTAssertEqual(try shared.photos(movieID: 1, title: "Heat").origin, .cached)  // from disk
        XCTAssertEqual(try shared.photos(movieID: 9, title: "Heat").list?.urls, FlickrResponseFixtures.normalURLs)
        XCTAssertEqual(fake.requests, ["Heat"])
        XCTAssertEqual(shared.cachedPhotos(title: "Heat")?.urls, FlickrResponseFixtures.normalURLs)
        XCTAssertNil(shared.cachedPhotos(title: "Alien"))
        XCTAssertEqual(fake.requests, ["Heat"], "cachedPhotos never fetches")
    }

    func testAStaleAnswerIsAskedAgainAndServedWhileFlickrFails() throws {
        let fake = FakeFlickr(), clock = TestClock()
        fake.set("Heat", .success(FlickrResponseFixtures.normal))
        let photos = source(fake, clock: clock)
        _ = try photos.photos(movieID: 1, title: "Heat")
        clock.advance(6 * 24 * 3600)
        XCTAssertEqual(try photos.photos(movieID: 1, title: "Heat").origin, .cached)
        clock.advance(2 * 24 * 3600)
        fake.set("Heat", .failure(.unreachable("Could not connect")))
        let stale = try photos.photos(movieID: 1, title: "Heat")
        XCTAssertEqual(stale.origin, .stale)
        XCTAssertEqual(stale.list?.urls, FlickrResponseFixtures.normalURLs)
        XCTAssertEqual(fake.requests, ["Heat", "Heat"])
        fake.set("Heat", .failure(.timedOut("slow")))
        XCTAssertEqual(try photos.photos(movieID: 1, title: "Heat").origin, .stale)
        // Asked to refresh, a failure is an error, not the stale answer.
        XCTAssertThrowsError(try photos.photos(movieID: 1, title: "Heat", refresh: true)) { error in
            XCTAssertEqual((error as? PhotoSourceError)?.status, 504)
        }
    }

    func testNothingFailedIsCachedAndEachFailureHasItsStatus() throws {
        let fake = FakeFlickr()
        let photos = source(fake)
        let cases: [(Result<String, FetchFailure>, Int, String)] = [
            (.success(#"{"stat":"fail","code":100,"message":"Invalid API Key"}"#), 502,
             "Flickr refused the request: error 100, Invalid API Key (check the Flickr API key)"),
            (.success("<html>busy</html>"), 502, "Flickr's answer is not JSON"),
            (.success(#"{"stat":"ok"}"#), 502, "not a photos.search answer"),
            (.failure(.unreachable("Could not connect")), 502, "unreachable"),
            (.failure(.status(503)), 502, "HTTP status 503"),
            (.failure(.tooLarge(1 << 20)), 502, "larger than"),
            (.failure(.timedOut("slow")), 504, "did not answer within 10 s"),
        ]
        for (number, (answer, status, words)) in cases.enumerated() {
            let title = "Title \(number)"
            fake.set(title, answer)
            for _ in 0..<2 {
                XCTAssertThrowsError(try photos.photos(movieID: number, title: title)) { error in
                    let error = error as? PhotoSourceError
                    XCTAssertEqual(error?.status, status, "\(answer)")
                    XCTAssertTrue(error?.description.contains(words) == true, "\(error.map(String.init(describing:)) ?? "")")
                }
            }
            XCTAssertNil(photos.cachedPhotos(title: title))
        }
        XCTAssertEqual(fake.requests.count, cases.count * 2, "each failure asked again")
    }

    func testNoKeyOrOfflineNeverAsksButServesTheCache() throws {
        let fake = FakeFlickr()
        fake.set("Heat", .success(FlickrResponseFixtures.normal))
        XCTAssertEqual(try source(fake, key: nil).photos(movieID: 1, title: "Heat"),
                       FlickrPhotoSource.Answer(list: nil, origin: .none))
        XCTAssertEqual(try source(fake) { $0.offline = true }.photos(movieID: 1, title: "Heat").origin, .none)
        XCTAssertEqual(fake.requests, [])
        _ = try source(fake).photos(movieID: 1, title: "Heat")
        XCTAssertEqual(try source(fake) { $0.offline = true }.photos(movieID: 1, title: "Heat").origin, .cached)
        XCTAssertEqual(try source(fake, key: nil).photos(movieID: 1, title: "Heat").origin, .cached)
        XCTAssertEqual(fake.requests, ["Heat"])
    }

    func testASavedAnswerComesFirst() throws {
        let fake = FakeFlickr()
        fake.set("Heat", .success(FlickrResponseFixtures.normal))
        let saved = folder + "/saved"
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        try Data(FlickrResponseFixtures.emptyPhotoArray.utf8).write(to: URL(fileURLWithPath: saved + "/1.json"))
        let photos = source(fake) { $0.savedFolder = FilePath(saved) }
        XCTAssertEqual(try photos.photos(movieID: 1, title: "Heat"),
                       FlickrPhotoSource.Answer(list: PhotoList(photos: [], skipped: 0), origin: .saved))
        XCTAssertEqual(try photos.photos(movieID: 2, title: "Heat").origin, .fetched)
        XCTAssertEqual(fake.requests, ["Heat"])
    }

    func testSimultaneousRequestsForATitleMakeOneRequestAndAtMostFourRun() throws {
        let fake = FakeFlickr(delayMilliseconds: 150)
        fake.set("Heat", .success(FlickrResponseFixtures.normal))
        let photos = source(fake)
        let answers = Mutex<[[String]?]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let urls = try? photos.photos(movieID: 1, title: "Heat").list?.urls
            answers.withLock { $0.append(urls) }
        }
        XCTAssertEqual(fake.requests, ["Heat"])
        XCTAssertEqual(answers.withLock { $0 }, Array(repeating: FlickrResponseFixtures.normalURLs, count: 8))

        let many = FakeFlickr(delayMilliseconds: 100)
        let limited = source(many)
        DispatchQueue.concurrentPerform(iterations: 10) { number in
            _ = try? limited.photos(movieID: number, title: "Title \(number)")
        }
        XCTAssertEqual(many.requests.count, 10)
        XCTAssertLessThanOrEqual(many.mostRunning, 4)
        XCTAssertGreaterThan(many.mostRunning, 1, "the requests ran side by side")
    }

    func testTheHourlyLimitIsKeptWithRetryAfter() throws {
        let fake = FakeFlickr(), clock = TestClock()
        let photos = source(fake, clock: clock) { $0.callsPerHour = 2 }
        _ = try photos.photos(movieID: 1, title: "A")
        clock.advance(600)
        _ = try photos.photos(movieID: 2, title: "B")
        XCTAssertThrowsError(try photos.photos(movieID: 3, title: "C")) { error in
            XCTAssertEqual(error as? PhotoSourceError,
                           .busy("over Flickr's limit of 2 requests an hour; try again in 3000 s", retryAfter: 3000))
            XCTAssertEqual((error as? PhotoSourceError)?.status, 503)
        }
        clock.advance(3000)
        XCTAssertEqual(try photos.photos(movieID: 3, title: "C").origin, .fetched)
        XCTAssertEqual(fake.requests, ["A", "B", "C"])
    }

    func testTheDiskCacheIsKeyedByTitleAndChecksIt() throws {
        let cache = FlickrAnswerCache(folder: FilePath(folder + "/c"))
        try cache.write(title: "Heat", response: Array("{}".utf8), fetchedAt: 12)
        XCTAssertEqual(cache.read(title: "Heat"), FlickrAnswerCache.Entry(response: Array("{}".utf8), fetchedAt: 12))
        XCTAssertNil(cache.read(title: "Heat "))
        // Another title's file under this title's name (a hash collision) is not this title's answer.
        try FileManager.default.copyItem(atPath: cache.path(title: "Heat").description,
                                         toPath: cache.path(title: "Alien").description)
        XCTAssertNil(cache.read(title: "Alien"))
        XCTAssertEqual(FlickrAnswerCache.hash(""), "cbf29ce484222325")
        XCTAssertEqual(FlickrAnswerCache.defaultFolder(cacheHome: "/x", home: "/h"), FilePath("/x/moviesearch"))
        XCTAssertEqual(FlickrAnswerCache.defaultFolder(cacheHome: "rel", home: "/h"), FilePath("/h/.cache/moviesearch"))
        XCTAssertNil(FlickrAnswerCache.defaultFolder(cacheHome: nil, home: nil))
    }

    func testAProgramRunIsKilledAtItsDeadlineAndPastItsOutputLimit() throws {
        let start = Date()
        let hung = try ProgramRun.run(FilePath("/bin/sleep"), arguments: ["sleep", "30"], deadlineMilliseconds: 300,
                                      maximumOutputBytes: 10).get()
        XCTAssertTrue(hung.timedOut)
        XCTAssertEqual(hung.end, .signaled(9))
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        let chatty = try ProgramRun.run(FilePath("/bin/cat"), arguments: ["cat", "/dev/zero"],
                                        deadlineMilliseconds: 5000, maximumOutputBytes: 100_000).get()
        XCTAssertTrue(chatty.outputTooLarge)
        let said = try ProgramRun.run(FilePath("/bin/sh"), arguments: ["sh", "-c", "echo out; echo err >&2; exit 3"],
                                      deadlineMilliseconds: 5000, maximumOutputBytes: 100).get()
        XCTAssertEqual(said.end, .exited(3))
        XCTAssertEqual(said.output, Array("out\n".utf8))
        XCTAssertEqual(said.errorOutput, Array("err\n".utf8))
        XCTAssertThrowsError(try ProgramRun.run(FilePath("/nonexistent"), arguments: ["x"], deadlineMilliseconds: 100,
                                                maximumOutputBytes: 1).get())
    }
}
