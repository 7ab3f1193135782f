/// Collects what a catalog reader decodes, in input order: the valid movies, the invalid records, and the records
/// left out on purpose. Every reader (JSON, TMDb, IMDb TSV, CSV) hands its movies to one, so that how a catalog is
/// held in memory is decided in one place.
struct CatalogBuilder {
    /// Whether invalid records are skipped rather than stopping the read.
    let skipInvalid: Bool
    private var movies = MovieColumns()
    private var skipped: [CatalogError] = []
    private var filteredOut = 0
    private var duplicates = 0

    init(skipInvalid: Bool) {
        self.skipInvalid = skipInvalid
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
    }

    /// An invalid record: thrown at once without `skipInvalid`, else listed in `Catalog.skipped`.
    mutating func reject(_ error: CatalogError) throws(CatalogError) {
        guard skipInvalid else { throw error }
        skipped.append(error)
    }

    /// A record the options leave out (an IMDb title of a type not asked for): not an error, only counted.
    mutating func filterOut() {
        filteredOut += 1
    }

    /// A record that repeats an earlier one (a TMDb id seen on two overlapping pages): the first is kept.
    mutating func dropDuplicate() {
        duplicates += 1
    }

    /// The catalog, in `format`.
    func finish(format: CatalogFormat) -> Catalog {
        var catalog = Catalog(columns: movies, skipped: skipped)
        catalog.format = format
        catalog.filteredOut = filteredOut
        catalog.duplicates = duplicates
        return catalog
    }
}
