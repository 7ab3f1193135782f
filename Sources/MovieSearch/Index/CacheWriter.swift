/// Builds the binary cache of a catalog and writes it atomically. (STUB: being implemented; signatures are final.)
public enum CacheWriter {
    /// What `write` produced.
    public struct Statistics: Sendable, Equatable {
        /// Movies stored.
        public var movies: Int
        /// Distinct title tokens in the term dictionary.
        public var distinctTokens: Int
        /// Size of the cache file in bytes.
        public var bytes: Int
    }

    /// The cache file's bytes for `catalog`.
    public static func encode(_ catalog: Catalog) -> [UInt8] { fatalError("not implemented yet") }

    /// Writes the cache of `catalog` to a temporary file beside `path`, then renames it into place, so that a
    /// failure leaves any previous file at `path` untouched. Throws `CacheError`.
    public static func write(_ catalog: Catalog, to path: String) throws -> Statistics { fatalError("not implemented yet") }
}
