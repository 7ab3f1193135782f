import Foundation
import XCTest
import TestSupport

/// Leaving `moviesearch browse` in a real pseudo-terminal (tmux), on the decade dataset of `../shared`: every way
/// out (Esc on an empty query, Ctrl-C, every signal whose default ends a process) gives back the screen that was
/// there before, byte for byte with its attributes, the cursor where it was, and the terminal's modes (echo, line
/// mode: `stty -g`); Ctrl-Z stops the whole pipeline as a job, and is ignored without job control; and a SIGKILL
/// right after a toggle never leaves a torn favorites file.
///
/// browse runs from a shell script that first draws a screen (plain, bold and underlined text, a prompt), saves
/// `stty -g`, waits for Enter without echoing it (the saved modes appear only once echo is off, so that an Enter
/// pressed as soon as they appear is never echoed, moving the cursor), then runs browse, saves `stty -g` again and exits with browse's
/// status (the session's wrapper keeps the pane alive, so that tmux writes nothing over the screen). The script's
/// own standard error, where a shell says that its child died of a signal ("Hangup"), goes to /dev/null.
final class BrowseQuitEndToEndTests: XCTestCase {
    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(try Requirement.sharedData("data/movies.json"))
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
            stty -g > '\(folder)/stty-before.tmp'; stty -echo; mv '\(folder)/stty-before.tmp' '\(folder)/stty-before'
            read _; stty echo; ulimit -c 0; exec 3>&2 2>/dev/null
            sh -c 'echo $$ > "$0"; exec "$@" 2>&3 3>&-' '\(folder)/pid' '\(binary)' browse --cache '\(cache)'
            status=$?; exec 2>&3 3>&-; stty -g > '\(folder)/stty-after'; exit $status
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

    /// Every signal whose default action ends a process and that is no crash (as a closing terminal, a service
    /// manager, Ctrl-\ or a stray `kill -USR1` sends them) restores the terminal, then ends browse by that very
    /// signal: the shell sees status 128 + n. SIGQUIT above all prints no crash report (the Swift runtime's
    /// backtracer catches it by default, draws "Press space to interact…" over the screen and lets browse run on).
    ///
    /// A browse of its own for each signal (some 0.15 s with the debug binary): every one in a full run
    /// (`TestScale`); a sampled run sends a signal of each kind: the terminal's (SIGHUP), the usual stop (SIGTERM),
    /// two whose default is a core dump (SIGQUIT, SIGXCPU), and on Linux one of its own (SIGPWR).
    func testEverySignalThatEndsAProcessRestoresAndEndsBrowseWith128PlusN() throws {
        var signals = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU]
        var sampled = [SIGHUP, SIGQUIT, SIGTERM, SIGXCPU]
        #if os(Linux)
        signals += [SIGIO, SIGPWR, SIGSTKFLT]
        sampled += [SIGPWR]
        #endif
        for signal in TestScale.pick(sampled: sampled, full: signals) {
            let run = try startFromShell()
            run.session.type("dark")
            try run.session.waitUntil("the query typed") { BrowseSupport.prompt($0) == "> dark" }
            XCTAssertEqual(kill(try run.processID(), signal), 0)
            XCTAssertEqual(try run.checkRestored(), 128 + signal, "the status after signal \(signal)")
            let screen = try run.session.captureJoined().joined(separator: "\n")
            for report in ["Crash", "crash", "Backtrac", "Press space", "Thread 0"] {
                XCTAssertFalse(screen.contains(report), "signal \(signal): \(report) on the screen:\n\(screen)")
            }
            run.session.kill()
        }
    }

    /// Ctrl-Z in `browse --print | cat`, run by an interactive shell with job control: the terminal is given back
    /// and the whole pipeline stops (browse and cat both in state T), so that the shell says it stopped and gives
    /// its prompt back; `fg` brings browse back drawn whole, its query kept, and Enter still prints the movie
    /// through cat. (Stopping browse alone left cat running and the shell waiting: a dead terminal.)
    func testControlZStopsTheWholePipelineAndFgRedraws() throws {
        let bash = try Requirement.tool("bash")
        let binary = try ChildProcess.binary()
        let session = try TmuxSession(test: self, ["/usr/bin/env", "PS1=$ ", bash, "--norc", "--noprofile", "-i"],
                                      columns: 100, rows: 16)
        try session.waitUntil("the shell's prompt") { $0.contains("$") }
        let shell = try session.processID()
        session.type("'\(binary)' browse --print --cache '\(cache)' | cat")
        session.press("Enter")
        try session.waitForText("Favorites (0)")
        session.type("dark")
        try session.waitUntil("the query typed") { BrowseSupport.prompt($0) == "> dark" }

        session.press("C-z")
        let stopped = try session.waitUntil("the shell back, the pipeline stopped") {
            $0.contains { $0.contains("Stopped") } && $0.last { !$0.isEmpty } == "$"
        }
        XCTAssertFalse(try session.isAlternateScreenOn(), TmuxSession.framed(stopped))
        // The shell reports the job stopped once every process of it is; polled all the same, as a screen is.
        var states = try Self.childStates(of: shell)
        let deadline = ChildProcess.now() + 5
        while states.values.contains(where: { !$0.hasPrefix("T") }), ChildProcess.now() < deadline {
            usleep(20_000)
            states = try Self.childStates(of: shell)
        }
        XCTAssertEqual(Set(states.keys), ["moviesearch", "cat"], "the shell's children: \(states)")
        XCTAssertTrue(states.values.allSatisfy { $0.hasPrefix("T") }, "both stopped (ps state T): \(states)")

        session.type("fg")
        session.press("Enter")
        try session.waitUntil("browse back with its query") {
            BrowseSupport.prompt($0) == "> dark" && $0[0].contains("Favorites (0)")
                && $0.contains { $0.contains("The Darkest Minds") }
        }
        XCTAssertTrue(try session.isAlternateScreenOn())
        session.type(" kni")
        try session.waitForText("The Dark Knight Rises")
        session.press("Enter")
        try session.waitUntil("the movie printed through cat, then the prompt") {
            $0.contains { $0.hasPrefix("{\"id\":") && $0.contains("Dark Knight") } && $0.last { !$0.isEmpty } == "$"
        }
        XCTAssertFalse(try session.isAlternateScreenOn())
        session.type("exit $?")
        session.press("Enter")
        XCTAssertEqual(try session.waitForExit(), 0, "the pipeline's status (cat's), as the shell saw it")
    }

    /// The `ps` state of each child of `parent`, by command name.
    private static func childStates(of parent: pid_t) throws -> [String: String] {
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-A", "-o", "ppid=,stat=,comm="]
        let output = Pipe()
        ps.standardOutput = output
        try ps.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        ps.waitUntilExit()
        var states: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, pid_t(fields[0]) == parent else { continue }
            states[fields[2].trimmingCharacters(in: .whitespaces)] = String(fields[1])
        }
        return states
    }

    /// Without job control (`setsid`: a new session, no shell to `fg` it), Ctrl-Z is ignored, as fzf does: browse
    /// keeps the screen and goes on answering keys (it used to stop itself for good).
    func testControlZIsIgnoredWithoutJobControl() throws {
        let setsid = try Requirement.tool("setsid", package: "util-linux")
        let binary = try ChildProcess.binary()
        let session = try TmuxSession(test: self, [setsid, "-w", binary, "browse", "--cache", cache],
                                      columns: 100, rows: 16)
        // Should browse stop for good (as it did), it is continued when the test ends, before tmux's SIGHUP.
        let browse = try session.processID()
        addTeardownBlock { kill(browse, SIGCONT) }
        try session.waitForText("Favorites (0)")
        session.type("dark")
        try session.waitUntil("the query typed") { BrowseSupport.prompt($0) == "> dark" }
        session.press("C-z")
        session.type(" kni")
        try session.waitForText("The Dark Knight Rises")
        XCTAssertTrue(try session.isAlternateScreenOn())
        XCTAssertNil(try session.exitStatus())
        session.press("C-c")
        XCTAssertEqual(try session.waitForExit(), 130)
    }

    /// SIGKILL right after Tab, at delays from none to a few milliseconds, several times over: the favorites file
    /// is always absent or whole (`{"version":1,"favorites":[…]}` listing After.Life or nothing), never torn. Ten
    /// kills in a full run (`TestScale`), five in a sampled one (a browse started for each).
    func testSIGKILLRightAfterAToggleLeavesAValidFavoritesFile() throws {
        let binary = try ChildProcess.binary()
        let command = [binary, "browse", "--cache", cache]
        let session = try TmuxSession(test: self, command)
        let file = session.dataHome + "/moviesearch/favorites.json"
        var seen: [[String]] = []
        for delay in TestScale.pick(sampled: [0, 1, 2, 5, 13], full: [0, 0, 1, 1, 2, 3, 5, 8, 13, 20]) {
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
