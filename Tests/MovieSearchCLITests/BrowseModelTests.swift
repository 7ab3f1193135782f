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
        XCTAssertTrue(model.plainScreen.contains { $0.hasPrefix(">    3/10  Dark Shadows") }, "\(model.plainScreen)")
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
        XCTAssertTrue(screen.contains("  rating    5/10"))
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
        XCTAssertEqual(model.plainScreen.last, ">  41/100  Film 59                      ")
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
        XCTAssertEqual(model.plainScreen[3], ">  1.  8.6/10  2001  千と千尋の神隠し" + String(repeating: " ", count: 43))
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
        XCTAssertTrue(model.plainScreen.contains("   2.  8.5/10  2019  기생충 ♥"))
        XCTAssertEqual(model.plainScreen[0], "Search · Top 15 · Favorites (1)")
        model.press(.control("t"))
        XCTAssertEqual(model.plainScreen[3], "2019 · 1 favorite")
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">  8.5/10  기생충 ♥"))
        model.press(.control("t"), .text("기"))
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">  8.5/10  기생충 ♥"))
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
            ">  4.5/10  The Dark Tower ♥" + String(repeating: " ", count: 53),
            "2012 · 3 favorites",
            "     5/10  The Dark Knight Rises ♥",
            "   3.5/10  Dark Skies ♥",
            "     3/10  Dark Shadows ♥",
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
        XCTAssertEqual(model.plainScreen[6], "        –  Gone Movie (1990)")
        model.press(.down)  // a missing favorite cannot be selected
        XCTAssertEqual(model.selectedTitle, "Knight and Day")
    }

    func testTheDriverSetsFavoritesAndAStatusMessage() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni")
        model.favorites = [0]
        model.statusMessage = "favorites are read-only: \u{1B}bad"
        XCTAssertEqual(model.plainScreen[2], "favorites are read-only: \\ebad · 1 match in 1 year")
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">    5/10  The Dark Knight Rises ♥"))
    }

    // MARK: Critics' 15

    func testCriticsTabComesRightAfterTop15WhenTheCatalogHasCriticRatings() throws {
        let model = try BrowseFixtures.criticsModel(self)
        XCTAssertTrue(model.index.hasCriticRatings)
        XCTAssertEqual(model.tabs, [.search, .top, .critics, .favorites])
        XCTAssertEqual(model.plainScreen[0], "Search · Top 15 · Critics' 15 · Favorites (0)")
        XCTAssertEqual(model.tab, .search)
    }

    func testACatalogWithoutCriticRatingsShowsNoCriticsTabAndCtrlTSkipsIt() throws {
        var model = try BrowseFixtures.model(self)
        XCTAssertFalse(model.index.hasCriticRatings)
        XCTAssertEqual(model.tabs, [.search, .top, .favorites])
        XCTAssertEqual(model.plainScreen[0], "Search · Top 15 · Favorites (0)")
        XCTAssertEqual(model.criticsList.rows, [])
        var visited: [BrowseTab] = []
        for _ in 0..<3 {
            model.press(.control("t"))
            visited.append(model.tab)
        }
        XCTAssertEqual(visited, [.top, .favorites, .search])
    }

    func testCtrlTCyclesSearchTopCriticsFavorites() throws {
        var model = try BrowseFixtures.criticsModel(self)
        var visited: [BrowseTab] = []
        for _ in 0..<8 {
            model.press(.control("t"))
            visited.append(model.tab)
        }
        XCTAssertEqual(visited, [.top, .critics, .favorites, .search, .top, .critics, .favorites, .search])
        model.press(.control("t"), .control("t"))
        XCTAssertEqual(model.plainScreen[2], "The 15 best-rated movies by the critics, of 24")
        let runs = model.screen(columns: 80, rows: 24).lines[0].runs
        let critics = try XCTUnwrap(runs.first { $0.text == "Critics' 15" })
        XCTAssertTrue(critics.style.bold && critics.style.underline)
        let top = try XCTUnwrap(runs.first { $0.text == "Top 15" })
        XCTAssertFalse(top.style.bold || top.style.underline)
        // Ctrl-T on a page opened from Critics' 15 closes it and goes on to Favorites; Esc goes back to Search.
        model.press(.enter)
        XCTAssertNotNil(model.page)
        model.press(.control("t"))
        XCTAssertNil(model.page)
        XCTAssertEqual(model.tab, .favorites)
        model.press(.control("t"), .control("t"), .control("t"))
        XCTAssertEqual(model.tab, .critics)
        XCTAssertEqual(model.press(.escape), .none)
        XCTAssertEqual(model.tab, .search)
    }

    func testCriticsListsTheCriticsOrderWithTheCriticRating() throws {
        let model = try BrowseFixtures.criticsModel(self, keys: [.control("t"), .control("t")])
        let expected = try model.index.topRated(by: .critic, limit: 15).map(\.id)
        let listed = model.criticsList.rows.compactMap { row -> Int? in
            if case let .movie(id, _) = row { return id } else { return nil }
        }
        XCTAssertEqual(listed, expected)
        // Ties by id (Parasite before 千と千尋の神隠し, Evil Overview before Film 8); The Room, which has no critic
        // rating, is not listed.
        XCTAssertEqual(Array(listed.prefix(8)), [2, 0, 4, 7, 6, 3, 5, 8])
        XCTAssertFalse(listed.contains(1))
        // The rows' first lines (the overview lines under them start with 21 blanks).
        let rows = model.trimmedScreen.dropFirst(3).filter { !$0.hasPrefix("      ") }
        XCTAssertEqual(Array(rows.prefix(7)), [
            ">  1.   10/10  1941  Citizen Kane",
            "   2.  9.6/10  2019  Parasite",          // the users rate it 8.5
            "   3.  9.6/10  2001  千と千尋の神隠し",
            "   4.  8.8/10  2010  Only Critics",      // no users' rating
            "   5. 7.25/10  2015  Blank Overview",
            "   6.  6.9/10  2020  Tenet",
            "   7.  5.5/10  1999  Evil Overview",
        ])
    }

    func testEnterOnACriticsRowOpensItsDetailsWithBothRatings() throws {
        var model = try BrowseFixtures.criticsModel(self, keys: [.control("t"), .control("t"), .down])
        XCTAssertEqual(model.selectedTitle, "Parasite")
        XCTAssertEqual(model.press(.enter), .none)
        let screen = model.plainScreen
        XCTAssertEqual(Array(screen[3...6]), ["Parasite", "  year      2019", "  rating    8.5/10", "  critics   9.6/10"])
        model.press(.escape)
        XCTAssertNil(model.page)
        XCTAssertEqual(model.tab, .critics)
        XCTAssertEqual(model.selectedTitle, "Parasite")
        var printing = try BrowseFixtures.criticsModel(self, printsChoice: true, keys: [.control("t"), .control("t")])
        XCTAssertEqual(printing.press(.enter), .print(movieID: 2))  // Citizen Kane, the critics' first
    }

    func testDetailsShowNoCriticsLineForAMovieWithoutACriticRating() throws {
        var model = try BrowseFixtures.criticsModel(self, keys: [.text("room"), .enter])
        XCTAssertEqual(Array(model.plainScreen[3...5]), ["The Room", "  year      2003", "  rating    3.6/10"])
        XCTAssertFalse(model.plainScreen.contains { $0.hasPrefix("  critics") }, "\(model.plainScreen)")
        model = try BrowseFixtures.model(self, typed: "dark kni")
        model.press(.enter)
        XCTAssertFalse(model.plainScreen.contains { $0.hasPrefix("  critics") }, "\(model.plainScreen)")
        // Only the critics rated it: unrated by the users, and the critics' rating under it.
        model = try BrowseFixtures.criticsModel(self, keys: [.text("only critics"), .enter])
        XCTAssertEqual(Array(model.plainScreen[5...6]), ["  rating    unrated", "  critics   8.8/10"])
    }

    func testTabOnACriticsRowTogglesTheHeartEverywhere() throws {
        var model = try BrowseFixtures.criticsModel(self, keys: [.control("t"), .control("t"), .down])
        XCTAssertEqual(model.press(.tab), .favoriteChanged(movieID: 0, isFavorite: true))
        XCTAssertEqual(model.selectedTitle, "千と千尋の神隠し")  // down, over Parasite's overview line
        XCTAssertEqual(model.favorites, [0])
        XCTAssertTrue(model.plainScreen.contains("   2.  9.6/10  2019  Parasite ♥"), "\(model.plainScreen)")
        XCTAssertEqual(model.plainScreen[0], "Search · Top 15 · Critics' 15 · Favorites (1)")
        model.press(.control("t"))
        XCTAssertEqual(model.tab, .favorites)
        XCTAssertEqual(model.plainScreen[3], "2019 · 1 favorite")
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">  8.5/10  Parasite ♥"))
        model.press(.control("t"), .control("t"))
        XCTAssertTrue(model.plainScreen.contains("   2.  8.5/10  2019  Parasite ♥"), "Top 15: \(model.plainScreen)")
    }

    // MARK: Two-line rows of the top lists

    func testTheOverviewLineIsNotSelectableOnItsOwn() throws {
        var model = try BrowseFixtures.criticsModel(self, keys: [.control("t"), .control("t")])
        var titles: [String] = []
        for _ in 0..<16 {
            guard case .movie? = model.currentList.selectedRow else {
                let row = String(describing: model.currentList.selectedRow)
                return XCTFail("the selection left the movie rows: \(row)")
            }
            titles.append(try XCTUnwrap(model.selectedTitle))
            model.press(.down)
        }
        XCTAssertEqual(Array(titles.prefix(4)), ["Citizen Kane", "Parasite", "千と千尋の神隠し", "Only Critics"])
        XCTAssertEqual(titles.last, "Film 15")  // the 15th, where Down stops
        model.press(.up)
        XCTAssertEqual(model.selectedTitle, "Film 14")
    }

    func testScrollingKeepsTheSelectedRowWholeAndNeverStartsOnASecondLine() throws {
        for rows in [5, 6, 7, 8, 10, 13, 24] {
            var model = try BrowseFixtures.criticsModel(self, columns: 40, rows: rows,
                                                        keys: [.control("t"), .control("t")])
            let keys: [Key] = Array(repeating: .down, count: 15) + Array(repeating: .up, count: 15)
                + [.end, .home, .pageDown, .pageDown, .pageUp, .end, .pageUp]
            for (number, key) in keys.enumerated() {
                model.press(key)
                let label = "\(rows) rows, key \(number) (\(key))"
                let list = model.currentList
                let window = list.window(height: model.listHeight)
                let selection = try XCTUnwrap(list.selection, label)
                XCTAssertTrue(window.contains(selection), label)
                if list.lineCount(ofRowAt: selection) == 2 {
                    XCTAssertTrue(window.contains(selection + 1), "the overview line hidden: \(label)")
                }
                XCTAssertFalse(list.rows[window.lowerBound].continuesRowAbove, "starts on a second line: \(label)")
                // On screen: the line after the selected one is its overview, drawn selected too.
                let screen = model.screen(columns: 40, rows: rows).lines
                let selected = try XCTUnwrap(screen.indices.dropFirst(3).first { screen[$0].plainText.hasPrefix(">") },
                                             label)
                if list.lineCount(ofRowAt: selection) == 2 {
                    let next = screen[selected + 1].plainText
                    XCTAssertTrue(next.hasPrefix(String(repeating: " ", count: 18)) && next.contains { $0 != " " },
                                  "\(label): \(model.plainScreen)")
                    XCTAssertTrue(screen[selected + 1].runs.allSatisfy(\.style.reverse), label)
                }
            }
        }
    }

    func testPageDownCountsATwoLineRowAsTwoLines() throws {
        // 7 list lines: a page is 6 of them.
        var model = try BrowseFixtures.criticsModel(self, rows: 10, keys: [.control("t"), .control("t")])
        model.press(.pageDown)  // Parasite, 千と千尋の神隠し, Only Critics: two lines each
        XCTAssertEqual(model.selectedTitle, "Only Critics")
        model.press(.pageDown)  // Blank Overview and Tenet one line each, Evil Overview and Film 8 two
        XCTAssertEqual(model.selectedTitle, "Film 8")
        model.press(.pageUp)
        XCTAssertEqual(model.selectedTitle, "Only Critics")
        model.press(.pageUp, .pageUp)
        XCTAssertEqual(model.selectedTitle, "Citizen Kane")
    }

    func testEndShowsTheLastRowWithItsOverviewLine() throws {
        var model = try BrowseFixtures.criticsModel(self, rows: 10, keys: [.control("t"), .control("t"), .end])
        XCTAssertEqual(model.selectedTitle, "Film 15")
        // The window starts on Film 13, not on Film 12's overview line: the last line stays empty.
        XCTAssertEqual(Array(model.trimmedScreen[3...]), [
            "  13. 4.25/10  2013  Film 13",
            "                     The story of film number 13, told at length.",
            "  14.    4/10  2014  Film 14",
            "                     The story of film number 14, told at length.",
            "> 15. 3.75/10  2015  Film 15",
            "                     The story of film number 15, told at length.",
            "",
        ])
        model.press(.home)
        XCTAssertEqual(model.trimmedScreen[3], ">  1.   10/10  1941  Citizen Kane")
    }

    func testResizeKeepsATopListsSelectionWithItsOverviewLineInView() throws {
        var model = try BrowseFixtures.criticsModel(self, keys: [.control("t"), .control("t"), .end, .up, .up])
        XCTAssertEqual(model.selectedTitle, "Film 13")
        for (columns, rows) in [(40, 8), (80, 6), (30, 24), (80, 12)] {
            model.resize(columns: columns, rows: rows)
            XCTAssertEqual(model.selectedTitle, "Film 13")
            let screen = model.plainScreen
            let selected = try XCTUnwrap(screen.indices.dropFirst(3).first { screen[$0].hasPrefix(">") }, "\(screen)")
            XCTAssertTrue(screen[selected].contains("Film 13"), "\(screen)")
            XCTAssertTrue(screen.indices.contains(selected + 1) && screen[selected + 1].contains("The story of"),
                          "\(columns) × \(rows): \(screen)")
        }
    }

    func testTheOverviewLineIsCutToTheWidth() throws {
        for columns in [20, 24, 33, 40, 57, 80, 113] {
            let model = try BrowseFixtures.criticsModel(self, columns: columns, rows: 40,
                                                        keys: [.control("t"), .control("t")])
            let screen = model.screen(columns: columns, rows: 40)
            let overviews = screen.lines.filter { $0.runs.last?.style.dim == true && $0.plainText.hasPrefix("  ") }
            XCTAssertEqual(overviews.count, 13, "\(columns): \(screen.plainText)")  // 15 less Blank Overview, Tenet
            for line in overviews {
                XCTAssertLessThanOrEqual(line.columns, columns, line.plainText)
            }
            let kane = try XCTUnwrap(overviews.first).plainText
            let indent = columns >= 40 ? 21 : 15
            let full = "Newspaper magnate Charles Foster Kane is taken from his mother as a boy. His dying word, "
                + "rosebud, starts a hunt."
            XCTAssertEqual(kane, String(repeating: " ", count: indent)
                           + DisplayWidth.truncated(full, toColumns: columns - indent))
            XCTAssertTrue(kane.hasSuffix("…") == (full.count > columns - indent), kane)
        }
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
        XCTAssertTrue(model.plainScreen[4].hasPrefix(">    1/10  Evil\\e]0;pwned\\x07 Title"))
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
