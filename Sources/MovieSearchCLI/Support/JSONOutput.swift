import MovieSearchCommandLine

/// `--json`: the answer as one JSON object on one line, for scripts, instead of the text for people. Every command
/// that has the flag declares it here, so that its name and its promise are the same everywhere; each names the
/// members of its object.
enum JSONOutput {
    /// The `--json` flag of a command whose object holds `members`, as its help lists them. `members` is worked
    /// out only when the help is printed: a list made from the output layer's declarations (`JSONMember.helpList`)
    /// takes generic code the runtime would otherwise set up at every start.
    static func flag(members: @autoclosure @escaping @Sendable () -> String) -> Flag {
        Flag("json", help: "Print the answer as one JSON object on one line: \(members()).")
    }
}
