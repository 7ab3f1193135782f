import MovieSearchCommandLine
import MovieSearchQuery

/// `--per-year <K>` and `--typos auto|off`: how a search answers, for `query` and `bench` (`browse` takes
/// `--typos` alone: the rows of its screen set how many movies a year shows).
struct SearchOptions: OptionGroup {
    static let perYearRange = 0...1_000_000
    static let perYear = DefaultedOption<Int>(
        "per-year", valueName: "K", range: perYearRange, default: SearchLimits.defaultPerYear,
        help: "List at most K movies per year")
    static let typos = DefaultedOption<TypoTolerance>(
        "typos", default: .auto,
        help: "auto: when no movie matches exactly, search again allowing typos; off: exact matches only")

    static var arguments: [any ArgumentDeclaration] { [perYear, typos] }

    /// At most this many movies per year.
    var perYear: Int
    /// Whether a search that matches nothing runs again allowing typos.
    var typos: TypoTolerance

    init(_ arguments: ParsedArguments) {
        perYear = arguments[Self.perYear]
        typos = arguments[Self.typos]
    }
}
