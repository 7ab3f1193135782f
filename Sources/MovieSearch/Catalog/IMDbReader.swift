/// Decodes IMDb's `title.basics.tsv`, joined with `title.ratings.tsv` on `tconst`. (Stub: issue 11.)
struct IMDbReader {
    private let source: String
    private let options: CatalogOptions

    init(source: String, options: CatalogOptions) {
        self.source = source
        self.options = options
    }

    /// Reads `title.ratings.tsv` (`source` names it in errors), before `read`.
    mutating func readRatings(_ input: inout some ByteSource, source: String) throws(CatalogError) {
        throw .notACatalog(source: source, reason: "IMDb TSV is not read yet")
    }

    /// Reads `title.basics.tsv` into `builder`.
    mutating func read(_ input: inout some ByteSource, into builder: inout CatalogBuilder) throws(CatalogError) {
        throw .notACatalog(source: source, reason: "IMDb TSV is not read yet")
    }
}
