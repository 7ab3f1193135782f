import Synchronization

/// An opened cache file, ready to answer queries.
///
///     let index = try MovieIndex(path: "movies.mscache")
///     let result = try index.search("dark kni")       // word-prefix AND search, grouped by year
///     for year in result.years {
///         print(year.year, year.count, try year.movieIDs.map { try index.movie(id: $0).title })
///     }
///
/// Opening maps the file and checks its header, directory and checksum table: O(1) in the number of movies. A
/// query reads the mapped file where it lies: two binary searches per query token in the term dictionary, then
/// the posting lists of the rarest token in rank order, which is already the answer's order (year descending,
/// rating descending, unrated last, id ascending), so nothing is sorted at query time. See `CacheFormat`.
///
/// `MovieIndex` is immutable after `init` and safe to share between threads: run queries from as many threads as
/// you like on one instance.
public final class MovieIndex: Sendable {
    /// The path the cache was opened from.
    public let path: String

    let file: MappedCacheFile
    let sections: Sections
    /// Recently opened movies, decoded from the cache once: a details view reopens the same few movies often.
    private let details = SynchronizedLRUCache<Int, Movie>(capacity: MovieIndex.detailCacheCapacity)
    /// How many decoded movies `movie(id:)` keeps.
    static let detailCacheCapacity = 64
    /// Movies decoded from the file so far (cache misses of `movie(id:)`), for tests and diagnostics.
    var decodedMovieCount: Int { decodeCounter.load(ordering: .relaxed) }
    private let decodeCounter = Atomic<Int>(0)

    /// The sections a query reads, looked up and size-checked once at open.
    struct Sections: Sendable {
        var movies, ranks, topRated, years, terms, termJump, termText, postings: MappedCacheFile.Section
        var prefixOffsets, prefixEntries, sets, setData, setYearCounts: MappedCacheFile.Section
        var names, lists, strings: MappedCacheFile.Section
    }

    /// Maps the cache at `path` and checks its header. Throws `CacheError`.
    public init(path: String) throws {
        self.path = path
        let file = try MappedCacheFile(path: path)
        let n = file.movieCount
        sections = try Sections(
            movies: file.section(.movies, expectedLength: n * CacheFormat.movieRecordSize),
            ranks: file.section(.ranks, expectedLength: n * 4),
            topRated: file.section(.topRated, expectedLength: n * 4),
            years: file.section(.years, expectedLength: file.yearCount * 8),
            terms: file.section(.terms, expectedLength: (file.termCount + 1) * 8),
            termJump: file.section(.termJump, expectedLength: 257 * 4),
            termText: file.section(.termText),
            postings: file.section(.postings, unit: 4),
            prefixOffsets: file.section(.prefixOffsets, expectedLength: (file.termCount + 1) * 4),
            prefixEntries: file.section(.prefixEntries, unit: 8),
            sets: file.section(.sets, unit: 24),
            setData: file.section(.setData, unit: 4),
            setYearCounts: file.section(.setYearCounts, unit: 4),
            names: file.section(.names, unit: 8),
            lists: file.section(.lists, unit: 4),
            strings: file.section(.strings))
        if (file.movieCount == 0) != (file.yearCount == 0) {
            throw CacheError.corrupt(path: path, detail: "movie and year counts disagree")
        }
        self.file = file
        try YearTable(index: self).validate(path: path)
    }

    /// Number of movies in the cache.
    public var movieCount: Int { file.movieCount }
    /// Number of distinct title tokens.
    public var tokenCount: Int { file.termCount }
    /// Size of the cache file in bytes.
    public var fileSize: Int { file.size }

    /// Checks every checksum of the file now (queries check only the parts they read, as they read them).
    /// Throws `CacheError.checksumMismatch` naming the first damaged block.
    public func verify() throws {
        try file.verifyAll()
    }

    /// Answers a word-prefix query (SEARCH-SPEC, "Matching" and "Ranking and grouping").
    ///
    /// - Parameters:
    ///   - query: Any text; a query without tokens (empty, punctuation only) matches every movie.
    ///   - perYear: How many movies to list per year (negative counts as 0); every year still reports its count.
    /// - Returns: Matching years, newest first, each with its match count and best `perYear` movie ids.
    /// - Throws: `CacheError` when a part of the file the query reads is damaged.
    public func search(_ query: String, perYear: Int = 5) throws -> SearchResult {
        try QueryExecutor(index: self, perYear: max(perYear, 0)).run(query)
    }

    /// The movie with this id. Throws `CacheError.noSuchMovie` for an id the cache does not hold.
    ///
    /// The last `detailCacheCapacity` movies opened are kept decoded (an LRU cache), so reopening one costs a
    /// dictionary lookup.
    public func movie(id: Int) throws -> Movie {
        try details.value(forKey: id) { () throws(CacheError) -> Movie in
            guard let slot = try slot(of: id) else { throw CacheError.noSuchMovie(id: id, movieCount: movieCount) }
            decodeCounter.add(1, ordering: .relaxed)
            return try decodeMovie(slot: slot)
        }
    }

    /// The `limit` best-rated movies over all years: rating descending, unrated last, lower id first on ties.
    public func topRated(limit: Int) throws -> [Movie] {
        let count = min(max(limit, 0), movieCount)
        return try (0..<count).map { try movie(id: Int(file.u32(sections.topRated, $0))) }
    }

    // MARK: Reading records

    /// The record index of movie `id`: `id` itself unless invalid movies were skipped, else a binary search.
    private func slot(of id: Int) throws(CacheError) -> Int? {
        guard id >= 0, movieCount > 0 else { return nil }
        if id < movieCount, try recordID(id) == id { return id }
        var low = 0, high = min(id, movieCount)
        while low < high {
            let middle = (low + high) / 2
            if try recordID(middle) < id { low = middle + 1 } else { high = middle }
        }
        guard low < movieCount else { return nil }
        return try recordID(low) == id ? low : nil
    }

    private func recordID(_ slot: Int) throws(CacheError) -> Int {
        Int(try file.u32(sections.movies, slot * (CacheFormat.movieRecordSize / 4) + 3))
    }

    private func decodeMovie(slot: Int) throws(CacheError) -> Movie {
        let record = try file.bytes(sections.movies, (slot * CacheFormat.movieRecordSize)..<((slot + 1) * CacheFormat.movieRecordSize))
        func u32(_ offset: Int) -> Int { Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        let titleStart = u32(0), titleLength = u32(4)
        let year = Int(Int32(littleEndian: record.loadUnaligned(fromByteOffset: 8, as: Int32.self)))
        let rating = Double(bitPattern: UInt64(littleEndian: record.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
        let listStart = u32(24), castCount = u32(28), genreCount = u32(32)
        let title = try text(titleStart, titleLength)
        let names = try file.u32s(sections.lists, listStart..<(listStart + castCount + genreCount))
        var cast: [String] = [], genres: [String] = []
        cast.reserveCapacity(castCount)
        genres.reserveCapacity(genreCount)
        for index in 0..<names.count {
            let name = Int(names[index])
            let entry = try file.u32s(sections.names, (name * 2)..<(name * 2 + 2))
            let value = try text(Int(entry[0]), Int(entry[1]))
            if index < castCount { cast.append(value) } else { genres.append(value) }
        }
        return Movie(id: u32(12), title: title, year: year, rating: rating.isNaN ? nil : rating, cast: cast, genres: genres)
    }

    private func text(_ start: Int, _ length: Int) throws(CacheError) -> String {
        String(decoding: try file.bytes(sections.strings, start..<(start + length)), as: UTF8.self)
    }
}
