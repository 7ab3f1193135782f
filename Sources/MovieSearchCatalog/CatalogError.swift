/// Why a catalog could not be read. Each case names the source (a file path, or a label such as `<stdin>`) so
/// that the CLI can print the error as one line a user can act on.
public enum CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read at all.
    case unreadable(source: String, reason: String)
    /// The bytes are not JSON. `line` and `column` count from 1; `offset` is the byte offset from 0.
    case malformedJSON(source: String, line: Int, column: Int, offset: Int, reason: String)
    /// Valid JSON, but neither an array of movies nor an object with a `movies` array.
    case notACatalog(source: String, reason: String)
    /// The record at position `index` (counting from 0) has a bad `field`: for moviesearch JSON `title`, `year`,
    /// `rating`, `cast`, `genres`, or `movie` when the movie is not an object; for TMDb its member names
    /// (`release_date`, `id`, …); for IMDb TSV and CSV the column as its header names it, or `row` for a row with
    /// the wrong number of fields. `reason` names the field, says what was expected and found, and ends with where:
    /// `(line 12, column 21)` in JSON (of the value at fault, or of the movie for a missing field), `(line 12)` in
    /// TSV and CSV (where the row starts, the header being line 1):
    /// `year must be an integer, got a string "2010" (line 12, column 21)`.
    case invalidMovie(source: String, index: Int, field: String, reason: String)
    /// The catalog holds more than `limit` records (`CatalogOptions.maximumRecords`; valid, invalid and left out
    /// alike, and IMDb ratings rows): read as it streams, so that a small file that decodes to many rows (a gzip of
    /// millions of empty rows) cannot take the machine's memory.
    case tooManyRecords(source: String, limit: Int)
    /// IMDb's ratings file (`--ratings`) could not be read at all; `source` names it, not the catalog.
    case unreadableRatings(source: String, reason: String)
    /// IMDb's ratings file is not one: no header, a missing column, a malformed row (`reason` gives its line).
    case invalidRatings(source: String, reason: String)

    /// `limit` with thousands separated: 50,000,000.
    private static func grouped(_ limit: Int) -> String {
        var text = String(limit)
        var position = text.count - 3
        while position > 0 {
            text.insert(",", at: text.index(text.startIndex, offsetBy: position))
            position -= 3
        }
        return text
    }

    public var description: String {
        switch self {
        case let .unreadable(source, reason):
            return "cannot read catalog \(source): \(reason)"
        case let .malformedJSON(source, line, column, offset, reason):
            return "\(source): malformed JSON at line \(line), column \(column) (byte \(offset)): \(reason)"
        case let .notACatalog(source, reason):
            return "\(source): not a movie catalog: \(reason)"
        case let .invalidMovie(source, index, _, reason):
            return "\(source): movie \(index): \(reason)"
        case let .tooManyRecords(source, limit):
            return "\(source): more than \(Self.grouped(limit)) records, the most a catalog may hold (raise the limit "
                + "with index --max-movies N)"
        case let .unreadableRatings(source, reason):
            return "cannot read ratings \(source): \(reason)"
        case let .invalidRatings(source, reason):
            return "ratings \(source): \(reason)"
        }
    }
}
