/// Reads a command line against the declared arguments of a subcommand.
///
/// Accepted forms: `--name value`, `--name=value`, `-n value`, `-nvalue`, flags `--name`, positional words in
/// declaration order, and `--` after which every word is positional (for a query that starts with a dash). A word
/// such as `-1` is a value, not an option, so that `--per-year -1` reports a bad number rather than an unknown
/// option. When an option is given twice, the last value wins.
package struct ArgumentParser {
    let definitions: [ArgumentDefinition]

    /// A parser of the command lines that `definitions` describe (a subcommand's `CommandConfiguration.arguments`).
    package init(_ definitions: [ArgumentDefinition]) {
        self.definitions = definitions
    }

    // An array, not `some Collection<String>`: called from the CLI, another module, a generic runs unspecialized,
    // and looking up its collection's associated types cost every process a scan of the binary's conformances
    // (PERFORMANCE.md, "Figures behind the code").

    /// Whether `arguments` ask for help (`-h` or `--help` before any `--`), which wins over every other problem.
    package static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
    }

    /// Parses words given as text (tests, and `MovieSearchCommand.run(arguments:)`).
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try parse(arguments.map { ArgumentWord($0) })
    }

    /// Parses the words of a command line; values keep their bytes, so that a path need not be valid UTF-8.
    package func parse(_ arguments: [ArgumentWord]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        let positionals = definitions.filter { $0.kind == .positional }
        var positionalCount = 0
        var onlyPositionals = false
        var index = 0

        func take(positional word: ArgumentWord) throws(UsageError) {
            guard positionalCount < positionals.count else {
                throw UsageError("unexpected argument '\(word.displayText)'")
            }
            try store(word, for: positionals[positionalCount], in: &parsed)
            positionalCount += 1
        }

        while index < arguments.count {
            let raw = arguments[index]
            let word = raw.text
            index += 1
            if onlyPositionals || !Self.looksLikeOption(word) {
                try take(positional: raw)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }

            let definition: ArgumentDefinition
            var attached: ArgumentWord?
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = body.prefix { $0 != "=" }
                // The value's bytes follow the first `=`, which a repaired byte never is.
                if let equals = raw.bytes.firstIndex(of: UInt8(ascii: "=")) { attached = raw.dropping(equals + 1) }
                guard let found = definitions.first(where: { $0.kind != .positional && $0.name == name }) else {
                    let known = definitions.filter { $0.kind != .positional }.map { "--" + $0.name } + ["--help"]
                    throw UsageError("unknown option '--\(name)'" + Suggestion.phrase(for: "--" + name, among: known))
                }
                definition = found
            } else {
                let letter = word.dropFirst().first!
                guard let found = definitions.first(where: { $0.kind != .positional && $0.shortName == letter }) else {
                    throw UsageError("unknown option '-\(letter)'")
                }
                definition = found
                if raw.bytes.count > 2 {
                    // `-ofile` gives a value (the bytes after the ASCII `-o`); a flag takes no letters after it.
                    guard definition.kind == .option else { throw UsageError("unknown option '\(raw.displayText)'") }
                    attached = raw.dropping(2)
                }
            }

            switch definition.kind {
            case .flag:
                if attached != nil { throw UsageError("option '--\(definition.name)' takes no value") }
                parsed.setFlag(definition)
            case .option:
                if let attached {
                    try store(attached, for: definition, in: &parsed)
                } else if index < arguments.count, !Self.looksLikeOption(arguments[index].text) {
                    try store(arguments[index], for: definition, in: &parsed)
                    index += 1
                } else {
                    throw UsageError("missing value for '\(definition.synopsis)'")
                }
            case .positional:
                preconditionFailure("positional arguments are matched by position")
            }
        }

        if let missing = positionals.dropFirst(positionalCount).first(where: { !$0.isOptional }) {
            throw UsageError("missing argument '\(missing.synopsis)'")
        }
        return parsed
    }

    private func store(_ word: ArgumentWord, for definition: ArgumentDefinition,
                       in parsed: inout ParsedArguments) throws(UsageError) {
        if let expectation = definition.check(word.text) {
            let label = definition.kind == .positional ? definition.synopsis : definition.helpLabel
            // A choice's word mistyped (`--color alwys`, `favorites ad`) gets the word meant, as an unknown option does.
            var hint = ""
            if case .choices(let words) = definition.completion { hint = Suggestion.phrase(for: word.text, among: words) }
            throw UsageError("invalid value '\(word.displayText)' for '\(label)': expected \(expectation)\(hint)")
        }
        parsed.set(definition, to: word)
    }

    /// `--x`, `-x` and `--` are options (or the end of them); `-` (standard input) and `-1` are values.
    private static func looksLikeOption(_ word: String) -> Bool {
        let utf8 = word.utf8
        guard utf8.count >= 2, utf8.first == UInt8(ascii: "-") else { return false }
        let second = utf8[utf8.index(after: utf8.startIndex)]
        return !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(second)
    }
}
