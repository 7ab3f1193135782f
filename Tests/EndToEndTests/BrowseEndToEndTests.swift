import Foundation
import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// `moviesearch browse` in a real pseudo-terminal (tmux, see `TmuxSession`), on the decade dataset of `../shared`
/// (2,272 movies, 2009–2018): what a person typing sees, favorites across views and restarts, `--no-save`, resizes,
/// `--print` in a pipeline, and the refusal without a terminal. Quitting and signals are in
/// `BrowseQuitEndToEndTests`.
///
/// Screens are read top down, in the layout browse draws: the tab bar `Search · Top 15 · Favorites (n)`, the
/// prompt `> <query>`, the summary, then year headers (`2012 · 2 matches`) and movie rows (a ♥ on favorites).
final class BrowseEndToEndTests: XCTestCase {
    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(try Requirement.sharedData("data/movies.json"))
    }

    private func browse(_ arguments: [String] = [], columns: Int = 80, rows: Int = 24) throws -> TmuxSession {
        let binary = try ChildProcess.binary()
        return try TmuxSession(test: self, [binary, "browse", "--cache", cache] + arguments, columns: columns,
                               rows: rows)
    }

    /// Typing `dark kni` lists both 2012 matches under their year, The Dark Knight Rises with `Dark` and `Kni` bold
    /// and the rest of its title not.
    func testTypingShowsTheMatchesWithTheirSpansInBold() throws {
        let session = try browse()
        let start = try session.waitForText("Favorites (0)")
        XCTAssertTrue(start[0].contains("Search · Top 15 · Favorites (0)"), TmuxSession.framed(start))
        XCTAssertEqual(BrowseSupport.prompt(start), ">", TmuxSession.framed(start))

        session.type("dark kni")
        let screen = try session.waitUntil("The Dark Knight Rises listed") {
            BrowseSupport.prompt($0) == "> dark kni" && $0.contains { $0.contains("The Dark Knight Rises") }
        }
        let frame = TmuxSession.framed(screen)
        XCTAssertTrue(screen.contains { $0.contains("2 matches") && !$0.contains("2012") }, "summary: \(frame)")
        let header = try XCTUnwrap(screen.firstIndex { $0.contains("2012 · 2 matches") }, frame)
        let rises = try XCTUnwrap(screen.firstIndex { $0.contains("The Dark Knight Rises") }, frame)
        let returns = try XCTUnwrap(screen.firstIndex { $0.contains("Batman: The Dark Knight Returns") }, frame)
        XCTAssertLessThan(header, returns, frame)
        XCTAssertLessThan(returns, rises, "rated 5 before rated 2, as in query: \(frame)")
        XCTAssertFalse(screen.contains { $0.contains("♥") }, "no favorites yet: \(frame)")

        let styled = TmuxSession.StyledLine(try session.captureWithAttributes()[rises])
        XCTAssertEqual(BrowseSupport.droppingTrailingBlanks(styled.text), screen[rises])
        let title = try XCTUnwrap(styled.range(of: "The Dark Knight Rises"), styled.text)
        XCTAssertTrue(styled.isAll(bold: true, "Dark", from: title), "\(styled.text): \(styled.bold)")
        XCTAssertTrue(styled.isAll(bold: true, "Kni", from: title), "\(styled.text): \(styled.bold)")
        XCTAssertTrue(styled.isAll(bold: false, "The ", from: title), "\(styled.text): \(styled.bold)")
        XCTAssertTrue(styled.isAll(bold: false, "ght Rises", from: title), "\(styled.text): \(styled.bold)")
    }

    /// Without color (`NO_COLOR`, or `--color never`) the screen holds no color at all, and the selection still
    /// shows, in reverse video (which is not color): on the first movie row, not on the second.
    func testWithoutColorTheSelectionIsInReverseVideo() throws {
        let binary = try ChildProcess.binary()
        for (arguments, environment) in [([String](), ["NO_COLOR": "1"]), (["--color", "never"], [:])] {
            let session = try TmuxSession(test: self, [binary, "browse", "--cache", cache] + arguments,
                                          environment: environment)
            try session.waitForText("Favorites (0)")
            session.type("dark kni")
            let screen = try session.waitForText("The Dark Knight Rises")
            let styled = try session.captureWithAttributes().map(TmuxSession.StyledLine.init)
            // Attributed blanks (the selection's reverse video to the edge) are kept by capture -e only.
            XCTAssertEqual(styled.map { BrowseSupport.droppingTrailingBlanks($0.text) }, screen)
            let label = "\(arguments) \(environment)"
            for line in styled {
                XCTAssertFalse(line.attributes.contains { $0.colored }, "\(label): color in \(line.text)")
            }
            let selected = try XCTUnwrap(styled.first { $0.text.contains("Batman: The Dark Knight Returns") })
            let other = try XCTUnwrap(styled.first { $0.text.contains("The Dark Knight Rises") })
            let title = try XCTUnwrap(selected.range(of: "Batman"))
            XCTAssertTrue(selected.attributes[title..<(title + 6)].allSatisfy(\.reverse), "\(label): \(selected.text)")
            XCTAssertFalse(other.attributes.contains { $0.reverse }, "\(label): \(other.text)")
            session.kill()
        }
    }

    /// Tab in Top 15 marks its first film; the ♥ shows on that film (and no other) in Top 15, Favorites and
    /// Search, the file holds it by identity, and all of it is there again after a restart.
    func testAFavoriteFromTop15ShowsEverywhereAndSurvivesARestart() throws {
        let top = try BinaryRun.run(["top", "--cache", cache]).standardOutput
        XCTAssertTrue(top.contains("1.  5/5  2009  After.Life\n"), top)
        XCTAssertTrue(top.contains("2.  5/5  2009  Alien Trespass\n"), top)
        let session = try browse()
        try session.waitForText("Favorites (0)")

        session.press("C-t")
        try session.waitForText("Alien Trespass")
        session.press("Tab")
        var screen = try session.waitUntil("After.Life marked in Top 15") {
            BrowseSupport.line("After.Life", in: $0)?.contains("♥") == true && $0[0].contains("Favorites (1)")
        }
        XCTAssertEqual(BrowseSupport.line("Alien Trespass", in: screen)?.contains("♥"), false,
                       TmuxSession.framed(screen))
        // A row's rating is out of the catalog's five.
        XCTAssertEqual(BrowseSupport.line("Alien Trespass", in: screen)?.contains("2.   5/5  2009  Alien Trespass"), true,
                       TmuxSession.framed(screen))

        let file = session.dataHome + "/moviesearch/favorites.json"
        try BrowseSupport.waitForFavorites(file, ["After.Life"])
        let folderMode = try FileManager.default.attributesOfItem(atPath: session.dataHome + "/moviesearch")[.posixPermissions]
        XCTAssertEqual(folderMode as? Int, 0o700, "the folder browse created")

        session.press("C-t")
        screen = try session.waitUntil("After.Life alone in Favorites") {
            BrowseSupport.line("After.Life", in: $0)?.contains("♥") == true && BrowseSupport.line("Alien Trespass", in: $0) == nil
        }

        session.press("C-t")
        try session.waitUntil("the search view") { BrowseSupport.prompt($0) == ">" && BrowseSupport.line("After.Life", in: $0) == nil }
        session.type("after.life")
        screen = try session.waitUntil("After.Life marked in Search") {
            BrowseSupport.prompt($0) == "> after.life" && BrowseSupport.line("After.Life", in: $0)?.contains("♥") == true
        }
        XCTAssertEqual(screen.filter { $0.contains("♥") }.count, 1, TmuxSession.framed(screen))

        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 130)
        try BrowseSupport.waitForFavorites(file, ["After.Life"])

        // Restarted: the tab bar counts it, Top 15 and Favorites mark it.
        try session.respawn([try ChildProcess.binary(), "browse", "--cache", cache])
        try session.waitForText("Favorites (1)")
        session.press("C-t")
        try session.waitUntil("After.Life marked in Top 15 after a restart") {
            BrowseSupport.line("After.Life", in: $0)?.contains("♥") == true
                && BrowseSupport.line("Alien Trespass", in: $0)?.contains("♥") == false
        }
        session.press("C-t")
        try session.waitUntil("After.Life in Favorites after a restart") {
            BrowseSupport.line("After.Life", in: $0)?.contains("♥") == true && BrowseSupport.line("Alien Trespass", in: $0) == nil
        }
        session.press("Tab")
        try session.waitForText("Favorites (0)")
        try BrowseSupport.waitForFavorites(file, [])
    }

    /// `--no-save` marks for the session only: nothing is written under `XDG_DATA_HOME`, and a later browse has
    /// no favorites.
    func testNoSaveWritesNothing() throws {
        let session = try browse(["--no-save"])
        try session.waitForText("Favorites (0)")
        session.press("C-t")
        try session.waitForText("Alien Trespass")
        session.press("Tab")
        try session.waitUntil("After.Life marked") {
            BrowseSupport.line("After.Life", in: $0)?.contains("♥") == true && $0[0].contains("Favorites (1)")
        }
        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 130)
        let written = FileManager.default.enumerator(atPath: session.dataHome)?.allObjects as? [String]
        XCTAssertEqual(written, [], "--no-save wrote under XDG_DATA_HOME")

        try session.respawn([try ChildProcess.binary(), "browse", "--cache", cache])
        try session.waitForText("Favorites (0)")
    }

    /// Enter on a movie opens its details (title, year, rating, genres, cast, the Flickr request URL whole, its
    /// favorite state); Tab there marks it, on the page and in the tab bar; Esc goes back with the query and the
    /// selection as they were, the ♥ on the row too; Favorites lists it.
    func testDetailsPageTogglesTheHeartAndEscGoesBack() throws {
        let show = try BinaryRun.run(["show", "745", "--cache", cache])
        XCTAssertTrue(show.standardOutput.hasPrefix("The Dark Knight Rises\n"), show.standardOutput)
        let url = try XCTUnwrap(show.standardOutput.split(separator: "\n").first { $0.hasPrefix("  flickr  ") }?
            .dropFirst("  flickr  ".count), show.standardOutput)
        let session = try browse()
        try session.waitForText("Favorites (0)")
        session.type("dark kni")
        try session.waitForText("The Dark Knight Rises")
        session.press("Down")
        try session.waitUntil("The Dark Knight Rises selected") {
            BrowseSupport.selected($0)?.contains("The Dark Knight Rises") == true
        }
        session.press("Enter")
        var screen = try session.waitForText("Christian Bale")
        var frame = TmuxSession.framed(screen)
        for text in ["The Dark Knight Rises", "2012", "Crime, Drama, Superhero", "Gary Oldman", "Morgan Freeman"] {
            XCTAssertTrue(screen.contains { $0.contains(text) }, "\(text): \(frame)")
        }
        // The decade catalog rates from 1 to 5: its 2 is two stars out of five, never "2" out of an unsaid 10.
        XCTAssertTrue(screen.contains("  rating    ★★☆☆☆ 2/5"), frame)
        XCTAssertEqual(BrowseSupport.wrappedValue(startingWith: "https://", in: screen), String(url),
                       "the Flickr URL, its lines joined: \(frame)")
        XCTAssertFalse(screen.contains { $0.contains("♥") }, frame)

        session.press("Tab")
        screen = try session.waitUntil("the heart on the details page") {
            $0[0].contains("Favorites (1)") && BrowseSupport.line("The Dark Knight Rises", in: $0)?.contains("♥") == true
        }
        XCTAssertTrue(screen.contains { $0.contains("Christian Bale") }, "the page stays: \(TmuxSession.framed(screen))")

        session.press("Escape")
        screen = try session.waitUntil("back to the list") { BrowseSupport.selected($0) != nil }
        frame = TmuxSession.framed(screen)
        XCTAssertEqual(BrowseSupport.prompt(screen), "> dark kni", frame)
        XCTAssertEqual(BrowseSupport.selected(screen)?.contains("The Dark Knight Rises ♥"), true, frame)
        XCTAssertEqual(BrowseSupport.line("Batman: The Dark Knight Returns", in: screen)?.contains("♥"), false, frame)

        session.press("C-t")
        try session.waitForText("Alien Trespass")
        session.press("C-t")
        try session.waitUntil("The Dark Knight Rises in Favorites") {
            BrowseSupport.line("The Dark Knight Rises", in: $0)?.contains("♥") == true
                && BrowseSupport.line("Alien Trespass", in: $0) == nil
        }
        try BrowseSupport.waitForFavorites(session.dataHome + "/moviesearch/favorites.json", ["The Dark Knight Rises"])
    }

    /// With `--photos-dir` holding a saved Flickr answer named `<id>.json`, the details page lists its photo URLs.
    func testDetailsPageListsSavedPhotos() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        try Data("""
            {"photos":{"page":1,"pages":1,"perpage":10,"total":"2","photo":[
              {"id":"53001","owner":"1@N01","secret":"abc123","server":"65535","farm":66,"title":"one"},
              {"id":"53002","owner":"2@N01","secret":"def456","server":"65535","farm":"66","title":"two"}
            ]},"stat":"ok"}
            """.utf8).write(to: URL(fileURLWithPath: folder + "/745.json"))
        let session = try browse(["--photos-dir", folder, "--flickr-key", "k3y"], columns: 100, rows: 30)
        try session.waitForText("Favorites (0)")
        session.type("dark knight rises")
        try session.waitUntil("The Dark Knight Rises selected") {
            BrowseSupport.selected($0)?.contains("The Dark Knight Rises") == true
        }
        session.press("Enter")
        let screen = try session.waitForText("Christian Bale")
        for url in ["http://farm66.static.flickr.com/65535/53001_abc123.jpg",
                    "http://farm66.static.flickr.com/65535/53002_def456.jpg"] {
            XCTAssertTrue(screen.contains { $0.contains(url) }, "\(url): \(TmuxSession.framed(screen))")
        }
        XCTAssertTrue(screen.joined().contains("k3y"), TmuxSession.framed(screen))
    }

    /// A movie whose overview is 40,000 characters of CJK without a space, and whose title is long too: its details
    /// page opens, scrolls with ↓ and End, and quits with Ctrl-C at once (laying out such a text was quadratic: seconds
    /// to open, seconds a key, signals queued meanwhile). Each wait is bounded; the test fails if the page lags.
    func testAHugeUnbrokenOverviewOpensAndScrollsAtOnce() throws {
        let letters = Array("老夫婦が東京に住む子供たちを訪ねるが忙しい日々の中で居場所を見つけられず尾道へ帰る")
        let overview = String((0..<40_000).map { letters[$0 % letters.count] })
        let title = String(repeating: "東京物語", count: 30)
        let tmdb = #"{"page":1,"results":[{"id":1,"title":"\#(title)","release_date":"1953-11-03","overview":"\#(overview)"}]}"#
        let catalog = try temporaryFile("tokyo.json", tmdb)
        let tokyo = try indexedCache(catalog)
        let session = try TmuxSession(test: self, [try ChildProcess.binary(), "browse", "--cache", tokyo],
                                      columns: 80, rows: 24)
        try session.waitForText("Favorites (0)")
        session.type("東京")
        try session.waitUntil("the movie listed") { BrowseSupport.selected($0)?.contains("東京物語") == true }
        session.press("Enter")
        let first = try session.waitForText("overview", timeout: 3)
        XCTAssertTrue(first.allSatisfy { DisplayWidth.columns(of: $0) <= 80 }, TmuxSession.framed(first))
        session.press("Down")
        try session.waitUntil("scrolled by one", timeout: 3) { $0 != first }
        session.press("End")
        // The last screenful ends with the overview's last characters, then the other fields.
        try session.waitForText("photos", timeout: 3)
        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(timeout: 3), 130)
    }

    /// A FIFO at `<photos-dir>/<id>.json` (or a folder) is never opened as a file to wait on: the details page opens
    /// at once and says so on its photos line, and browse still answers keys and quits.
    func testAFIFOInThePhotosFolderIsNamedNotWaitedFor() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        XCTAssertEqual(mkfifo(folder + "/745.json", 0o600), 0, String(cString: strerror(errno)))
        let session = try browse(["--photos-dir", folder], columns: 120, rows: 30)
        try session.waitForText("Favorites (0)")
        session.type("dark knight rises")
        try session.waitUntil("The Dark Knight Rises selected") {
            BrowseSupport.selected($0)?.contains("The Dark Knight Rises") == true
        }
        session.press("Enter")
        let screen = try session.waitForText("Christian Bale")
        XCTAssertTrue(screen.contains { $0.contains("photos    cannot read 745.json: it is a FIFO (named pipe), not a "
                                                      + "regular file") }, TmuxSession.framed(screen))
        session.press("Escape")
        try session.waitUntil("back to the list") { !$0.contains { $0.contains("cannot read 745.json") } }
    }

    /// The query's editing keys as a terminal sends them (tmux writes the bytes an xterm would): ←, Ctrl-A,
    /// Delete, Ctrl-E, Backspace, Ctrl-W, Ctrl-H, Ctrl-U; the cursor stays where the text is edited.
    func testEditingKeysThroughTheTerminal() throws {
        let session = try browse()
        try session.waitForText("Favorites (0)")
        func expect(_ prompt: String, cursorAt column: Int, file: StaticString = #filePath, line: UInt = #line) throws {
            try session.waitUntil("prompt \(prompt.debugDescription), cursor at column \(column)", file: file, line: line) {
                BrowseSupport.prompt($0) == prompt && (try? session.cursor())?.column == column
                    && (try? session.cursor())?.row == 1
            }
        }
        session.type("dark kni")
        try expect("> dark kni", cursorAt: 10)
        session.press("Left", "Left", "Left")
        try expect("> dark kni", cursorAt: 7)
        session.type("x")
        try expect("> dark xkni", cursorAt: 8)
        session.press("C-a")
        try expect("> dark xkni", cursorAt: 2)
        session.press("DC")
        try expect("> ark xkni", cursorAt: 2)
        session.press("Right", "C-e")
        try expect("> ark xkni", cursorAt: 10)
        session.press("BSpace")
        try expect("> ark xkn", cursorAt: 9)
        session.press("C-w")
        try expect("> ark", cursorAt: 6)
        session.press("C-h")
        try expect("> ark", cursorAt: 5)
        session.press("C-u")
        try expect(">", cursorAt: 2)
    }

    /// The selection keys as a terminal sends them: ↓/↑, Ctrl-N/P, Ctrl-J/K one movie (headers passed over),
    /// PgDn/PgUp a page, End/Home the last and first rows; Shift-Tab marks the selected movie and moves up.
    func testSelectionKeysThroughTheTerminal() throws {
        let session = try browse()
        try session.waitForText("Favorites (0)")
        session.type("dark")
        let first = try session.waitUntil("the answer to dark") {
            BrowseSupport.prompt($0) == "> dark" && BrowseSupport.selected($0)?.contains("The Darkest Minds") == true
        }
        let movies = first.filter { $0.hasPrefix(" ") && !$0.contains("more in") }.map { $0.dropFirst(2) }
        XCTAssertGreaterThan(movies.count, 3, TmuxSession.framed(first))
        func expectSelected(_ text: String, after keys: String..., file: StaticString = #filePath, line: UInt = #line)
            throws {
            session.press(keys)
            try session.waitUntil("\(text) selected after \(keys)", file: file, line: line) {
                BrowseSupport.selected($0)?.contains(text) == true
            }
        }
        try expectSelected("In Darkness", after: "Down")
        try expectSelected("God's Not Dead", after: "C-n")
        try expectSelected("In Darkness", after: "C-p")
        try expectSelected("God's Not Dead", after: "C-j")
        try expectSelected("In Darkness", after: "C-k")
        try expectSelected("The Darkest Minds", after: "Up")
        session.press("NPage")
        try session.waitUntil("a page down") {
            BrowseSupport.selected($0).map { !$0.contains("The Darkest Minds") && !$0.contains("In Darkness") } == true
        }
        try expectSelected("The Darkest Minds", after: "Home")
        session.press("End")
        let end = try session.waitUntil("the last row") {
            BrowseSupport.selected($0).map { !$0.contains("The Darkest Minds") } == true
        }
        let endRow = try XCTUnwrap(end.indices.dropFirst(2).first { end[$0].hasPrefix(">") })
        XCTAssertTrue(end[(endRow + 1)...].allSatisfy(\.isEmpty), "End selects the last row: \(TmuxSession.framed(end))")
        try expectSelected("The Darkest Minds", after: "PPage", "PPage", "PPage", "PPage")
        session.press("Down")
        try session.waitUntil("In Darkness selected") { BrowseSupport.selected($0)?.contains("In Darkness") == true }
        session.press("BTab")
        let marked = try session.waitUntil("In Darkness marked, the selection one up") {
            BrowseSupport.selected($0)?.contains("The Darkest Minds") == true
                && BrowseSupport.line("In Darkness", in: $0)?.contains("♥") == true
        }
        XCTAssertTrue(marked[0].contains("Favorites (1)"), TmuxSession.framed(marked))
    }

    /// Two browse sessions on the same favorites file: each toggle keeps what the other saved meanwhile.
    func testTwoSessionsKeepEachOthersFavorites() throws {
        let binary = try ChildProcess.binary()
        let first = try browse()
        let second = try TmuxSession(test: self, [binary, "browse", "--cache", cache],
                                     environment: ["XDG_DATA_HOME": first.dataHome])
        let file = first.dataHome + "/moviesearch/favorites.json"
        for session in [first, second] {
            try session.waitForText("Favorites (0)")
            session.press("C-t")
            try session.waitForText("Alien Trespass")
        }
        first.press("Tab")
        try BrowseSupport.waitForFavorites(file, ["After.Life"])
        second.press("Down")
        try second.waitUntil("Alien Trespass selected") { BrowseSupport.selected($0)?.contains("Alien Trespass") == true }
        second.press("Tab")
        try BrowseSupport.waitForFavorites(file, ["After.Life", "Alien Trespass"])
        first.press("C-c")
        second.press("C-c")
        XCTAssertEqual(try first.waitForExit(), 130)
        XCTAssertEqual(try second.waitForExit(), 130)
        try BrowseSupport.waitForFavorites(file, ["After.Life", "Alien Trespass"])
    }

    /// A paste arrives as text (bracketed paste): its line breaks neither open a page nor quit, and the query
    /// holds the pasted words.
    func testPasteIsText() throws {
        let session = try browse()
        try session.waitForText("Favorites (0)")
        session.paste("dark\nkni\n")
        let screen = try session.waitUntil("the pasted query") { BrowseSupport.prompt($0)?.hasPrefix("> dark") == true }
        XCTAssertTrue(["> dark kni", "> darkkni"].contains(BrowseSupport.prompt(screen) ?? ""),
                      TmuxSession.framed(screen))
        XCTAssertNil(try session.exitStatus())
        XCTAssertFalse(screen.contains { $0.contains("Christian Bale") }, "a pasted line break opened details")
    }

    /// Windows far below 20 × 6, even 1 × 1, do not end or break browse; back at 80 × 24 it draws in full.
    func testTinyWindowsDoNotBreakIt() throws {
        let session = try browse()
        try session.waitForText("Favorites (0)")
        session.type("dark kni")
        try session.waitForText("The Dark Knight Rises")
        for (columns, rows) in [(1, 1), (5, 2), (12, 3), (19, 5), (2, 40), (200, 2)] {
            try session.resize(columns: columns, rows: rows)
            try session.waitUntil("a screen at \(columns) × \(rows)") { $0.count == rows }
            session.press("Down")
            XCTAssertNil(try session.exitStatus(), "browse ended at \(columns) × \(rows)")
        }
        try session.resize(columns: 80, rows: 24)
        let screen = try session.waitUntil("a full redraw") {
            BrowseSupport.prompt($0) == "> dark kni" && $0.contains { $0.contains("Batman: The Dark Knight Returns") }
                && $0.contains { $0.contains("The Dark Knight Rises") }
        }
        XCTAssertTrue(screen[0].contains("Search · Top 15 · Favorites (0)"), TmuxSession.framed(screen))
        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 130)
    }

    /// A favorite no longer in the catalog is listed as missing and kept in the file when another is toggled.
    func testAMissingFavoriteIsListedAndKept() throws {
        let dataHome = try TestPaths.temporaryFolder(self).path
        try FileManager.default.createDirectory(atPath: dataHome + "/moviesearch", withIntermediateDirectories: true)
        let file = dataHome + "/moviesearch/favorites.json"
        try Data(#"{"version":1,"favorites":[{"id":99999,"title":"Gone Movie","year":2010},{"id":745,"title":"The Dark Knight Rises","year":2012}]}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let binary = try ChildProcess.binary()
        let session = try TmuxSession(test: self, [binary, "browse", "--cache", cache],
                                      environment: ["XDG_DATA_HOME": dataHome])
        try session.waitForText("Search · Top 15 · Favorites (")
        session.press("C-t")
        try session.waitForText("Alien Trespass")
        session.press("C-t")
        let screen = try session.waitUntil("Favorites listing both") {
            BrowseSupport.line("The Dark Knight Rises", in: $0)?.contains("♥") == true
                && BrowseSupport.line("Gone Movie", in: $0) != nil
        }
        // Said missing on its row or on a header above it ("missing", or "not in this catalog").
        let gone = try XCTUnwrap(screen.firstIndex { $0.contains("Gone Movie") })
        XCTAssertTrue(screen[...gone].contains { $0.contains("missing") || $0.contains("not in this catalog") },
                      TmuxSession.framed(screen))
        session.press("C-t", "C-t")
        try session.waitForText("Alien Trespass")
        session.press("Tab")
        try BrowseSupport.waitForFavorites(file, ["Gone Movie", "The Dark Knight Rises", "After.Life"])
    }

    /// Top 15 lists what `top --limit 15` lists, in its order.
    func testTop15IsTopLimit15() throws {
        let top = try BinaryRun.run(["top", "--limit", "15", "--cache", cache])
        XCTAssertEqual(top.status, 0, top.standardError)
        // "   1.  5  2009  After.Life": the title after the year.
        let titles = top.standardOutput.split(separator: "\n").dropFirst().map {
            $0.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)[3]
                .trimmingCharacters(in: .whitespaces)
        }
        XCTAssertEqual(titles.count, 15, top.standardOutput)
        let session = try browse()
        try session.waitForText("Favorites (0)")
        session.press("C-t")
        let screen = try session.waitForText(titles[14])
        let rows = titles.map { title in screen.firstIndex { $0.hasSuffix("  " + title) } }
        XCTAssertFalse(rows.contains(nil), "\(titles): \(TmuxSession.framed(screen))")
        XCTAssertEqual(rows.compactMap { $0 }, rows.compactMap { $0 }.sorted(), TmuxSession.framed(screen))
    }

    /// Enter on a `… N more in YEAR` row shows all of that year's matches, the same as `query` lists them in
    /// order; Esc goes back to the list with the `… more` row still selected.
    func testAMoreRowOpensTheWholeYear() throws {
        let query = try BinaryRun.run(["query", "the", "--json", "--per-year", "1000", "--cache", cache])
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(query.standardOutput.utf8)) as? [String: Any])
        let year = try XCTUnwrap((answer["years"] as? [[String: Any]])?.first { $0["year"] as? Int == 2009 })
        let expected = try XCTUnwrap(year["movies"] as? [[String: Any]]).compactMap { $0["title"] as? String }
        XCTAssertEqual(expected.count, 66)

        let session = try browse(columns: 100, rows: 12)
        try session.waitForText("Favorites (0)")
        session.type("the")
        try session.waitForText("630 matches")
        // Years newest first: the last row is 2009's.
        session.press("End")
        try session.waitUntil("the … more row selected") { BrowseSupport.selected($0)?.contains("more in 2009") == true }
        session.press("Enter")
        var screen = try session.waitUntil("the year's page") {
            BrowseSupport.line("more in 2009", in: $0) == nil && $0.contains { $0.contains("66") }
        }
        // Page through, collecting the rows in order.
        session.press("Home")
        screen = try session.waitUntil("the page's first row selected") {
            BrowseSupport.selected($0).map { BrowseSupport.title(ofRow: $0) } == expected[0]
        }
        var listed: [String] = []
        for _ in 0..<20 {
            for line in screen.dropFirst(3) where !line.isEmpty {
                let title = BrowseSupport.title(ofRow: line)
                if !listed.contains(title) { listed.append(title) }
            }
            if listed.count >= expected.count { break }
            let before = screen
            session.press("NPage")
            screen = try session.waitUntil("the next page") { $0 != before }
        }
        XCTAssertEqual(listed, expected)

        session.press("Escape")
        try session.waitUntil("back, the … more row selected") {
            BrowseSupport.selected($0)?.contains("more in 2009") == true && $0.contains { $0.contains("2009 · 66 matches") }
        }
    }

    /// A corrupt favorites file is never overwritten: at the default location browse says so and runs read-only
    /// (a toggle changes nothing on disk); named with `--favorites` it is refused with one line, status 1.
    func testACorruptFavoritesFileIsLeftAsItWas() throws {
        let dataHome = try TestPaths.temporaryFolder(self).path
        try FileManager.default.createDirectory(atPath: dataHome + "/moviesearch", withIntermediateDirectories: true)
        let file = dataHome + "/moviesearch/favorites.json"
        let corrupt = Data(#"{"version":1,"favorites":[{"id":1,"#.utf8)
        try corrupt.write(to: URL(fileURLWithPath: file))
        let binary = try ChildProcess.binary()
        let session = try TmuxSession(test: self, [binary, "browse", "--cache", cache],
                                      environment: ["XDG_DATA_HOME": dataHome])
        try session.waitForText("read-only")
        session.press("C-t")
        try session.waitForText("Alien Trespass")
        session.press("Tab")
        try session.waitUntil("the selection moved down") {
            BrowseSupport.line("Alien Trespass", in: $0)?.hasPrefix(">") == true
        }
        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 130)
        XCTAssertEqual(FileManager.default.contents(atPath: file), corrupt)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dataHome + "/moviesearch"),
                       ["favorites.json"])

        try session.respawn([binary, "browse", "--cache", cache, "--favorites", file])
        XCTAssertEqual(try session.waitForExit(), 1)
        // One line, which the terminal may have wrapped: joined back.
        let screen = try session.captureJoined().filter { !$0.isEmpty }
        XCTAssertEqual(screen.count, 1, TmuxSession.framed(screen))
        XCTAssertTrue(screen.first?.contains(file) == true, TmuxSession.framed(screen))
        XCTAssertTrue(screen.first?.hasPrefix("moviesearch: ") == true, TmuxSession.framed(screen))
        XCTAssertEqual(FileManager.default.contents(atPath: file), corrupt)
    }

    /// A resize keeps the selection on the same movie.
    func testResizeKeepsTheSelection() throws {
        let session = try browse()
        try session.waitForText("Favorites (0)")
        session.type("dark")
        try session.waitUntil("the answer to dark") { BrowseSupport.selected($0)?.contains("The Darkest Minds") == true }
        session.press("Down", "Down", "Down", "Down", "Down")
        try session.waitUntil("Darkest Hour selected") { BrowseSupport.selected($0)?.contains("Darkest Hour") == true }
        for (columns, rows) in [(40, 10), (120, 40), (60, 8), (80, 24)] {
            try session.resize(columns: columns, rows: rows)
            try session.waitUntil("Darkest Hour still selected at \(columns) × \(rows)") {
                $0.count == rows && BrowseSupport.selected($0)?.contains("Darkest Hour") == true
            }
        }
    }

    /// Typed UTF-8 is one character of the query: `brü` finds Brüno with the cursor after the `ü`, and Backspace
    /// removes the whole `ü`.
    func testTypedUTF8IsOneCharacter() throws {
        let session = try browse()
        try session.waitForText("Favorites (0)")
        session.type("brü")
        try session.waitUntil("Brüno found, the cursor after ü") {
            BrowseSupport.prompt($0) == "> brü" && BrowseSupport.line("Brüno", in: $0) != nil
                && (try? session.cursor())?.column == 5
        }
        let row = try XCTUnwrap(try session.captureWithAttributes().map(TmuxSession.StyledLine.init)
            .first { $0.text.contains("Brüno") })
        XCTAssertTrue(row.isAll(bold: true, "Brü"), "\(row.text): \(row.bold)")
        XCTAssertTrue(row.isAll(bold: false, "no"), "\(row.text): \(row.bold)")
        session.press("BSpace")
        try session.waitUntil("ü removed whole") {
            BrowseSupport.prompt($0) == "> br" && (try? session.cursor())?.column == 4
        }
    }

    /// A resize redraws at the new size: nothing wraps, long titles are cut with `…`, and at 20 × 6 the prompt and
    /// a movie row still show; back at 80 × 24 the full titles come back.
    func testResizeRedrawsAtTheNewSize() throws {
        let session = try browse()
        try session.waitForText("Favorites (0)")
        session.type("dark kni")
        try session.waitForText("Batman: The Dark Knight Returns")

        for (columns, rows) in [(30, 12), (20, 6), (26, 7)] {
            try session.resize(columns: columns, rows: rows)
            let screen = try session.waitUntil("a redraw at \(columns) × \(rows)") {
                // tmux cuts the old screen to the new width itself before browse redraws: wait for browse's own
                // frame, whose cut title ends with `…`, else the old screen would be taken for it.
                $0.count == rows && BrowseSupport.prompt($0) == "> dark kni"
                    && $0.contains { $0.contains("Batman") && $0.hasSuffix("…") }
            }
            XCTAssertEqual(try session.captureJoined().count, rows, "a line wrapped: \(TmuxSession.framed(screen))")
        }
        try session.resize(columns: 80, rows: 24)
        let screen = try session.waitUntil("a redraw at 80 × 24") {
            $0.contains { $0.contains("Batman: The Dark Knight Returns") } && $0.contains { $0.contains("The Dark Knight Rises") }
        }
        XCTAssertEqual(try session.captureJoined().count, 24, TmuxSession.framed(screen))
        XCTAssertTrue(screen[0].contains("Search · Top 15 · Favorites (0)"), TmuxSession.framed(screen))
    }

    /// `browse --print | cat`: the screen is drawn on the terminal, and Enter on a movie puts its `show --json` line
    /// on standard output, a pipe, and ends browse with status 0.
    func testPrintWritesTheChosenMovieToStandardOutput() throws {
        let binary = try ChildProcess.binary()
        let folder = try TestPaths.temporaryFolder(self).path
        let script = """
            { '\(binary)' browse --print --cache '\(cache)'; echo $? > '\(folder)/status'; } | cat > '\(folder)/out'
            """
        let session = try TmuxSession(test: self, ["/bin/sh", "-c", script])
        try session.waitForText("Favorites (0)")
        session.type("dark knight rises")
        try session.waitUntil("The Dark Knight Rises alone") {
            BrowseSupport.prompt($0) == "> dark knight rises" && BrowseSupport.line("The Dark Knight Rises", in: $0) != nil
        }
        session.press("Enter")
        XCTAssertEqual(try session.waitForExit(), 0)
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/status", encoding: .utf8), "0\n", "browse's status")

        let query = try BinaryRun.run(["query", "dark knight rises", "--json", "--cache", cache])
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(query.standardOutput.utf8)) as? [String: Any])
        let movie = try XCTUnwrap(((answer["years"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])?.first)
        XCTAssertEqual(movie["title"] as? String, "The Dark Knight Rises")
        let id = try XCTUnwrap(movie["id"] as? Int)
        let show = try BinaryRun.run(["show", "\(id)", "--json", "--cache", cache],
                                     environment: ["XDG_DATA_HOME": session.dataHome])
        XCTAssertEqual(show.status, 0, show.standardError)
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/out", encoding: .utf8), show.standardOutput)

        // Leaving without a choice prints nothing.
        try session.respawn(["/bin/sh", "-c", script])
        try session.waitForText("Favorites (0)")
        session.press("Escape")
        XCTAssertEqual(try session.waitForExit(), 0)
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/out", encoding: .utf8), "")
    }

    /// With standard input a pipe, or standard output a file, browse still runs on the terminal (/dev/tty, as
    /// fzf does): keys reach it and it quits as usual, writing nothing to the file.
    func testRedirectedStandardStreamsStillUseTheTerminal() throws {
        let binary = try ChildProcess.binary()
        let folder = try TestPaths.temporaryFolder(self).path
        for redirection in ["echo piped |", "> '\(folder)/out'"] {
            let command = redirection.hasPrefix("echo")
                ? "\(redirection) '\(binary)' browse --cache '\(cache)'"
                : "'\(binary)' browse --cache '\(cache)' \(redirection)"
            let session = try TmuxSession(test: self, ["/bin/sh", "-c", command])
            try session.waitForText("Favorites (0)")
            session.type("dark kni")
            try session.waitForText("The Dark Knight Rises")
            session.press("C-c")
            XCTAssertEqual(try session.waitForExit(), 130, redirection)
            session.kill()
        }
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/out", encoding: .utf8), "")
    }

    /// Without a terminal (a new session with no controlling terminal, standard input and output files), browse
    /// exits 2 with one line pointing to `query --stdin`, and prints nothing on standard output.
    func testWithoutATerminalItExitsTwoPointingToQueryStdin() throws {
        let setsid = try Requirement.tool("setsid", package: "util-linux")
        let binary = try ChildProcess.binary()
        let outcome = try ChildProcess.run(setsid, ["--wait", binary, "browse", "--cache", cache], timeLimit: 10)
        XCTAssertTrue(outcome.finished, "browse waited for a terminal")
        XCTAssertTrue(outcome.exited(2), outcome.summary)
        XCTAssertEqual(outcome.errorLines.count, 1, outcome.summary)
        XCTAssertTrue(outcome.standardError.contains("terminal"), outcome.summary)
        XCTAssertTrue(outcome.standardError.contains("query --stdin"), outcome.summary)
        XCTAssertEqual(outcome.standardOutput, "")
    }
}

/// What the browse end-to-end tests share.
enum BrowseSupport {
    /// The prompt line (`> query`, trailing blanks dropped), if the screen has one.
    static func prompt(_ screen: [String]) -> String? {
        screen.first { $0 == ">" || $0.hasPrefix("> ") }
    }

    /// `line` without the blanks at its end.
    static func droppingTrailingBlanks(_ line: String) -> String {
        String(line.reversed().drop { $0 == " " }.reversed())
    }

    /// The selected movie row (marked `>` at its start, as the prompt is: the prompt is the one on row 1), if any.
    static func selected(_ screen: [String]) -> String? {
        screen.dropFirst(2).first { $0.hasPrefix(">") }
    }

    /// A value that starts with `prefix` on some line and goes on over the lines below it, indented to the column
    /// where it starts (how the details page wraps a long value): its parts joined.
    static func wrappedValue(startingWith prefix: String, in screen: [String]) -> String? {
        guard let first = screen.firstIndex(where: { $0.contains(prefix) }),
              let start = screen[first].range(of: prefix) else { return nil }
        let column = screen[first].distance(from: screen[first].startIndex, to: start.lowerBound)
        var value = String(screen[first][start.lowerBound...])
        for line in screen[(first + 1)...] {
            let indent = line.prefix { $0 == " " }.count
            guard indent == column, line.count > column else { break }
            value += line.dropFirst(column)
        }
        return value
    }

    /// The title on a movie row: after the selection mark, the rating and the blanks (`>    5  Title ♥`), without
    /// a trailing heart.
    static func title(ofRow line: String) -> String {
        var text = Substring(line.dropFirst(2)).drop { $0 == " " }
        text = text.drop { $0 != " " }.drop { $0 == " " }
        if text.hasSuffix(" ♥") { text = text.dropLast(2) }
        return String(text)
    }

    /// The first line holding `title`, if any.
    static func line(_ title: String, in screen: [String]) -> String? {
        screen.first { $0.contains(title) }
    }

    /// Polls (5 s at most) until `path` is a valid favorites file listing exactly `titles`, in order.
    static func waitForFavorites(_ path: String, _ titles: [String], file: StaticString = #filePath,
                                 line: UInt = #line) throws {
        let deadline = ChildProcess.now() + 5
        var last = "no file"
        while ChildProcess.now() < deadline {
            if let data = FileManager.default.contents(atPath: path) {
                last = String(decoding: data, as: UTF8.self)
                if let listed = try? favoriteTitles(data), listed == titles { return }
            }
            usleep(20_000)
        }
        XCTFail("\(path) never listed \(titles); last seen: \(last)", file: file, line: line)
    }

    /// The titles of a favorites file, checking its shape: `{"version":1,"favorites":[{"id","title","year"}…]}`.
    static func favoriteTitles(_ data: Data) throws -> [String] {
        struct Invalid: Error {}
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["version"] as? Int == 1, let favorites = object["favorites"] as? [[String: Any]] else {
            throw Invalid()
        }
        return try favorites.map { entry in
            guard entry["id"] as? Int != nil, entry["year"] as? Int != nil, let title = entry["title"] as? String else { throw Invalid() }
            return title
        }
    }
}
