import MovieSearchOutput

/// What a running subcommand reads and writes: standard streams, environment, and what stdout is.
struct CommandContext {
    let standardOutput: TextOutput
    let standardError: TextOutput
    let standardInput: InputSource
    let environment: Environment
    let terminal: Terminal
    /// The width of the terminal standard error is on, or `nil` when it is a pipe or file (or in tests): where a
    /// progress display may be drawn.
    var errorTerminalWidth: Int? = nil
    /// The cache read when neither `--cache` nor `MOVIESEARCH_CACHE` names one (tests point it elsewhere); `nil`
    /// for the package's sample, whose path is worked out only when it is needed.
    var sampleCachePath: String? = nil
    /// Whether the process exits as soon as the command returns (`MovieSearchCommand.main()`), not in tests that
    /// run commands in-process: then what a command made need not be freed, see `keepUntilExit(_:)`.
    var processExitsAfterRun = false

    /// Keeps `value` alive until the process exits when it exits after this command (`processExitsAfterRun`), so
    /// that nothing of it is freed one by one just before the kernel takes the whole address space back: releasing
    /// an opened index unmaps its file, and an answer's titles and lists are dozens of objects. Elsewhere
    /// (tests), nothing: `value` is released as usual.
    func keepUntilExit<Value>(_ value: Value) {
        guard processExitsAfterRun else { return }
        // Never deinitialized nor deallocated: the process is about to end.
        UnsafeMutablePointer<Value>.allocate(capacity: 1).initialize(to: value)
    }

    /// Prints a one-line remark on stderr that does not change the outcome (which default was used). Control
    /// characters in `text` (from a path it names) are escaped, see `TerminalSafeText.escapedMessage(_:)`.
    func note(_ text: String) {
        standardError.line("moviesearch: note: \(TerminalSafeText.escapedMessage(text))")
    }

    /// Prints a one-line warning on stderr about input that was partly ignored. Control characters in `text` (from
    /// a path or a value it quotes) are escaped, see `TerminalSafeText.escapedMessage(_:)`.
    func warning(_ text: String) {
        standardError.line("moviesearch: warning: \(TerminalSafeText.escapedMessage(text))")
    }
}
