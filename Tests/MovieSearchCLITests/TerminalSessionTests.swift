#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MovieSearch
import TestSupport
@testable import MovieSearchCLI
import XCTest

/// `TerminalSession` on a real pseudo-terminal: raw mode in and out, the screen codes, keys, signals, hang-up.
final class TerminalSessionTests: XCTestCase {
    private func session(_ terminal: PseudoTerminal) -> TerminalSession {
        TerminalSession(input: terminal.slave, output: terminal.slave, ownsDescriptors: false)
    }

    /// The handler of `signal` now, as a number (0: default, 1: ignored, else a function).
    private func handler(of signal: Int32) -> Int {
        var current = sigaction()
        XCTAssertEqual(sigaction(signal, nil, &current), 0)
        #if canImport(Darwin)
        return unsafeBitCast(current.__sigaction_u.__sa_handler, to: Int.self)
        #else
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
        #endif
    }

    func testEnterSetsRawModeAndRestorePutsBackTheSettingsExactly() throws {
        let terminal = try PseudoTerminal()
        terminal.makeSettingsUnusual()
        let before = terminal.settingsBytes()
        let original = try Syscalls.terminalSettings(terminal.slave).get()
        XCTAssertTrue(original.echoes && original.isCanonical && original.sendsSignals && original.mapsReturnToNewline)

        let session = session(terminal)
        try session.enter()
        XCTAssertTrue(session.isEntered)
        let raw = try Syscalls.terminalSettings(terminal.slave).get()
        XCTAssertFalse(raw.echoes, "no echo")
        XCTAssertFalse(raw.isCanonical, "no line mode")
        XCTAssertFalse(raw.sendsSignals, "Ctrl-C is a key")
        XCTAssertFalse(raw.hasFlowControl, "Ctrl-S and Ctrl-Q are keys")
        XCTAssertFalse(raw.mapsReturnToNewline, "Enter stays CR, apart from Ctrl-J")
        XCTAssertNotEqual(terminal.settingsBytes(), before)

        session.restore()
        XCTAssertFalse(session.isEntered)
        XCTAssertEqual(terminal.settingsBytes(), before, "termios byte for byte")
        session.restore()
        XCTAssertEqual(terminal.settingsBytes(), before, "a second restore changes nothing")

        let output = terminal.output()
        XCTAssertEqual(output, session.enterSequence + session.restoreSequence,
                       "the alternate screen in and out, written once each")
        XCTAssertTrue(String(decoding: session.enterSequence, as: UTF8.self).hasPrefix("\u{1B}[?1049h"))
        XCTAssertTrue(String(decoding: session.restoreSequence, as: UTF8.self).hasSuffix("\u{1B}[?25h\u{1B}[?1049l"),
                      "cursor shown, then the main screen (and its cursor) back")
    }

    func testDeinitRestoresTheTerminal() throws {
        let terminal = try PseudoTerminal()
        let before = terminal.settingsBytes()
        do {
            let session = session(terminal)
            try session.enter()
            XCTAssertNotEqual(terminal.settingsBytes(), before)
        }
        XCTAssertEqual(terminal.settingsBytes(), before)
        XCTAssertTrue(String(decoding: terminal.output(), as: UTF8.self).hasSuffix("\u{1B}[?1049l"))
    }

    func testRestorePutsBackTheSignalDispositions() throws {
        let terminal = try PseudoTerminal()
        let signals = [SIGWINCH, SIGTSTP] + Syscalls.Signal.terminating
        let previousHangUp = signal(SIGHUP, SIG_IGN)
        defer { signal(SIGHUP, previousHangUp) }
        let before = signals.map(handler(of:))
        XCTAssertEqual(handler(of: SIGHUP), 1, "SIGHUP ignored before")

        let session = session(terminal)
        try session.enter()
        for signal in signals {
            XCTAssertGreaterThan(handler(of: signal), 1, "signal \(signal) caught while entered")
        }
        session.restore()
        XCTAssertEqual(signals.map(handler(of:)), before)
        XCTAssertEqual(handler(of: SIGHUP), 1, "SIGHUP ignored again, as it was")
    }

    func testKeysAreReadAndDecoded() throws {
        let terminal = try PseudoTerminal()
        let session = session(terminal)
        try session.enter()
        defer { session.restore() }
        terminal.type("dark\u{1B}[A\r\u{03}")
        XCTAssertEqual(try session.nextEvent(), .key(.text("dark")))
        XCTAssertEqual(try session.nextEvent(), .key(.up))
        XCTAssertEqual(try session.nextEvent(), .key(.enter), "CR, not turned into LF")
        XCTAssertEqual(try session.nextEvent(), .key(.control("c")), "Ctrl-C is a key, not SIGINT")
    }

    func testALoneEscapeComesAfterTheDelay() throws {
        let terminal = try PseudoTerminal()
        let session = session(terminal)
        try session.enter()
        defer { session.restore() }
        terminal.type("\u{1B}")
        XCTAssertEqual(try session.nextEvent(), .key(.escape))
        terminal.type("x")
        XCTAssertEqual(try session.nextEvent(), .key(.text("x")))
    }

    /// A paste the terminal writes in two pieces 100 ms apart (far past the 25 ms Esc wait) is one text: the rest
    /// is not decoded as keys (the CR as Enter, the tab as Tab, `1~` as text).
    func testAPasteInTwoPiecesFarApartIsOneText() throws {
        let terminal = try PseudoTerminal()
        let session = session(terminal)
        try session.enter()
        defer { session.restore() }
        terminal.type("\u{1B}[200~dark\r")
        let master = terminal.master
        let rest = Array("\tknight\u{1B}[201~".utf8)
        Thread.detachNewThread {
            usleep(100_000)
            _ = rest.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
        XCTAssertEqual(try session.nextEvent(), .key(.text("dark  knight")))
        terminal.type("\r")
        XCTAssertEqual(try session.nextEvent(), .key(.enter), "the first Enter is the one typed after the paste")
    }

    /// A SIGTSTP (`kill -TSTP`) gives the terminal back (main screen, original settings) before the process
    /// stops, takes it again once continued, and comes back as `.resize`. The stop itself is replaced here by a
    /// look at the terminal at that moment.
    func testSIGTSTPGivesTheTerminalBackWhileStoppedAndComesBackAsResize() throws {
        let terminal = try PseudoTerminal()
        terminal.makeSettingsUnusual()
        let before = terminal.settingsBytes()
        let session = session(terminal)
        session.detectsJobControl = { _ in true }
        try session.enter()
        defer { session.restore() }
        let raw = terminal.settingsBytes()
        XCTAssertEqual(terminal.output(), session.enterSequence)
        var whileStopped: (settings: [UInt8], output: [UInt8])?
        session.stopProcess = { whileStopped = (terminal.settingsBytes(), terminal.output()) }

        guard handler(of: SIGTSTP) > 1 else { return XCTFail("SIGTSTP not caught") }
        XCTAssertEqual(raise(SIGTSTP), 0)
        XCTAssertEqual(try session.nextEvent(), .resize, "draw everything again")
        XCTAssertEqual(whileStopped?.settings, before, "the original settings while stopped: echo, line mode")
        XCTAssertEqual(whileStopped?.output, session.restoreSequence, "the main screen back while stopped")
        XCTAssertEqual(terminal.settingsBytes(), raw, "raw mode again once continued")
        XCTAssertEqual(terminal.output(), session.enterSequence, "the alternate screen again")
        XCTAssertTrue(session.isEntered)
        terminal.type("q")
        XCTAssertEqual(try session.nextEvent(), .key(.text("q")))

        session.restore()
        XCTAssertEqual(terminal.settingsBytes(), before)
    }

    /// `suspend()`, which the driver calls on Ctrl-Z: the same, and the `.resize` comes before keys read already.
    func testSuspendStopsAndTheNextEventIsResize() throws {
        let terminal = try PseudoTerminal()
        let before = terminal.settingsBytes()
        let session = session(terminal)
        session.detectsJobControl = { _ in true }
        try session.suspend()
        XCTAssertTrue(terminal.output().isEmpty, "not entered: nothing to do")
        try session.enter()
        defer { session.restore() }
        terminal.type("a\u{1A}b")
        XCTAssertEqual(try session.nextEvent(), .key(.text("a")))
        XCTAssertEqual(try session.nextEvent(), .key(.control("z")))
        _ = terminal.output()
        var stops = 0
        var settingsWhileStopped: [UInt8]?
        session.stopProcess = {
            stops += 1
            settingsWhileStopped = terminal.settingsBytes()
        }
        try session.suspend()
        XCTAssertEqual(stops, 1)
        XCTAssertEqual(settingsWhileStopped, before)
        XCTAssertEqual(terminal.output(), session.restoreSequence + session.enterSequence)
        XCTAssertEqual(try session.nextEvent(), .resize, "before the key read with Ctrl-Z")
        XCTAssertEqual(try session.nextEvent(), .key(.text("b")))
    }

    /// Without job control nothing could continue a stopped process, so `suspend()` (Ctrl-Z) and SIGTSTP do
    /// nothing: the terminal is kept, no stop, no `.resize`. A pseudo-terminal opened here is not the controlling
    /// terminal of the test process, which `Syscalls.hasJobControl` sees (as with `setsid`). (The real stop of
    /// the process group is tested end to end: `BrowseQuitEndToEndTests`.)
    func testWithoutJobControlSuspendAndSIGTSTPAreIgnored() throws {
        let terminal = try PseudoTerminal()
        let session = session(terminal)
        try session.enter()
        defer { session.restore() }
        XCTAssertFalse(session.hasJobControl)
        let raw = terminal.settingsBytes()
        _ = terminal.output()
        var stops = 0
        session.stopProcess = { stops += 1 }
        try session.suspend()
        guard handler(of: SIGTSTP) > 1 else { return XCTFail("SIGTSTP not caught") }
        XCTAssertEqual(raise(SIGTSTP), 0)
        terminal.type("x")
        XCTAssertEqual(try session.nextEvent(), .key(.text("x")), "no .resize: nothing was given back")
        XCTAssertEqual(stops, 0)
        XCTAssertEqual(terminal.settingsBytes(), raw, "still raw")
        XCTAssertTrue(terminal.output().isEmpty, "the alternate screen never left")
    }

    /// The `select` wait that Apple systems use (their `poll` does not support terminals), run here on Linux:
    /// the hand-set `fd_set` bits find the descriptor that can be read, the timeout ends the wait.
    func testTheSelectWaitFindsReadableDescriptorsAndTimesOut() throws {
        #if _endian(little)
        let terminal = try PseudoTerminal()
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        defer { ends.forEach { close($0) } }
        XCTAssertEqual(try Syscalls.waitUntilReadableWithSelect([terminal.slave, ends[0]], timeoutMilliseconds: 30)
            .get(), [false, false], "nothing to read: the timeout ends the wait")
        terminal.type("x\n")  // a whole line: the terminal is in line mode here
        XCTAssertEqual(try Syscalls.waitUntilReadableWithSelect([terminal.slave, ends[0]], timeoutMilliseconds: -1)
            .get(), [true, false])
        var byte: UInt8 = 1
        XCTAssertEqual(write(ends[1], &byte, 1), 1)
        XCTAssertEqual(try Syscalls.waitUntilReadableWithSelect([ends[0]], timeoutMilliseconds: 1000).get(), [true])
        XCTAssertEqual(try Syscalls.waitUntilReadableWithSelect([ends[0], terminal.slave], timeoutMilliseconds: 0)
            .get(), [true, true])
        XCTAssertThrowsError(try Syscalls.waitUntilReadableWithSelect([4096], timeoutMilliseconds: 0).get(),
                             "past FD_SETSIZE: an error, not a write past the fd_set")
        #else
        throw XCTSkip("the hand-set fd_set bits match glibc's only on a little-endian machine")
        #endif
    }

    func testSIGWINCHComesAsResizeWithTheNewSize() throws {
        let terminal = try PseudoTerminal()
        let session = session(terminal)
        try session.enter()
        defer { session.restore() }
        XCTAssertEqual(session.size.columns, 80)
        XCTAssertEqual(session.size.rows, 24)
        terminal.setSize(columns: 100, rows: 30)
        // `raise` runs the handler before it returns, so the byte is in the self-pipe when nextEvent polls.
        XCTAssertEqual(raise(SIGWINCH), 0)
        XCTAssertEqual(raise(SIGWINCH), 0)
        XCTAssertEqual(try session.nextEvent(), .resize, "two SIGWINCH not read yet are one resize")
        XCTAssertEqual(session.size.columns, 100)
        XCTAssertEqual(session.size.rows, 30)
        terminal.type("q")
        XCTAssertEqual(try session.nextEvent(), .key(.text("q")), "no second resize")
    }

    func testTerminatingSignalsComeAsTerminate() throws {
        let terminal = try PseudoTerminal()
        let session = session(terminal)
        try session.enter()
        defer { session.restore() }
        for signal in [SIGTERM, SIGHUP, SIGINT] {
            // Only raised with our handler in place: the default would end the test run.
            guard handler(of: signal) > 1 else { return XCTFail("signal \(signal) not caught") }
            XCTAssertEqual(raise(signal), 0)
            XCTAssertEqual(try session.nextEvent(), .terminate(signal: signal))
        }
        XCTAssertEqual(raise(SIGWINCH), 0)
        XCTAssertEqual(raise(SIGTERM), 0)
        XCTAssertEqual(try session.nextEvent(), .terminate(signal: SIGTERM), "termination before a resize")
    }

    func testAHungUpTerminalComesAsTerminate() throws {
        let terminal = try PseudoTerminal()
        let session = session(terminal)
        try session.enter()
        defer { session.restore() }
        terminal.closeMaster()
        XCTAssertEqual(try session.nextEvent(), .terminate(signal: SIGHUP))
    }

    func testWriteReachesTheTerminalAsGiven() throws {
        let terminal = try PseudoTerminal()
        let session = session(terminal)
        var writer = FrameWriter(withColor: true)
        let frame = writer.frame(Screen(lines: [ScreenLine("> dark kni"), ScreenLine("2012 · 1 match")],
                                        cursor: .init(row: 0, column: 10)))
        try session.write(frame)
        XCTAssertEqual(terminal.output(), frame)
    }

    func testOpenFindsATerminalOrSaysThereIsNone() throws {
        let terminal = try PseudoTerminal()
        let opened = try TerminalSession.open(device: FilePath(terminal.slavePath), input: -1, output: -1)
        XCTAssertNotEqual(opened.inputDescriptor, terminal.slave, "its own descriptor on the device")
        XCTAssertEqual(opened.inputDescriptor, opened.outputDescriptor)

        let fallback = try TerminalSession.open(device: FilePath("/nonexistent/tty"), input: terminal.slave,
                                                output: terminal.slave)
        XCTAssertEqual(fallback.inputDescriptor, terminal.slave, "standard input and output when both are terminals")

        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        defer { ends.forEach { close($0) } }
        XCTAssertThrowsError(try TerminalSession.open(device: FilePath("/nonexistent/tty"), input: ends[0],
                                                      output: terminal.slave)) { error in
            XCTAssertEqual(error as? TerminalError, .noTerminal)
        }
        XCTAssertThrowsError(try TerminalSession.open(device: FilePath("/dev/null"), input: terminal.slave,
                                                      output: ends[1])) { error in
            XCTAssertEqual(error as? TerminalError, .noTerminal, "/dev/null opens but is no terminal")
        }
        let message = TerminalError.noTerminal.description
        XCTAssertTrue(message.hasPrefix("browse needs a terminal"))
        XCTAssertTrue(message.contains("query --stdin"))
        XCTAssertFalse(message.contains("\n"))
    }
}
