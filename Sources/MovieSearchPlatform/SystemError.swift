/// A failed system call: the C library's `errno`, kept with the text `strerror` gives for it and the name of the call
/// that set it.
///
///     switch Syscalls.openFile(path, for: .reading) {
///     case let .failure(error): print("cannot open \(path): \(error)")   // "No such file or directory"
///     case let .success(descriptor): …
///     }
///
/// The one errno type of the package, for the engine, the command line and the HTTP server alike: every wrapper in
/// `Syscalls` (and `EventPoller`, `SystemThread`) returns it, every error of a layer above that a failed call causes
/// wraps it (`InputError.system`, `HTTPServerError.cannotListen`), and every message about a failed call is its
/// `reason`.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The raw error number.
    package var code: Int32
    /// What went wrong, as the C library says it (for example "Permission denied"), or, for an error the package
    /// finds itself, as the package says it (`AtomicFileWriter` refusing to replace a folder).
    package var reason: String { ownReason ?? Syscalls.errorMessage(code) }
    /// The package's own words, nil for the C library's, which are looked up only when asked for: the server's
    /// non-blocking reads fail with `EAGAIN` on every turn of its loops, and a `strerror` string made for each
    /// cost it about a quarter of its requests a second (wrk on `/api/search`).
    private var ownReason: String?
    /// The C library's name of the call that failed (`open`, `bind`, `pthread_create`), for a debugger or a test;
    /// empty for an error the package finds itself. Not part of `description`: a message says what the tool was
    /// doing ("cannot listen on 127.0.0.1:8080"), then the reason, never the call.
    package var call: String

    /// The error `code` with a reason of the package's own.
    package init(code: Int32, reason: String, call: String = "") {
        self.code = code
        ownReason = reason
        self.call = call
    }

    /// The error `code` of `call`, with the C library's words for it.
    package init(code: Int32, call: String = "") {
        self.code = code
        ownReason = nil
        self.call = call
    }

    /// The error of the last failed call on this thread, `call`. Call it straight after the call that failed: any
    /// other call in between may change `errno`.
    package static func current(_ call: String = "") -> SystemError {
        SystemError(code: Syscalls.lastErrorNumber(), call: call)
    }

    /// Whether the error says that the reader of a pipe has gone away (`EPIPE`).
    package var isBrokenPipe: Bool { code == Syscalls.Errno.brokenPipe }

    /// Whether the call failed because nothing is at the path (`ENOENT`).
    package var isNoSuchFile: Bool { code == Syscalls.Errno.noSuchFile }

    /// The reason.
    package var description: String { reason }
}
