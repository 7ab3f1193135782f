import MovieSearchOutput

/// Generates the usage lines and help pages from the subcommands' declarations, so that they never disagree with
/// what the parser accepts.
package enum HelpFormatter {
    /// Help is wrapped at this width whatever the terminal, so that it reads the same everywhere.
    package static let width = 80
    private static let labelColumn = 26
    static let tool = "moviesearch"

    /// The usage lines of a subcommand, each starting with `moviesearch <name>`.
    static func usageLines(_ command: CommandConfiguration) -> [String] {
        let forms = command.usageForms ?? [generatedForm(command)]
        return forms.map { "\(tool) \(command.name) \($0)" }
    }

    /// `Usage: …` with every form, each wrapped under the first, between bracketed groups only: an option and its
    /// value (`[--typos <auto|off>]`) stay on one line.
    package static func usage(_ command: CommandConfiguration) -> String {
        var text = ""
        for (index, line) in usageLines(command).enumerated() {
            let prefix = index == 0 ? "Usage: " : "       "
            let wrapped = TextLayout.wrap(keepingGroups(line), width: width, firstPrefix: prefix, indent: "         ")
            text += String(wrapped.map { $0 == groupSpace ? " " : $0 })
        }
        return text
    }

    /// A space that `TextLayout.wrap` does not break at (it breaks at U+0020 only), standing in for the spaces
    /// inside a bracketed group while a usage line is wrapped; no usage line holds one of its own.
    private static let groupSpace: Character = "\u{A0}"

    /// `line` with every space inside `[…]` or `<…>` replaced by `groupSpace`.
    private static func keepingGroups(_ line: String) -> String {
        var depth = 0
        return String(line.map { character -> Character in
            switch character {
            case "[", "<": depth += 1
            case "]", ">": depth = max(depth - 1, 0)
            case " " where depth > 0: return groupSpace
            default: break
            }
            return character
        })
    }

    /// The full help page of a subcommand.
    package static func help(_ command: CommandConfiguration) -> String {
        var text = TextLayout.wrap(command.abstract, width: width, firstPrefix: "OVERVIEW: ", indent: "          ")
        text += "\n"
        text += usage(command).replacingFirst("Usage: ", with: "USAGE: ")
        let positionals = command.arguments.filter { $0.kind == .positional }
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in positionals { text += entry(argument.helpLabel, argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in command.arguments where option.kind != .positional {
            text += entry(option.helpLabel, option.help)
        }
        text += entry("-h, --help", "Show this help.")
        if !command.discussion.isEmpty {
            for paragraph in command.discussion.split(separator: "\n") {
                text += "\n" + TextLayout.wrap(String(paragraph), width: width, firstPrefix: "", indent: "")
            }
        }
        return text
    }

    /// The tool's overview: what it does and its subcommands.
    package static func overview(_ commands: [CommandConfiguration]) -> String {
        var text = "OVERVIEW: Search a movie catalog offline: titles by word prefixes, answers grouped by year.\n"
        text += "\nUSAGE: \(tool) <subcommand> [<arguments>] [<options>]\n"
        text += "\nSUBCOMMANDS:\n"
        for command in commands { text += entry(command.name, command.abstract) }
        text += "\n"
        text += TextLayout.wrap("""
            Commands that read a cache take --cache <file>; without it they read the file named by \
            MOVIESEARCH_CACHE, else the sample catalog that ships in Data/.
            """, width: width, firstPrefix: "", indent: "")
        text += "\nSee '\(tool) <subcommand> --help' for the options of a subcommand.\n"
        return text
    }

    /// What a usage error prints: the problem, the usage lines, and where to read more.
    package static func usageError(_ error: UsageError, command: CommandConfiguration?) -> String {
        // The message may quote an argument as given (`unknown subcommand '…'`): escaped like any error line.
        var text = "\(tool): \(TerminalSafeText.escapedMessage(error.message))\n"
        if let command {
            text += usage(command)
            text += "See '\(tool) \(command.name) --help'.\n"
        } else {
            text += "Usage: \(tool) <subcommand> [<arguments>] [<options>]\n"
            text += "See '\(tool) --help'.\n"
        }
        return text
    }

    private static func generatedForm(_ command: CommandConfiguration) -> String {
        var parts: [String] = []
        for argument in command.arguments where argument.kind == .positional {
            parts.append(argument.isOptional ? "[\(argument.synopsis)]" : argument.synopsis)
        }
        for option in command.arguments where option.kind != .positional {
            let names = option.shortName.map { "-\($0)|" } ?? ""
            parts.append("[\(names)\(option.synopsis)]")
        }
        return parts.joined(separator: " ")
    }

    private static func entry(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: labelColumn)
        let left = "  " + label
        if left.count + 2 <= labelColumn {
            let prefix = left + String(repeating: " ", count: labelColumn - left.count)
            return TextLayout.wrap(help, width: width, firstPrefix: prefix, indent: indent)
        }
        return left + "\n" + TextLayout.wrap(help, width: width, firstPrefix: indent, indent: indent)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard hasPrefix(target) else { return self }
        return replacement + dropFirst(target.count)
    }
}
