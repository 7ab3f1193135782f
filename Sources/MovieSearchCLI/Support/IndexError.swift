/// Why `index` refused to write, leaving every file as it was: writing would lose data (the catalog itself, or a
/// cache replaced by one of no movie). Errors in reading the catalog are `CatalogError`s.
enum IndexError: Error, Equatable, CustomStringConvertible {
    /// The output is the catalog itself (the same file, through a symbolic or hard link too): writing the cache
    /// would replace the catalog.
    case outputIsCatalog(catalog: String, output: String)
    /// The output is the IMDb ratings file given with `--ratings` (the same file, through a link too).
    case outputIsRatings(ratings: String, output: String)
    /// Every movie of the catalog was invalid and skipped: a cache of no movie would replace a good one.
    case noValidMovie(catalog: String, skipped: Int, firstReason: String)
    /// The catalog lists no movie at all.
    case emptyCatalog(catalog: String)

    var description: String {
        switch self {
        case let .outputIsCatalog(catalog, output):
            return catalog == output
                ? "the output \(output) is the catalog itself; give another path with -o <cache>"
                : "the output \(output) is the catalog \(catalog) (the same file); give another path with -o <cache>"
        case let .outputIsRatings(ratings, output):
            return ratings == output
                ? "the output \(output) is the ratings file; give another path with -o <cache>"
                : "the output \(output) is the ratings file \(ratings) (the same file); give another path with -o <cache>"
        case let .noValidMovie(catalog, skipped, firstReason):
            return "no valid movie in \(catalog): \(skipped) skipped, nothing written (the first: \(firstReason))"
        case let .emptyCatalog(catalog):
            return "no movie in \(catalog): the catalog is empty, nothing written"
        }
    }
}
