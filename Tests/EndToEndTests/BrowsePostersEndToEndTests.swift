import Foundation
import XCTest
import TestSupport

/// `browse`'s details page names the poster TMDb gave for the movie's title and year once it is kept (here by
/// `show --fetch`), and asks TMDb nothing itself.
final class BrowsePostersEndToEndTests: XCTestCase {
    func testTheDetailsPageNamesAKeptPoster() throws {
        let cache = try indexedCache(TestPaths.sampleCatalog)
        let cacheHome = try TestPaths.temporaryFolder(self).path
        let standIn = try FlickrStandIn(self)
        let environment = standIn.environment(cacheHome: cacheHome)
        let shown = try BinaryRun.run(["show", "7", "--cache", cache, "--json", "--fetch", "--tmdb-key", "k3y",
                                       "--tmdb-endpoint", standIn.tmdbEndpoint], environment: environment)
        XCTAssertEqual(shown.status, 0, shown.standardError)
        let poster = try XCTUnwrap(shown.standardOutput.range(of: #"https://image\.tmdb\.org/t/p/w500/[0-9a-f]+\.jpg"#,
                                                              options: .regularExpression).map { shown.standardOutput[$0] })
        XCTAssertEqual(standIn.requests.count, 1)
        let session = try TmuxSession(
            test: self, [try ChildProcess.binary(), "browse", "--cache", cache, "--no-save", "--offline"],
            environment: environment, columns: 120, rows: 30)
        try session.waitForText("Favorites (0)")
        session.type("clockmaker")
        try session.waitForText("The Clockmaker's Daughter")
        session.press("Down")
        session.press("Enter")
        let screen = try session.waitForText("poster    " + poster, timeout: 3)
        XCTAssertTrue(screen.contains { $0.contains("The Clockmaker's Daughter") }, TmuxSession.framed(screen))
        XCTAssertEqual(standIn.requests.count, 1, "browse asked TMDb")
    }
}
