import MovieSearchCommandLine
import MovieSearchQuery
import MovieSearchText

/// `--year`, `--genre`, `--cast`, `--min-rating`, `--min-critic` (SEARCH-SPEC, "Filters and facets"): what `query`,
/// `top`, `bench` and `browse` keep of the catalog (browse's filter line, `BrowseFilterLine`, reads the same values).
/// `--genre` and `--cast` may be repeated: every one must hold.
struct FilterOptions: OptionGroup {
    static let year = Option<YearFilter>(
        "year", valueName: "Y|A..B|A..|..B",
        help: "Keep the movies of year Y, or of the years A to B (either end may be left out).")
    static let genre = Option<String>(
        "genre", valueName: "name", completion: .listed(subcommand: GenresCommand.name),
        help: "Keep the movies that have this genre (case, accents and spacing aside); may be repeated "
            + "('moviesearch genres' lists them).")
    static let cast = Option<String>(
        "cast", valueName: "name",
        help: "Keep the movies whose cast holds this name (case, accents and spacing aside); may be repeated.")
    static let minimumRating = Option<FilterNumber>(
        "min-rating", valueName: "R", help: "Keep the movies rated R or more (unrated movies never pass).")
    static let minimumCritic = Option<FilterNumber>(
        "min-critic", valueName: "C",
        help: "Keep the movies whose critics' rating (0 to 10) is C or more.")

    static var arguments: [any ArgumentDeclaration] { [year, genre, cast, minimumRating, minimumCritic] }

    /// The filters given.
    var filters: SearchFilters

    init(_ arguments: ParsedArguments) {
        let years = arguments[Self.year]
        filters = SearchFilters(lowestYear: years?.lowest, highestYear: years?.highest,
                                genres: arguments.all(Self.genre), cast: arguments.all(Self.cast),
                                minimumRating: arguments[Self.minimumRating]?.value,
                                minimumCriticRating: arguments[Self.minimumCritic]?.value)
    }

    /// Notes for every genre or cast name no movie has, each with the closest names the catalog has: a filter
    /// that lets nothing pass is no error, but the user should know why the answer is empty.
    func unknownNameNotes(_ index: MovieIndex) throws -> [String] {
        try Self.unknownNameNotes(filters, index)
    }

    /// Notes for every genre or cast name of `filters` no movie of `index` has (see the method of the same name).
    static func unknownNameNotes(_ filters: SearchFilters, _ index: MovieIndex) throws -> [String] {
        var notes: [String] = []
        if filters.genres.contains(where: { (try? index.hasGenre($0)) != true }) {
            let genres = try index.genreNames()
            for name in filters.genres where try !index.hasGenre(name) {
                notes.append("no movie has the genre '\(name)'" + suggestion(for: name, among: genres))
            }
        }
        if !filters.cast.isEmpty {
            var names: [String]? = nil
            for name in filters.cast where try !index.hasName(name) {
                if names == nil { names = try index.storedNames() }
                notes.append("no movie has '\(name)' in its cast" + suggestion(for: name, among: names ?? []))
            }
        }
        return notes
    }

    /// `; did you mean 'Drama'?` for the names closest to `name` once both are folded, or nothing.
    static func suggestion(for name: String, among names: [String]) -> String {
        var shownOfFolded: [String: String] = [:]
        var folded: [String] = []
        for candidate in names {
            let key = NameFolding.fold(candidate)
            if shownOfFolded[key] == nil {
                shownOfFolded[key] = candidate
                folded.append(key)
            }
        }
        let closest = Suggestion.closest(to: NameFolding.fold(name), among: folded).compactMap { shownOfFolded[$0] }
        guard let last = closest.last else { return "" }
        let quoted = closest.map { "'\($0)'" }
        return "; did you mean " + (closest.count == 1 ? "'\(last)'" : quoted.dropLast().joined(separator: ", ")
            + " or " + quoted[quoted.count - 1]) + "?"
    }
}

/// A `--year` value: `Y`, `A..B`, `A..` or `..B`, a range whose start is not after its end.
struct YearFilter: ArgumentValue {
    var lowest: Int?
    var highest: Int?

    init?(argument: String) {
        guard let range = FilterValue.yearRange(argument) else { return nil }
        lowest = range.lowest
        highest = range.highest
    }

    static var expectation: String { FilterValue.yearRangeExpectation }
}

/// A `--min-rating` or `--min-critic` value: a finite number.
struct FilterNumber: ArgumentValue {
    var value: Double

    init?(argument: String) {
        guard let value = FilterValue.number(argument) else { return nil }
        self.value = value
    }

    static var expectation: String { FilterValue.numberExpectation }
}

/// `--facets genre`: the facets an answer may count.
enum FacetChoice: String, ArgumentChoice {
    case genre
}
