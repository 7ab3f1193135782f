/// A command line that does not say what to do: an unknown subcommand or option, a missing argument or value, a
/// value of the wrong kind. The tool prints the message and the usage line, and exits with status 2.
package struct UsageError: Error, Equatable {
    /// What is wrong, as one line without a final period (`unknown option '--foo'`).
    package var message: String

    /// The error `message` describes (one line, without a final period).
    package init(_ message: String) {
        self.message = message
    }
}
