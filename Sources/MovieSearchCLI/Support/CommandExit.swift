/// An outcome that ends a command with a status of its own rather than the usual 1 (data error) or 2 (usage,
/// with the usage lines): `browse` quit with Ctrl-C (130, as a shell reports an interrupted program, with nothing
/// printed), or `browse` without a terminal (2, with one line and no usage: the command line was right, the
/// place it runs is not).
struct CommandExit: Error, Equatable {
    /// The process's exit status.
    var status: Int32
    /// The one line printed on stderr after `moviesearch: `, or `nil` to print nothing.
    var message: String?

    init(status: Int32, message: String? = nil) {
        self.status = status
        self.message = message
    }
}
