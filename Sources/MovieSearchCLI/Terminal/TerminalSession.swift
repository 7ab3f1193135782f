import MovieSearchPlatform

/// The terminal `browse` runs on: raw mode, the alternate screen, the keys typed and the signals that matter, as
/// fzf's light renderer does it.
///
///     let terminal = try TerminalSession.open()   // /dev/tty, so that stdout stays free for `--print`
///     try terminal.enter()
///     defer { terminal.restore() }                 // also when an error is thrown
///     var writer = FrameWriter(withColor: true)
///     try terminal.write(writer.frame(model.screen(columns: terminal.size.columns, rows: terminal.size.rows)))
///     loop: while true {
///         switch try terminal.nextEvent() {
///         case let .key(key): …                     // model.handle(key), then write the next frame
///         case .resize: writer.invalidate(); …      // redraw everything at the new size (also after a stop)
///         case let .terminate(signal): …            // restore, then end by the signal (Syscalls.endProcess)
///         }
///     }
///
/// `enter()` saves the terminal's settings and puts it in raw mode (no echo, no line editing, no signals from
/// Ctrl-C or Ctrl-Z, no Ctrl-S/Ctrl-Q flow control, CR kept as CR), switches to the alternate screen (so that what
/// was on the screen comes back untouched), turns line wrapping off (a row never wraps into the next one, even if a
/// terminal measures a character wider than we did) and bracketed paste on. SIGWINCH, SIGTSTP and every signal
/// whose default ends the process without being a crash (`Syscalls.Signal.terminating`: SIGHUP, SIGINT, SIGQUIT,
/// SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, …) are caught into a self-pipe that `nextEvent()` waits on with the
/// terminal; one of the latter comes as `.terminate(signal:)`, and the driver restores the terminal, then ends the
/// process by that signal (`Syscalls.endProcess(bySignal:)`). `restore()` undoes all of it, in the reverse order,
/// and `deinit` calls it too. A crash (a trap) or SIGKILL cannot restore anything; `reset` or `stty sane` then does.
///
/// Job control: a SIGTSTP (`kill -TSTP`), or `suspend()` (which the driver calls on Ctrl-Z, a key in raw mode),
/// gives the terminal back as `restore()` does (main screen, original settings), stops the whole process group
/// (`Syscalls.stopProcessGroup`: the other programs of a pipeline too, so that the shell gets the terminal
/// back), and once the shell continues it (`fg`) takes the terminal again (raw mode, alternate screen) and has the
/// next event be `.resize`, so that the driver draws the whole screen again. The signal handlers stay in place
/// meanwhile: a SIGTERM sent while stopped is seen once continued. Without job control (`setsid`, a shell
/// without it, SIGTSTP ignored by the parent: `Syscalls.hasJobControl`), nothing could continue the process, so
/// Ctrl-Z and SIGTSTP are ignored, as fzf does.
///
/// Not thread-safe: one thread reads events, draws and restores.
final class TerminalSession {
    /// Where keys are read from and settings are changed.
    let inputDescriptor: Int32
    /// Where frames are written.
    let outputDescriptor: Int32
    /// Whether bracketed paste is turned on, so that a paste comes as one `.text` rather than as keys.
    let bracketedPaste: Bool
    /// Whether the descriptors were opened here (`/dev/tty`) and are closed with the session.
    private let ownsDescriptors: Bool

    /// The settings before `enter()`, to put back; `nil` when not entered.
    private var savedSettings: Syscalls.TerminalSettings?
    /// The signal dispositions before `enter()`, to put back.
    private var savedSignals: [Syscalls.SavedSignalAction] = []
    /// The self-pipe the signal handler writes to while entered.
    private var signalPipe: (read: Int32, write: Int32)?
    /// The read end of a non-blocking pipe that other threads write a byte to when they have something to show
    /// (`browse`'s background photo fetches): `nextEvent()` returns `.wake` for it. Set by the owner, who closes it.
    var wakeDescriptor: Int32?
    private var decoder = KeyDecoder()
    /// Events decoded and not returned yet (one read can hold several keys).
    private var queued: [TerminalEvent] = []
    private var queuedStart = 0

    /// The signals caught while entered.
    private static var caughtSignals: [Int32] {
        [Syscalls.Signal.windowChanged, Syscalls.Signal.suspend] + Syscalls.Signal.terminating
    }

    /// Whether the session is entered: between `enter()` and `restore()`, stopped or not.
    private(set) var isEntered = false
    /// Whether the terminal is in raw mode and on the alternate screen: entered and not stopped by `suspend()`.
    private var holdsTerminal = false

    /// How `suspend()` stops the process: `Syscalls.stopProcessGroup`; tests put a function that looks at the
    /// terminal in its place, so that the test process is not stopped.
    var stopProcess: () -> Void = { Syscalls.stopProcessGroup() }
    /// Whether the process may stop for job control on its terminal, asked by `enter()` before it catches
    /// SIGTSTP: `Syscalls.hasJobControl`; tests of `suspend()` put `{ _ in true }` in its place.
    var detectsJobControl: (Int32) -> Bool = { Syscalls.hasJobControl(terminal: $0) }
    /// Whether `suspend()` stops the process (see `detectsJobControl`); false until entered.
    private(set) var hasJobControl = false

    /// The terminal of this process: `/dev/tty` for input and output, as fzf does, so that standard output can be a
    /// pipe (`browse --print | jq`); else standard input and output when both are terminals.
    ///
    /// - Throws: `TerminalError.noTerminal` when there is none (the caller exits 2 with its message).
    static func open() throws(TerminalError) -> TerminalSession {
        try open(device: FilePath("/dev/tty"), input: Syscalls.standardInput, output: Syscalls.standardOutput)
    }

    /// `open()` with the device and the fallback descriptors named, for tests.
    static func open(device: FilePath, input: Int32, output: Int32) throws(TerminalError) -> TerminalSession {
        if case let .success(descriptor) = Syscalls.openTerminal(device) {
            if Syscalls.isTerminal(descriptor) {
                return TerminalSession(input: descriptor, output: descriptor, ownsDescriptors: true)
            }
            Syscalls.closeDescriptor(descriptor)
        }
        guard Syscalls.isTerminal(input), Syscalls.isTerminal(output) else { throw .noTerminal }
        return TerminalSession(input: input, output: output, ownsDescriptors: false)
    }

    /// A session on descriptors already open (a pseudo-terminal in tests); with `ownsDescriptors`, they are closed
    /// with the session.
    init(input: Int32, output: Int32, ownsDescriptors: Bool, bracketedPaste: Bool = true) {
        self.inputDescriptor = input
        self.outputDescriptor = output
        self.ownsDescriptors = ownsDescriptors
        self.bracketedPaste = bracketedPaste
    }

    deinit {
        restore()
        if ownsDescriptors {
            Syscalls.closeDescriptor(inputDescriptor)
            if outputDescriptor != inputDescriptor { Syscalls.closeDescriptor(outputDescriptor) }
        }
    }

    /// The size of the terminal (`TIOCGWINSZ`), 80 × 24 when it does not say.
    var size: (columns: Int, rows: Int) {
        Syscalls.terminalSize(outputDescriptor) ?? Syscalls.terminalSize(inputDescriptor) ?? (80, 24)
    }

    /// The bytes `enter()` writes: the alternate screen (`?1049h`, which also saves the cursor), line wrapping off
    /// (`?7l`), bracketed paste on (`?2004h`).
    var enterSequence: [UInt8] {
        Array(("\u{1B}[?1049h\u{1B}[?7l" + (bracketedPaste ? "\u{1B}[?2004h" : "")).utf8)
    }

    /// The bytes `restore()` writes: bracketed paste off, attributes reset, wrapping on, cursor shown, and the
    /// main screen back (`?1049l`, which also puts back the cursor where it was).
    var restoreSequence: [UInt8] {
        Array(((bracketedPaste ? "\u{1B}[?2004l" : "") + "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l").utf8)
    }

    /// Takes over the terminal: catches the signals, saves the settings and sets raw mode, then switches to the
    /// alternate screen. Does nothing when already entered. On failure, what was done is undone.
    func enter() throws(TerminalError) {
        guard !isEntered else { return }
        let original: Syscalls.TerminalSettings
        switch Syscalls.terminalSettings(inputDescriptor) {
        case let .success(settings): original = settings
        case let .failure(error): throw .settingsFailed(error)
        }
        let pipe: (read: Int32, write: Int32)
        switch Syscalls.makeNonBlockingPipe() {
        case let .success(ends): pipe = ends
        case let .failure(error): throw .signalSetupFailed(error)
        }
        signalPipe = pipe
        hasJobControl = detectsJobControl(inputDescriptor)
        // Signals first: a SIGTERM that comes once raw mode is on must find the handler, not end the process with
        // the terminal left raw.
        switch Syscalls.installSignalPipe(Self.caughtSignals, writeDescriptor: pipe.write) {
        case let .success(saved): savedSignals = saved
        case let .failure(error):
            closeSignalPipe()
            throw .signalSetupFailed(error)
        }
        savedSettings = original
        isEntered = true
        do {
            try takeTerminal()
        } catch {
            restore()
            throw error
        }
    }

    /// Raw mode, then the alternate screen. Raw mode first: continued in the background (`bg`), the process is
    /// stopped by `tcsetattr` (SIGTTOU) until it is in the foreground, before it writes anything.
    private func takeTerminal() throws(TerminalError) {
        guard let original = savedSettings else { return }
        holdsTerminal = true
        if case let .failure(error) = Syscalls.setTerminalSettings(inputDescriptor, original.raw) {
            throw .settingsFailed(error)
        }
        try write(enterSequence)
    }

    /// The main screen, then the original settings; errors ignored (the terminal may be gone).
    private func giveBackTerminal() {
        guard holdsTerminal else { return }
        holdsTerminal = false
        _ = restoreSequence.withUnsafeBytes { Syscalls.writeAll(outputDescriptor, $0) }
        if let settings = savedSettings {
            _ = Syscalls.setTerminalSettings(inputDescriptor, settings)
        }
    }

    /// Stops the process for job control, as a shell's Ctrl-Z would: gives the terminal back as it was before
    /// `enter()` (main screen, original settings), stops the process (SIGSTOP), and once it is continued (`fg`)
    /// takes the terminal again (raw mode, alternate screen). The next `nextEvent()` is then `.resize`, before any
    /// key already read, so that the driver draws the whole screen again (the alternate screen may have been
    /// cleared, and the window may have changed size meanwhile). The driver calls it on the key `.control("z")`;
    /// a SIGTSTP does the same within `nextEvent()`. Does nothing when not entered, or without job control (see
    /// `hasJobControl`: nothing would continue the process).
    ///
    /// - Throws: what `enter()` throws when the terminal cannot be taken again; the session is then still
    ///   entered, and `restore()` gives back what is left.
    func suspend() throws(TerminalError) {
        guard isEntered, hasJobControl else { return }
        giveBackTerminal()
        stopProcess()
        queued.insert(.resize, at: queuedStart)
        try takeTerminal()
    }

    /// Gives the terminal back as it was before `enter()`: the main screen with its contents and cursor, the
    /// cursor shown, wrapping on, bracketed paste off, the settings byte for byte (echo, line mode, signals), and
    /// the signal dispositions. Safe to call more than once, and when `enter()` was not called or failed; errors
    /// are ignored (the terminal may be gone), so that it can run in a `defer`.
    func restore() {
        guard isEntered else { return }
        isEntered = false
        giveBackTerminal()
        savedSettings = nil
        // After the terminal: a signal that now ends the process finds the terminal already restored.
        Syscalls.restoreSignalActions(savedSignals)
        savedSignals = []
        closeSignalPipe()
        decoder = KeyDecoder()
        queued = []
        queuedStart = 0
    }

    /// Writes `bytes` (a whole frame) with one `write` call, repeated only after a short write or an interruption.
    func write(_ bytes: [UInt8]) throws(TerminalError) {
        guard !bytes.isEmpty else { return }
        if case let .failure(error) = bytes.withUnsafeBytes({ Syscalls.writeAll(outputDescriptor, $0) }) {
            throw .writeFailed(error)
        }
    }

    /// Waits for the next thing to act on: a key, a resize, or a request to end (a signal caught, or the terminal
    /// hung up). A lone Esc comes `KeyDecoder.escapeDelay` after it was typed; a paste whose end has not come yet
    /// is waited for up to `KeyDecoder.pasteDelay`. A pending signal comes before keys read with it; keys already
    /// decoded come first. A SIGTSTP stops the process here (see `suspend()`) and comes back as `.resize`.
    func nextEvent() throws(TerminalError) -> TerminalEvent {
        while true {
            if queuedStart < queued.count {
                let event = queued[queuedStart]
                queuedStart += 1
                if queuedStart == queued.count {
                    queued.removeAll(keepingCapacity: true)
                    queuedStart = 0
                }
                return event
            }
            // The short Esc wait only for an ESC or an unfinished sequence; inside a paste, the long paste wait.
            let timeout = decoder.pendingTimeoutMilliseconds
            let signals = signalPipe.map { [$0.read] } ?? []
            let descriptors = [inputDescriptor] + signals + (wakeDescriptor.map { [$0] } ?? [])
            let ready: [Bool]
            switch Syscalls.waitUntilReadable(descriptors, timeoutMilliseconds: timeout ?? -1) {
            case let .success(.some(flags)): ready = flags
            case .success(nil): continue  // a signal: the self-pipe has its byte
            case let .failure(error): throw .readFailed(error)
            }
            if !signals.isEmpty, ready[1] {
                if let event = try takeSignals() { return event }
                if queuedStart < queued.count { continue }  // stopped and continued: the `.resize` first
            }
            if let wake = wakeDescriptor, ready[ready.count - 1] {
                var buffer = [UInt8](repeating: 0, count: 64)
                while case let .success(count) = buffer.withUnsafeMutableBytes({ Syscalls.readSome(wake, into: $0) }),
                      count > 0 {}
                return .wake
            }
            if ready[0] {
                if let event = try readKeys() { return event }
            } else if timeout != nil, !ready.contains(true) {
                queued.append(contentsOf: decoder.flushPending().map(TerminalEvent.key))
            }
        }
    }

    /// Reads what the terminal has and decodes it into `queued`; `.terminate(signal: SIGHUP)` when the terminal
    /// hung up (end of input or `EIO`).
    private func readKeys() throws(TerminalError) -> TerminalEvent? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let result = buffer.withUnsafeMutableBytes { Syscalls.readSome(inputDescriptor, into: $0) }
        switch result {
        case let .success(count) where count > 0:
            queued.append(contentsOf: decoder.feed(Array(buffer[0..<count])).map(TerminalEvent.key))
            return nil
        case .success:
            return .terminate(signal: Syscalls.Signal.hangUp)
        case let .failure(error) where Syscalls.isTerminalGone(error):
            return .terminate(signal: Syscalls.Signal.hangUp)
        case let .failure(error) where Syscalls.isWouldBlock(error):
            return nil
        case let .failure(error):
            throw .readFailed(error)
        }
    }

    /// Empties the self-pipe: the first terminating signal in it; else, after a SIGTSTP, stops as `suspend()`
    /// does (when there is job control) and returns `.resize`; else `.resize` if a SIGWINCH came; `nil` when it
    /// held nothing.
    private func takeSignals() throws(TerminalError) -> TerminalEvent? {
        guard let pipe = signalPipe else { return nil }
        var resized = false
        var stopRequested = false
        var terminating: Int32?
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let result = buffer.withUnsafeMutableBytes { Syscalls.readSome(pipe.read, into: $0) }
            guard case let .success(count) = result, count > 0 else { break }
            for byte in buffer[0..<count] {
                let signal = Int32(byte)
                if signal == Syscalls.Signal.windowChanged {
                    resized = true
                } else if signal == Syscalls.Signal.suspend {
                    stopRequested = true
                } else if terminating == nil {
                    terminating = signal
                }
            }
        }
        if let signal = terminating { return .terminate(signal: signal) }
        if stopRequested, hasJobControl {
            try suspend()
            return nil  // `suspend()` queued the `.resize`, which `nextEvent()` returns next
        }
        return resized ? .resize : nil
    }

    private func closeSignalPipe() {
        guard let pipe = signalPipe else { return }
        Syscalls.closeDescriptor(pipe.read)
        Syscalls.closeDescriptor(pipe.write)
        signalPipe = nil
    }
}
