import MovieSearchInput
import MovieSearchJSON
import MovieSearchPlatform

/// Reads movie catalogs: moviesearch's own JSON (SPEC.md, "Catalogs"), TMDb API responses, IMDb's TSV
/// files and CSV, gzipped or not, the format told from the first bytes (`CatalogFormat`) or named.
///
/// ```swift
/// let catalog = try CatalogDecoder.load(path: "movies.json", skipInvalid: true)
/// for problem in catalog.skipped { print(problem) }
/// let imdb = try CatalogDecoder.load(path: "title.basics.tsv.gz",
///                                    options: CatalogOptions(skipInvalid: true, ratingsPath: "title.ratings.tsv.gz"))
/// ```
///
/// JSON is read whole, then decoded in one pass over its bytes, straight into the catalog's columns (see
/// `MovieSearchJSONReader`, `TMDbReader`), which keeps reading a small part of indexing. TSV and CSV are decoded as
/// they are read, through a buffer of 1 MiB (`DelimitedRecordReader`), so that all of IMDb is never in memory as
/// text. The speeds: PERFORMANCE.md, "Figures behind the code".
public enum CatalogDecoder {
    /// Decodes `bytes`; `source` names them in errors. With `skipInvalid`, invalid movies are skipped and listed in
    /// `Catalog.skipped`; without it, the first invalid movie throws. Throws `CatalogError`.
    ///
    /// Malformed JSON is reported wherever it is, even after an invalid movie: the whole input is always read.
    public static func decode(_ bytes: [UInt8], source: String, skipInvalid: Bool = false) throws -> Catalog {
        try decode(bytes, format: .json, source: source, options: CatalogOptions(skipInvalid: skipInvalid))
    }

    /// Decodes `bytes`, a whole JSON document in `format` (`.json` or `.tmdb`), with the reader of that format and
    /// a builder that locates problems in them (`CatalogBuilder.Layout.document`).
    private static func decode(_ bytes: [UInt8], format: CatalogFormat, source: String, options: CatalogOptions)
        throws(CatalogError) -> Catalog
    {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CatalogError) -> Catalog in
            var builder = CatalogBuilder(source: source, options: options, layout: .document(buffer))
            if format == .tmdb {
                var reader = TMDbReader()
                try reader.read(buffer, into: &builder)
            } else {
                var reader = MovieSearchJSONReader(bytes: buffer)
                try reader.read(into: &builder)
            }
            return try builder.finish(format: format)
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
        return try decode(input, source: path.description, options: CatalogOptions(skipInvalid: skipInvalid))
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
        return try decode(input, source: source, options: CatalogOptions(skipInvalid: skipInvalid))
    }

    /// How many bytes `load(path:options:)` looks at to tell the format: enough for a long CSV header line.
    static let detectionBytes = 1 << 16

    /// Reads and decodes the catalog at `path` in the format `options` names, or the one its first bytes show.
    /// A gzip file (`.gz`, or any file that starts with gzip's magic bytes) is decoded as it is read. Throws
    /// `CatalogError`.
    public static func load(path: String, options: CatalogOptions) throws -> Catalog {
        try load(path: FilePath(path), options: options)
    }

    /// `load(path:options:)` for a path of raw bytes, which need not be valid UTF-8; errors name it escaped.
    package static func load(path: FilePath, options: CatalogOptions) throws(CatalogError) -> Catalog {
        try load(open(path), source: path.description, options: options)
    }

    /// Opens the catalog at `path` for reading. Throws `CatalogError.unreadable`.
    package static func open(_ path: FilePath) throws(CatalogError) -> CatalogInput {
        do {
            return try CatalogInput(path: path)
        } catch {
            throw .unreadable(source: path.description, reason: inputFailure(error))
        }
    }

    /// The format of the catalog `input` holds, told from its first bytes (`CatalogFormat.detect`), which stay to
    /// be read. Throws `CatalogError.unreadable`, or `notACatalog` when it is none of the formats.
    package static func format(of input: CatalogInput, source: String) throws(CatalogError) -> CatalogFormat {
        while true {
            let prefix: (bytes: [UInt8], isComplete: Bool)
            do {
                prefix = try input.peek(upTo: detectionBytes)
            } catch {
                throw .unreadable(source: source, reason: inputFailure(error))
            }
            switch CatalogFormat.detect(prefix.bytes, isComplete: prefix.isComplete) {
            case let .success(found?): return found
            case .success(nil): continue  // A stream that has not yet shown enough.
            case .failure(.empty) where prefix.bytes.count == detectionBytes:
                // Not empty: white space fills the bytes looked at, and the format is past them.
                throw .notACatalog(source: source, reason: "its first \(detectionBytes >> 10) KiB are white space "
                    + "only, so its format cannot be told (name it with --format)")
            case let .failure(failure): throw .notACatalog(source: source, reason: failure.description)
            }
        }
    }

    /// Decodes the catalog `input` holds; `source` names it in errors. IMDb ratings are read from `ratings` (an
    /// input already open, standard input for `--ratings -`, and its name for errors), else from the file
    /// `ratingsPath`, else from `options.ratingsPath`; their errors name the ratings, not the catalog.
    /// `formatDetected` says that `options.format` is what `format(of:source:)` told from the first bytes rather
    /// than the user's choice: JSON's kind (the catalog's own or TMDb's) is then told again from the whole
    /// document, which the first bytes of a short file or a stream may not show. Throws `CatalogError`.
    package static func load(_ input: CatalogInput, source: String, options: CatalogOptions,
                             ratingsPath: FilePath? = nil, ratings: (input: CatalogInput, name: String)? = nil,
                             formatDetected: Bool = false) throws(CatalogError) -> Catalog
    {
        do {
            var catalog = try decodeFormat(input, source: source, options: options, ratingsPath: ratingsPath,
                                           ratings: ratings, formatDetected: formatDetected)
            // A critics' column of a scale given is stored on 0 to 10 whatever that scale (a Metascore divided by
            // 10): its ratings are on 10, not on the smallest scale that holds the ones this catalog has.
            if options.criticScale != nil { catalog.criticRatingScale = .ten }
            return catalog
        } catch {
            throw gzipFailure(behind: error, in: input, source: source) ?? error
        }
    }

    /// The most decoded bytes `gzipFailure(behind:in:source:)` reads past an error to find a damaged gzip block.
    static let gzipCheckBytes = 1 << 30

    /// Damaged gzip data behind `error`, when the catalog is gzip and reading the rest of it shows a damaged block
    /// or a wrong checksum: a flipped byte in deflate data first turns into wrong text, which a reader reports as
    /// malformed JSON or a bad row before zlib reaches the checksum that tells the truth. `nil` when the input is
    /// not gzip, the error is already about the input, or the rest decodes (up to `gzipCheckBytes`).
    private static func gzipFailure(behind error: CatalogError, in input: CatalogInput, source: String)
        -> CatalogError?
    {
        switch error {
        case .unreadable, .unreadableRatings, .invalidRatings, .tooManyRecords: return nil
        case .malformedJSON, .notACatalog, .invalidMovie: break
        }
        guard input.isGzip else { return nil }
        var chunk = [UInt8](repeating: 0, count: CatalogInput.chunkSize)
        var read = 0
        var rest = input
        do {
            while read < gzipCheckBytes {
                let count = try rest.read(into: &chunk, count: chunk.count)
                if count == 0 { return nil }
                read += count
            }
        } catch {
            if case .corruptGzip = error { return .unreadable(source: source, reason: error.reason) }
        }
        return nil
    }

    /// `load(_:source:options:ratingsPath:formatDetected:)` without the look for damaged gzip data.
    private static func decodeFormat(_ input: CatalogInput, source: String, options: CatalogOptions,
                                     ratingsPath: FilePath?, ratings: (input: CatalogInput, name: String)?,
                                     formatDetected: Bool) throws(CatalogError) -> Catalog
    {
        var format: CatalogFormat
        if let chosen = options.format { format = chosen } else { format = try self.format(of: input, source: source) }
        switch format {
        case .json, .tmdb:
            let json = try readJSON(input, source: source)
            // A detected JSON format is told apart (moviesearch's or TMDb's) on the document itself.
            if (options.format == nil || formatDetected) && json.badByte == nil {
                format = CatalogFormat.jsonFormat(of: json.bytes)
            }
            if format == .json { return try decode(json, source: source, options: options) }
            // A stream that stopped at a byte that is not JSON: the catalog decoder words that error.
            if json.badByte != nil { _ = try decode(json, source: source, options: options) }
            return try decode(json.bytes, format: .tmdb, source: source, options: options)
        case .imdb:
            var reader = IMDbReader(source: source, options: options)
            if let ratings {
                try readRatings(ratings.input, source: ratings.name, into: &reader)
            } else if let ratingsPath = ratingsPath ?? options.ratingsPath.map(FilePath.init) {
                let input: CatalogInput
                do {
                    input = try CatalogInput(path: ratingsPath)
                } catch {
                    throw .unreadableRatings(source: ratingsPath.description, reason: inputFailure(error))
                }
                try readRatings(input, source: ratingsPath.description, into: &reader)
            }
            var builder = CatalogBuilder(source: source, options: options, layout: .rows)
            var basics = input
            try reader.read(&basics, into: &builder)
            return try builder.finish(format: format)
        case .csv:
            var builder = CatalogBuilder(source: source, options: options, layout: .rows)
            var reader = CSVReader(source: source, options: options)
            var rows = input
            try reader.read(&rows, into: &builder)
            return try builder.finish(format: format)
        }
    }

    /// Reads IMDb's ratings from `input` into `reader`; every error names the ratings (`source`), not the catalog.
    private static func readRatings(_ input: CatalogInput, source: String, into reader: inout IMDbReader)
        throws(CatalogError)
    {
        var ratings = input
        do {
            try reader.readRatings(&ratings, source: source)
        } catch {
            switch error {
            case let .unreadable(_, reason), let .unreadableRatings(_, reason):
                throw .unreadableRatings(source: source, reason: reason)
            case .tooManyRecords:
                throw error
            case let .notACatalog(_, reason), let .invalidMovie(_, _, _, reason), let .invalidRatings(_, reason),
                 let .malformedJSON(_, _, _, _, reason):
                throw .invalidRatings(source: source, reason: reason)
            }
        }
    }

    /// The whole JSON document of `input`: a regular file read whole in one allocation; a stream or a gzip file
    /// checked as it arrives (`JSONInput.read(from:maximumBytes:)`), bounded by `maximumStreamBytes`.
    private static func readJSON(_ input: CatalogInput, source: String) throws(CatalogError) -> JSONInput {
        do throws(InputError) {
            if input.isRegularFile && !input.isGzip {
                if input.fileSize > maximumFileBytes { throw InputError.tooLarge(maximumFileBytes) }
                return JSONInput(bytes: try input.readAll(maximumBytes: maximumFileBytes), badByte: nil)
            }
            var stream = input
            return try JSONInput.read(from: &stream, maximumBytes: maximumStreamBytes)
        } catch {
            if case .file(.tooLarge(let limit)) = error, input.isRegularFile, input.isGzip {
                throw .unreadable(source: source, reason: "decodes to more than "
                    + "\(FileReader.byteLimitDescription(limit)), the most a gzipped JSON catalog may hold (unpack it "
                    + "to a file and index that)")
            }
            throw .unreadable(source: source, reason: inputFailure(error))
        }
    }

    /// The reason for a read failure of an input, with advice at a limit.
    private static func inputFailure(_ failure: InputError) -> String {
        switch failure {
        case .file(let failure): streamFailure(failure)
        case .corruptGzip: failure.reason
        }
    }

    /// The reason for a read failure, with advice when it is the stream limit.
    private static func streamFailure(_ failure: FileFailure) -> String {
        switch failure {
        case .tooLarge(maximumStreamBytes):
            failure.reason + ", the most read from a pipe or device (save the catalog to a file and index that)"
        case .tooLarge(maximumFileBytes): failure.reason + ", the most a catalog file may hold"
        default: failure.reason
        }
    }

    /// Decodes what `JSONInput.read` read, as moviesearch JSON. When it stopped at a bad byte, the bytes it kept
    /// give the decoder's own malformed-JSON error at or before that byte; where they end too soon for that (the
    /// stream paused right after it), or should the decoder ever disagree with the checker, the error points at the
    /// bad byte rather than decoding a truncated catalog.
    static func decode(_ input: JSONInput, source: String, options: CatalogOptions) throws(CatalogError) -> Catalog {
        guard let badByte = input.badByte else {
            return try decode(input.bytes, format: .json, source: source, options: options)
        }
        do {
            _ = try decode(input.bytes, format: .json, source: source, options: options)
        } catch {
            if case let .malformedJSON(_, _, _, offset, _) = error, input.reportsError(at: offset) { throw error }
        }
        let (line, column) = input.location(of: badByte)
        throw .malformedJSON(source: source, line: line, column: column, offset: badByte,
                             reason: JSONInput.badByteReason)
    }
}
