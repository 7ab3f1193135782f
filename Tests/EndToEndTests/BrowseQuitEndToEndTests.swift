import Foundation
import XCTest
import TestSupport

/// Leaving `moviesearch browse` in a real pseudo-terminal (tmux), on the decade dataset of `../shared`: every way
/// out (Esc on an empty query, Ctrl-C, SIGTERM, SIGHUP) gives back the screen that was there before, byte for byte
/// with its attributes, the cursor where it was, and the terminal's modes (echo, line mode: `stty -g`); and a
/// SIGKILL right after a toggle never leaves a torn favorites file.
///
/// browse runs from a shell script that first draws a screen (plain, bold and underlined text, a prompt), saves
/// `stty -g`, waits for Enter without echoing it, then runs browse, saves `stty -g` again and exits with browse's
/// status (the session's wrapper keeps the pane alive, so that tmux writes nothing over the screen).
final class BrowseQuitEndToEndTests: XCTestCase {
    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(try SharedData.path("data/movies.json"))
    }

    /// browse started from the script the type's doc describes.
    private struct ShellRun {
        var session: TmuxSession
        var folder: String
        /// The screen (with attributes) and cursor just before browse started.
        var before: [String]
        var cursor: (column: Int, row: Int, visible: Bool)

        /// browse's process id (written by the `sh` that then `exec`s it).
        func processID() throws -> pid_t {
            let text = try String(contentsOfFile: "\(folder)/pid", encoding: .utf8)
            return try XCTUnwrap(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), text)
        }

        /// Waits for browse to end, then checks the screen, cursor and terminal modes are as before; returns the
        /// exit status the shell saw.
        func checkRestored(file: StaticString = #filePath, line: UInt = #line) throws -> Int32 {
            let status = try session.waitForExit(file: file, line: line)
            let after = try session.captureWithAttributes()
            XCTAssertEqual(after, before, "the screen before:\n\(TmuxSession.framed(before))\nafter:\n"
                           + TmuxSession.framed(after), file: file, line: line)
            XCTAssertFalse(try session.isAlternateScreenOn(), "still in the alternate screen", file: file, line: line)
            let cursorAfter = try session.cursor()
            XCTAssertEqual([cursorAfter.column, cursorAfter.row], [cursor.column, cursor.row], "cursor position",
                           file: file, line: line)
            XCTAssertEqual(cursorAfter.visible, cursor.visible, "cursor shown", file: file, line: line)
            XCTAssertEqual(try String(contentsOfFile: "\(folder)/stty-after", encoding: .utf8),
                           try String(contentsOfFile: "\(folder)/stty-before", encoding: .utf8),
                           "terminal modes (stty -g)", file: file, line: line)
            return status
        }
    }

    private func startFromShell(columns: Int = 60, rows: Int = 12) throws -> ShellRun {
        let binary = try ChildProcess.binary()
        let folder = try TestPaths.temporaryFolder(self).path
        let script = """
            printf 'before browse\\n\\033[1mbold\\033[0m, \\033[4munderlined\\033[0m and plain\\n$ '
            stty -g > '\(folder)/stty-before'; stty -echo; read _; stty echo
            sh -c 'echo $$ > "$0"; exec "$@"' '\(folder)/pid' '\(binary)' browse --cache '\(cache)'
            status=$?; stty -g > '\(folder)/stty-after'; exit $status
            """
        let session = try TmuxSession(test: self, ["/bin/sh", "-c", script], columns: columns, rows: rows)
        try session.waitUntil("the script's screen") { _ in
            FileManager.default.fileExists(atPath: "\(folder)/stty-before")
        }
        let before = try session.captureWithAttributes(), cursor = try session.cursor()
        XCTAssertTrue(before[1].contains("\u{1B}[1m"), "the screen holds attributes: \(before)")
        session.press("Enter")
        try session.waitForText("Favorites (0)")
        XCTAssertTrue(try session.isAlternateScreenOn())
        return ShellRun(session: session, folder: folder, before: before, cursor: cursor)
    }

    /// Esc clears a typed query first (browse goes on), then quits on the empty one: status 0, terminal restored.
    func testEscapeClearsTheQueryThenQuitsAndRestores() throws {
        let run = try startFromShell()
        run.session.type("dark")
        try run.session.waitUntil("the query typed") { BrowseSupport.prompt($0) == "> dark" }
        run.session.press("Escape")
        try run.session.waitUntil("the query cleared") { BrowseSupport.prompt($0) == ">" }
        XCTAssertNil(try run.session.exitStatus())
        run.session.press("Escape")
        XCTAssertEqual(try run.checkRestored(), 0)
    }

    /// Ctrl-C quits from anywhere (here the Top 15 view, with a query typed before): status 130, restored.
    func testControlCQuitsWith130AndRestores() throws {
        let run = try startFromShell()
        run.session.type("dark kni")
        try run.session.waitForText("The Dark Knight Rises")
        run.session.press("C-t")
        try run.session.waitForText("Alien Trespass")
        run.session.press("C-c")
        XCTAssertEqual(try run.checkRestored(), 130)
    }

    /// SIGTERM and SIGHUP (sent with kill, as a closing terminal or a service manager would) restore the terminal
    /// too; their status is whatever browse chose, only its end is required. SIGINT sent with kill is Ctrl-C: 130.
    func testSignalsRestore() throws {
        for (signal, expected) in [(SIGTERM, nil), (SIGHUP, nil), (SIGINT, 130)] as [(Int32, Int32?)] {
            let run = try startFromShell()
            run.session.type("dark")
            try run.session.waitUntil("the query typed") { BrowseSupport.prompt($0) == "> dark" }
            XCTAssertEqual(kill(try run.processID(), signal), 0)
            let status = try run.checkRestored()
            if let expected { XCTAssertEqual(status, expected, "after signal \(signal)") }
            print("browse's exit status after signal \(signal): \(status)")
            run.session.kill()
        }
    }

    /// SIGKILL right after Tab, at delays from none to a few milliseconds, several times over: the favorites file
    /// is always absent or whole (`{"version":1,"favorites":[…]}` listing After.Life or nothing), never torn.
    func testSIGKILLRightAfterAToggleLeavesAValidFavoritesFile() throws {
        let binary = try ChildProcess.binary()
        let command = [binary, "browse", "--cache", cache]
        let session = try TmuxSession(test: self, command)
        let file = session.dataHome + "/moviesearch/favorites.json"
        var seen: [[String]] = []
        for delay in [0, 0, 1, 1, 2, 3, 5, 8, 13, 20] {
            if !seen.isEmpty { try session.respawn(command) }
            try session.waitForText("Favorites (")
            session.press("C-t")
            try session.waitForText("Alien Trespass")
            let pid = try session.processID()
            session.press("Tab")
            if delay > 0 { usleep(useconds_t(delay * 1000)) }
            XCTAssertEqual(kill(pid, SIGKILL), 0)
            XCTAssertEqual(try session.waitForExit(), 128 + SIGKILL)
            guard let data = FileManager.default.contents(atPath: file) else {
                seen.append([])
                continue
            }
            let titles = try BrowseSupport.favoriteTitles(data)
            XCTAssertTrue(titles == [] || titles == ["After.Life"], "\(titles)")
            seen.append(titles)
        }
        print("favorites after each SIGKILL: \(seen)")
        XCTAssertTrue(seen.contains(["After.Life"]), "no toggle was ever saved before the kill: \(seen)")
    }
}
