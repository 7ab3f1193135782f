import MovieSearchCatalog
import MovieSearchPlatform

/// Builds the binary cache of a catalog (`CacheFormat`) and writes it atomically.
///
/// The same catalog always gives a byte-identical file: every order in it comes from sorting by bytes, ids or
/// numbers, never from a hash table's iteration order (hash seeds differ per process).
///
///     let catalog = try CatalogDecoder.load(path: "movies.json")
///     let statistics = try CacheWriter.write(catalog, to: "movies.mscache")
///     print(statistics.movies, statistics.distinctTokens, statistics.bytes)
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

    /// The cache file's bytes for `catalog`. Throws `CacheError.catalogTooLarge` past the format's limits, and
    /// `invalidMovieID` or `invalidMovieField` for a movie the format cannot store (a catalog built in memory).
    public static func encode(_ catalog: Catalog) throws -> [UInt8] {
        try encodeWithStatistics(catalog).bytes
    }

    /// Writes the cache of `catalog` to a temporary file beside `path`, then renames it into place, so that a
    /// failure leaves any previous file at `path` untouched. Throws `CacheError`.
    /// `progress`, when given, is told each phase as it starts.
    ///
    /// The catalog is taken (`consuming`): given with `consume` (or at its last use), its movies are let go as soon
    /// as the titles are tokenized, before the largest work space of the build (the generated 20M IMDb pair's peak
    /// went from 5.1 to 3.6 GB); a catalog the caller goes on using is copied, and freed by the caller.
    public static func write(_ catalog: consuming Catalog, to path: String, progress: IndexingProgressHandler? = nil)
        throws -> Statistics
    {
        try write(consume catalog, to: FilePath(path), progress: progress)
    }

    /// `write(_:to:progress:)` for a path of raw bytes, which need not be valid UTF-8; errors name it escaped.
    /// `titles`: the catalog's titles as a `TitleTokenizer` tokenized them while it was read (the same file, sooner).
    package static func write(_ catalog: consuming Catalog, to path: FilePath,
                              titles: consuming TokenizedTitles? = nil,
                              progress: IndexingProgressHandler? = nil) throws -> Statistics
    {
        let (chunks, statistics) = try layOut(consume catalog, titles: consume titles, progress: progress)
        progress?(IndexingProgress(phase: .writing, records: statistics.movies))
        do {
            try AtomicFileWriter.replaceFile(at: path, with: chunks)
        } catch {
            throw CacheError.io(path: path.description, operation: "\(error.operation) cache", reason: error.error.reason)
        }
        return statistics
    }

    /// The bytes and statistics of `catalog`'s cache; for tests, `blockSize` overrides the block size the
    /// content's length calls for, `maximumPairEntries` the bound of `BMPP` (`CacheFormat.maximumPairEntries`), and
    /// `titles` are the catalog's titles as a `TitleTokenizer` tokenized them.
    static func encodeWithStatistics(_ catalog: Catalog, titles: TokenizedTitles? = nil, blockSize: Int? = nil,
                                     maximumPairEntries: Int = CacheFormat.maximumPairEntries) throws(CacheError)
        -> (bytes: [UInt8], statistics: Statistics)
    {
        let (chunks, statistics) = try layOut(catalog, titles: titles, blockSize: blockSize,
                                              maximumPairEntries: maximumPairEntries)
        return (Array(chunks.joined()), statistics)
    }

    /// The file as consecutive chunks: header, directory, each section with its padding, block checksums. Kept
    /// apart rather than copied into one buffer: for a million movies that copy alone would touch 150 MB anew.
    private static func layOut(_ catalog: consuming Catalog, titles: consuming TokenizedTitles? = nil,
                               progress: IndexingProgressHandler? = nil, blockSize given: Int? = nil,
                               maximumPairEntries: Int = CacheFormat.maximumPairEntries)
        throws(CacheError) -> (chunks: [[UInt8]], statistics: Statistics)
    {
        let records = catalog.movieCount
        let sections = try CacheSections(consume catalog, titles: consume titles, progress: progress,
                                         maximumPairEntries: maximumPairEntries)
        let parts = sections.parts
        let contentStart = CacheFormat.aligned(CacheFormat.headerSize + parts.count * CacheFormat.directoryEntrySize)
        var chunks: [[UInt8]] = [[], []]  // header and directory, filled in last
        var directory = ByteWriter()
        var contentLength = 0
        for part in parts { contentLength = CacheFormat.aligned(contentLength + part.bytes.count) }
        let blockSize = given ?? CacheFormat.blockSize(contentLength: contentLength)
        var hasher = BlockHasher(blockSize: blockSize)
        var offset = contentStart
        for part in parts {
            directory.u32(part.tag.code)
            directory.u32(UInt32(part.width))
            directory.u64(UInt64(part.count))
            directory.u64(UInt64(offset))
            directory.u64(UInt64(part.bytes.count))
            hasher.add(part.bytes)
            chunks.append(part.bytes)
            offset += part.bytes.count
            let padding = [UInt8](repeating: 0, count: CacheFormat.aligned(offset) - offset)
            if !padding.isEmpty {
                hasher.add(padding)
                chunks.append(padding)
                offset += padding.count
            }
        }
        let contentEnd = offset
        let blockTable = hasher.finish()
        chunks.append(blockTable)
        let fileLength = contentEnd + blockTable.count

        var header = ByteWriter()
        header.append(CacheFormat.magic)
        header.u32(CacheFormat.version)
        header.u32(UInt32(blockSize))
        header.u64(UInt64(fileLength))
        header.u32(UInt32(parts.count))
        header.u32(try CacheSections.checked(sections.movieCount, "movies"))
        header.u32(try CacheSections.checked(sections.termCount, "distinct tokens"))
        header.u32(try CacheSections.checked(sections.yearCount, "years"))
        header.u64(UInt64(contentEnd))
        header.u64(XXHash64.hash(blockTable, seed: XXHash64.hash(directory.bytes)))
        header.u64(XXHash64.hash(header.bytes))
        chunks[0] = header.bytes
        chunks[1] = directory.bytes + [UInt8](repeating: 0, count: contentStart - CacheFormat.headerSize - directory.count)
        let statistics = Statistics(movies: records, distinctTokens: sections.termCount, bytes: fileLength)
        return (chunks, statistics)
    }
}

/// The XXH64 of each `blockSize` bytes of a stream given in pieces: the `BlockChecksums` table of a cache.
private struct BlockHasher {
    let blockSize: Int
    private var pending: [UInt8] = []
    private var table = ByteWriter()

    init(blockSize: Int) {
        self.blockSize = blockSize
        pending.reserveCapacity(blockSize)
    }

    /// Hashes whole blocks straight from `bytes`; only a block that straddles two pieces is copied.
    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { bytes in
            var start = 0
            if !pending.isEmpty {
                let taken = min(blockSize - pending.count, bytes.count)
                pending.append(contentsOf: bytes[0..<taken])
                start = taken
                if pending.count == blockSize {
                    table.u64(XXHash64.hash(pending))
                    pending.removeAll(keepingCapacity: true)
                }
            }
            while bytes.count - start >= blockSize {
                table.u64(XXHash64.hash(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + blockSize)])))
                start += blockSize
            }
            pending.append(contentsOf: bytes[start...])
        }
    }

    /// The table, with the last, shorter block.
    mutating func finish() -> [UInt8] {
        if !pending.isEmpty { table.u64(XXHash64.hash(pending)) }
        pending.removeAll()
        return table.bytes
    }
}
