import MovieSearchCommandLine

/// `--color auto|always|never`, as in grep and ripgrep: whether text output may hold escape codes (bold match
/// spans), decided in one place so that every command that styles text decides alike.
///
///     ColorChoice.auto.allowsEscapes(outputIsTerminal: true, environment: .process)   // false under NO_COLOR=1
///     ColorChoice.always.allowsEscapes(outputIsTerminal: false, environment: .process) // true, even into a pipe
///
/// `auto` never writes escape codes into a pipe or a file: a script that reads the output, or a log someone greps
/// later, gets the plain text. JSON output is never styled, whatever the choice.
enum ColorChoice: String, ArgumentChoice {
    /// Escape codes only when the output is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`.
    case auto
    /// Escape codes always, even into a pipe (for `less -R`), whatever the environment says.
    case always
    /// Never any escape code.
    case never

    /// The `--color` option of a command whose text output is styled.
    static let option = DefaultedOption<ColorChoice>(
        "color", default: .auto,
        help: "Show the matched part of each title in bold. auto: on a terminal only, and not when NO_COLOR is "
            + "set or TERM is dumb; always: also into a pipe or a file; never: plain text")

    /// Whether output may hold escape codes.
    ///
    /// - Parameters:
    ///   - outputIsTerminal: Whether the output goes to a terminal (rather than a pipe or a file).
    ///   - environment: Where `NO_COLOR` (https://no-color.org: any non-empty value turns colour off) and `TERM`
    ///     (`dumb`: a terminal that shows escape codes as text, such as Emacs's shell buffer) are read.
    /// - Returns: `true` for `always`; `false` for `never`; for `auto`, whether all three allow it.
    func allowsEscapes(outputIsTerminal: Bool, environment: Environment) -> Bool {
        switch self {
        case .always: true
        case .never: false
        // `Environment` reads an empty value as unset, which is what NO_COLOR asks for.
        case .auto: outputIsTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        }
    }
}
