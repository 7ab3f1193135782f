import Foundation
import XCTest

/// A program running in a real pseudo-terminal: one pane of a private tmux server, driven the way a person at a
/// terminal would (keys in, screen out), for the end-to-end tests of interactive commands.
///
/// Each session starts its own server on its own socket in the test's temporary folder (`tmux -S <socket> -f
/// /dev/null`), so that tests never see each other, a developer's tmux or its configuration; the server is killed
/// when the test ends. The pane is exactly `columns` × `rows` (no status line), its `TERM` is `xterm-256color`, and
/// its environment is the test's, less the variables that change what `moviesearch` reads or shows
/// (`MOVIESEARCH_CACHE`, `FLICKR_API_KEY`, `COLUMNS`, `LINES`, `NO_COLOR`, tmux's own), with `XDG_DATA_HOME` set
/// to a fresh temporary folder (`dataHome`) so that no test reads or writes the developer's favorites, plus what
/// the test passes.
///
/// Keys are sent with `send-keys` and the screen read with `capture-pane`; since the program answers
/// asynchronously, a test never sleeps for it but polls with `waitUntil` until the screen shows what it expects
/// (as fzf's own tests do), and a screen that never comes fails the test with the last one printed.
///
///     let session = try TmuxSession(test: self, [binary, "browse", "--cache", cache])
///     session.type("dark kni")
///     try session.waitForText("The Dark Knight Rises")
///     session.press("C-c")
///     XCTAssertEqual(try session.waitForExit(), 130)
///
/// The program runs under a small `sh` wrapper that writes its process id before it starts (`processID`) and its
/// exit status when it ends (`exitStatus`, as a shell reports it: 128 + n after signal n), then stays in the pane
/// (`sleep`), so that nothing is written over the screen the program left. tmux's own `remain-on-exit` and
/// `#{pane_dead_status}` are not used: tmux 3.3a sometimes never reaps a pane's program that ended (the pane shows
/// dead with no status, the process stays a zombie), seen here about one time in four.
///
/// Without tmux on the machine the test is skipped with a message, or fails when the environment variable `CI` is
/// set (`Requirement.tool`).
package final class TmuxSession {
    /// A tmux command that failed, or a screen that never came.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The folder given to the pane as `XDG_DATA_HOME` (favorites go to `moviesearch/favorites.json` in it).
    package let dataHome: String
    /// The pane's size, as last set.
    package private(set) var columns: Int
    package private(set) var rows: Int

    private let tmux: String
    private let socket: String
    private let folder: String
    private let environment: [String: String]
    private var killed = false
    /// How many programs the pane has run (`respawn` starts the next); names their pid and status files.
    private var generation = 0
    /// The one pane: session `t`, its only window and pane.
    private let target = "t:"

    /// Starts `command` (an executable and its arguments, run without a shell of its own) in a new `columns` ×
    /// `rows` pane of a private tmux server, killed when `test` ends. `environment` is added to the pane's (see the
    /// type's doc).
    package init(test: XCTestCase, _ command: [String], environment: [String: String] = [:], columns: Int = 80,
                 rows: Int = 24) throws {
        tmux = try Requirement.tool("tmux")
        folder = try TestPaths.temporaryFolder(test).path
        dataHome = folder + "/data-home"
        try FileManager.default.createDirectory(atPath: dataHome, withIntermediateDirectories: true)
        socket = folder + "/tmux"
        try Data(Self.wrapper.utf8).write(to: URL(fileURLWithPath: folder + "/run.sh"))
        var merged = ProcessInfo.processInfo.environment
        for name in ["MOVIESEARCH_CACHE", "FLICKR_API_KEY", "COLUMNS", "LINES", "NO_COLOR", "TMUX", "TMUX_PANE",
                     "TMUX_TMPDIR"] {
            merged[name] = nil
        }
        merged["XDG_DATA_HOME"] = dataHome
        merged.merge(ChildProcess.offlineVariables) { $1 }
        merged.merge(environment) { $1 }
        self.environment = merged
        self.columns = columns
        self.rows = rows
        // Registered after the temporary folder's removal, so run before it (teardown blocks run last first).
        let tmux = tmux, socket = socket, serverEnvironment = merged
        test.addTeardownBlock { Self.killServer(tmux: tmux, socket: socket, environment: serverEnvironment) }
        // The server takes its global environment from this first client.
        try run(["set-option", "-g", "default-terminal", "xterm-256color", ";",
                 "set-option", "-g", "status", "off", ";",
                 "set-option", "-g", "history-limit", "0", ";",
                 "new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "\(rows)", "--"] + wrapped(command))
    }

    /// The wrapper every program runs in: `$1` the pid file, `$2` the status file, then the command. Its own
    /// SIGINT is caught (not ignored, which the command would inherit), so that a Ctrl-C meant for the command does
    /// not end the wrapper before it writes the status. The status file appears whole (rename).
    private static let wrapper = """
        pid=$1 status=$2
        shift 2
        trap : INT
        sh -c 'echo $$ > "$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$pid" "$@"
        echo $? > "$status.tmp" && mv "$status.tmp" "$status"
        exec sleep 600

        """

    private func wrapped(_ command: [String]) -> [String] {
        ["/bin/sh", folder + "/run.sh", pidFile, statusFile] + command
    }

    private var pidFile: String { folder + "/pid-\(generation)" }
    private var statusFile: String { folder + "/status-\(generation)" }

    deinit { kill() }

    // MARK: Keys

    /// Types `text` as it is (UTF-8, no key names), as if pasted key by key.
    package func type(_ text: String) {
        send(["-l", "--", text])
    }

    /// Presses keys by tmux name, one after another: `Enter`, `Escape`, `Tab`, `BTab`, `BSpace`, `Up`, `Down`,
    /// `Left`, `Right`, `Home`, `End`, `PPage`, `NPage`, `DC` (delete), `C-t`, `C-c`, …
    package func press(_ keys: String...) {
        press(keys)
    }

    /// Presses keys by tmux name, one after another (see `press(_:)`).
    package func press(_ keys: [String]) {
        send(["--"] + keys)
    }

    /// Pastes `text` as a terminal does: in bracketed-paste markers when the program asked for them (`ESC[?2004h`).
    package func paste(_ text: String) {
        do {
            try run(["set-buffer", "-b", "test", "--", text])
            try run(["paste-buffer", "-p", "-d", "-b", "test", "-t", target])
        } catch { XCTFail("\(error)") }
    }

    private func send(_ arguments: [String]) {
        // tmux reads an argument ending in `;` as the end of a command; `\;` stands for the `;` itself.
        let escaped = arguments.map { $0.hasSuffix(";") ? $0.dropLast() + "\\;" : $0 }
        do { try run(["send-keys", "-t", target] + escaped) } catch { XCTFail("\(error)") }
    }

    // MARK: Screen

    /// The screen as text: exactly `rows` lines, trailing blanks dropped, no attributes.
    package func capture() throws -> [String] {
        try lines(of: run(["capture-pane", "-p", "-t", target]))
    }

    /// The screen with its attributes as SGR sequences (`capture-pane -e`), one string per line; `StyledLine`
    /// reads them.
    package func captureWithAttributes() throws -> [String] {
        try lines(of: run(["capture-pane", "-p", "-e", "-t", target]))
    }

    /// The screen's lines with the ones the terminal wrapped (a line written past the right edge) joined
    /// (`capture-pane -J`): fewer than `rows` when something wrapped.
    package func captureJoined() throws -> [String] {
        try lines(of: run(["capture-pane", "-p", "-J", "-t", target]))
    }

    private func lines(of output: String) -> [String] {
        var lines = output.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Where the cursor is (0-based column and row) and whether it is shown.
    package func cursor() throws -> (column: Int, row: Int, visible: Bool) {
        let fields = try format("#{cursor_x} #{cursor_y} #{cursor_flag}").split(separator: " ")
        guard fields.count == 3, let column = Int(fields[0]), let row = Int(fields[1]) else {
            throw Failure(description: "unexpected cursor format: \(fields)")
        }
        return (column, row, fields[2] == "1")
    }

    /// Whether the pane shows the alternate screen (`ESC[?1049h` and not yet `l`).
    package func isAlternateScreenOn() throws -> Bool {
        try format("#{alternate_on}") == "1"
    }

    /// Resizes the pane to `columns` × `rows` (the program gets SIGWINCH).
    package func resize(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", target, "-x", "\(columns)", "-y", "\(rows)"])
        self.columns = columns
        self.rows = rows
    }

    /// Polls the screen every 20 ms (each poll runs a tmux client: polling every 10 ms saved time on an idle machine,
    /// not on a loaded one) until `condition` holds for its lines, and returns them. When `timeout` seconds pass
    /// first, fails the test at the caller's line with `what` and the last screen, and throws.
    @discardableResult
    package func waitUntil(_ what: String, timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line,
                           _ condition: ([String]) throws -> Bool) throws -> [String] {
        let deadline = ChildProcess.now() + timeout
        while true {
            let screen = try capture()
            if try condition(screen) { return screen }
            if ChildProcess.now() > deadline {
                let state = try exitStatus().map { "the program ended with status \($0)" } ?? "the program runs"
                XCTFail("waited \(timeout) s for: \(what); \(state); the screen was:\n\(Self.framed(screen))",
                        file: file, line: line)
                throw Failure(description: "gave up waiting for: \(what)")
            }
            usleep(20_000)
        }
    }

    /// Waits until some line of the screen contains `text`; returns the screen.
    @discardableResult
    package func waitForText(_ text: String, timeout: Double = 5, file: StaticString = #filePath,
                             line: UInt = #line) throws -> [String] {
        try waitUntil("a line containing \(text.debugDescription)", timeout: timeout, file: file, line: line) {
            $0.contains { $0.contains(text) }
        }
    }

    /// `screen` between rulers, one line per line, for failure messages.
    package static func framed(_ screen: [String]) -> String {
        let ruler = String(repeating: "─", count: 20)
        return ([ruler] + screen.map { "│\($0)" } + [ruler]).joined(separator: "\n")
    }

    // MARK: The program

    /// The program's exit status as a shell reports it (128 + n when signal n ended it), or nil while it runs.
    package func exitStatus() throws -> Int32? {
        guard let text = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return nil }
        guard let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "unreadable status file: \(text.debugDescription)")
        }
        return status
    }

    /// Polls until the program has ended (failing the test and throwing after `timeout` seconds), and returns its
    /// exit status (see `exitStatus`).
    @discardableResult
    package func waitForExit(timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line) throws -> Int32 {
        let deadline = ChildProcess.now() + timeout
        while true {
            if let status = try exitStatus() { return status }
            if ChildProcess.now() > deadline {
                XCTFail("the program still runs after \(timeout) s; the screen is:\n\(Self.framed(try capture()))",
                        file: file, line: line)
                throw Failure(description: "the program did not end")
            }
            usleep(5_000)
        }
    }

    /// The process id of the program (`command` itself, not its wrapper), waiting for it to start.
    package func processID(file: StaticString = #filePath, line: UInt = #line) throws -> pid_t {
        let deadline = ChildProcess.now() + 5
        while true {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
               let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            if ChildProcess.now() > deadline {
                XCTFail("the program never started", file: file, line: line)
                throw Failure(description: "no process id")
            }
            usleep(5_000)
        }
    }

    /// Replaces the pane's program (killing it if it still runs) with `command`; the screen is cleared.
    package func respawn(_ command: [String]) throws {
        generation += 1
        try run(["respawn-pane", "-k", "-t", target, "--"] + wrapped(command))
        try run(["clear-history", "-t", target])
    }

    /// Kills the server and with it the pane's program (it gets SIGHUP). Called when the test ends; safe twice.
    package func kill() {
        guard !killed else { return }
        killed = true
        Self.killServer(tmux: tmux, socket: socket, environment: environment)
    }

    private static func killServer(tmux: String, socket: String, environment: [String: String]) {
        _ = try? run(tmux: tmux, socket: socket, environment: environment, ["kill-server"])
        // tmux leaves its socket behind.
        try? FileManager.default.removeItem(atPath: socket)
    }

    // MARK: tmux

    private func format(_ format: String) throws -> String {
        var output = try run(["display-message", "-p", "-t", target, format])
        if output.hasSuffix("\n") { output.removeLast() }
        return output
    }

    /// Runs one tmux client command on this session's server and returns its standard output.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        try Self.run(tmux: tmux, socket: socket, environment: environment, arguments)
    }

    private static func run(tmux: String, socket: String, environment: [String: String],
                            _ arguments: [String]) throws -> String {
        // Output to files, and the client started and waited for with posix_spawn and waitpid rather than
        // Foundation's Process: the command that starts the server forks it with the client's descriptors, and
        // Process (which learns of its child's end through a descriptor the child inherits) or a pipe would wait
        // for the server's end too.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviesearch-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputPath = folder.appendingPathComponent("stdout").path
        let errorPath = folder.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([tmux, "-S", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // No signal blocked or ignored: the server inherits them, and one that never sees SIGCHLD never learns the
        // exit status of the pane's program.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid = pid_t()
        let spawned = posix_spawn(&pid, tmux, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot start \(tmux): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(description: "waitpid failed: errno \(errno)") }
        }
        let errorText = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        // Exited (low 7 bits zero) with status 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (wait status \(status)): "
                          + errorText)
        }
        return String(decoding: try Data(contentsOf: URL(fileURLWithPath: outputPath)), as: UTF8.self)
    }
}

extension TmuxSession {
    /// One line of `captureWithAttributes`, read: its text and, for each character, its attributes.
    ///
    /// Understands the SGR sequences tmux writes: `0` reset, `1` bold, `2` dim, `22` neither, `7`/`27` reverse,
    /// foreground and background colors (`30`–`37`, `90`–`97`, `40`–`47`, `100`–`107`, `38`/`48` with their `5;n`
    /// or `2;r;g;b` arguments) and their defaults `39`/`49`; other attributes are skipped, other escape sequences
    /// dropped.
    package struct StyledLine {
        /// The attributes of one character.
        package struct Attributes: Equatable {
            package var bold = false
            /// Dim (faint) text, SGR 2.
            package var dim = false
            package var reverse = false
            /// A foreground or background color other than the terminal's default.
            package var colored: Bool { foreground || background }
            var foreground = false
            var background = false

            /// The terminal's default: no attribute.
            package init() {}
        }

        /// The line without its escape sequences.
        package private(set) var text = ""
        /// The attributes of each `Character` of `text`.
        package private(set) var attributes: [Attributes] = []
        /// Whether each `Character` of `text` is bold.
        package var bold: [Bool] { attributes.map(\.bold) }
        /// The attributes in force at the end of the line, after its last sequence.
        package private(set) var endAttributes = Attributes()

        /// One captured line read on its own, from the terminal's default attributes. A line of a whole capture
        /// may go on in the attributes of the line above it: read those with `screen(_:)`.
        package init(_ captured: String) {
            self.init(captured, startingWith: Attributes())
        }

        /// The lines of a whole capture (`captureWithAttributes`), read in order: tmux writes each cell's
        /// attributes as a change from the cell before it, the last cell of the line above included, so that a
        /// line that starts without a sequence (the second line of a selected row, in reverse video) goes on in
        /// the attributes the line above ended in.
        package static func screen(_ captured: [String]) -> [StyledLine] {
            var carried = Attributes()
            return captured.map { text in
                let line = StyledLine(text, startingWith: carried)
                carried = line.endAttributes
                return line
            }
        }

        /// `captured` read from the attributes `start`.
        package init(_ captured: String, startingWith start: Attributes) {
            var current = start
            let characters = Array(captured)
            var index = 0
            while index < characters.count {
                let character = characters[index]
                guard character == "\u{1B}" else {
                    text.append(character)
                    attributes.append(current)
                    index += 1
                    continue
                }
                // ESC [ parameters final-byte
                guard index + 1 < characters.count, characters[index + 1] == "[" else {
                    index += 2
                    continue
                }
                var end = index + 2
                while end < characters.count, !(characters[end].asciiValue.map { (0x40...0x7E).contains($0) } ?? false) {
                    end += 1
                }
                if end < characters.count, characters[end] == "m" {
                    Self.apply(String(characters[(index + 2)..<end]), to: &current)
                }
                index = end + 1
            }
            endAttributes = current
        }

        private static func apply(_ parameters: String, to attributes: inout Attributes) {
            let values = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
            var position = 0
            while position < values.count {
                switch values[position] {
                case 0: attributes = Attributes()
                case 1: attributes.bold = true
                case 2: attributes.dim = true
                case 22:
                    attributes.bold = false
                    attributes.dim = false
                case 7: attributes.reverse = true
                case 27: attributes.reverse = false
                case 30...37, 90...97: attributes.foreground = true
                case 39: attributes.foreground = false
                case 40...47, 100...107: attributes.background = true
                case 49: attributes.background = false
                case 38, 48:
                    if values[position] == 38 { attributes.foreground = true } else { attributes.background = true }
                    // Extended color: skip its arguments.
                    if position + 1 < values.count {
                        position += values[position + 1] == 5 ? 2 : values[position + 1] == 2 ? 4 : 0
                    }
                default: break
                }
                position += 1
            }
        }

        /// Whether every character of the first occurrence of `part` at or after character `from` is bold
        /// (`bold: true`) or none is (`bold: false`); false when `part` is not there.
        package func isAll(bold wanted: Bool, _ part: String, from: Int = 0) -> Bool {
            guard let start = range(of: part, from: from) else { return false }
            return attributes[start..<(start + part.count)].allSatisfy { $0.bold == wanted }
        }

        /// The character offset of the first occurrence of `part` at or after `from`, if any.
        package func range(of part: String, from: Int = 0) -> Int? {
            let characters = Array(text), wanted = Array(part)
            guard !wanted.isEmpty, characters.count >= wanted.count, from <= characters.count - wanted.count else {
                return nil
            }
            for start in from...(characters.count - wanted.count)
            where Array(characters[start..<(start + wanted.count)]) == wanted {
                return start
            }
            return nil
        }
    }
}
