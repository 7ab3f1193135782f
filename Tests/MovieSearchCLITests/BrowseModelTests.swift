import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// Every key of `browse` and every view, on the pure model (`BrowseFixtures`): state + key → state and action,
/// state + size → screen.
final class BrowseModelTests: XCTestCase {
    // MARK: Editing the query

    func testTypingSearchesAtEveryKey() throws {
        var model = try BrowseFixtures.model(self)
        XCTAssertEqual(model.plainScreen[2], "Every movie: 18 in 9 years · type to search")
        model.press(.text("d"), .text("a"), .text("r"), .text("k"))
        XCTAssertEqual(model.plainScreen[1], "> dark")
        XCTAssertEqual(model.plainScreen[2], "10 matches in 3 years")
        model.press(.text(" kni"))
        XCTAssertEqual(model.plainScreen[2], "1 match in 1 year")
        XCTAssertEqual(model.plainScreen[3], "2012 · 1 match")
        XCTAssertEqual(model.selectedTitle, "The Dark Knight Rises")
    }

    func testTextInsertsAtTheCursorAndTheCursorIsDrawnThere() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        XCTAssertEqual(model.screen(columns: 80, rows: 24).cursor, Screen.Position(row: 1, column: 6))
        model.press(.left, .left, .left, .left, .text("the "))
        XCTAssertEqual(model.query, "the dark")
        XCTAssertEqual(model.screen(columns: 80, rows: 24).cursor, Screen.Position(row: 1, column: 6))
        model.press(.right, .right, .right, .right, .right)  // one past the end stays at the end
        XCTAssertEqual(model.editor.cursor, 8)
        model.press(.control("a"))
        XCTAssertEqual(model.editor.cursor, 0)
        model.press(.control("e"))
        XCTAssertEqual(model.editor.cursor, 8)
    }

    func testTheCursorCountsColumnsOfWideText() throws {
        let model = try BrowseFixtures.model(self, typed: "千と")
        XCTAssertEqual(model.screen(columns: 80, rows: 24).cursor, Screen.Position(row: 1, column: 6))
        XCTAssertEqual(model.selectedTitle, "千と千尋の神隠し")
    }

    func testBackspaceAndCtrlHDeleteBack() throws {
        var model = try BrowseFixtures.model(self, typed: "darkx")
        model.press(.backspace)
        XCTAssertEqual(model.query, "dark")
        XCTAssertEqual(model.plainScreen[2], "10 matches in 3 years")
        model.press(.control("h"))
        XCTAssertEqual(model.query, "dar")
        model.press(.control("a"), .backspace)  // nothing before the cursor: nothing changes
        XCTAssertEqual(model.query, "dar")
        model.press(.delete)
        XCTAssertEqual(model.query, "ar")
    }

    func testCtrlUClearsTheLineBeforeTheCursor() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni")
        model.press(.control("u"))
        XCTAssertEqual(model.query, "")
        XCTAssertEqual(model.plainScreen[2], "Every movie: 18 in 9 years · type to search")
        model.press(.text("dark kni"), .left, .left, .left, .control("u"))
        XCTAssertEqual(model.query, "kni")
        XCTAssertEqual(model.editor.cursor, 0)
    }

    func testCtrlWDeletesTheWordBeforeTheCursor() throws {
        var model = try BrowseFixtures.model(self, typed: "the dark  ")
        model.press(.control("w"))
        XCTAssertEqual(model.query, "the ")
        model.press(.control("w"))
        XCTAssertEqual(model.query, "")
    }

    func testCombiningMarksStayWithTheirLetter() throws {
        var model = try BrowseFixtures.model(self, typed: "ame")
        model.press(.text("\u{301}"))
        XCTAssertEqual(model.editor.characters.count, 3)
        model.press(.backspace)
        XCTAssertEqual(model.query, "am")
    }

    func testControlAndBidiCharactersNeverReachTheQuery() throws {
        var model = try BrowseFixtures.model(self)
        model.press(.text("da\u{202E}rk\u{1B}"))
        XCTAssertEqual(model.query, "dark")
    }

    // MARK: Moving the selection

    func testArrowsAndTheirControlKeysMoveTheSelectionOverHeaders() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        XCTAssertEqual(model.selectedTitle, "The Dark Tower")
        model.press(.down)
        XCTAssertEqual(model.selectedTitle, "Fifty Shades Darker")
        model.press(.control("n"), .control("j"))
        XCTAssertEqual(model.selectedTitle, "Star Trek Into Darkness")  // past the 2013 header
        model.press(.up)
        XCTAssertEqual(model.selectedTitle, "Darkest Hour")
        model.press(.control("p"), .control("k"), .up, .up)  // stops at the first row
        XCTAssertEqual(model.selectedTitle, "The Dark Tower")
    }

    func testPagesAndEndsAndScrollingKeepTheSelectionInView() throws {
        var model = try BrowseFixtures.model(self, typed: "dark", columns: 40, rows: 10)
        model.press(.pageDown)  // 7 list rows: 6 movies down, headers not counted
        XCTAssertEqual(model.selectedTitle, "Dark Shadows")
        XCTAssertTrue(model.plainScreen.contains { $0.hasPrefix(">    3  Dark Shadows") }, "\(model.plainScreen)")
        model.press(.end)
        XCTAssertEqual(model.currentList.selectedRow, .more(year: 2012, remaining: 1))
        XCTAssertEqual(model.plainScreen.last, "> … 1 more in 2012                      ")
        model.press(.pageUp, .pageUp)
        XCTAssertEqual(model.selectedTitle, "The Dark Tower")
        model.press(.end, .home)
        XCTAssertEqual(model.selectedTitle, "The Dark Tower")
        XCTAssertEqual(model.plainScreen[3], "2017 · 3 matches")  // back at the top, header included
    }

    // MARK: Pages

    func testEnterOpensDetailsAndEscGoesBackWithQueryCursorAndSelection() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni")
        model.press(.left, .left)
        XCTAssertEqual(model.press(.enter), .none)
        let screen = model.plainScreen
        XCTAssertEqual(screen[3], "The Dark Knight Rises")
        XCTAssertTrue(screen.contains("  year      2012"))
        XCTAssertTrue(screen.contains("  rating    5"))
        XCTAssertTrue(screen.contains("  genres    Action, Crime"))
        XCTAssertTrue(screen.contains("  cast      Christian Bale, Tom Hardy"))
        XCTAssertTrue(screen.contains("  favorite  no (Tab adds it)"))
        let url = FlickrPhotos.searchURL(title: "The Dark Knight Rises", apiKey: "KEY")
        let flickr = screen.drop { !$0.hasPrefix("  flickr") }.prefix { !$0.hasPrefix("  photos") }
        XCTAssertEqual(flickr.map { String($0.dropFirst(12)) }.joined(), url)
        model.press(.escape)
        XCTAssertEqual(model.query, "dark kni")
        XCTAssertEqual(model.editor.cursor, 6)
        XCTAssertEqual(model.selectedTitle, "The Dark Knight Rises")
        XCTAssertNil(model.page)
    }

    func testDetailsShowPhotoURLsReadOnceWhenThePageOpens() throws {
        var calls = 0
        var model = try BrowseFixtures.model(self, typed: "dark kni", photos: { movie in
            calls += 1
            return movie.id == 0 ? .urls(["https://live.staticflickr.com/1/2_a.jpg", "https://live.staticflickr.com/3/4_b.jpg"])
                : .none
        })
        model.press(.enter)
        _ = model.plainScreen
        _ = model.plainScreen
        XCTAssertEqual(calls, 1)
        let screen = model.screen(columns: 80, rows: 40).plainText
        XCTAssertTrue(screen.contains("  photos    https://live.staticflickr.com/1/2_a.jpg"), "\(screen)")
        XCTAssertTrue(screen.contains("            https://live.staticflickr.com/3/4_b.jpg"))
    }

    func testLongDetailsScroll() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni", columns: 40, rows: 10)
        model.press(.enter)
        XCTAssertEqual(model.plainScreen[3], "The Dark Knight Rises")
        model.press(.down)
        XCTAssertEqual(model.plainScreen[3], "  year      2012")
        model.press(.end)
        XCTAssertEqual(model.plainScreen.suffix(2), ["  photos    none saved (--photos-dir", "            <dir> with <id>.json)"])
        model.press(.down, .pageDown)  // already at the end
        XCTAssertEqual(model.plainScreen.last, "            <dir> with <id>.json)")
        model.press(.home)
        XCTAssertEqual(model.plainScreen[3], "The Dark Knight Rises")
    }

    func testADetailsPageScrolledToItsEndStaysThereAfterAResize() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni", columns: 40, rows: 8)
        model.press(.enter, .end)
        model.resize(columns: 40, rows: 12)
        let taller = model.plainScreen
        XCTAssertEqual(taller.last, "            <dir> with <id>.json)")
        // The first Up scrolls at once: the page's place was brought back within its lines by the resize.
        model.press(.up)
        XCTAssertNotEqual(model.plainScreen, taller)
        XCTAssertEqual(model.plainScreen.dropFirst(4).first, taller[3])
    }

    func testEnterOnAMoreRowShowsTheWholeYear() throws {
        var model = try BrowseFixtures.model(self, typed: "dark", columns: 40, rows: 10)
        model.press(.end, .enter)
        guard case .year(let year)? = model.page else { return XCTFail("no year page") }
        XCTAssertEqual(year.count, 6)
        XCTAssertEqual(year.loaded, 6)
        XCTAssertEqual(model.plainScreen[2], "all 6 matches in 2012 · Esc: back")
        // The selection is on the first movie the search did not list.
        XCTAssertEqual(model.selectedTitle, "Dark Matter")
        XCTAssertEqual(model.press(.enter), .none)
        XCTAssertEqual(model.plainScreen[3], "Dark Matter")
        model.press(.escape)
        XCTAssertEqual(model.selectedTitle, "Dark Matter")
        model.press(.escape)
        XCTAssertNil(model.page)
        XCTAssertEqual(model.currentList.selectedRow, .more(year: 2012, remaining: 1))
    }

    func testAYearPageLoadsAsTheSelectionGoesDown() throws {
        // 60 movies in one year; a 10-row screen lists 5 of them and fetches more only as needed.
        let movies = (0..<60).map { Movie(id: $0, title: "Film \($0)", year: 2000, rating: Double(100 - $0)) }
        let index = try Fixtures.index(Catalog(movies: movies), self)
        var model = BrowseModel(index: index, columns: 40, rows: 10)
        model.press(.text("film"), .end, .enter)
        guard case .year(let first)? = model.page else { return XCTFail("no year page") }
        XCTAssertLessThan(first.loaded, 60)
        XCTAssertEqual(model.selectedTitle, "Film 5")
        model.press(.pageDown, .pageDown, .pageDown)
        guard case .year(let later)? = model.page else { return XCTFail("no year page") }
        XCTAssertGreaterThan(later.loaded, first.loaded)
        XCTAssertEqual(model.selectedTitle, "Film 23")
        model.press(.end)
        XCTAssertEqual(model.selectedTitle, "Film 59")
        XCTAssertEqual(model.plainScreen.last, ">   41  Film 59                         ")
    }

    // MARK: Esc, Ctrl-C, --print

    func testEscClearsTheQueryThenQuits() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        XCTAssertEqual(model.press(.escape), .none)
        XCTAssertEqual(model.query, "")
        XCTAssertEqual(model.plainScreen[2], "Every movie: 18 in 9 years · type to search")
        XCTAssertEqual(model.press(.escape), .quit(status: 0))
    }

    func testEscOnTopOrFavoritesGoesToSearch() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        model.press(.control("t"))
        XCTAssertEqual(model.tab, .top)
        XCTAssertEqual(model.press(.escape), .none)
        XCTAssertEqual(model.tab, .search)
        XCTAssertEqual(model.query, "dark")
    }

    func testCtrlCQuitsWith130FromAnyView() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        XCTAssertEqual(model.press(.control("c")), .quit(status: 130))
        model.press(.enter)
        XCTAssertEqual(model.press(.control("c")), .quit(status: 130))
        model.press(.control("t"))
        XCTAssertEqual(model.press(.control("c")), .quit(status: 130))
    }

    func testPrintModeReturnsTheChosenMovie() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni", printsChoice: true)
        XCTAssertEqual(model.press(.enter), .print(movieID: 0))
        model.press(.control("t"))
        XCTAssertEqual(model.press(.enter), .print(movieID: 12))  // Top 15's first
    }

    // MARK: Tabs and favorites

    func testCtrlTCyclesSearchTopFavorites() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        XCTAssertEqual(model.plainScreen[0], "Search · Top 15 · Favorites (0)")
        model.press(.control("t"))
        XCTAssertEqual(model.tab, .top)
        XCTAssertEqual(model.plainScreen[2], "The 15 best-rated movies of 18")
        XCTAssertEqual(model.plainScreen[3], ">  1.  8.6  2001  千と千尋の神隠し" + String(repeating: " ", count: 46))
        model.press(.control("t"))
        XCTAssertEqual(model.tab, .favorites)
        XCTAssertEqual(model.plainScreen[2], "No favorites yet: Tab marks the selected movie")
        model.press(.control("t"))
        XCTAssertEqual(model.tab, .search)
        XCTAssertEqual(model.query, "dark")
    }

    func testTheCurrentTabIsBoldAndUnderlined() throws {
        var model = try BrowseFixtures.model(self)
        model.press(.control("t"))
        let runs = model.screen(columns: 80, rows: 24).lines[0].runs
        let top = try XCTUnwrap(runs.first { $0.text == "Top 15" })
        XCTAssertTrue(top.style.bold && top.style.underline)
        let search = try XCTUnwrap(runs.first { $0.text == "Search" })
        XCTAssertFalse(search.style.bold || search.style.underline)
    }

    func testTabTogglesAFavoriteMovesDownAndTheHeartShowsEverywhere() throws {
        var model = try BrowseFixtures.model(self)
        model.press(.control("t"), .down)  // Top 15's second: 기생충
        XCTAssertEqual(model.press(.tab), .favoriteChanged(movieID: 14, isFavorite: true))
        XCTAssertEqual(model.selectedTitle, "Amélie")
        XCTAssertEqual(model.favorites, [14])
        XCTAssertTrue(model.plainScreen.contains("   2.  8.5  2019  기생충 ♥"))
        XCTAssertEqual(model.plainScreen[0], "Search · Top 15 · Favorites (1)")
        model.press(.control("t"))
        XCTAssertEqual(model.plainScreen[3], "2019 · 1 favorite")
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">  8.5  기생충 ♥"))
        model.press(.control("t"), .text("기"))
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">  8.5  기생충 ♥"))
        model.press(.enter)
        XCTAssertEqual(model.plainScreen[3], "기생충 ♥")
        XCTAssertTrue(model.plainScreen.contains("  favorite  yes ♥ (Tab removes it)"))
    }

    func testTabOnTheDetailsPageTogglesWithoutLeavingIt() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni")
        model.press(.enter)
        XCTAssertEqual(model.press(.tab), .favoriteChanged(movieID: 0, isFavorite: true))
        XCTAssertEqual(model.plainScreen[3], "The Dark Knight Rises ♥")
        XCTAssertEqual(model.press(.tab), .favoriteChanged(movieID: 0, isFavorite: false))
        XCTAssertEqual(model.plainScreen[3], "The Dark Knight Rises")
        XCTAssertNotNil(model.page)
    }

    func testShiftTabTogglesAndMovesUp() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        model.press(.down)
        XCTAssertEqual(model.press(.backTab), .favoriteChanged(movieID: 4, isFavorite: true))
        XCTAssertEqual(model.selectedTitle, "The Dark Tower")
    }

    func testTabOnTheFavoritesTabRemovesAndTheNextTakesItsPlace() throws {
        var model = try BrowseFixtures.model(self, favorites: [0, 1, 5, 11])
        model.press(.control("t"), .control("t"))
        XCTAssertEqual(Array(model.plainScreen[3...8]), [
            "2017 · 1 favorite",
            ">  4.5  The Dark Tower ♥" + String(repeating: " ", count: 56),
            "2012 · 3 favorites",
            "     5  The Dark Knight Rises ♥",
            "   3.5  Dark Skies ♥",
            "     3  Dark Shadows ♥",
        ])
        model.press(.down)
        XCTAssertEqual(model.press(.tab), .favoriteChanged(movieID: 0, isFavorite: false))
        XCTAssertEqual(model.selectedTitle, "Dark Skies")
        XCTAssertEqual(model.plainScreen[2], "3 favorites, newest first")
        model.press(.down, .tab)
        XCTAssertEqual(model.selectedTitle, "Dark Skies")  // the last one went: the one before takes the selection
    }

    func testMissingFavoritesAreListedAndCounted() throws {
        var model = try BrowseFixtures.model(self, favorites: [6])
        model.missingFavorites = [Favorite(id: 99, title: "Gone Movie", year: 1990)]
        model.press(.control("t"), .control("t"))
        XCTAssertEqual(model.plainScreen[0], "Search · Top 15 · Favorites (2)")
        XCTAssertEqual(model.plainScreen[2], "1 favorite, newest first, 1 not in this catalog")
        XCTAssertEqual(model.plainScreen[5], "not in this catalog · 1")
        XCTAssertEqual(model.plainScreen[6], "     –  Gone Movie (1990)")
        model.press(.down)  // a missing favorite cannot be selected
        XCTAssertEqual(model.selectedTitle, "Knight and Day")
    }

    func testTheDriverSetsFavoritesAndAStatusMessage() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni")
        model.favorites = [0]
        model.statusMessage = "favorites are read-only: \u{1B}bad"
        XCTAssertEqual(model.plainScreen[2], "favorites are read-only: \\ebad · 1 match in 1 year")
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">    5  The Dark Knight Rises ♥"))
    }

    // MARK: Other views and keys

    func testTypingOnAnotherViewGoesToSearch() throws {
        var model = try BrowseFixtures.model(self)
        model.press(.control("t"), .enter)
        XCTAssertNotNil(model.page)
        model.press(.text("x"))
        XCTAssertNil(model.page)
        XCTAssertEqual(model.tab, .search)
        XCTAssertEqual(model.query, "x")
    }

    func testATypoAnswerSaysSo() throws {
        let model = try BrowseFixtures.model(self, typed: "knigth")
        XCTAssertEqual(model.plainScreen[2], "no exact match; 3 matches with typos in 2 years")
        XCTAssertEqual(model.plainScreen[3], "2012 · 2 matches with typos")
        let noMatch = try BrowseFixtures.model(self, typed: "zzzzzz")
        XCTAssertEqual(noMatch.plainScreen[2], "No movie matches, even with typos")
    }

    func testTitlesAreEscaped() throws {
        let model = try BrowseFixtures.model(self, typed: "evil")
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">    1  Evil\\e]0;pwned\\x07 Title"))
        for line in model.screen(columns: 80, rows: 24).lines {
            for run in line.runs { XCTAssertFalse(run.text.unicodeScalars.contains(where: TerminalSafeText.isUnsafe)) }
        }
    }

    func testResizeFetchesAsManyPerYearAsFit() throws {
        var model = try BrowseFixtures.model(self, typed: "dark", columns: 80, rows: 24)
        XCTAssertEqual(model.perYear, 19)
        XCTAssertFalse(model.searchList.rows.contains { if case .more = $0 { return true } else { return false } })
        model.resize(columns: 40, rows: 8)
        XCTAssertEqual(model.perYear, 3)
        XCTAssertTrue(model.searchList.rows.contains(.more(year: 2012, remaining: 3)))
        XCTAssertEqual(model.selectedTitle, "The Dark Tower")
    }

    /// Five years of 30 matches each (as a century of movies gives for `the`), best-rated first in each year.
    private func yearsModel(columns: Int = 80, rows: Int = 24) throws -> BrowseModel {
        let movies = (0..<150).map { number in
            Movie(id: number, title: "The Film \(number)", year: 2000 + number / 30, rating: Double(100 - number % 30))
        }
        let index = try Fixtures.index(Catalog(movies: movies), self)
        var model = BrowseModel(index: index, columns: columns, rows: rows)
        model.press(.text("the"))
        return model
    }

    /// The screen line of the selection (drawn with `>`), if it is on screen.
    private func selectedLine(_ model: BrowseModel) -> String? {
        model.plainScreen.dropFirst(3).first { $0.hasPrefix(">") }
    }

    func testResizeKeepsTheSelectedMovie() throws {
        var model = try yearsModel()
        for _ in 0..<22 { model.press(.down) }
        // 2004's 19 movies and its `… more` row, then 2003's third movie.
        XCTAssertEqual(model.selectedTitle, "The Film 92")
        model.resize(columns: 80, rows: 12)
        XCTAssertEqual(model.perYear, 7)
        XCTAssertEqual(model.selectedTitle, "The Film 92")
        XCTAssertEqual(selectedLine(model)?.contains("The Film 92"), true, "\(model.plainScreen)")
        model.resize(columns: 80, rows: 40)
        XCTAssertEqual(model.selectedTitle, "The Film 92")
        XCTAssertEqual(selectedLine(model)?.contains("The Film 92"), true, "\(model.plainScreen)")
    }

    func testResizeSelectsTheMoreRowOfAYearThatNoLongerListsTheMovie() throws {
        var model = try yearsModel()
        for _ in 0..<12 { model.press(.down) }
        XCTAssertEqual(model.selectedTitle, "The Film 132")  // 2004's 13th
        model.resize(columns: 80, rows: 12)
        XCTAssertEqual(model.searchList.selectedRow, .more(year: 2004, remaining: 23))
        XCTAssertEqual(selectedLine(model), "> … 23 more in 2004".padding(toLength: 80, withPad: " ", startingAt: 0))
        // Taller, 2004 still has more: the selection stays on that row.
        model.resize(columns: 80, rows: 24)
        XCTAssertEqual(model.searchList.selectedRow, .more(year: 2004, remaining: 11))
        // Tall enough for all of 2004: the selection goes to the first movie the `… more` row stood for.
        model.resize(columns: 80, rows: 40)
        XCTAssertEqual(model.selectedTitle, "The Film 139")
        XCTAssertEqual(selectedLine(model)?.contains("The Film 139"), true, "\(model.plainScreen)")
    }

    func testResizeKeepsAYearPagesSelectionAndFillsATallerScreen() throws {
        var model = try yearsModel(columns: 40, rows: 10)
        model.press(.down, .down, .down, .down, .down)  // 2004's `… more` row
        XCTAssertEqual(model.currentList.selectedRow, .more(year: 2004, remaining: 25))
        model.press(.enter, .down, .down)
        XCTAssertEqual(model.selectedTitle, "The Film 127")
        guard case .year(let before)? = model.page else { return XCTFail("no year page") }
        XCTAssertLessThan(before.loaded, 30)
        model.resize(columns: 40, rows: 40)
        XCTAssertEqual(model.selectedTitle, "The Film 127")
        guard case .year(let after)? = model.page else { return XCTFail("no year page") }
        // Every row of the taller screen shows a movie: the page fetched what it shows.
        XCTAssertEqual(after.loaded, 30)
        XCTAssertTrue(model.plainScreen.contains { $0.contains("The Film 149") }, "\(model.plainScreen)")
        model.resize(columns: 40, rows: 8)
        XCTAssertEqual(model.selectedTitle, "The Film 127")
        XCTAssertEqual(selectedLine(model)?.contains("The Film 127"), true, "\(model.plainScreen)")
    }

    func testResizeKeepsTopAndFavoritesSelectionsInView() throws {
        var model = try BrowseFixtures.model(self, favorites: Set(0..<18))
        model.press(.control("t"), .end)
        let top = try XCTUnwrap(model.selectedTitle)
        model.resize(columns: 40, rows: 8)
        XCTAssertEqual(model.selectedTitle, top)
        XCTAssertNotNil(selectedLine(model), "\(model.plainScreen)")
        model.press(.control("t"), .end)
        let favorite = try XCTUnwrap(model.selectedTitle)
        model.resize(columns: 80, rows: 24)
        model.resize(columns: 40, rows: 6)
        XCTAssertEqual(model.selectedTitle, favorite)
        XCTAssertNotNil(selectedLine(model), "\(model.plainScreen)")
    }

    func testUnknownKeysDoNothing() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        let before = model.plainScreen
        XCTAssertEqual(model.press(.control("z")), .none)
        XCTAssertEqual(model.plainScreen, before)
    }
}
