import MovieSearchJSON

/// Collects what a catalog reader decodes, in input order: the valid movies, the invalid records, and the records
/// left out on purpose. Every reader (moviesearch JSON, TMDb, IMDb TSV, CSV) only parses, and hands each record to
/// one builder, which decides for all of them what every format shares:
/// - the checks of `RecordChecks` on each `CatalogRecord` (a title that is not blank, a year a cache can store, a
///   finite rating), in the same words for every format;
/// - a record's id: its position among the records, counting from 0, whatever came of the ones before it;
/// - the record limit, `CatalogOptions.maximumRecords`: a record past it stops the read with
///   `CatalogError.tooManyRecords`, whatever the record is (valid, invalid, left out or repeated);
/// - the errors of invalid records: a `RecordProblem` (the reader's, or a check's) located, worded as
///   `CatalogError.invalidMovie`, and thrown or kept in `Catalog.skipped` (the first `Catalog.maximumSkippedKept`);
/// - how a catalog is held in memory (`MovieColumns`), and the progress reports.
///
/// A record has one problem reported, the first to fix: its reader's (found while parsing), else the first check
/// it fails, in the order title, year, rating.
///
/// ```swift
/// var builder = CatalogBuilder(source: "films.csv", options: options, layout: .rows)
/// try builder.add(record, names: names)       // or reject(problem), or filterOut()
/// let catalog = try builder.finish(format: .csv)
/// ```
struct CatalogBuilder {
    /// How the input holds its records: it decides how a problem's place reads, how a value is shown, and when an
    /// invalid record stops the read.
    enum Layout {
        /// A JSON document, whole in memory: places are byte offsets in it, told as "(line L, column C)", and
        /// values are shown as JSON writes them (`2010.5`). Invalid records are thrown by `finish(format:)` only,
        /// since the reader must first read the whole document: malformed JSON anywhere, then a document that is
        /// not a catalog, come before the first invalid movie.
        case document(UnsafeBufferPointer<UInt8>)
        /// Rows of TSV or CSV, streamed: a place is the line a row starts on, told as "(line L)", and values are
        /// shown quoted (`"2010.5"`). Without `skipInvalid`, the first invalid row stops the read at once.
        case rows
    }

    /// Names the catalog in errors.
    let source: String
    /// Whether invalid records are skipped rather than stopping the read.
    let skipInvalid: Bool
    /// The most records read (`CatalogOptions.maximumRecords`).
    let maximumRecords: Int
    private let layout: Layout
    /// Locates problems in a document; they come in document order, so it never rescans.
    private var lines: LineCounter
    /// Drop a valid record whose TMDb id a movie kept already has (`TMDbReader`: pages fetched while TMDb's ranking
    /// moved overlap); the first is kept, the others counted in `Catalog.duplicates`.
    var dropsRepeatedTMDbIDs = false
    private var keptTMDbIDs: Set<Int> = []

    private var movies = MovieColumns()
    /// Without `skipInvalid`, the first invalid record's error (thrown at once for rows, by `finish` for a
    /// document); with it, the first `Catalog.maximumSkippedKept`.
    private var skipped: [CatalogError] = []
    private var skippedCount = 0
    private var filteredOut = 0
    private var duplicates = 0

    /// Told the record count every `progressInterval` records.
    private let progress: IndexingProgressHandler?
    /// Given the titles of the movies kept, `titleBatchSize` at a time (`CatalogOptions.titlesRead`).
    private let titlesRead: (@Sendable (TextColumn) -> Void)?
    /// Movies whose titles `titlesRead` has been given.
    private var titlesHandedOver = 0
    /// Titles in a batch: 16,384 are about 300 KB of IMDb's, copied once, a few milliseconds of tokenizing.
    static let titleBatchSize = 1 << 14
    /// Records taken so far, of every kind: the next one's id.
    private var records = 0
    /// Records between two progress reports: often enough for a display redrawn ten times a second at a million
    /// records a second, rare enough to cost nothing.
    static let progressInterval = 1 << 14

    /// A builder for the catalog `source` names in errors, read with `options` (`skipInvalid`, `maximumRecords`,
    /// `progress`) from an input laid out as `layout`.
    init(source: String, options: CatalogOptions, layout: Layout) {
        self.source = source
        skipInvalid = options.skipInvalid
        maximumRecords = options.maximumRecords
        progress = options.progress
        titlesRead = options.titlesRead
        self.layout = layout
        switch layout {
        case .document(let bytes): lines = LineCounter(bytes: bytes)
        case .rows: lines = LineCounter(bytes: UnsafeBufferPointer(start: nil, count: 0))
        }
    }

    /// A builder that is never used, for a reader to hold until it swaps the caller's in (see `TMDbReader`).
    static var placeholder: CatalogBuilder {
        CatalogBuilder(source: "", options: CatalogOptions(titleTypes: nil), layout: .rows)
    }

    /// Movies kept so far.
    var movieCount: Int { movies.count }

    /// Room for `count` movies in all, when a reader can tell how many are coming.
    mutating func reserveCapacity(_ count: Int) {
        movies.reserveCapacity(count)
    }

    /// Takes the next record: checks it, then keeps it as a `Movie` at its position, or rejects it with its first
    /// problem (see `reject(_:)`). Throws `tooManyRecords` past the limit, and an invalid row at once (`.rows`,
    /// without `skipInvalid`).
    mutating func add(_ record: CatalogRecord, names: CatalogRecord.FieldNames) throws(CatalogError) {
        if let reason = RecordChecks.titleProblem(record.title, field: names.title) {
            return try reject(RecordProblem(field: names.title, reason: reason, place: record.titlePlace))
        }
        guard let year = RecordChecks.year(record.year) else {
            let reason = RecordChecks.yearRefusal(record.year, field: names.year, written: describe(record.yearText))
            return try reject(RecordProblem(field: names.year, reason: reason, place: record.yearPlace))
        }
        if let rating = record.rating,
           let reason = RecordChecks.ratingProblem(rating, field: names.rating, written: describe(record.ratingText)) {
            return try reject(RecordProblem(field: names.rating, reason: reason, place: record.ratingPlace))
        }
        if let critic = record.criticRating,
           let reason = RecordChecks.criticRatingProblem(critic, field: names.criticRating, scale: names.criticScale,
                                                         written: describe(record.criticRatingText)) {
            return try reject(RecordProblem(field: names.criticRating, reason: reason,
                                            place: record.criticRatingPlace))
        }
        let id = try take()
        // A document with an invalid movie, read without skipping, fails at its end: its movies are not needed.
        if !skipInvalid && !skipped.isEmpty { return }
        if dropsRepeatedTMDbIDs, let tmdbID = record.tmdbID, !keptTMDbIDs.insert(tmdbID).inserted {
            duplicates += 1
            return
        }
        movies.append(record, id: id, year: year)
        if let titlesRead, movies.count - titlesHandedOver == Self.titleBatchSize {
            titlesRead(movies.titles.slice(titlesHandedOver..<movies.count))
            titlesHandedOver = movies.count
        }
    }

    /// Takes the next record as invalid, for `problem`: thrown at once for rows without `skipInvalid`, else kept
    /// (`finish` throws the first one of a document without `skipInvalid`). Only an error kept is located and
    /// worded. Throws `tooManyRecords` past the limit.
    mutating func reject(_ problem: RecordProblem) throws(CatalogError) {
        let index = try take()
        skippedCount += 1
        guard skipInvalid ? skipped.count < Catalog.maximumSkippedKept : skipped.isEmpty else { return }
        let error = CatalogError.invalidMovie(source: source, index: index, field: problem.field,
                                              reason: problem.reason + " " + locate(problem.place))
        if case .rows = layout, !skipInvalid { throw error }
        skipped.append(error)
    }

    /// Takes the next record as one the options leave out (an IMDb title of a type not asked for): not an error,
    /// only counted, its id left unused. Throws `tooManyRecords` past the limit.
    mutating func filterOut() throws(CatalogError) {
        _ = try take()
        filteredOut += 1
    }

    /// The catalog, in `format`. Throws a document's first invalid movie, unless invalid records are skipped.
    /// `titlesRead` is given the titles not handed over yet (an empty batch when there are none: the end).
    func finish(format: CatalogFormat) throws(CatalogError) -> Catalog {
        if !skipInvalid, let first = skipped.first { throw first }
        titlesRead?(movies.titles.slice(titlesHandedOver..<movies.count))
        var catalog = Catalog(columns: movies, skipped: skipped, skippedCount: skippedCount)
        catalog.format = format
        catalog.filteredOut = filteredOut
        catalog.duplicates = duplicates
        return catalog
    }

    /// The id of the next record, its position; throws `tooManyRecords` when `maximumRecords` have been taken.
    /// Reports progress every `progressInterval` records.
    private mutating func take() throws(CatalogError) -> Int {
        guard records < maximumRecords else { throw .tooManyRecords(source: source, limit: maximumRecords) }
        let id = records
        records += 1
        if records & (Self.progressInterval - 1) == 0, let progress {
            progress(IndexingProgress(phase: .reading, records: records))
        }
        return id
    }

    /// `place` as a message ends with: "(line 12, column 21)" in a document, "(line 12)" for a row.
    private mutating func locate(_ place: Int) -> String {
        switch layout {
        case .document(let bytes):
            let (line, column) = lines.advance(to: place, in: bytes)
            return "(line \(line), column \(column))"
        case .rows:
            return "(line \(place))"
        }
    }

    /// A value as written, as a message shows it: a JSON literal as it is (`2010.5`), a field quoted (`"2010.5"`).
    private func describe(_ text: UnsafeBufferPointer<UInt8>) -> String {
        switch layout {
        case .document: JSONReader.describe(numberLiteral: text)
        case .rows: DelimitedField.describe(text)
        }
    }
}
