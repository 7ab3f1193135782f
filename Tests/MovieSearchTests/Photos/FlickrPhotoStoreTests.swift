import Synchronization
import XCTest

import MovieSearch
@testable import MovieSearchPhotos

final class FlickrPhotoStoreTests: XCTestCase {
    private struct NoResponse: Error, Equatable {
        var title: String
    }

    /// Saved responses by title, and a count of loads per title, so tests can see what the store reads.
    private final class SavedResponses: Sendable {
        private let state = Mutex<(responses: [String: String], loads: [String: Int])>(([:], [:]))

        init(_ responses: [String: String]) {
            state.withLock { $0.responses = responses }
        }

        subscript(title: String) -> String? {
            get { state.withLock { $0.responses[title] } }
            set { state.withLock { $0.responses[title] = newValue } }
        }

        func loads(_ title: String) -> Int {
            state.withLock { $0.loads[title, default: 0] }
        }

        func load(_ title: String) throws -> (bytes: [UInt8], source: String) {
            let response = state.withLock { state in
                state.loads[title, default: 0] += 1
                return state.responses[title]
            }
            guard let response else { throw NoResponse(title: title) }
            return (Array(response.utf8), "saved/\(title).json")
        }
    }

    private let heat = FlickrResponseFixtures.normal
    private let alien = FlickrResponseFixtures.emptyPhotoArray

    func testEachTitleIsLoadedAndParsedOnce() throws {
        let saved = SavedResponses(["Heat": heat, "Alien": alien])
        let store = FlickrPhotoStore(capacity: 4) { try saved.load($0) }
        XCTAssertFalse(store.isCached("Heat"))
        XCTAssertEqual(try store.photos(forTitle: "Heat").urls, FlickrResponseFixtures.normalURLs)
        XCTAssertTrue(store.isCached("Heat"))
        XCTAssertEqual(try store.photos(forTitle: "Heat").urls, FlickrResponseFixtures.normalURLs)
        XCTAssertEqual(try store.photos(forTitle: "Alien"), PhotoList(urls: [], skipped: 0))
        XCTAssertEqual(try store.photos(forTitle: "Alien"), PhotoList(urls: [], skipped: 0))
        XCTAssertEqual(saved.loads("Heat"), 1)
        XCTAssertEqual(saved.loads("Alien"), 1)
    }

    func testAFailedLoadIsNotCached() throws {
        let saved = SavedResponses([:])
        let store = FlickrPhotoStore(capacity: 4) { try saved.load($0) }
        XCTAssertThrowsError(try store.photos(forTitle: "Heat")) {
            XCTAssertEqual($0 as? NoResponse, NoResponse(title: "Heat"))
        }
        saved["Heat"] = heat
        XCTAssertEqual(try store.photos(forTitle: "Heat").urls, FlickrResponseFixtures.normalURLs)
        XCTAssertEqual(saved.loads("Heat"), 2)
    }

    func testAResponseThatFailsToParseIsReportedAndNotCached() throws {
        let saved = SavedResponses(["Heat": FlickrResponseFixtures.statFail])
        let store = FlickrPhotoStore(capacity: 4) { try saved.load($0) }
        XCTAssertThrowsError(try store.photos(forTitle: "Heat")) {
            XCTAssertEqual(
                $0 as? FlickrError,
                .apiFailure(source: "saved/Heat.json", code: 100, message: "Invalid API Key (Key has invalid format)"))
        }
        XCTAssertFalse(store.isCached("Heat"))
        saved["Heat"] = heat
        XCTAssertEqual(try store.photos(forTitle: "Heat").urls.count, 3)
    }

    func testTheLeastRecentlyOpenedTitleIsEvicted() throws {
        let saved = SavedResponses(["A": heat, "B": heat, "C": alien])
        let store = FlickrPhotoStore(capacity: 2) { try saved.load($0) }
        _ = try store.photos(forTitle: "A")
        _ = try store.photos(forTitle: "B")
        _ = try store.photos(forTitle: "A")
        _ = try store.photos(forTitle: "C")    // evicts B
        XCTAssertTrue(store.isCached("A"))
        XCTAssertFalse(store.isCached("B"))
        _ = try store.photos(forTitle: "B")
        XCTAssertEqual([saved.loads("A"), saved.loads("B"), saved.loads("C")], [1, 2, 1])
    }

    func testAnExpiredListIsLoadedAgain() throws {
        let clock = ManualClock(0)
        let saved = SavedResponses(["Heat": alien])
        let store = FlickrPhotoStore(capacity: 2, timeToLive: 60, clock: clock.closure) { try saved.load($0) }
        XCTAssertEqual(try store.photos(forTitle: "Heat").urls, [])
        saved["Heat"] = heat
        clock.now = 59
        XCTAssertEqual(try store.photos(forTitle: "Heat").urls, [])
        clock.now = 60
        XCTAssertEqual(try store.photos(forTitle: "Heat").urls, FlickrResponseFixtures.normalURLs)
        XCTAssertEqual(saved.loads("Heat"), 2)
    }

    func testForgetMakesTheNextOpenReadAgain() throws {
        let saved = SavedResponses(["Heat": heat])
        let store = FlickrPhotoStore { try saved.load($0) }
        _ = try store.photos(forTitle: "Heat")
        store.forget("Heat")
        XCTAssertFalse(store.isCached("Heat"))
        _ = try store.photos(forTitle: "Heat")
        XCTAssertEqual(saved.loads("Heat"), 2)
    }

    func testCapacityZeroLoadsEveryTime() throws {
        let saved = SavedResponses(["Heat": heat])
        let store = FlickrPhotoStore(capacity: 0) { try saved.load($0) }
        _ = try store.photos(forTitle: "Heat")
        _ = try store.photos(forTitle: "Heat")
        XCTAssertEqual(saved.loads("Heat"), 2)
    }

    func testCanonicallyEquivalentTitlesShareAnEntry() throws {
        let saved = SavedResponses(["Am\u{E9}lie": heat])
        let store = FlickrPhotoStore { try saved.load($0) }
        _ = try store.photos(forTitle: "Am\u{E9}lie")
        XCTAssertEqual(try store.photos(forTitle: "Ame\u{301}lie").urls, FlickrResponseFixtures.normalURLs)
        XCTAssertEqual(saved.loads("Am\u{E9}lie"), 1)
    }
}
