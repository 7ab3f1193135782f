/// What the commands know about where standard output goes: a terminal of some width, or a pipe or file.
struct Terminal {
    /// The width used when standard output is a terminal that does not say how wide it is.
    static let defaultWidth = 80

    /// The terminal's width in columns, or `nil` when standard output is not a terminal.
    var width: Int?

    /// Whether standard output is a terminal (layouts for people), rather than a pipe or file (one item a line).
    var isTerminal: Bool { width != nil }

    /// Standard output of this process. `COLUMNS` overrides what the terminal says, as in most tools.
    static func detect(environment: Environment) -> Terminal {
        guard System.isTerminal(System.standardOutput) else { return Terminal(width: nil) }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
            return Terminal(width: columns)
        }
        return Terminal(width: System.terminalColumns(System.standardOutput) ?? defaultWidth)
    }
}
