/// What a shell may offer for the value of an option or a positional argument: the completion scripts
/// (`CompletionScript`) read it from the same declarations the parser checks values against, so that what Tab
/// offers is what the parser accepts.
package enum ValueCompletion: Sendable, Equatable {
    /// Nothing sensible to offer (a number, a query text, a movie id): the shell offers nothing rather than file
    /// names that would be wrong.
    case none
    /// A path: the shell's own file-name completion.
    case file
    /// One of these words, exactly (an `ArgumentChoice`).
    case choices([String])
    /// The lines the tool's subcommand `subcommand` prints (`moviesearch genres`), run by the completion script at
    /// Tab with the `--cache` given on the command line: values that come from the catalog rather than the
    /// tool. Nothing is offered, silently, when it fails (no cache).
    case listed(subcommand: String)
}
