import MovieSearch
@testable import MovieSearchCLI
import XCTest

/// Whole screens of `browse` at 80 × 24 and 40 × 10 (and the smallest, 20 × 6), as plain text lines and, where the
/// style carries meaning, as styled runs: in-process snapshots of the pure renderer, as skim's tests keep them. A
/// selected row is a bar of reverse video across the width, so its plain text ends in spaces.
final class BrowseSnapshotTests: XCTestCase {
    func testSearchAt80x24() throws {
        let model = try BrowseFixtures.model(self, typed: "dark", favorites: [5])
        XCTAssertEqual(model.screen(columns: 80, rows: 24).plainText, [
            "Search · Top 15 · Favorites (1)",
            "> dark",
            "10 matches in 3 years",
            "2017 · 3 matches",
            ">  4.5/10  The Dark Tower ♥                                                     ",
            "     1/10  Fifty Shades Darker",
            "        –  Darkest Hour",
            "2013 · 1 match",
            "     4/10  Star Trek Into Darkness",
            "2012 · 6 matches",
            "     5/10  The Dark Knight Rises",
            "   3.5/10  Dark Skies",
            "     3/10  Dark Shadows",
            "     3/10  Dark Places",
            "     3/10  The Dark",
            "     3/10  Dark Matter",
        ] + Array(repeating: "", count: 8))
        XCTAssertEqual(model.screen(columns: 80, rows: 24).cursor, Screen.Position(row: 1, column: 6))
    }

    func testSearchAt40x10ScrolledToTheSelection() throws {
        var model = try BrowseFixtures.model(self, typed: "dark", columns: 40, rows: 10, favorites: [5])
        model.press(.down, .down, .down, .down)
        XCTAssertEqual(model.plainScreen, [
            "Search · Top 15 · Favorites (1)",
            "> dark",
            "10 matches in 3 years",
            "   4.5/10  The Dark Tower ♥",
            "     1/10  Fifty Shades Darker",
            "        –  Darkest Hour",
            "2013 · 1 match",
            "     4/10  Star Trek Into Darkness",
            "2012 · 6 matches",
            ">    5/10  The Dark Knight Rises        ",
        ])
        model.press(.down, .down, .down, .down, .down)
        XCTAssertEqual(Array(model.plainScreen.suffix(3)), [
            "     3/10  Dark Places",
            "     3/10  The Dark",
            "> … 1 more in 2012                      ",
        ])
    }

    func testTopAt40x10CutsLongTitlesAndOverviewsAndCountsWideOnesTwice() throws {
        var model = try BrowseFixtures.model(self, columns: 40, rows: 10)
        model.press(.control("t"))
        XCTAssertEqual(model.plainScreen, [
            "Search · Top 15 · Favorites (0)",
            "> ",
            "The 15 best-rated movies of 18",
            ">  1.  8.6/10  2001  千と千尋の神隠し   ",
            "   2.  8.5/10  2019  기생충",
            "   3.  8.3/10  2001  Ame\u{301}lie",
            "   4.    7/10  2007  The Assassination …",
            "   5.    5/10  2012  The Dark Knight Ri…",
            "                     Eight years after …",  // its overview; the others have none
            "   6.  4.5/10  2017  The Dark Tower",
        ])
    }

    func testCriticsAt80x24() throws {
        var model = try BrowseFixtures.criticsModel(self, favorites: [7])
        model.press(.control("t"), .control("t"))
        XCTAssertEqual(model.plainScreen, [
            "Search · Top 15 · Critics' 15 · Favorites (1)",
            "> ",
            "The 15 best-rated movies by the critics, of 24",
            ">  1.   10/10  1941  Citizen Kane                                               ",
            "                     Newspaper magnate Charles Foster Kane is taken from his mo…",
            "   2.  9.6/10  2019  Parasite",
            "                     Greed and class discrimination threaten the newly formed s…",
            "   3.  9.6/10  2001  千と千尋の神隠し",
            "                     十歳の少女千尋は、両親と共に引越し先の新しい家へ向かう途中…",
            "   4.  8.8/10  2010  Only Critics ♥",
            "                     Nobody rated it but the critics.",
            "   5. 7.25/10  2015  Blank Overview",
            "   6.  6.9/10  2020  Tenet",
            "   7.  5.5/10  1999  Evil Overview",
            "                     Bad\\e]0;pwned\\x07 text\\u{202E} here",
            "   8.  5.5/10  2008  Film 8",
            "                     The story of film number 8, told at length.",
            "   9. 5.25/10  2009  Film 9",
            "                     The story of film number 9, told at length.",
            "  10.    5/10  2010  Film 10",
            "                     The story of film number 10, told at length.",
            "  11. 4.75/10  2011  Film 11",
            "                     The story of film number 11, told at length.",
            "  12.  4.5/10  2012  Film 12",
        ])
    }

    func testCriticsAt40x10ScrolledByTwoLineRows() throws {
        var model = try BrowseFixtures.criticsModel(self, columns: 40, rows: 10)
        model.press(.control("t"), .control("t"), .down, .down, .down)
        XCTAssertEqual(model.plainScreen, [
            "Search · Top · Critics · ♥ 0",
            "> ",
            "The 15 best-rated movies by the critics…",
            "   2.  9.6/10  2019  Parasite",
            "                     Greed and class di…",
            "   3.  9.6/10  2001  千と千尋の神隠し",
            "                     十歳の少女千尋は、…",
            ">  4.  8.8/10  2010  Only Critics       ",
            "                     Nobody rated it bu…",
            "   5. 7.25/10  2015  Blank Overview",
        ])
    }

    func testTheOverviewLineIsDimAndSelectedWithItsRow() throws {
        var model = try BrowseFixtures.criticsModel(self, columns: 40, rows: 10)
        model.press(.control("t"), .control("t"))
        let lines = model.screen(columns: 40, rows: 10).lines
        var dim = TextStyle()
        dim.dim = true
        var reverse = TextStyle()
        reverse.reverse = true
        var dimReverse = dim
        dimReverse.reverse = true
        // The selected row's second line: in reverse video across the width, as its first; no `>` of its own.
        XCTAssertEqual(lines[4].runs, [
            ScreenLine.Run(String(repeating: " ", count: 21), reverse),
            ScreenLine.Run("Newspaper magnate …", dimReverse),
        ])
        XCTAssertTrue(lines[3].runs.allSatisfy(\.style.reverse))
        XCTAssertEqual(lines[6].runs, [
            ScreenLine.Run(String(repeating: " ", count: 21)),
            ScreenLine.Run("Greed and class di…", dim),
        ])
        XCTAssertFalse(lines[5].runs.contains { $0.style.dim }, "the title line is not dimmed")
    }

    func testDetailsAt40x10() throws {
        var model = try BrowseFixtures.model(self, typed: "dark kni", columns: 40, rows: 10)
        model.press(.enter)
        XCTAssertEqual(model.plainScreen, [
            "Search · Top 15 · Favorites (0)",
            "> dark kni",
            "Esc: back · Tab: favorite · ↑/↓: scroll",
            "The Dark Knight Rises",
            "  year      2012",
            "  rating    5/10",
            "  genres    Action, Crime",
            "  cast      Christian Bale, Tom Hardy",
            "  overview  Eight years after the",
            "            Joker's reign of anarchy,",
        ])
    }

    func testYearPageAt40x10() throws {
        var model = try BrowseFixtures.model(self, typed: "dark", columns: 40, rows: 10, favorites: [5, 0])
        model.press(.end, .enter)
        XCTAssertEqual(model.plainScreen, [
            "Search · Top 15 · Favorites (2)",
            "> dark",
            "all 6 matches in 2012 · Esc: back",
            "     5/10  The Dark Knight Rises ♥",
            "   3.5/10  Dark Skies",
            "     3/10  Dark Shadows",
            "     3/10  Dark Places",
            "     3/10  The Dark",
            ">    3/10  Dark Matter                  ",
            "",
        ])
    }

    func testFavoritesAt40x10() throws {
        var model = try BrowseFixtures.model(self, columns: 40, rows: 10, favorites: [5, 0, 12, 13, 16])
        model.missingFavorites = [Favorite(id: 99, title: "Gone", year: 1990)]
        model.press(.control("t"), .control("t"))
        XCTAssertEqual(model.plainScreen, [
            "Search · Top 15 · Favorites (6)",
            "> ",
            "5 favorites, newest first, 1 not in thi…",
            "2017 · 1 favorite",
            ">  4.5/10  The Dark Tower ♥             ",
            "2012 · 1 favorite",
            "     5/10  The Dark Knight Rises ♥",
            "2001 · 2 favorites",
            "   8.6/10  千と千尋の神隠し ♥",
            "   8.3/10  Ame\u{301}lie ♥",
        ])
        model.press(.end)
        XCTAssertEqual(Array(model.plainScreen.suffix(3)), [
            ">    1/10  Evil\\e]0;pwned\\x07 Title ♥   ",
            "not in this catalog · 1",
            "        –  Gone (1990)",
        ])
    }

    func testTheSmallestScreenStillShowsThePromptAndARow() throws {
        let model = try BrowseFixtures.model(self, typed: "the assassination of jesse james", columns: 20, rows: 6)
        let screen = model.screen(columns: 20, rows: 6)
        XCTAssertEqual(screen.plainText, [
            "Search · Top · ♥ 0",
            "> …n of jesse james",
            "1 match in 1 year",
            "2007 · 1 match",
            ">    7/10  The Assa…",
            "",
        ])
        XCTAssertEqual(screen.cursor, Screen.Position(row: 1, column: 19))
    }

    func testMatchedSpansAreBoldInTheSelectedRow() throws {
        let model = try BrowseFixtures.model(self, typed: "dark kni")
        let row = model.screen(columns: 80, rows: 24).lines[4]
        var plain = TextStyle()
        plain.reverse = true
        var bold = plain
        bold.bold = true
        XCTAssertEqual(row.runs, [
            ScreenLine.Run("> ", bold),
            ScreenLine.Run("   5/10  ", plain),
            ScreenLine.Run("The ", plain),
            ScreenLine.Run("Dark", bold),
            ScreenLine.Run(" ", plain),
            ScreenLine.Run("Kni", bold),
            ScreenLine.Run("ght Rises", plain),
            ScreenLine.Run(String(repeating: " ", count: 48), plain),
        ])
    }

    func testMatchedSpansAreBoldInOtherRowsAndCutTitlesKeepTheirSpans() throws {
        let model = try BrowseFixtures.model(self, typed: "dark", columns: 27, rows: 12)
        let row = model.screen(columns: 27, rows: 12).lines[8]  // Star Trek Into Darkness, cut
        var bold = TextStyle()
        bold.bold = true
        XCTAssertEqual(row.runs, [
            ScreenLine.Run("  ", bold), ScreenLine.Run("   4/10  "), ScreenLine.Run("Star Trek Into "),
            ScreenLine.Run("…", bold),  // the cut fell in the span "Dark": the ellipsis takes its style
        ])
        let darkest = model.screen(columns: 27, rows: 12).lines[6]
        XCTAssertEqual(darkest.runs.map(\.text), ["  ", "      –  ", "Dark", "est Hour"])
        XCTAssertEqual(darkest.runs[2].style, bold)
    }

    func testTheFrameOfAScreenCarriesNoControlCharacterFromTheData() throws {
        let model = try BrowseFixtures.model(self, typed: "evil")
        var writer = FrameWriter(withColor: false)
        let bytes = writer.frame(model.screen(columns: 80, rows: 24))
        XCTAssertFalse(bytes.contains(0x07), "a BEL from the title reached the terminal")
        XCTAssertFalse(zip(bytes, bytes.dropFirst()).contains { $0 == 0x1B && $1 == UInt8(ascii: "]") },
                       "an OSC from the title reached the terminal")
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("\\e]0;pwned\\x07 Title"))  // after a bold "Evil"
    }

    func testColourOnlyWhenAllowed() throws {
        let index = try BrowseFixtures.index(self)
        for color in [false, true] {
            var model = BrowseModel(index: index, favorites: [0], color: color)
            model.press(.text("dark kni"))
            let runs = model.screen(columns: 80, rows: 24).lines.flatMap(\.runs)
            XCTAssertEqual(runs.contains { $0.style.foreground != nil }, color)
            // Without colour the selection is still reverse video and the spans still bold.
            XCTAssertTrue(runs.contains { $0.style.reverse })
            XCTAssertTrue(runs.contains { $0.text == "Dark" && $0.style.bold })
        }
    }
}
