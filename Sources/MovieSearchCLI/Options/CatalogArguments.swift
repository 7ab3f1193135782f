import MovieSearchCatalog
import MovieSearchCommandLine

/// `index --format auto|json|tmdb|imdb|csv`: the catalog's format, or `auto` to tell it from the first bytes.
///
/// The words are `auto` and the name of every `CatalogFormat` the library reads (its raw value), in the library's
/// order: a format added there is taken here, and shown in the help and the completions, without a change here.
enum CatalogFormatChoice: ArgumentChoice, Equatable {
    /// Tell the format from the catalog's first bytes (`CatalogFormat.detect`).
    case auto
    /// The format named.
    case named(CatalogFormat)

    /// The format named, or `nil` for `auto`.
    var format: CatalogFormat? {
        if case .named(let format) = self { format } else { nil }
    }

    static var allCases: [CatalogFormatChoice] {
        var choices: [CatalogFormatChoice] = [.auto]
        for format in CatalogFormat.allCases { choices.append(.named(format)) }
        return choices
    }

    init?(rawValue: String) {
        if rawValue == "auto" {
            self = .auto
        } else if let format = CatalogFormat(rawValue: rawValue) {
            self = .named(format)
        } else {
            return nil
        }
    }

    var rawValue: String {
        switch self {
        case .auto: "auto"
        case .named(let format): format.rawValue
        }
    }
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
