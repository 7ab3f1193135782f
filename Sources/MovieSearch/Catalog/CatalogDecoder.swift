/// Decodes a catalog from JSON bytes (SEARCH-SPEC, "Input catalog"). (STUB: being implemented.)
public enum CatalogDecoder {
    /// Decodes `bytes`; `source` names them in errors. With `skipInvalid`, invalid movies are skipped and listed in
    /// `Catalog.skipped`; without it, the first invalid movie throws. Throws `CatalogError`.
    public static func decode(_ bytes: [UInt8], source: String, skipInvalid: Bool = false) throws -> Catalog {
        fatalError("not implemented yet")
    }

    /// Reads and decodes the file at `path`. Throws `CatalogError`.
    public static func load(path: String, skipInvalid: Bool = false) throws -> Catalog {
        fatalError("not implemented yet")
    }
}
