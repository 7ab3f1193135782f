import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// The filters of `browse` on the pure model: given at start, edited on the filter line (Ctrl-G), applied by Enter
/// (or refused with the reason on the summary line), cancelled by Esc, completed by Tab; the search, the top
/// lists and the summary line under them; data and typed text never reach the screen raw.
final class BrowseModelFilterTests: XCTestCase {
    /// Dark titles across genres and years; a genre with accents, one sharing its start with another, one
    /// holding control characters.
    private static let catalog = Catalog(movies: [
        Movie(id: 0, title: "Dark Water", year: 2005, rating: 6, cast: ["Jennifer Connelly"],
              genres: ["Drama", "Horror"]),
        Movie(id: 1, title: "Dark City", year: 1998, rating: 7.5, cast: ["Rufus Sewell"],
              genres: ["Science Fiction", "Mystery"]),
        Movie(id: 2, title: "The Dark Knight", year: 2008, rating: 9, cast: ["Christian Bale", "Heath Ledger"],
              genres: ["Drama", "Action", "Crime"], criticRating: 9.4),
        Movie(id: 3, title: "Dark Days", year: 2000, rating: 7, genres: ["Documentary"]),
        Movie(id: 4, title: "Dancer in the Dark", year: 2000, rating: 8, cast: ["Björk"],
              genres: ["Drama", "Musical"], criticRating: 6.8),
        Movie(id: 5, title: "Darkman", year: 1990, rating: 6.4, genres: ["Action", "Science Fiction"]),
        Movie(id: 6, title: "Dark Comedy", year: 2010, rating: 3, genres: ["Comedy"]),
        Movie(id: 7, title: "Escuridão", year: 2012, rating: 5, genres: ["Ficção Científica"]),
        Movie(id: 8, title: "Evil Genre", year: 2011, rating: 2, genres: ["Bad\u{1B}]0;pwned\u{07}Genre"]),
    ])

    private func model(typed: String = "", filters: SearchFilters = SearchFilters(), columns: Int = 80,
                       rows: Int = 24) throws -> BrowseModel {
        var model = BrowseModel(index: try Fixtures.index(Self.catalog, self), filters: filters, columns: columns,
                                rows: rows)
        for character in typed { model.press(.text(String(character))) }
        return model
    }

    /// The titles of the movie rows on the screen.
    private func titles(_ model: BrowseModel) -> Set<String> {
        Set(model.currentList.rows.compactMap { row -> String? in
            guard case .movie(let id, _) = row else { return nil }
            return try? model.index.movie(id: id).title
        })
    }

    /// The titles the engine lists for `query` under `filters`: what the screen must show.
    private func engineTitles(_ model: BrowseModel, _ query: String, _ filters: SearchFilters) throws -> Set<String> {
        let answer = try model.index.search(query, perYear: model.perYear, filters: filters)
        return Set(try answer.years.flatMap(\.movieIDs).map { try model.index.movie(id: $0).title })
    }

    // MARK: Opening, applying, cancelling

    func testCtrlGOpensTheFilterLineAndEnterNarrowsTheSearch() throws {
        var model = try model(typed: "dark")
        let unfiltered = titles(model)
        XCTAssertTrue(unfiltered.contains("Dark City"))
        XCTAssertEqual(model.press(.control("g")), .none)
        XCTAssertEqual(model.trimmedScreen[1], "Filter:")
        XCTAssertEqual(model.trimmedScreen[2], BrowseRenderer.filterLineHelp)
        XCTAssertEqual(model.screen(columns: 80, rows: 24).cursor, Screen.Position(row: 1, column: 8))

        model.press(.text("genre:Drama"), .enter)
        XCTAssertNil(model.filterEditor)
        XCTAssertEqual(model.filters, SearchFilters(genres: ["Drama"]))
        XCTAssertEqual(titles(model), ["Dark Water", "The Dark Knight", "Dancer in the Dark"])
        XCTAssertEqual(titles(model), try engineTitles(model, "dark", SearchFilters(genres: ["Drama"])))
        XCTAssertEqual(model.trimmedScreen[1], "> dark", "the query is kept")
        XCTAssertEqual(model.trimmedScreen[2], "[Drama] 3 matches in 3 years")
        XCTAssertEqual(model.tab, .search)
    }

    func testFiltersGivenAtStartAreInForceAndCtrlGOpensWithThem() throws {
        let filters = SearchFilters(lowestYear: 2000, highestYear: 2008, minimumRating: 7)
        var model = try model(typed: "dark", filters: filters)
        XCTAssertEqual(titles(model), ["The Dark Knight", "Dark Days", "Dancer in the Dark"])
        XCTAssertEqual(titles(model), try engineTitles(model, "dark", filters))
        XCTAssertEqual(model.trimmedScreen[2], "[2000–2008 · rating ≥ 7] 3 matches in 2 years")

        model.press(.control("g"))
        XCTAssertEqual(model.filterEditor?.text, "year:2000..2008 rating:7")
        XCTAssertEqual(model.trimmedScreen[1], "Filter: year:2000..2008 rating:7")
        // Ctrl-W takes the last pair off; Enter applies what is left.
        model.press(.control("w"), .enter)
        XCTAssertEqual(model.filters, SearchFilters(lowestYear: 2000, highestYear: 2008))
        XCTAssertEqual(titles(model), ["Dark Water", "The Dark Knight", "Dark Days", "Dancer in the Dark"])
    }

    func testEscCancelsTheFilterLineAndKeepsTheFiltersAndTheQuery() throws {
        var model = try model(typed: "dark", filters: SearchFilters(genres: ["Drama"]))
        let before = titles(model)
        model.press(.control("g"), .control("u"), .text("genre:Comedy"))
        XCTAssertEqual(model.press(.escape), .none)
        XCTAssertNil(model.filterEditor)
        XCTAssertEqual(model.filters, SearchFilters(genres: ["Drama"]))
        XCTAssertEqual(titles(model), before)
        XCTAssertEqual(model.query, "dark", "Esc on the filter line does not clear the query")
        XCTAssertEqual(model.trimmedScreen[1], "> dark")
        // The next Esc is the query's again.
        model.press(.escape)
        XCTAssertEqual(model.query, "")
    }

    func testAnEmptyLineClearsEveryFilter() throws {
        var model = try model(typed: "dark", filters: SearchFilters(lowestYear: 2000, genres: ["Drama"]))
        model.press(.control("g"), .control("u"), .enter)
        XCTAssertTrue(model.filters.isEmpty)
        XCTAssertEqual(titles(model), try engineTitles(model, "dark", SearchFilters()))
        XCTAssertFalse(model.trimmedScreen[2].contains("["), model.trimmedScreen[2])
    }

    func testABadLineSaysWhyOnTheSummaryLineAndStaysOpen() throws {
        var model = try model(typed: "dark", filters: SearchFilters(genres: ["Drama"]))
        model.press(.control("g"), .control("u"), .text("year:soon"))
        XCTAssertEqual(model.press(.enter), .none)
        XCTAssertNotNil(model.filterEditor, "the line stays open to be mended")
        XCTAssertEqual(model.filterError, "year: 'soon' is not " + YearFilter.expectation)
        XCTAssertTrue(model.trimmedScreen[2].hasPrefix("year: 'soon' is not a year Y"), model.trimmedScreen[2])
        XCTAssertLessThanOrEqual(model.screen(columns: 80, rows: 24).lines[2].columns, 80)
        XCTAssertEqual(model.filters, SearchFilters(genres: ["Drama"]), "the filters in force stay")
        // Editing the line takes the message away; the mended line applies.
        model.press(.backspace)
        XCTAssertNil(model.filterError)
        XCTAssertEqual(model.trimmedScreen[2], BrowseRenderer.filterLineHelp)
        model.press(.control("u"), .text("nonsense"), .enter)
        XCTAssertTrue(model.trimmedScreen[2].hasPrefix("'nonsense' is no filter"), model.trimmedScreen[2])
        model.press(.control("u"), .text("year:2008"), .enter)
        XCTAssertNil(model.filterEditor)
        XCTAssertEqual(titles(model), ["The Dark Knight"])
    }

    // MARK: Tab

    func testTabCompletesAGenreOfTheCatalogAndMarksNoFavorite() throws {
        var model = try model()
        model.press(.control("g"), .text("year:1990.. genre:sci"), .tab)
        XCTAssertEqual(model.filterEditor?.text, "year:1990.. genre:Science Fiction")
        XCTAssertEqual(model.filterEditor?.cursor, "year:1990.. genre:Science Fiction".count)
        XCTAssertTrue(model.favorites.isEmpty, "Tab on the filter line is no favorite mark")
        // Accents aside; a genre already whole, or none that starts so, stays as typed.
        model.press(.control("u"), .text("genre:ficcao"), .tab)
        XCTAssertEqual(model.filterEditor?.text, "genre:Ficção Científica")
        model.press(.tab)
        XCTAssertEqual(model.filterEditor?.text, "genre:Ficção Científica")
        model.press(.control("u"), .text("genre:western"), .tab)
        XCTAssertEqual(model.filterEditor?.text, "genre:western")
        model.press(.control("u"), .text("genre:ficcao"), .tab, .enter)
        XCTAssertEqual(titles(model), ["Escuridão"])
    }

    // MARK: Editing the line

    func testTheLineIsEditedAsTheQueryIsAndOtherKeysDoNothing() throws {
        var model = try model(typed: "dark")
        let selected = model.currentList.selection
        model.press(.control("g"), .text("genre:drma"), .left, .left, .text("a"))
        XCTAssertEqual(model.filterEditor?.text, "genre:drama")
        XCTAssertEqual(model.filterEditor?.cursor, 9)
        model.press(.control("a"), .delete, .text("G"), .control("e"), .backspace, .text("a"))
        XCTAssertEqual(model.filterEditor?.text, "Genre:drama")
        // Keys of the list do nothing while the line is open; the query is untouched.
        model.press(.down, .pageDown, .end, .control("t"), .control("g"))
        XCTAssertEqual(model.currentList.selection, selected)
        XCTAssertEqual(model.tab, .search)
        XCTAssertEqual(model.query, "dark")
        XCTAssertEqual(model.press(.control("c")), .quit(status: 130), "Ctrl-C quits from the filter line too")
    }

    func testUTF8TextIsEditedByCharacterAndTheCursorCountsColumns() throws {
        var model = try model()
        model.press(.control("g"), .text("cast:Björk 千と"))
        XCTAssertEqual(model.filterEditor?.characters.count, "cast:Björk 千と".count)
        // "Filter: " (8) + "cast:Björk " (11) + two wide letters (4).
        XCTAssertEqual(model.screen(columns: 80, rows: 24).cursor, Screen.Position(row: 1, column: 23))
        model.press(.backspace, .backspace, .backspace)
        XCTAssertEqual(model.filterEditor?.text, "cast:Björk")
        model.press(.text("o\u{308}"), .backspace)  // a combining mark goes with its letter
        XCTAssertEqual(model.filterEditor?.text, "cast:Björk")
        model.press(.enter)
        XCTAssertEqual(titles(model), ["Dancer in the Dark"])
    }

    /// A line longer than the screen scrolls sideways (a `…` where its start is hidden): the prompt line fits and the
    /// cursor stays on the screen, at every width.
    func testALongLineScrollsWithTheCursorInView() throws {
        var model = try model()
        let long = "cast:" + String(repeating: "Very Long Name ", count: 20) + "genre:Drama"
        model.press(.control("g"), .text(long))
        for columns in [12, 20, 31, 80] {
            let screen = model.screen(columns: columns, rows: 10)
            XCTAssertLessThanOrEqual(screen.lines[1].columns, columns, "\(columns)")
            XCTAssertTrue(screen.plainText[1].hasPrefix("Filter: …"), screen.plainText[1])
            XCTAssertTrue(BrowseSupportText.trimmed(screen.plainText[1]).hasSuffix("Drama")
                          || columns < 20, screen.plainText[1])
            let cursor = try XCTUnwrap(screen.cursor)
            XCTAssertEqual(cursor.row, 1)
            XCTAssertLessThan(cursor.column, columns)
        }
        model.press(.enter)
        XCTAssertTrue(titles(model).isEmpty, "no cast holds that name")
    }

    // MARK: What the filters narrow

    func testTheTopListsAreFilteredAndCountTheMoviesThatPass() throws {
        var model = try model()
        model.press(.control("g"), .text("year:2000..2008"), .enter, .control("t"))
        XCTAssertEqual(model.tab, .top)
        let top = try model.index.topRated(by: .rating, limit: BrowseModel.topLimit,
                                           filters: SearchFilters(lowestYear: 2000, highestYear: 2008))
        XCTAssertEqual(titles(model), Set(top.map(\.title)))
        XCTAssertEqual(titles(model), ["The Dark Knight", "Dancer in the Dark", "Dark Days", "Dark Water"])
        XCTAssertEqual(model.trimmedScreen[2], "[2000–2008] The 4 best-rated movies of 4")
        // The critics' list too: of the four, two have a critics' rating.
        model.press(.control("t"))
        XCTAssertEqual(model.tab, .critics)
        XCTAssertEqual(titles(model), ["The Dark Knight", "Dancer in the Dark"])
        XCTAssertEqual(model.trimmedScreen[2], "[2000–2008] The 2 best-rated movies by the critics, of 4")
    }

    func testApplyingFiltersClosesAnOpenPage() throws {
        var model = try model(typed: "dark")
        model.press(.enter)
        XCTAssertNotNil(model.page)
        model.press(.control("g"), .text("genre:Comedy"), .enter)
        XCTAssertNil(model.page)
        XCTAssertEqual(titles(model), ["Dark Comedy"])
    }

    func testAGenreNoMovieHasIsNotedWithTheClosestOne() throws {
        var model = try model(typed: "dark")
        model.press(.control("g"), .text("genre:Dramma"), .enter)
        XCTAssertTrue(titles(model).isEmpty)
        XCTAssertEqual(BrowseSupportText.trimmed(model.screen(columns: 100, rows: 24).plainText[2]),
                       "[Dramma] no movie has the genre 'Dramma'; did you mean 'Drama'? · No movie matches")
        model.press(.control("g"), .control("u"), .text("genre:Drama"), .enter)
        XCTAssertNil(model.filterNote)
        XCTAssertEqual(model.trimmedScreen[2], "[Drama] 3 matches in 3 years")
    }

    // MARK: Safety

    /// Control characters in a genre of the catalog, in a filter given at start, or pasted on the line never reach
    /// the screen: the summary shows them escaped, the line drops them.
    func testControlCharactersNeverReachTheScreen() throws {
        let evil = "Bad\u{1B}]0;pwned\u{07}Genre"
        var model = try model(filters: SearchFilters(genres: [evil], cast: ["Ev\u{202E}il"]))
        func checkScreen(_ label: String) {
            for line in model.screen(columns: 80, rows: 24).lines {
                for run in line.runs {
                    XCTAssertFalse(run.text.unicodeScalars.contains(where: TerminalSafeText.isUnsafe),
                                   "\(label): \(run.text.debugDescription)")
                }
            }
        }
        checkScreen("filters at start")
        XCTAssertTrue(model.trimmedScreen[2].hasPrefix("[" + TerminalSafeText.escaped(evil)), model.trimmedScreen[2])
        model.press(.control("g"))
        checkScreen("the line open with them")
        XCTAssertFalse(model.filterEditor?.text.unicodeScalars.contains(where: TerminalSafeText.isUnsafe) ?? true)
        model.press(.control("u"), .text("genre:Bad\u{1B}[2J\u{9B}x"), .enter)
        checkScreen("pasted on the line")
        XCTAssertEqual(model.filters.genres, ["Bad[2Jx"])
        // Tab completes the genre without its controls.
        model.press(.control("g"), .control("u"), .text("genre:bad"), .tab)
        XCTAssertEqual(model.filterEditor?.text.unicodeScalars.contains(where: TerminalSafeText.isUnsafe), false)
        checkScreen("completed")
    }
}

/// Text helpers of the filter tests.
private enum BrowseSupportText {
    /// `line` without the blanks at its end.
    static func trimmed(_ line: String) -> String {
        String(line.reversed().drop { $0 == " " }.reversed())
    }
}
