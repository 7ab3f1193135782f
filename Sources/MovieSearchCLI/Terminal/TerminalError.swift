import MovieSearchPlatform

/// Why the terminal could not be used for `browse`.
enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// Neither `/dev/tty` could be opened nor are standard input and output both terminals: in a pipeline without a
    /// terminal, or from a job with none.
    case noTerminal
    /// The terminal's settings could not be read or changed (`tcgetattr`, `tcsetattr`).
    case settingsFailed(SystemError)
    /// The self-pipe or the signal handlers could not be set up.
    case signalSetupFailed(SystemError)
    /// Reading the terminal failed.
    case readFailed(SystemError)
    /// Writing to the terminal failed.
    case writeFailed(SystemError)

    var description: String {
        switch self {
        case .noTerminal:
            "browse needs a terminal: /dev/tty cannot be opened and standard input and output are not both "
                + "terminals; to search from a script or a pipe, use `moviesearch query --stdin`"
        case let .settingsFailed(error):
            "cannot put the terminal in raw mode: \(error)"
        case let .signalSetupFailed(error):
            "cannot catch the signals browse needs (window size, termination): \(error)"
        case let .readFailed(error):
            "cannot read the terminal: \(error)"
        case let .writeFailed(error):
            "cannot write to the terminal: \(error)"
        }
    }
}
