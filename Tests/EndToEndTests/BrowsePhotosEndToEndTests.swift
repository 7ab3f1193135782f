import Foundation
import XCTest
import TestSupport

/// `browse` asking a loopback Flickr stand-in in the background: the details page says it is asking, stays
/// responsive to keys while Flickr is slow, and shows the photos when they come, without a key press.
final class BrowsePhotosEndToEndTests: XCTestCase {
    func testTheDetailsPageFetchesInTheBackgroundWithoutDelayingAKey() throws {
        let cache = try indexedCache(TestPaths.sampleCatalog)
        let cacheHome = try TestPaths.temporaryFolder(self).path
        // Its answer 0.5 s late: long enough for a key to be handled meanwhile (checked below), short for the test.
        let standIn = try FlickrStandIn(self, delay: 0.5)
        let session = try TmuxSession(
            test: self, [try ChildProcess.binary(), "browse", "--cache", cache, "--no-save", "--flickr-key", "k3y",
                         "--flickr-endpoint", standIn.endpoint],
            environment: standIn.environment(cacheHome: cacheHome), columns: 100, rows: 30)
        try session.waitForText("Favorites (0)")
        session.type("clockmaker")
        try session.waitForText("The Clockmaker's Daughter")
        session.press("Down")
        session.press("Enter")
        try session.waitForText("asking Flickr…", timeout: 1)
        // A key while Flickr is still answering is handled at once: Tab adds the favorite, with Flickr still asked.
        session.press("Tab")
        let marked = try session.waitForText("yes ♥", timeout: 1)
        XCTAssertTrue(marked.contains { $0.contains("asking Flickr…") }, TmuxSession.framed(marked))
        // The answer comes in without a key.
        let screen = try session.waitForText("http://farm66.static.flickr.com/65535/", timeout: 8)
        XCTAssertFalse(screen.contains { $0.contains("asking Flickr") }, TmuxSession.framed(screen))
        XCTAssertEqual(standIn.requests.count, 1)
        // Opened again: from the cache, no second request.
        session.press("Escape")
        try session.waitUntil("the list again") { !$0.contains { $0.contains("favorite ") } }
        session.press("Enter")
        try session.waitForText("http://farm66.static.flickr.com/65535/", timeout: 2)
        XCTAssertEqual(standIn.requests.count, 1)
    }
}
