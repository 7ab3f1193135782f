/// Collects what a catalog reader decodes, in input order: the valid movies, the invalid records, and the records
/// left out on purpose. Every reader (JSON, TMDb, IMDb TSV, CSV) hands its movies to one, so that how a catalog is
/// held in memory is decided in one place.
struct CatalogBuilder {
    /// Whether invalid records are skipped rather than stopping the read.
    let skipInvalid: Bool
    private var movies = MovieColumns()
    private var skipped: [CatalogError] = []
    private var skippedCount = 0
    private var filteredOut = 0
    private var duplicates = 0

    /// Told the record count every `progressInterval` records.
    private let progress: IndexingProgressHandler?
    private var records = 0
    /// Records between two progress reports: often enough for a display redrawn ten times a second at a million
    /// records a second, rare enough to cost nothing.
    static let progressInterval = 1 << 14

    init(skipInvalid: Bool, progress: IndexingProgressHandler? = nil) {
        self.skipInvalid = skipInvalid
        self.progress = progress
    }

    /// Counts one record read, and reports progress every `progressInterval`.
    private mutating func count() {
        records += 1
        if records & (Self.progressInterval - 1) == 0, let progress {
            progress(IndexingProgress(phase: .reading, records: records))
        }
    }

    /// Movies added so far.
    var movieCount: Int { movies.count }

    /// Room for `count` movies in all, when a reader can tell how many are coming.
    mutating func reserveCapacity(_ count: Int) {
        movies.reserveCapacity(count)
    }

    /// Adds a valid movie. Ids must ascend from one call to the next.
    mutating func add(_ movie: Movie) {
        movies.append(movie)
        count()
    }

    /// An invalid record: thrown at once without `skipInvalid`, else listed in `Catalog.skipped`.
    mutating func reject(_ error: CatalogError) throws(CatalogError) {
        guard skipInvalid else { throw error }
        if skipped.count < Catalog.maximumSkippedKept { skipped.append(error) }
        skippedCount += 1
        count()
    }

    /// A record the options leave out (an IMDb title of a type not asked for): not an error, only counted.
    mutating func filterOut() {
        filteredOut += 1
        count()
    }

    /// A record that repeats an earlier one (a TMDb id seen on two overlapping pages): the first is kept.
    mutating func dropDuplicate() {
        duplicates += 1
        count()
    }

    /// The catalog, in `format`.
    func finish(format: CatalogFormat) -> Catalog {
        var catalog = Catalog(columns: movies, skipped: skipped, skippedCount: skippedCount)
        catalog.format = format
        catalog.filteredOut = filteredOut
        catalog.duplicates = duplicates
        return catalog
    }
}
