/// An outcome that ends a command with a status of its own rather than the usual 1 (data error) or 2 (usage,
/// with the usage lines): `browse` quit with Ctrl-C (130, as a shell reports an interrupted program, with nothing
/// printed), `browse` without a terminal (2, with one line and no usage: the command line was right, the
/// place it runs is not), or `browse` asked to end by a signal (128 + n, and the process then ends by that signal).
struct CommandExit: Error, Equatable {
    /// The process's exit status.
    var status: Int32
    /// The one line printed on stderr after `moviesearch: `, or `nil` to print nothing.
    var message: String?
    /// The signal that ends the process (`Syscalls.endProcess(bySignal:)`, once the output is flushed) when it
    /// exits after the command, so that its parent sees a death by that signal; `status` is then 128 + n, what a
    /// run within a test returns.
    var signal: Int32?

    init(status: Int32, message: String? = nil) {
        self.status = status
        self.message = message
    }

    /// Ends by `signal` (see `signal`), with no message.
    init(signal: Int32) {
        self.status = 128 + signal
        self.signal = signal
    }
}
