/// What `TerminalSession.nextEvent()` reports: a key, a new window size, or a request to end.
enum TerminalEvent: Equatable, Sendable {
    /// A key (or a paste) the person typed.
    case key(Key)
    /// The window changed size (SIGWINCH): read `TerminalSession.size` and draw everything again
    /// (`FrameWriter.invalidate()`). Several changes before the reader asked come as one. Also after a stop for
    /// job control (SIGTSTP, `TerminalSession.suspend()`): the terminal was given back and taken again.
    case resize
    /// Work done on another thread (a photo fetch) is ready to be shown: a byte came on
    /// `TerminalSession.wakeDescriptor`.
    case wake
    /// The process was asked to end: a signal of `Syscalls.Signal.terminating` (SIGTERM, SIGHUP, SIGINT sent by
    /// `kill` — in raw mode Ctrl-C is the key `.control("c")` —, SIGQUIT, SIGUSR1, …), or the terminal hung up
    /// (its input ended: reported as SIGHUP, which is what a hang-up sends). The driver restores the terminal and
    /// ends the process by that signal.
    case terminate(signal: Int32)
}
