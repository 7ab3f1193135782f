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

    /// The most bytes a catalog read from a stream (a pipe, a FIFO, a device, standard input) may hold: the
    /// bytes are kept in memory until the input ends, and a stream, unlike a regular file, need not end. Eight
    /// times the largest catalog known (250 MB); a larger one can be saved to a file first, which has no limit.
    public static let maximumStreamBytes = 2 << 30

    /// The most bytes a catalog file may hold: it is read whole into memory, so a file larger than any memory (a
    /// sparse file's size) is refused before the allocation is tried. Thirty times the largest catalog known.
    public static let maximumFileBytes = 8 << 30

    /// Reads and decodes the file at `path`. Throws `CatalogError`.
    ///
    /// A regular file is read whole, then decoded. Anything else (a FIFO, `/dev/stdin`, a device) is a stream:
    /// it is checked as it is read, so a stream that is not JSON (`/dev/zero`) fails at its first bad byte, with
    /// the same error as if it had ended just after it, and one that goes past `maximumStreamBytes` fails there.
    public static func load(path: String, skipInvalid: Bool = false) throws -> Catalog {
        try load(path: FilePath(path), skipInvalid: skipInvalid)
    }

    /// `load(path:skipInvalid:)` for a path of raw bytes, which need not be valid UTF-8; errors name it escaped.
    package static func load(path: FilePath, skipInvalid: Bool = false) throws -> Catalog {
        let input: JSONInput
        do {
            input = try JSONInput.read(path: path, maximumBytes: maximumStreamBytes, maximumFileBytes: maximumFileBytes)
        } catch {
            throw CatalogError.unreadable(source: path.description, reason: streamFailure(error))
        }
        return try decode(input, source: path.description, skipInvalid: skipInvalid)
    }

    /// Reads the catalog from `fileDescriptor` (standard input, for `index -`) as a stream, like `load(path:)`
    /// does for a path that is not a regular file; `source` names it in errors. Throws `CatalogError`.
    public static func load(fileDescriptor: Int32, source: String, skipInvalid: Bool = false,
                            maximumBytes: Int = maximumStreamBytes) throws -> Catalog {
        let input: JSONInput
        do {
            input = try JSONInput.read(descriptor: fileDescriptor, maximumBytes: maximumBytes)
        } catch {
            throw CatalogError.unreadable(source: source, reason: streamFailure(error))
        }
        return try decode(input, source: source, skipInvalid: skipInvalid)
    }

    /// The reason for a read failure, with advice when it is the stream limit.
    private static func streamFailure(_ failure: FileReader.Failure) -> String {
        switch failure {
        case .tooLarge(maximumStreamBytes):
            failure.reason + ", the most read from a pipe or device (save the catalog to a file and index that)"
        case .tooLarge(maximumFileBytes): failure.reason + ", the most a catalog file may hold"
        default: failure.reason
        }
    }

    /// Decodes what `JSONInput.read` read. When it stopped at a bad byte, the bytes it kept give the decoder's own
    /// malformed-JSON error at or before that byte; where they end too soon for that (the stream paused right after
    /// it), or should the decoder ever disagree with the checker, the error points at the bad byte rather than
    /// decoding a truncated catalog.
    static func decode(_ input: JSONInput, source: String, skipInvalid: Bool) throws(CatalogError)
        -> Catalog
    {
        guard let badByte = input.badByte else {
            return try input.bytes.withUnsafeBufferPointer { (buffer) throws(CatalogError) -> Catalog in
                var reader = CatalogReader(bytes: buffer, source: source)
                return try reader.read(skipInvalid: skipInvalid)
            }
        }
        do {
            _ = try decode(input.bytes, source: source, skipInvalid: skipInvalid)
        } catch let error as CatalogError {
            if case let .malformedJSON(_, _, _, offset, _) = error, input.reportsError(at: offset) { throw error }
        } catch {}
        let (line, column) = input.location(of: badByte)
        throw .malformedJSON(source: source, line: line, column: column, offset: badByte,
                             reason: JSONInput.badByteReason)
    }
}
