/// Decodes RFC 4180 CSV with a header row into movies. (Stub: issue 11.)
struct CSVReader {
    private let source: String
    private let options: CatalogOptions

    init(source: String, options: CatalogOptions) {
        self.source = source
        self.options = options
    }

    /// Reads the rows of `input` into `builder`.
    mutating func read(_ input: inout some ByteSource, into builder: inout CatalogBuilder) throws(CatalogError) {
        throw .notACatalog(source: source, reason: "CSV is not read yet")
    }
}
