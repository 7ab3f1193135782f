import MovieSearchPlatform

/// What the commands know about where standard output goes: a terminal of some width, or a pipe or file.
struct Terminal {
    /// The width used when standard output is a terminal that does not say how wide it is.
    static let defaultWidth = 80
    /// The widths layouts work with. A width from the environment or the terminal is clamped into it, so that
    /// `COLUMNS=999999999999` cannot make a layout pad lines with gigabytes of spaces, nor `COLUMNS=3` leave no
    /// room for a label.
    static let widthRange = 20...1000

    /// The terminal's width in columns, always in `widthRange`, or `nil` when standard output is not a terminal.
    let width: Int?

    /// A terminal `width` columns wide (clamped into `widthRange`), or a pipe or file for `nil`.
    init(width: Int?) {
        self.width = width.map(Self.clamped(_:))
    }

    /// Whether standard output is a terminal (layouts for people), rather than a pipe or file (one item a line).
    var isTerminal: Bool { width != nil }

    /// Standard output of this process. `COLUMNS` overrides what the terminal says, as in most tools.
    static func detect(environment: Environment) -> Terminal {
        guard Syscalls.isTerminal(Syscalls.standardOutput) else { return Terminal(width: nil) }
        let width = environment.positiveNumber("COLUMNS", clampedTo: widthRange)
            ?? Syscalls.terminalColumns(Syscalls.standardOutput) ?? defaultWidth
        return Terminal(width: width)
    }

    /// The width of the terminal standard error is on (`COLUMNS` first), or `nil` when it is not a terminal or
    /// `TERM` is `dumb` (which cannot erase a line).
    static func errorWidth(environment: Environment) -> Int? {
        guard Syscalls.isTerminal(Syscalls.standardError), environment["TERM"] != "dumb" else { return nil }
        return environment.positiveNumber("COLUMNS", clampedTo: widthRange)
            ?? Syscalls.terminalColumns(Syscalls.standardError).map(clamped) ?? defaultWidth
    }

    /// `width` brought into `widthRange`.
    static func clamped(_ width: Int) -> Int {
        min(max(width, widthRange.lowerBound), widthRange.upperBound)
    }
}
