import MovieSearchInput
import MovieSearchJSON

/// Decodes RFC 4180 CSV with a header row into movies.
///
/// ```swift
/// var reader = CSVReader(source: "movies.csv", options: CatalogOptions(columns: ["rating": "imdb_score"]))
/// try reader.read(&input, into: &builder)
/// ```
///
/// Quoted fields, doubled quotes and line breaks inside quotes, CRLF and a UTF-8 byte-order mark are read as RFC
/// 4180 has them (see `DelimitedRecordReader`). Columns are found by their names in the header, ignoring ASCII
/// case; `CatalogOptions.columns` names the column of a field whose column is named otherwise (`rating` →
/// `imdb_score`). Other columns are ignored. In every column the empty cell, `NA` and `\N` are null.
///
/// | field            | columns (the first found)                         | value                                     |
/// |------------------|---------------------------------------------------|-------------------------------------------|
/// | `title`          | `title`, `primaryTitle`, `original_title`         | required, not blank                       |
/// | `year`           | `year`, `startYear`, `release_year`               | required: a whole number                  |
/// | `release_date`   | `release_date`, when there is no year column      | required: the year is its first 4 digits  |
/// | `rating`         | `rating`, `vote_average`, `averageRating`         | a number, or unrated                      |
/// | `critic_rating`  | `critic_rating` (0–10), `metascore` (0–100)        | a number; a 0–100 one is divided by 10    |
/// | `genres`, `cast` | `genres`; `cast`                                  | a JSON array, or `|`- or `,`-separated    |
/// | `original_title` | `original_title`, `originalTitle` (not the title) | kept when it differs from the title      |
/// | `overview`       | `overview`                                        | text                                      |
/// | `poster_path`    | `poster_path`                                     | text (`/abc.jpg`)                         |
/// | `tmdb_id`        | `tmdb_id`; `id` in a TMDb export (below)          | a whole number                            |
/// | `imdb_id`        | `imdb_id`, `tconst`                               | text (`tt0111161`)                        |
///
/// A JSON array may hold strings or objects with a `name` (TMDb's `[{"id":18,"name":"Drama"}]`); text without
/// brackets is split at `|` when it has one, else at commas; items are trimmed and empty ones dropped. As in TMDb's
/// responses, a `vote_average` whose row has a `vote_count` of 0 is no rating. An `id` column is taken for the TMDb
/// id only in a TMDb export: when there is no `tmdb_id` column and the header has `poster_path` or
/// `vote_average`; elsewhere `id` is anybody's numbering and is ignored.
///
/// Each data row is a movie at its position (the header excluded; empty lines are not rows). A row whose number
/// of fields differs from the header's is invalid (field `row`), as is a row whose required field is missing or
/// unreadable; errors give the line the row starts on. The reader parses; the checks every format shares (a blank
/// title, a year a cache cannot store, a rating that is not finite) are `CatalogBuilder`'s.
struct CSVReader {
    private let source: String
    private let options: CatalogOptions

    /// A reader of the CSV catalog `source` names in errors, with the options that apply to it.
    init(source: String, options: CatalogOptions) {
        self.source = source
        self.options = options
    }

    /// The fields `CatalogOptions.columns` may map to a column.
    static let fieldNames = CatalogOptions.csvFields

    /// Where each field is in a row, from the header.
    private struct Columns {
        var title: Int
        var year: Int?
        var releaseDate: Int?
        var rating: Int?
        var voteCount: Int?
        var criticRating: Int?
        /// The top of `criticRating`'s scale: 10, or 100 (divided by 10 when read).
        var criticScale = 10
        var genres: Int?
        var cast: Int?
        var originalTitle: Int?
        var overview: Int?
        var posterPath: Int?
        var tmdbID: Int?
        var imdbID: Int?
        /// Column names as the header writes them, for messages.
        var names: [String]

        /// The columns the builder checks, as its messages name them.
        var fieldNames: CatalogRecord.FieldNames {
            CatalogRecord.FieldNames(title: names[title], year: names[year ?? releaseDate!],
                                     rating: rating.map { names[$0] } ?? "rating",
                                     criticRating: criticRating.map { names[$0] } ?? "critic_rating",
                                     criticScale: criticScale)
        }
    }

    /// Reads the rows of `input` into `builder`. Throws `notACatalog` for a header without a title or year
    /// column, and the first invalid row unless `builder.skipInvalid`.
    mutating func read(_ input: inout some ByteSource, into builder: inout CatalogBuilder) throws(CatalogError) {
        var records = DelimitedRecordReader(source: source, separator: UInt8(ascii: ","), quoting: true)
        guard try records.next(from: &input) else {
            throw .notACatalog(source: source, reason: "the file is empty (no header line)")
        }
        let columns = try findColumns(DelimitedHeader(records))
        let fieldNames = columns.fieldNames
        var genreLists = StringListCache()
        while try records.next(from: &input) {
            let row: CatalogRecord
            do {
                row = try record(records, columns: columns, genreLists: &genreLists)
            } catch {
                try builder.reject(error)
                continue
            }
            try builder.add(row, names: fieldNames)
        }
    }

    /// The record of the current row of `records`, parsed; `CatalogBuilder.add` checks it.
    private func record(_ records: borrowing DelimitedRecordReader, columns: Columns,
                        genreLists: inout StringListCache) throws(RecordProblem) -> CatalogRecord {
        let line = records.line
        guard records.fieldCount == columns.names.count else {
            throw RecordProblem(field: "row", reason: "the row has \(records.fieldCount) fields, the header "
                + "\(columns.names.count)", place: line)
        }
        func name(_ column: Int) -> String { columns.names[column] }
        func problem(_ column: Int, _ reason: String) -> RecordProblem {
            RecordProblem(field: name(column), reason: "\(name(column)) \(reason)", place: line)
        }
        /// The field in `column`, or `nil` when it is null.
        func value(_ column: Int?) -> UnsafeBufferPointer<UInt8>? {
            guard let column else { return nil }
            let field = records.field(column)
            let trimmed = DelimitedField.trimmed(field)
            return DelimitedField.isNull(trimmed, naIsNull: true) ? nil : field
        }
        func text(_ column: Int?, trimmed: Bool = false) throws(RecordProblem) -> String? {
            guard let column, let found = value(column) else { return nil }
            let field = trimmed ? DelimitedField.trimmed(found) : found
            guard let text = DelimitedField.string(field) else { throw problem(column, "is not valid UTF-8") }
            return text
        }

        // Spaces alone make a null cell; a title of other white space is the builder's to refuse.
        guard let titleField = value(columns.title), let title = try text(columns.title) else {
            throw problem(columns.title, "is empty")
        }

        let year: JSONNumber.WholeValue
        let yearColumn = columns.year ?? columns.releaseDate!
        guard let yearField = value(yearColumn).map(DelimitedField.trimmed) else {
            throw problem(yearColumn, "is empty")
        }
        if columns.year != nil {
            guard let found = DelimitedField.wholeNumber(yearField) else {
                throw problem(yearColumn, "must be a whole number, got \(DelimitedField.describe(yearField))")
            }
            year = found
        } else {
            let digits = yearField.prefix(4)
            guard digits.count == 4, digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }),
                  yearField.count == 4 || yearField[4] &- UInt8(ascii: "0") >= 10 else {
                throw problem(yearColumn, "must start with a four-digit year (YYYY-MM-DD), got "
                    + DelimitedField.describe(yearField))
            }
            year = .value(digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
        }

        var rating: Double?
        var ratingField = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        if let column = columns.rating, let field = value(column).map(DelimitedField.trimmed) {
            // Infinite past `Double`'s range: the builder refuses that rating, as every format's.
            guard let found = DelimitedField.double(field) else {
                throw problem(column, "must be a number, got \(DelimitedField.describe(field))")
            }
            (rating, ratingField) = (found, field)
            if let votes = columns.voteCount, let field = value(votes).map(DelimitedField.trimmed),
               case .value(0) = DelimitedField.wholeNumber(field) {
                rating = nil  // TMDb's average of no votes is 0, which is no rating.
            }
        }

        var criticRating: Double?
        var criticField = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        if let column = columns.criticRating, let field = value(column).map(DelimitedField.trimmed) {
            guard let found = DelimitedField.double(field) else {
                throw problem(column, "must be a number, got \(DelimitedField.describe(field))")
            }
            // On 0–100 (a Metascore), stored on 0–10: 83 is 8.3. The builder checks the range, naming this scale.
            (criticRating, criticField) = (columns.criticScale == 100 ? found / 10 : found, field)
        }

        var genres: [String] = []
        if let column = columns.genres, let field = value(column) {
            genres = try genreLists.list(for: field) { (bytes) throws(RecordProblem) -> [String] in
                try Self.list(bytes, name: name(column), line: line)
            }
        }
        var cast: [String] = []
        if let column = columns.cast, let field = value(column) {
            cast = try Self.list(field, name: name(column), line: line)
        }

        var originalTitle: String?
        if let column = columns.originalTitle, let field = value(column),
           !DelimitedField.equals(field, titleField) {
            originalTitle = try text(column)
        }
        var tmdbID: Int?
        if let column = columns.tmdbID, let field = value(column).map(DelimitedField.trimmed) {
            // TMDb's ids are 32-bit, as TMDbReader reads them: a larger one is a bad row here, with its line,
            // rather than a movie the cache then cannot store.
            guard case .value(let id) = DelimitedField.wholeNumber(field), Movie.tmdbIDRange.contains(id) else {
                throw problem(column, "must be a whole number from 0 to \(Movie.tmdbIDRange.upperBound), got "
                    + DelimitedField.describe(field))
            }
            tmdbID = id
        }
        return CatalogRecord(title: title, year: year, rating: rating, criticRating: criticRating, cast: cast,
                             genres: genres,
                             originalTitle: originalTitle, overview: try text(columns.overview),
                             posterPath: try text(columns.posterPath, trimmed: true), tmdbID: tmdbID,
                             imdbID: try text(columns.imdbID, trimmed: true), titlePlace: line, yearPlace: line,
                             ratingPlace: line, yearText: yearField, ratingText: ratingField,
                             criticRatingPlace: line, criticRatingText: criticField)
    }

    /// A `genres` or `cast` cell: a JSON array of strings (or of objects with a `name`), or text split at `|`,
    /// else at commas; items trimmed, empty ones dropped.
    private static func list(_ field: UnsafeBufferPointer<UInt8>, name: String, line: Int) throws(RecordProblem)
        -> [String]
    {
        let trimmed = DelimitedField.trimmed(field)
        if trimmed.first == UInt8(ascii: "[") { return try jsonList(trimmed, name: name, line: line) }
        guard let text = DelimitedField.string(trimmed) else {
            throw RecordProblem(field: name, reason: "\(name) is not valid UTF-8", place: line)
        }
        let separator: Character = text.contains("|") ? "|" : ","
        return text.split(separator: separator).compactMap { item in
            let trimmed = DelimitedField.trimmed(item)
            return trimmed.isEmpty ? nil : String(trimmed)
        }
    }

    /// The strings of a JSON array: its string elements, and the `name` of its object elements.
    private static func jsonList(_ field: UnsafeBufferPointer<UInt8>, name: String, line: Int)
        throws(RecordProblem) -> [String]
    {
        var json = JSONReader(bytes: field)
        var items: [String] = []
        var wrongElement: String?
        do throws(JSONSyntaxError) {
            _ = try json.next()  // `[`: the field starts with it.
            elements: while true {
                let element = try json.next()
                switch element {
                case .endArray:
                    break elements
                case .string(let token):
                    items.append(json.string(token))
                case .beginObject:
                    var found: String?
                    while case .key(let key) = try json.next() {
                        let value = try json.next()
                        if found == nil, json.string(key, equals: "name"), case .string(let token) = value {
                            found = json.string(token)
                        } else {
                            try json.skipValue(startingWith: value)
                        }
                    }
                    if let found {
                        items.append(found)
                    } else {
                        wrongElement = wrongElement ?? "an object without a name"
                    }
                default:
                    wrongElement = wrongElement ?? "a value that is not a string"
                    try json.skipValue(startingWith: element)
                }
            }
            _ = try json.next()  // `.end`, or an error for anything after the array.
        } catch {
            throw RecordProblem(field: name, reason: "\(name) is not valid JSON: \(error.reason)", place: line)
        }
        if let wrongElement {
            throw RecordProblem(field: name, reason: "\(name) must be a JSON array of strings or of objects with a "
                + "name, it holds \(wrongElement)", place: line)
        }
        return items.compactMap { item in
            let trimmed = DelimitedField.trimmed(item[...])
            return trimmed.isEmpty ? nil : String(trimmed)
        }
    }

    // MARK: - Header

    /// The columns of the fields, from `header` and `options.columns`.
    private func findColumns(_ header: DelimitedHeader) throws(CatalogError) -> Columns {
        for field in options.columns.keys.sorted() where !Self.fieldNames.contains(field) {
            throw .notACatalog(source: source, reason: "no field '\(field)' to map to a column (the fields are "
                + Self.fieldNames.joined(separator: ", ") + ")")
        }
        /// The column of `field`: the one `options.columns` names (which must exist), else the first of `aliases`.
        func column(_ field: String, _ aliases: [String]) throws(CatalogError) -> Int? {
            if let mapped = options.columns[field] {
                guard let index = header.index(of: mapped) else {
                    throw .notACatalog(source: source, reason: "no '\(mapped)' column in the header (given for "
                        + "\(field) with --column \(field)=\(mapped))")
                }
                return try unique(mapped, index)
            }
            for alias in aliases {
                if let index = header.index(of: alias) { return try unique(alias, index) }
            }
            return nil
        }
        func unique(_ name: String, _ index: Int) throws(CatalogError) -> Int {
            guard header.count(of: name) == 1 else {
                throw .notACatalog(source: source, reason: "the header has more than one '\(name)' column")
            }
            return index
        }
        guard let title = try column("title", ["title", "primaryTitle", "original_title"]) else {
            throw .notACatalog(source: source, reason: "no title column in the header (title, primaryTitle or "
                + "original_title; name another with --column title=NAME)")
        }
        // A release_date column named with --column is the one meant, even where a year column exists.
        let datesChosen = options.columns["release_date"] != nil && options.columns["year"] == nil
        let year = datesChosen ? nil : try column("year", ["year", "startYear", "release_year"])
        let releaseDate = year == nil ? try column("release_date", ["release_date"]) : nil
        if year == nil && releaseDate == nil {
            throw .notACatalog(source: source, reason: "no year column in the header (year, startYear, release_year "
                + "or release_date; name another with --column year=NAME)")
        }
        let rating = try column("rating", ["rating", "vote_average", "averageRating"])
        let ratingIsTMDbs = options.columns["rating"] == nil && rating == header.index(of: "vote_average")
        let critic = try column("critic_rating", ["critic_rating", "metascore"])
        let criticIsMetascore = options.columns["critic_rating"] == nil && critic != nil
            && critic == header.index(of: "metascore")
        var originalTitle = try column("original_title", ["original_title", "originalTitle"])
        if originalTitle == title { originalTitle = nil }
        var tmdbID = try column("tmdb_id", ["tmdb_id"])
        if tmdbID == nil && header.count(of: "id") == 1
            && (header.index(of: "poster_path") != nil || header.index(of: "vote_average") != nil) {
            tmdbID = header.index(of: "id")
        }
        return Columns(
            title: title, year: year, releaseDate: releaseDate, rating: rating,
            voteCount: ratingIsTMDbs ? header.index(of: "vote_count") : nil,
            criticRating: critic, criticScale: options.criticScale ?? (criticIsMetascore ? 100 : 10),
            genres: try column("genres", ["genres"]), cast: try column("cast", ["cast"]),
            originalTitle: originalTitle, overview: try column("overview", ["overview"]),
            posterPath: try column("poster_path", ["poster_path"]), tmdbID: tmdbID,
            imdbID: try column("imdb_id", ["imdb_id", "tconst"]), names: header.names)
    }
}
