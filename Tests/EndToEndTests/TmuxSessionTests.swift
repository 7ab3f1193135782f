import Foundation
import XCTest
import TestSupport

/// The pseudo-terminal harness the browse tests stand on (`TmuxSession`), proved on programs that exist without
/// browse: keys reach the program, the screen and its bold come back, resizes arrive, exit statuses and signals are
/// told apart, and a program that leaves the alternate screen gives back the screen as it was.
final class TmuxSessionTests: XCTestCase {
    /// `query --color always` in the pane: the matched word is bold on the screen tmux keeps, the rest is not.
    func testQueryColorAlwaysShowsBoldMatches() throws {
        let binary = try ChildProcess.binary()
        let session = try TmuxSession(test: self, [binary, "query", "dark", "--color", "always",
                                                   "--cache", TestPaths.sampleCache], rows: 40)
        XCTAssertEqual(try session.waitForExit(), 0)
        let screen = try session.capture()
        XCTAssertEqual(screen.count, 40)
        let styled = try session.captureWithAttributes().map(TmuxSession.StyledLine.init)
        XCTAssertEqual(styled.map(\.text), screen, "the styled capture reads back as the plain one")
        let row = try XCTUnwrap(styled.first { $0.text.contains("Beyond the Dark Orchard") },
                                TmuxSession.framed(screen))
        XCTAssertTrue(row.isAll(bold: true, "Dark"), "\(row.text): \(row.bold)")
        XCTAssertTrue(row.isAll(bold: false, "Beyond the "), "\(row.text): \(row.bold)")
        XCTAssertTrue(row.isAll(bold: false, " Orchard"), "\(row.text): \(row.bold)")
        // Without a terminal's colors, nothing is bold.
        try session.respawn([binary, "query", "dark", "--color", "never", "--cache", TestPaths.sampleCache])
        XCTAssertEqual(try session.waitForExit(), 0)
        let plain = try session.captureWithAttributes().map(TmuxSession.StyledLine.init)
        XCTAssertTrue(plain.contains { $0.text.contains("Beyond the Dark Orchard") })
        XCTAssertFalse(plain.contains { $0.bold.contains(true) })
    }

    /// Literal text (UTF-8 included) and named keys reach the program; Ctrl-C kills `cat` with SIGINT, an exit
    /// status is read back.
    func testKeysReachTheProgramAndTheEndIsRead() throws {
        let session = try TmuxSession(test: self, ["/bin/cat"], columns: 40, rows: 8)
        session.type("héllo wörld ♥ -l;")
        session.type(";")
        session.press("Enter")
        let screen = try session.waitUntil("the line echoed by the terminal, then by cat") {
            $0.filter { $0 == "héllo wörld ♥ -l;;" }.count == 2
        }
        XCTAssertEqual(screen.count, 8)
        XCTAssertNil(try session.exitStatus())
        XCTAssertEqual(try session.cursor().row, 2)
        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 128 + SIGINT, "cat ended by SIGINT")

        try session.respawn(["/bin/sh", "-c", "read line; exit 7"])
        session.type("x")
        session.press("Enter")
        XCTAssertEqual(try session.waitForExit(), 7)
        // The process id is the program's own, not its wrapper's: a signal sent to it ends the program.
        try session.respawn(["/bin/sleep", "30"])
        XCTAssertEqual(kill(try session.processID(), SIGTERM), 0)
        XCTAssertEqual(try session.waitForExit(), 128 + SIGTERM)
    }

    /// Bold, dim, reverse video and colors written by a program are read back character by character.
    func testAttributesAreReadBack() throws {
        let session = try TmuxSession(test: self, ["/usr/bin/printf", "a\\033[1mb\\033[7mc\\033[22md\\033[27;31me"
                                                   + "\\033[38;5;200;44mf\\033[39mg\\033[0mh\\033[2mi\\033[22mj\\n"])
        XCTAssertEqual(try session.waitForExit(), 0)
        let line = TmuxSession.StyledLine(try session.captureWithAttributes()[0])
        XCTAssertEqual(line.text, "abcdefghij")
        /// Per character, `x` where `attribute` holds.
        func marks(_ attribute: (TmuxSession.StyledLine.Attributes) -> Bool) -> String {
            line.attributes.map { attribute($0) ? "x" : "." }.joined()
        }
        XCTAssertEqual(marks(\.bold), ".xx.......")
        XCTAssertEqual(marks(\.dim), "........x.")
        XCTAssertEqual(marks(\.reverse), "..xx......")
        XCTAssertEqual(marks(\.colored), "....xxx...")
    }

    /// tmux writes a cell's attributes as a change from the cell before, across line ends: read as a whole screen
    /// (`StyledLine.screen`), a line that starts without a sequence goes on in the attributes of the line above.
    func testAttributesGoOnFromTheLineAbove() throws {
        let session = try TmuxSession(test: self, ["/usr/bin/printf", "a\\033[7mb\\nc\\033[2md\\033[0m\\ne\\n"])
        XCTAssertEqual(try session.waitForExit(), 0)
        let screen = TmuxSession.StyledLine.screen(try session.captureWithAttributes())
        XCTAssertEqual(screen.prefix(3).map(\.text), ["ab", "cd", "e"])
        XCTAssertEqual(screen[0].attributes.map(\.reverse), [false, true])
        XCTAssertEqual(screen[1].attributes.map(\.reverse), [true, true], "c goes on in the reverse video of b")
        XCTAssertEqual(screen[1].attributes.map(\.dim), [false, true])
        XCTAssertEqual(screen[2].attributes, [TmuxSession.StyledLine.Attributes()])
    }

    /// A resize reaches the program as SIGWINCH and a new size; the capture follows it.
    func testResize() throws {
        let session = try TmuxSession(test: self, ["/bin/sh", "-c", "trap 'stty size' WINCH; stty size; while :; do sleep 0.05; done"])
        try session.waitForText("24 80")
        try session.resize(columns: 50, rows: 10)
        let screen = try session.waitForText("10 50")
        XCTAssertEqual(screen.count, 10)
        try session.resize(columns: 20, rows: 6)
        XCTAssertEqual(try session.waitForText("6 20").count, 6)
    }

    /// The way the browse tests check that quitting restores the terminal, proved on `tput smcup`/`rmcup`: the
    /// screen (with its attributes), the cursor and the terminal modes are the same before and after.
    func testAlternateScreenGivesBackTheScreen() throws {
        _ = try Requirement.tool("tput", package: "ncurses-bin")  // run by name in the pane below
        let folder = try TestPaths.temporaryFolder(self).path
        let script = """
            printf 'first line\\n\\033[1mbold\\033[0m and plain\\n$ '
            stty -g > '\(folder)/before'; stty -echo; read _; stty echo
            tput smcup; printf 'in the alternate screen'; stty -echo; read _; stty echo; tput rmcup
            stty -g > '\(folder)/after'
            """
        let session = try TmuxSession(test: self, ["/bin/sh", "-c", script], columns: 40, rows: 8)
        try session.waitUntil("the prompt") { _ in FileManager.default.fileExists(atPath: "\(folder)/before") }
        let before = try session.captureWithAttributes(), cursorBefore = try session.cursor()
        XCTAssertEqual(TmuxSession.StyledLine(before[1]).bold.filter { $0 }.count, 4)
        session.press("Enter")
        try session.waitForText("in the alternate screen")
        XCTAssertTrue(try session.isAlternateScreenOn())
        session.press("Enter")
        XCTAssertEqual(try session.waitForExit(), 0)
        XCTAssertFalse(try session.isAlternateScreenOn())
        XCTAssertEqual(try session.captureWithAttributes(), before)
        let cursorAfter = try session.cursor()
        XCTAssertEqual([cursorAfter.column, cursorAfter.row], [cursorBefore.column, cursorBefore.row])
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/after", encoding: .utf8),
                       try String(contentsOfFile: "\(folder)/before", encoding: .utf8))
    }
}
