import Foundation
import MovieSearch
import TestSupport
import XCTest

/// `moviesearch browse`'s Critics' 15 tab in a real pseudo-terminal (tmux, see `TmuxSession`), on a cache with
/// critics' ratings and overviews written by the library (`CacheWriter`: the catalog readers that fill
/// `criticRating` are tested on their own): Ctrl-T reaches the tab right after Top 15, its rows are in the critics'
/// order and show the critics' rating, each with the start of its overview, dimmed, on the line below; Enter opens
/// the details page with both ratings; the next Ctrl-T goes on to Favorites.
final class BrowseCriticsEndToEndTests: XCTestCase {
    /// The users' order (Grown Ups, Cats, The Irishman, Roma) is not the critics' (Roma, The Irishman, Cats, Grown
    /// Ups); Unrated by Critics has no critics' rating and is not in the critics' list.
    private static let catalog = Catalog(movies: [
        Movie(id: 0, title: "Grown Ups", year: 2010, rating: 9.1,
              overview: "After their high school basketball coach passes away, five good friends and former "
                + "teammates reunite for a Fourth of July holiday weekend.", criticRating: 3.0),
        Movie(id: 1, title: "Roma", year: 2018, rating: 6.5,
              overview: "In 1970s Mexico City,\ntwo domestic workers help a mother of four while her husband is "
                + "away for an extended period of time.", criticRating: 9.6),
        Movie(id: 2, title: "The Irishman", year: 2019, rating: 7.2, overview: "A hitman looks back.",
              criticRating: 9.4),
        Movie(id: 3, title: "Cats", year: 2019, rating: 8.0, criticRating: 3.2),
        Movie(id: 4, title: "Unrated by Critics", year: 2015, rating: 5, overview: "No critic saw it."),
    ])

    private var cache = ""

    override func setUpWithError() throws {
        cache = try TestPaths.temporaryFolder(self).appendingPathComponent("critics.mscache").path
        _ = try CacheWriter.write(Self.catalog, to: cache)
    }

    func testCtrlTReachesCriticsOrderWithCriticRatingsAndDimmedOverviews() throws {
        let session = try TmuxSession(test: self, [try ChildProcess.binary(), "browse", "--cache", cache],
                                      columns: 80, rows: 24)
        let start = try session.waitForText("Favorites (0)")
        XCTAssertTrue(start[0].hasPrefix("Search · Top 15 · Critics' 15 · Favorites (0)"), TmuxSession.framed(start))

        session.press("C-t")
        try session.waitForText("best-rated movies of 5")
        session.press("C-t")
        let screen = try session.waitForText("by the critics")
        let frame = TmuxSession.framed(screen)
        // Each movie's row, its critics' rating out of 10, then its overview's start under its title (column 21),
        // Cats having none.
        let list = screen.dropFirst(3).map(BrowseSupport.droppingTrailingBlanks)
        XCTAssertEqual(Array(list.prefix(7)), [
            ">  1.  9.6/10  2018  Roma",
            "                     In 1970s Mexico City, two domestic workers help a mother o…",
            "   2.  9.4/10  2019  The Irishman",
            "                     A hitman looks back.",
            "   3.  3.2/10  2019  Cats",
            "   4.    3/10  2010  Grown Ups",
            "                     After their high school basketball coach passes away, five…",
        ], frame)
        XCTAssertFalse(screen.contains { $0.contains("Unrated by Critics") }, frame)
        XCTAssertTrue(screen[2].contains("The 4 best-rated movies by the critics, of 5"), frame)

        // The overview lines are dim, the title lines are not; the selected row's two lines are in reverse video.
        let styled = TmuxSession.StyledLine.screen(try session.captureWithAttributes())
        let roma = try XCTUnwrap(styled.firstIndex { $0.text.contains("Roma") }, frame)
        let romaOverview = styled[roma + 1]
        let overviewStart = try XCTUnwrap(romaOverview.range(of: "In 1970s"), romaOverview.text)
        XCTAssertTrue(romaOverview.attributes[overviewStart...].prefix(20).allSatisfy { $0.dim && $0.reverse },
                      romaOverview.text)
        XCTAssertFalse(styled[roma].attributes.contains { $0.dim }, styled[roma].text)
        let irishman = try XCTUnwrap(styled.firstIndex { $0.text.contains("The Irishman") }, frame)
        let hitman = styled[irishman + 1]
        let hitmanStart = try XCTUnwrap(hitman.range(of: "A hitman looks back."), hitman.text)
        XCTAssertTrue(hitman.attributes[hitmanStart..<(hitmanStart + 20)].allSatisfy { $0.dim && !$0.reverse },
                      hitman.text)
        XCTAssertFalse(styled[irishman].attributes.contains { $0.dim || $0.reverse }, styled[irishman].text)

        // Down passes over Roma's overview line to The Irishman; Enter opens its page with both ratings.
        session.press("Down")
        try session.waitUntil("The Irishman selected") {
            BrowseSupport.selected($0)?.contains("The Irishman") == true
        }
        session.press("Enter")
        let details = try session.waitForText("  critics   9.4/10")
        let rating = try XCTUnwrap(details.firstIndex(of: "  rating    7.2/10"), TmuxSession.framed(details))
        XCTAssertEqual(details[rating + 1], "  critics   9.4/10", "next to the users' rating: \(TmuxSession.framed(details))")
        XCTAssertTrue(details.contains("The Irishman"), TmuxSession.framed(details))

        // Esc back to Critics' 15; Ctrl-T goes on to Favorites.
        session.press("Escape")
        try session.waitForText("by the critics")
        session.press("C-t")
        try session.waitForText("No favorites yet")
        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 130)
    }
}
