import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// Whatever the size, the query and the view: a screen has exactly as many lines as rows, no line is wider than
/// the screen (so the terminal never wraps), the prompt is always there with the cursor on it, and from 6 rows up an
/// answer with matches shows at least one row of it.
final class BrowseLayoutPropertyTests: XCTestCase {
    private let sizes: [(columns: Int, rows: Int)] = {
        var sizes: [(Int, Int)] = []
        for columns in [20, 21, 25, 31, 40, 57, 80, 113, 200] {
            for rows in [6, 7, 9, 13, 24, 60] { sizes.append((columns, rows)) }
        }
        return sizes
    }()

    private let queries = ["", "dark", "dark kni", "千", "ame", "evil", "the assassination of jesse james robert",
                           "knigth", "zzzzzz", "🎬 movie", "기생충"]

    /// Key sequences that reach each view from a typed query.
    private let views: [[Key]] = [
        [], [.down, .down, .down], [.end], [.enter], [.enter, .end], [.end, .enter, .down],
        [.control("t")], [.control("t"), .tab, .tab, .control("t")],
    ]

    /// Every size for every query and view in a full run (`TestScale`, 4,752 screens, some 2 s); a sampled run draws
    /// each query and view at every third size, a different third for each pair, so that every size is still drawn
    /// for every query and every view.
    func testEveryLineOfEveryScreenFitsItsWidth() throws {
        let index = try BrowseFixtures.index(self)
        let stride = TestScale.pick(sampled: 3, full: 1)
        var screens = 0, expected = 0
        for (queryNumber, query) in queries.enumerated() {
            for (viewNumber, keys) in views.enumerated() {
                let phase = (queryNumber + viewNumber) % stride
                let drawn = sizes.indices.filter { $0 % stride == phase }.map { sizes[$0] }
                expected += drawn.count
                var model = BrowseModel(index: index, favorites: [12, 13, 15], columns: 80, rows: 24)
                model.missingFavorites = [Favorite(id: 3, title: "千と千尋の神隠し 2: the long lost sequel of a famous film", year: 2030)]
                model.statusMessage = "favorites are read-only: /home/someone/.local/share/moviesearch/favorites.json is corrupt"
                _ = model.handle(.text(query))
                for key in keys { _ = model.handle(key) }
                for size in drawn {
                    model.resize(columns: size.columns, rows: size.rows)
                    let screen = model.screen(columns: size.columns, rows: size.rows)
                    check(screen, size, "\(query) \(keys)")
                    screens += 1
                    if keys.isEmpty, model.result?.total ?? 0 > 0 {
                        XCTAssertTrue(screen.plainText[3...].contains { $0.contains("  ") }, "no row: \(query) \(size)")
                    }
                }
            }
        }
        XCTAssertEqual(screens, expected)
        XCTAssertGreaterThanOrEqual(screens * stride, queries.count * views.count * sizes.count)
    }

    /// The same on the top lists' two-line rows (Top 15 and Critics' 15 of a catalog with overviews and critics'
    /// ratings), scrolled to their ends and back: and the selected movie's row is in view, both its lines when the
    /// list has room for two.
    func testEveryLineOfTheTopListsFitsItsWidth() throws {
        let index = try BrowseFixtures.criticsIndex(self)
        let views: [[Key]] = [
            [.control("t")], [.control("t"), .end], [.control("t"), .control("t")],
            [.control("t"), .control("t"), .down, .down, .down], [.control("t"), .control("t"), .end],
            [.control("t"), .control("t"), .pageDown, .tab, .tab], [.control("t"), .control("t"), .end, .pageUp],
        ]
        for keys in views {
            var model = BrowseModel(index: index, favorites: [0, 4, 7], columns: 80, rows: 24)
            for key in keys { _ = model.handle(key) }
            for size in sizes + [(columns: 20, rows: 4), (columns: 39, rows: 5)] {
                model.resize(columns: size.columns, rows: size.rows)
                let screen = model.screen(columns: size.columns, rows: size.rows)
                check(screen, size, "\(keys)")
                let list = model.currentList
                guard let selection = list.selection else { return XCTFail("no selection: \(keys)") }
                let window = list.window(height: model.listHeight)
                XCTAssertTrue(window.contains(selection), "\(keys) \(size)")
                if list.lineCount(ofRowAt: selection) == 2, model.listHeight >= 2 {
                    XCTAssertTrue(window.contains(selection + 1), "\(keys) \(size): \(screen.plainText)")
                }
            }
        }
    }

    func testTinyScreensNeverBreak() throws {
        var model = try BrowseFixtures.model(self, typed: "dark")
        for columns in 0...12 {
            for rows in 0...6 {
                let screen = model.screen(columns: columns, rows: rows)
                XCTAssertEqual(screen.lines.count, rows)
                for line in screen.lines { XCTAssertLessThanOrEqual(line.columns, max(columns, 0)) }
            }
        }
        model.resize(columns: 20, rows: 2)
        let two = model.screen(columns: 20, rows: 2).plainText
        // One list row: the selection, not its header; one movie a year fits, so each year has a `… more` row.
        XCTAssertEqual(two, ["> dark", ">  4.5/10  The Dark…"])
        model.press(.down)
        XCTAssertEqual(model.screen(columns: 20, rows: 2).plainText[1], "> … 2 more in 2017  ")
    }

    private func check(_ screen: Screen, _ size: (columns: Int, rows: Int), _ label: String) {
        XCTAssertEqual(screen.lines.count, size.rows, label)
        for (number, line) in screen.lines.enumerated() {
            XCTAssertLessThanOrEqual(line.columns, size.columns, "\(label) \(size) line \(number): \(line.plainText)")
            for run in line.runs {
                XCTAssertFalse(run.text.unicodeScalars.contains(where: TerminalSafeText.isUnsafe), label)
            }
        }
        XCTAssertTrue(screen.plainText[1].hasPrefix("> "), label)
        guard let cursor = screen.cursor else { return XCTFail("no cursor: \(label)") }
        XCTAssertEqual(cursor.row, 1)
        XCTAssertLessThan(cursor.column, size.columns, label)
    }
}
