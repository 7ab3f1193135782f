import Foundation
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// `moviesearch browse`'s filters in a real pseudo-terminal (tmux, see `TmuxSession`) on the decade dataset of
/// `../shared`: the filter line (Ctrl-G) narrows the list to what `query` answers under the same filters, and the
/// summary line names the filters; filters given at start are in force from the first screen, Ctrl-G opens the
/// line with them and Esc leaves them as they were.
final class BrowseFiltersEndToEndTests: XCTestCase {
    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(try Requirement.sharedData("data/movies.json"))
    }

    /// One year of the list on the screen, or of `query --json`'s answer.
    private struct Year: Equatable, CustomStringConvertible {
        var year: Int
        var count: Int
        var titles: [String]
        var description: String { "\(year) · \(count): \(titles)" }
    }

    /// The years of the Search tab's list on `screen`, below the summary line: each header (`2017 · 2 matches`)
    /// with the titles of the movie rows under it (`… more` rows left out).
    private func listedYears(_ screen: [String]) -> [Year] {
        var years: [Year] = []
        for line in screen.dropFirst(3) where !line.isEmpty {
            let parts = line.components(separatedBy: " · ")
            if parts.count == 2, let year = Int(parts[0]), let count = Int(parts[1].prefix { $0.isNumber }) {
                years.append(Year(year: year, count: count, titles: []))
            } else if !line.contains("… "), !years.isEmpty {
                years[years.count - 1].titles.append(BrowseSupport.title(ofRow: line))
            }
        }
        return years
    }

    /// `query <query> <filters> --json`'s years, its total and the summary browse shows for it.
    private func queryAnswer(_ query: String, _ filters: [String]) throws -> (years: [Year], summary: String) {
        let run = try BinaryRun.run(["query", query] + filters + ["--per-year", "50", "--json", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
            as? [String: Any])
        let years = try XCTUnwrap(answer["years"] as? [[String: Any]]).map { year in
            Year(year: year["year"] as? Int ?? 0, count: year["count"] as? Int ?? 0,
                 titles: (year["movies"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String })
        }
        let total = try XCTUnwrap(answer["total"] as? Int)
        let summary = TextLayout.count(total, "match", "matches") + " in "
            + TextLayout.count(years.count, "year", "years")
        return (years, summary)
    }

    /// Whether the screen lists what `assertListed` checks: a wait ends on it, not on the summary line alone, as
    /// tmux may show a frame's top lines before its bottom ones have replaced the previous frame's.
    private func lists(_ screen: [String], _ answer: [Year]) -> Bool {
        let listed = listedYears(screen)
        return !listed.isEmpty && listed.map(\.year) == Array(answer.prefix(listed.count).map(\.year))
            && zip(listed, answer).enumerated().allSatisfy { number, pair in
                pair.0.count == pair.1.count && (!pair.0.titles.isEmpty || number == listed.count - 1)
                    && pair.0.titles == Array(pair.1.titles.prefix(pair.0.titles.count))
            }
    }

    /// What the screen lists matches the answer of `query`: the same years with the same counts, each listing
    /// the first titles of the answer's year, in its order (the last header on the screen may have no row yet).
    private func assertListed(_ screen: [String], match answer: [Year], file: StaticString = #filePath,
                              line: UInt = #line) {
        let frame = TmuxSession.framed(screen)
        let listed = listedYears(screen)
        XCTAssertFalse(listed.isEmpty, "no list: \(frame)", file: file, line: line)
        XCTAssertEqual(listed.map(\.year), Array(answer.prefix(listed.count).map(\.year)), frame, file: file,
                       line: line)
        for (number, (shown, answered)) in zip(listed, answer).enumerated() {
            XCTAssertEqual(shown.count, answered.count, "\(shown.year): \(frame)", file: file, line: line)
            // The screen's last line may be a year's header whose rows are below the screen.
            XCTAssertTrue(!shown.titles.isEmpty || number == listed.count - 1, "\(shown.year): \(frame)",
                          file: file, line: line)
            XCTAssertEqual(shown.titles, Array(answered.titles.prefix(shown.titles.count)), frame, file: file,
                           line: line)
        }
    }

    func testCtrlGGenreDramaNarrowsTheListToQuerysAnswer() throws {
        let session = try TmuxSession(test: self, [try ChildProcess.binary(), "browse", "--cache", cache,
                                                   "--no-save"], columns: 100, rows: 40)
        try session.waitForText("Favorites (0)")
        let unfiltered = try queryAnswer("love", [])
        let drama = try queryAnswer("love", ["--genre", "Drama"])
        XCTAssertNotEqual(unfiltered.summary, drama.summary, "the filter must narrow this query")

        session.type("love")
        let before = try session.waitUntil("the unfiltered answer") {
            $0.count > 2 && $0[2] == unfiltered.summary && self.lists($0, unfiltered.years)
        }
        assertListed(before, match: unfiltered.years)

        session.press("C-g")
        try session.waitUntil("the filter line") { BrowseSupport.droppingTrailingBlanks($0[1]) == "Filter:" }
        session.type("genre:Drama")
        session.press("Enter")
        let screen = try session.waitUntil("the list under genre:Drama") {
            BrowseSupport.prompt($0) == "> love" && $0[2].hasPrefix("[Drama]") && self.lists($0, drama.years)
        }
        XCTAssertEqual(screen[2], "[Drama] " + drama.summary, TmuxSession.framed(screen))
        assertListed(screen, match: drama.years)
        // A title of the unfiltered answer that is no drama is gone.
        let dramaTitles = Set(drama.years.flatMap(\.titles))
        let gone = try XCTUnwrap(unfiltered.years.flatMap(\.titles).first { !dramaTitles.contains($0) })
        XCTAssertFalse(listedYears(screen).flatMap(\.titles).contains(gone), TmuxSession.framed(screen))

        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 130)
    }

    /// `--year 2010..2012` at start (the decade dataset holds 2009–2018): the first answer is already narrowed;
    /// Ctrl-G opens the line with `year:2010..2012`, Tab completes a genre on it, and Esc leaves the filters as
    /// they were.
    func testYearAtStartIsInForceAndEscLeavesItSo() throws {
        let session = try TmuxSession(test: self, [try ChildProcess.binary(), "browse", "--cache", cache,
                                                   "--no-save", "--year", "2010..2012"], columns: 100, rows: 40)
        try session.waitForText("Favorites (0)")
        let years = try queryAnswer("love", ["--year", "2010..2012"])
        session.type("love")
        let screen = try session.waitUntil("the answer under --year") {
            BrowseSupport.prompt($0) == "> love" && $0[2] == "[2010–2012] " + years.summary && self.lists($0, years.years)
        }
        assertListed(screen, match: years.years)
        XCTAssertTrue(listedYears(screen).allSatisfy { (2010...2012).contains($0.year) }, TmuxSession.framed(screen))

        session.press("C-g")
        try session.waitUntil("the line with the year") {
            BrowseSupport.droppingTrailingBlanks($0[1]) == "Filter: year:2010..2012"
        }
        session.type(" genre:dra")
        session.press("Tab")
        try session.waitUntil("Drama completed") {
            BrowseSupport.droppingTrailingBlanks($0[1]) == "Filter: year:2010..2012 genre:Drama"
        }
        session.press("Escape")
        let after = try session.waitUntil("the query line back") {
            BrowseSupport.prompt($0) == "> love" && self.lists($0, years.years)
        }
        XCTAssertEqual(after[2], "[2010–2012] " + years.summary, TmuxSession.framed(after))
        assertListed(after, match: years.years)

        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 130)
    }
}
