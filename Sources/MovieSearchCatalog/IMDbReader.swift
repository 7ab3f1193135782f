import MovieSearchInput

/// Decodes IMDb's `title.basics.tsv`, joined with `title.ratings.tsv` on `tconst`.
///
/// ```swift
/// var reader = IMDbReader(source: "title.basics.tsv", options: options)
/// try reader.readRatings(&ratingsInput, source: "title.ratings.tsv")  // optional: without it, all unrated
/// try reader.read(&basicsInput, into: &builder)
/// ```
///
/// Both files are tab-separated with a header row; columns are found by their names (`tconst`, `titleType`,
/// `primaryTitle`, `originalTitle`, `startYear`, `genres` in the basics; `tconst`, `averageRating` in the ratings),
/// so their order does not matter and other columns (`isAdult`, `endYear`, `runtimeMinutes`, `numVotes`) are
/// ignored. There is no quoting: a `"` is a character of the title. `\N` is null.
///
/// A title is the movie at its data row's position (the header excluded), whatever comes of the rows before it:
/// - a title whose `titleType` is not among `CatalogOptions.titleTypes` is left out (`CatalogBuilder.filterOut`),
///   whatever else is wrong with it (a row too short to have a `titleType` is not left out, but invalid);
/// - invalid, with its line: a row whose number of fields differs from the header's (field `row`), a missing or
///   blank `primaryTitle`, a missing or non-integer `startYear` (IMDb's year, so a title not yet released, with
///   `\N` there, is invalid: index IMDb with `--skip-invalid`), text that is not UTF-8. The reader parses; the
///   checks every format shares (a blank title, a year a cache cannot store) are `CatalogBuilder`'s;
/// - otherwise a movie: `title` = `primaryTitle`, `year` = `startYear`, `genres` split at commas, `imdbID` =
///   `tconst`, `originalTitle` when it differs from the title, `rating` = the title's `averageRating`, or unrated.
///
/// Streamed through `DelimitedRecordReader`: memory is the buffer, the movies and the ratings table
/// (`IMDbRatings`), never the file.
struct IMDbReader {
    private let source: String
    private let options: CatalogOptions
    private var ratings = IMDbRatings()

    /// A reader of the IMDb catalog `source` names in errors, with the options that apply to it.
    init(source: String, options: CatalogOptions) {
        self.source = source
        self.options = options
    }

    private static let tab = UInt8(ascii: "\t")

    /// The columns the builder checks, as its messages name them.
    private static let fieldNames = CatalogRecord.FieldNames(title: "primaryTitle", year: "startYear",
                                                             rating: "averageRating")

    /// Reads `title.ratings.tsv` (`source` names it in errors), before `read`. A row for a title the basics do not
    /// have is kept and never asked for. Throws `notACatalog` for a header without `tconst` or `averageRating`,
    /// and for a malformed row (its line given): the ratings are all or nothing, as a half-read file would rate
    /// some titles and silently not others.
    mutating func readRatings(_ input: inout some ByteSource, source: String) throws(CatalogError) {
        var records = DelimitedRecordReader(source: source, separator: Self.tab, quoting: false)
        guard try records.next(from: &input) else {
            throw .invalidRatings(source: source, reason: "the file is empty (no header line)")
        }
        let header = DelimitedHeader(records)
        guard let tconst = header.index(of: "tconst") else {
            throw .invalidRatings(source: source, reason: "no 'tconst' column in the header")
        }
        guard let averageRating = header.index(of: "averageRating") else {
            let basics = header.index(of: "primaryTitle") != nil
            throw .invalidRatings(source: source, reason: "no 'averageRating' column in the header"
                + (basics ? " (this is title.basics.tsv: give title.ratings.tsv with --ratings)" : ""))
        }
        func malformed(_ reason: String, line: Int) -> CatalogError {
            .invalidRatings(source: source, reason: "a malformed row at line \(line): \(reason)")
        }
        var rows = 0
        while try records.next(from: &input) {
            rows += 1
            if rows > options.maximumRecords {
                throw .invalidRatings(source: source, reason: "more than \(options.maximumRecords) rows, the most "
                    + "a ratings file may hold (raise the limit with index --max-movies N)")
            }
            guard records.fieldCount == header.count else {
                throw malformed("it has \(records.fieldCount) fields, the header \(header.count)", line: records.line)
            }
            let id = records.field(tconst)
            guard let key = IMDbRatings.key(of: id) else {
                throw malformed("tconst must be tt and digits, got \(DelimitedField.describe(id))", line: records.line)
            }
            let field = records.field(averageRating)
            if DelimitedField.isNull(field) { continue }
            guard let rating = DelimitedField.double(field) else {
                throw malformed("averageRating must be a number, got \(DelimitedField.describe(field))",
                                line: records.line)
            }
            // Checked here rather than title by title: the ratings are all or nothing.
            if let reason = RecordChecks.ratingProblem(rating, field: "averageRating",
                                                       written: DelimitedField.describe(field)) {
                throw malformed(reason, line: records.line)
            }
            ratings.append(key, rating)
        }
        ratings.finish()
    }

    /// Reads `title.basics.tsv` into `builder`. Throws `notACatalog` for a header without `tconst`,
    /// `primaryTitle` or `startYear` (or `titleType`, when title types are chosen), and the first invalid title
    /// unless `builder.skipInvalid`.
    mutating func read(_ input: inout some ByteSource, into builder: inout CatalogBuilder) throws(CatalogError) {
        var records = DelimitedRecordReader(source: source, separator: Self.tab, quoting: false)
        guard try records.next(from: &input) else {
            throw .notACatalog(source: source, reason: "the file is empty (no header line)")
        }
        let header = DelimitedHeader(records)
        func column(_ name: String) throws(CatalogError) -> Int {
            guard let index = header.index(of: name) else {
                throw .notACatalog(source: source, reason: "no '\(name)' column in the header")
            }
            return index
        }
        let tconst = try column("tconst")
        let primaryTitle = try column("primaryTitle")
        let startYear = try column("startYear")
        let titleType = options.titleTypes == nil ? nil : try column("titleType")
        let originalTitle = header.index(of: "originalTitle")
        let genres = header.index(of: "genres")
        // The types asked for, as bytes: a row's type is compared without making a string.
        let wantedTypes = options.titleTypes.map { types in types.map { Array($0.utf8) } }
        var genreLists = StringListCache()
        let fieldCount = header.count

        while try records.next(from: &input) {
            let line = records.line
            func invalid(_ field: String, _ reason: String) throws(CatalogError) {
                try builder.reject(RecordProblem(field: field, reason: reason, place: line))
            }
            // The type first: a title of a type not asked for is left out whatever else is wrong with its row.
            if let titleType, let wantedTypes, titleType < records.fieldCount {
                let type = records.field(titleType)
                if !wantedTypes.contains(where: { wanted in
                    wanted.withUnsafeBufferPointer { DelimitedField.equals(type, $0) }
                }) {
                    try builder.filterOut()
                    continue
                }
            }
            guard records.fieldCount == fieldCount else {
                try invalid("row", "the row has \(records.fieldCount) fields, the header \(fieldCount)")
                continue
            }

            // An empty title is the builder's to refuse, as a blank one is; `\N` says there is none.
            let titleField = records.field(primaryTitle)
            if !titleField.isEmpty && DelimitedField.isNull(titleField) {
                try invalid("primaryTitle", "primaryTitle is missing (\\N)")
                continue
            }
            guard let title = DelimitedField.string(titleField) else {
                try invalid("primaryTitle", "primaryTitle is not valid UTF-8")
                continue
            }

            let yearField = records.field(startYear)
            if DelimitedField.isNull(yearField) {
                try invalid("startYear", "startYear is missing (\(yearField.isEmpty ? "empty" : "\\N"))")
                continue
            }
            guard let year = DelimitedField.wholeNumber(yearField) else {
                try invalid("startYear", "startYear must be an integer year, got \(DelimitedField.describe(yearField))")
                continue
            }

            var original: String?
            if let originalTitle {
                let field = records.field(originalTitle)
                if !DelimitedField.isNull(field) && !DelimitedField.equals(field, titleField) {
                    guard let text = DelimitedField.string(field) else {
                        try invalid("originalTitle", "originalTitle is not valid UTF-8")
                        continue
                    }
                    original = text
                }
            }

            var genreList: [String] = []
            if let genres {
                let field = records.field(genres)
                if !DelimitedField.isNull(field) {
                    do {
                        genreList = try genreLists.list(for: field) { (bytes) throws(RecordProblem) -> [String] in
                            guard let text = DelimitedField.string(bytes) else {
                                throw RecordProblem(field: "genres", reason: "genres is not valid UTF-8", place: line)
                            }
                            return text.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
                        }
                    } catch {
                        try builder.reject(error)
                        continue
                    }
                }
            }

            let idField = records.field(tconst)
            var imdbID: String?
            var rating: Double?
            if !DelimitedField.isNull(idField) {
                guard let text = DelimitedField.string(idField) else {
                    try invalid("tconst", "tconst is not valid UTF-8")
                    continue
                }
                imdbID = text
                if ratings.count > 0, let key = IMDbRatings.key(of: idField) { rating = ratings.rating(for: key) }
            }
            try builder.add(CatalogRecord(title: title, year: year, rating: rating, genres: genreList,
                                          originalTitle: original, imdbID: imdbID, titlePlace: line, yearPlace: line,
                                          ratingPlace: line, yearText: yearField),
                            names: Self.fieldNames)
        }
    }
}
