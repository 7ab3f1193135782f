/// A failed system call: the C library's `errno`, kept with the text `strerror` gives for it.
///
///     switch Syscalls.openFile(path, for: .reading) {
///     case let .failure(error): print("cannot open \(path): \(error)")   // "No such file or directory"
///     case let .success(descriptor): …
///     }
///
/// The one errno type of the package, for the engine and the command line alike: every wrapper in `Syscalls`
/// returns it, and every message about a failed call is its `reason`.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The raw error number.
    package var code: Int32
    /// What went wrong, as the C library says it (for example "Permission denied"), or, for an error the package
    /// finds itself, as the package says it (`AtomicFileWriter` refusing to replace a folder).
    package var reason: String

    /// The error `code` with a reason of the package's own.
    package init(code: Int32, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The error `code`, with the C library's words for it.
    package init(code: Int32) {
        self.init(code: code, reason: Syscalls.errorMessage(code))
    }

    /// The error of the last failed call on this thread. Call it straight after the call that failed: any other
    /// call in between may change `errno`.
    package static func current() -> SystemError {
        SystemError(code: Syscalls.lastErrorNumber())
    }

    /// Whether the error says that the reader of a pipe has gone away (`EPIPE`).
    package var isBrokenPipe: Bool { code == Syscalls.Errno.brokenPipe }

    /// Whether the call failed because nothing is at the path (`ENOENT`).
    package var isNoSuchFile: Bool { code == Syscalls.Errno.noSuchFile }

    /// The reason.
    package var description: String { reason }
}
