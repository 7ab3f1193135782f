/// A value picked from a fixed list of words (`--typos auto|off`, `--color auto|always|never`): an enum whose raw
/// values are the words the command line takes.
///
/// The parser accepts exactly those words (case matters, as in grep and ripgrep); any other value is a usage error
/// that names them all: `invalid value 'sometimes' for '--color <auto|always|never>': expected 'auto', 'always' or
/// 'never'`.
package protocol ArgumentChoice: ArgumentValue, CaseIterable, RawRepresentable where RawValue == String {}

extension ArgumentChoice {
    /// The choice whose word `argument` is.
    package init?(argument: String) { self.init(rawValue: argument) }

    /// `'auto', 'always' or 'never'`.
    package static var expectation: String {
        let words = allCases.map { "'\($0.rawValue)'" }
        guard words.count > 1 else { return words.first ?? "nothing" }
        var text = words[0]
        for word in words[1..<(words.count - 1)] { text += ", " + word }
        return text + " or " + words[words.count - 1]
    }

    // Closures rather than key paths (`map(\.rawValue)`) here and on every path a command runs: a key path is an
    // object the runtime builds on first use, a cost each short-lived process would pay at start-up.

    /// The shell offers exactly the words the parser accepts.
    package static var completion: ValueCompletion { .choices(allCases.map { $0.rawValue }) }

    /// `auto|always|never`: how the usage line and the help name the value, so that they show every choice.
    package static var valueName: String {
        // A loop rather than `joined(separator:)`, whose generic code costs this process's start-up more than
        // the joining itself.
        var text = ""
        for choice in allCases { text += text.isEmpty ? choice.rawValue : "|" + choice.rawValue }
        return text
    }
}
