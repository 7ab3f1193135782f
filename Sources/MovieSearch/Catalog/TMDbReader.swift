/// Decodes TMDb API responses (a `/search/movie` or `/discover/movie` page, an array of pages, or an array of
/// movies) into movies. (Stub: issue 11.)
struct TMDbReader {
    private let source: String

    init(source: String) {
        self.source = source
    }

    /// Decodes `bytes`, a whole JSON document, into `builder`.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, into builder: inout CatalogBuilder) throws(CatalogError) {
        throw .notACatalog(source: source, reason: "TMDb JSON is not read yet")
    }
}
