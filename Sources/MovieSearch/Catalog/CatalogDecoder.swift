/// Decodes a catalog from JSON bytes (SEARCH-SPEC, "Input catalog").
///
/// ```swift
/// let catalog = try CatalogDecoder.load(path: "movies.json", skipInvalid: true)
/// for problem in catalog.skipped { print(problem) }
/// ```
///
/// One pass over the bytes, straight into `Movie` values (see `CatalogReader`): in a release build about
/// 220 MB/s in a fresh process, so a few milliseconds for the 1 MB decade catalog and 0.6 s for the 131 MB
/// catalog of a million movies.
public enum CatalogDecoder {
    /// Decodes `bytes`; `source` names them in errors. With `skipInvalid`, invalid movies are skipped and listed in
    /// `Catalog.skipped`; without it, the first invalid movie throws. Throws `CatalogError`.
    ///
    /// Malformed JSON is reported wherever it is, even after an invalid movie: the whole input is always read.
    public static func decode(_ bytes: [UInt8], source: String, skipInvalid: Bool = false) throws -> Catalog {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CatalogError) -> Catalog in
            var reader = CatalogReader(bytes: buffer, source: source)
            return try reader.read(skipInvalid: skipInvalid)
        }
    }

    /// Reads and decodes the file at `path`. Throws `CatalogError`.
    public static func load(path: String, skipInvalid: Bool = false) throws -> Catalog {
        try load(path: FilePath(path), skipInvalid: skipInvalid)
    }

    /// `load(path:skipInvalid:)` for a path of raw bytes, which need not be valid UTF-8; errors name it escaped.
    package static func load(path: FilePath, skipInvalid: Bool = false) throws -> Catalog {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readAll(path: path)
        } catch {
            throw CatalogError.unreadable(source: path.description, reason: error.reason)
        }
        return try decode(bytes, source: path.description, skipInvalid: skipInvalid)
    }
}
