import MovieSearch

/// `index --format auto|json|tmdb|imdb|csv`: the catalog's format, or `auto` to tell it from the first bytes.
enum CatalogFormatChoice: String, ArgumentChoice {
    case auto, json, tmdb, imdb, csv

    /// The format named, or `nil` for `auto`.
    var format: CatalogFormat? { CatalogFormat(rawValue: rawValue) }
}

/// `index --title-types movie,tvMovie` (or `all`): the IMDb title types to keep.
struct TitleTypeList: ArgumentValue {
    /// The types, or `nil` for all of them.
    var types: Set<String>?

    /// IMDb's title types, as its `titleType` column writes them.
    static let known = ["movie", "short", "tvSeries", "tvEpisode", "tvMovie", "tvMiniSeries", "tvSpecial", "video",
                        "videoGame", "tvShort", "tvPilot"]

    init?(argument: String) {
        if argument == "all" {
            types = nil
            return
        }
        let names = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !names.isEmpty, names.allSatisfy(Self.known.contains) else { return nil }
        types = Set(names)
    }

    static var expectation: String {
        "IMDb title types separated by commas (\(known.joined(separator: ", "))), or 'all'"
    }
}

/// `index --column rating=imdb_score`: a catalog field read from a CSV column named otherwise.
struct ColumnMapping: ArgumentValue {
    var field: String
    var column: String

    /// The fields a CSV column can be mapped to.
    static let fields = CatalogOptions.csvFields

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        field = String(argument[..<equals])
        column = String(argument[argument.index(after: equals)...])
        guard Self.fields.contains(field), !column.isEmpty else { return nil }
    }

    static var expectation: String {
        "<field>=<column>, where the field is one of \(fields.joined(separator: ", "))"
    }
}
