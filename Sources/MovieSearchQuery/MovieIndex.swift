import MovieSearchCatalog
@_spi(Engine) import MovieSearchIndex
import MovieSearchLRU
import MovieSearchPlatform
import Synchronization

/// An opened cache file, ready to answer queries.
///
///     let index = try MovieIndex(path: "movies.mscache")
///     let result = try index.search("dark kni")       // word-prefix AND search, grouped by year
///     for year in result.years {
///         print(year.year, year.count, try year.movieIDs.map { try index.movie(id: $0).title })
///     }
///
/// Opening maps the file and checks its header, directory and checksum table, then looks up every section and
/// checks the year table: O(1) in the number of movies (the table has one entry per year). A query reads the
/// mapped file where it lies (`QueryExecutor`): a few binary searches per query token in the term dictionary give
/// its range of terms; the range's set of movies is a stored prefix set (ranges of two terms or more with more
/// than `CacheFormat.mergeLimit` postings, and frequent single terms, as a list or a bitmap), else a posting list,
/// else a few postings merged. The sets are met smallest first, in rank order, which is already the answer's
/// order (year descending, rating descending, unrated last, id ascending), so nothing is sorted at query time
/// but a small merged range. See `CacheFormat`, "A query, step by step".
///
/// `MovieIndex` is immutable after `init` and safe to share between threads: run queries from as many threads as
/// you like on one instance.
public final class MovieIndex: Sendable {
    /// The cache format version this build of the library writes and reads (`CacheFormat`): a cache of any other
    /// version is refused with a message to rebuild it.
    public static var cacheFormatVersion: Int { Int(CacheFormat.version) }

    /// The path the cache was opened from (bytes that are not valid UTF-8 shown as `\xE9`, see `FilePath`).
    public let path: String

    let file: MappedCacheFile
    let sections: MappedSections
    /// The term dictionary and prefix-set readers, built once at open rather than at each query.
    let terms: TermDictionary
    let prefixSets: PrefixSetReader
    /// Reads movie records, for `movie(id:)` and `topRated(limit:)`.
    let records: MovieRecords
    /// Recently opened movies, decoded from the cache once: a details view reopens the same few movies often.
    private var details: SynchronizedLRUCache<Int, Movie> {
        typealias Details = SynchronizedLRUCache<Int, Movie>
        return unsafeDowncast(made(in: detailStore) { Details(capacity: MovieIndex.detailCacheCapacity) },
                              to: Details.self)
    }
    /// The two caches are made on first use, not when the file is opened: a short-lived process that answers one
    /// query (the CLI) never reads a movie twice nor walks a word twice, and making a cache of a generic type is a
    /// measurable part of its start-up (the runtime builds the type's metadata). Each is kept as `AnyObject` (only
    /// ever the one type, read back with `unsafeDowncast`), so that releasing an index that never made one does
    /// not build that metadata either.
    private let detailStore = Mutex<AnyObject?>(nil)
    /// The filters of recent searches, worked out (`WorkedFilter`): a query typed a key at a time under the same
    /// filters works them out once. Made on first use, as the caches above.
    var filterCache: SynchronizedLRUCache<SearchFilters, WorkedFilter> {
        typealias Filters = SynchronizedLRUCache<SearchFilters, WorkedFilter>
        return unsafeDowncast(made(in: filterStore) { Filters(capacity: MovieIndex.filterCacheCapacity) },
                              to: Filters.self)
    }
    private let filterStore = Mutex<AnyObject?>(nil)
    /// How many distinct filters `filterCache` keeps.
    static let filterCacheCapacity = 8

    /// How many decoded movies `movie(id:)` keeps.
    static let detailCacheCapacity = 64
    /// Movies decoded from the file so far (cache misses of `movie(id:)`), for tests and diagnostics.
    var decodedMovieCount: Int { decodeCounter.load(ordering: .relaxed) }
    private let decodeCounter = Atomic<Int>(0)
    /// The typo walks of recent query words (folded bytes → term ranges with their distances): a query typed a
    /// letter at a time repeats its earlier words, and a walk costs tens of microseconds where a look-up costs
    /// well under one.
    var typoWalks: TypoWalkCache {
        unsafeDowncast(made(in: typoWalkStore) { TypoWalkCache(capacity: MovieIndex.typoWalkCacheCapacity) },
                       to: TypoWalkCache.self)
    }
    private let typoWalkStore = Mutex<AnyObject?>(nil)
    /// The tries of the term buckets that typo walks have gone through, by first scalar (`TypoTrie`): built from
    /// the terms on a bucket's second walk (the first walks the sorted terms, `SortedTermWalk`, so that a process
    /// that answers one query pays for no trie), so that a walk visits one node per prefix and jumps over a
    /// subtree.
    var typoTries: SynchronizedLRUCache<UInt32, TypoTrie> {
        typealias Tries = SynchronizedLRUCache<UInt32, TypoTrie>
        return unsafeDowncast(made(in: typoTrieStore) { Tries(capacity: MovieIndex.typoTrieCacheCapacity) },
                              to: Tries.self)
    }
    private let typoTrieStore = Mutex<AnyObject?>(nil)
    /// The first scalars walked once without a trie (`SortedTermWalk`): the second walk of one builds its trie.
    var typoLettersWalked: SynchronizedLRUCache<UInt32, Bool> {
        typealias Letters = SynchronizedLRUCache<UInt32, Bool>
        return unsafeDowncast(made(in: typoLetterStore) { Letters(capacity: MovieIndex.typoTrieCacheCapacity) },
                              to: Letters.self)
    }
    private let typoLetterStore = Mutex<AnyObject?>(nil)
    /// How many first scalars' tries `typoTries` keeps (and first scalars `typoLettersWalked`): every letter of
    /// a Latin alphabet, and some.
    static let typoTrieCacheCapacity = 64

    /// How many words' typo walks `typoWalks` keeps.
    static let typoWalkCacheCapacity = 64

    /// The object `store` holds, made by `make` on the first call: the lazily made caches above. Not generic, so
    /// that no generic metadata is built for it at run time; the caller casts the object back to the one type it
    /// ever stores.
    private func made(in store: borrowing Mutex<AnyObject?>, _ make: () -> AnyObject) -> AnyObject {
        store.withAnnotatedLock(owner: self) { object in
            if let made = object { return made }
            let made = make()
            object = made
            return made
        }
    }

    /// Typo walks run so far (misses of `typoWalks`), for tests and diagnostics.
    var typoWalkCount: Int { walkCounter.load(ordering: .relaxed) }
    let walkCounter = Atomic<Int>(0)

    /// Maps the cache at `path` and checks its header, directory and year table. Throws `CacheError`.
    public convenience init(path: String) throws {
        try self.init(path: FilePath(path))
    }

    /// Maps the cache at `filePath`, a path of raw bytes that need not be valid UTF-8, and checks its header,
    /// directory and year table. Throws `CacheError`. `guarded` (a long-lived reader: the server): a truncation of
    /// the file in place does not end the process with SIGBUS but sets `isDamaged`, and `currentFileStatus()`
    /// tells whether the file was changed since (`MappedFile`).
    package init(path filePath: FilePath, guarded: Bool = false) throws {
        let path = filePath.description
        self.path = path
        let file = try MappedCacheFile(path: filePath, guarded: guarded)
        let sections = try MappedSections(file: file)
        try YearTable(file: file, years: sections.years).validate(path: path)
        self.file = file
        self.sections = sections
        terms = TermDictionary(file: file, sections: sections)
        prefixSets = PrefixSetReader(file: file, sections: sections)
        records = MovieRecords(file: file, sections: sections)
    }

    /// Number of movies in the cache.
    public var movieCount: Int { file.movieCount }
    /// Number of distinct title tokens.
    public var tokenCount: Int { file.termCount }
    /// Size of the cache file in bytes.
    public var fileSize: Int { file.size }

    /// What the cache holds and where its bytes go, section by section (`moviesearch info`): read from the header
    /// and directory, which opening checked, so no section's content is read. See `CacheLayout`.
    public var layout: CacheLayout { file.layout }

    /// Checks every checksum of the file now (queries check only the parts they read, as they read them).
    /// Throws `CacheError.checksumMismatch` naming the first damaged block.
    public func verify() throws {
        try file.verifyAll()
    }

    /// Whether a read faulted because the file was cut short under the mapping (opened `guarded` only): the
    /// mapping holds zeros, and no answer computed from it may be trusted.
    package var isDamaged: Bool { file.isDamaged }

    /// The mapped file's status now (`fstat`: it follows the file, not the path), opened `guarded` only: a
    /// different size or modification time than at open means it was rewritten in place.
    package func currentFileStatus() -> FileStatus? { file.currentStatus() }

    /// Marks the mapping damaged as a fault in it would (tests of the server's answers).
    package func markDamaged() { file.markDamaged() }

    /// Answers a word-prefix query (SPEC.md, "Matching", "Ranking and grouping" and "Typos").
    ///
    ///     let result = try index.search("godfahter")       // no exact match: result.mode == .typo
    ///     result.years[0].typoCounts[0]                    // the typos of the first movie listed
    ///     result.highlighter.ranges(in: title)             // what to show in bold
    ///
    /// Cost: an exact query costs what it did before typo tolerance existed (see the type's discussion); the mode
    /// and the typo counts come with the answer at no extra cost. Only a query that matches nothing exactly, with a
    /// token of 5 scalars or more, pays for a typo pass: for each such token a walk of the trie of the terms that
    /// begin with its first letter, with the optimal-string-alignment automaton, which skips every branch that can
    /// no longer come within the token's budget (`TypoTermWalk`, `QueryExecutor+Typos`). The first walk of a
    /// letter goes through its sorted terms instead, and the second builds the letter's trie (one pass over its
    /// terms, about 20 bytes a trie node; the tries of 64 letters are kept); the walks of the last 64 words are
    /// kept, so a query typed a letter at a time walks each word once.
    /// Spans are not part of the answer: `SearchResult.highlighter` computes them for the titles a caller shows.
    ///
    /// - Parameters:
    ///   - query: Any text; a query without tokens (empty, punctuation only) matches every movie.
    ///   - perYear: How many movies to list per year (negative counts as 0, anything above the movie count, up to
    ///     `Int.max`, as all of them); every year still reports its count.
    ///   - typos: `.auto` (the default) runs a typo pass when the exact search matches nothing; `.off` never does.
    /// - Returns: Matching years, newest first, each with its match count and best `perYear` movie ids, and the
    ///   mode that gave them.
    /// - Throws: `CacheError` when a part of the file the query reads is damaged.
    public func search(_ query: String, perYear: Int = SearchLimits.defaultPerYear, typos: TypoTolerance = .auto)
        throws -> SearchResult
    {
        // Clamped to the movie count, so that the executor's `rank + perYear` cannot overflow.
        let executor = QueryExecutor(index: self, perYear: min(max(perYear, 0), movieCount))
        var lookedUp: [Range<Int>]?
        let exact = try executor.run(query, lookedUp: &lookedUp)
        if exact.total > 0 || typos == .off { return exact }
        return try executor.runWithTypos(query, lookedUp: lookedUp) ?? exact
    }

    /// The movie with this id, decoded from the file whether or not `movie(id:)` has it cached, and not cached:
    /// for a caller that reads each movie once (the CLI printing one answer). Throws `CacheError.noSuchMovie` for
    /// an id the cache does not hold.
    package func decodedMovie(id: Int) throws(CacheError) -> Movie {
        guard let slot = try records.slot(of: id) else {
            throw CacheError.noSuchMovie(id: id, movieCount: movieCount, ids: try records.idRange())
        }
        decodeCounter.add(1, ordering: .relaxed)
        return try records.movie(slot: slot)
    }

    /// The id, title and rating of the movie with this id, decoded from the file without the rest of its record
    /// (nor the cache of `movie(id:)`): for the CLI listing one answer. Throws `CacheError.noSuchMovie` for an id
    /// the cache does not hold.
    package func decodedListing(id: Int) throws(CacheError) -> MovieListing {
        guard let slot = try records.slot(of: id) else {
            throw CacheError.noSuchMovie(id: id, movieCount: movieCount, ids: try records.idRange())
        }
        return try records.listing(slot: slot)
    }

    /// The movie with this id. Throws `CacheError.noSuchMovie` for an id the cache does not hold.
    ///
    /// The last `detailCacheCapacity` movies opened are kept decoded (an LRU cache), so reopening one costs a
    /// dictionary lookup.
    public func movie(id: Int) throws -> Movie {
        try details.value(forKey: id) { () throws(CacheError) -> Movie in try decodedMovie(id: id) }
    }

    /// The identity of the movie with this id, read without its title or the rest of its record, and its slot
    /// (for `title(slot:)`); `nil` when the cache holds no movie with that id.
    package func identity(id: Int, years: YearTable? = nil) throws(CacheError) -> (identity: MovieIdentity, slot: Int)? {
        guard let slot = try records.slot(of: id) else { return nil }
        let table = if let years { years } else { try records.yearTable() }
        return (try records.identity(slot: slot, years: table), slot)
    }

    /// The title of the movie in `slot`, as `identity(id:years:)` gives it.
    package func title(slot: Int) throws(CacheError) -> String {
        try records.title(slot: slot)
    }

    /// The year table, read once for many calls of `identity(id:years:)`.
    package func yearTable() throws(CacheError) -> YearTable {
        try records.yearTable()
    }

    /// Calls `body` with the identity of every movie, in id order, with the digest of its title's UTF-8 bytes
    /// (`FNV1a.digest(of:)`) when `withTitleDigests`, and a function that decodes its title: one pass over the
    /// columns, decoding only the titles asked for. For `FavoriteStore`, which finds many favorites again at once.
    package func forEachIdentity(withTitleDigests: Bool,
                         _ body: (MovieIdentity, UInt64?, () throws(CacheError) -> String) throws -> Void) throws {
        let years = try records.yearTable()
        for slot in 0..<movieCount {
            let identity = try records.identity(slot: slot, years: years)
            let digest = withTitleDigests ? try records.titleDigest(slot: slot) : nil
            try body(identity, digest) { () throws(CacheError) in try records.title(slot: slot) }
        }
    }

    /// The `limit` best-rated movies over all years: rating descending, unrated last, lower id first on ties.
    public func topRated(limit: Int) throws -> [Movie] {
        try topRated(by: .rating, limit: limit)
    }

    /// The first `limit` movies of a top list, read from the list the cache stores (nothing is sorted here):
    /// by the users' rating (`.rating`: descending, unrated last, lower id first on ties), or by the critics'
    /// (`.critic`: descending, lower id first on ties, only the movies that have one).
    public func topRated(by order: TopListOrder, limit: Int) throws -> [Movie] {
        switch order {
        case .rating:
            let count = min(max(limit, 0), movieCount)
            return try records.topRatedIDs(count).map { try movie(id: $0) }
        case .critic:
            let count = min(max(limit, 0), records.criticRatedCount)
            return try records.topCriticIDs(count).map { try movie(id: $0) }
        }
    }

    /// Whether any movie of the cache has a critics' rating: whether the critics' list has anything to show.
    public var hasCriticRatings: Bool { records.criticRatedCount > 0 }

    /// The scales the catalog's users' and critics' ratings are on (`index --rating-scale`; else the smallest of 5,
    /// 10 and 100 that holds them), which every output shows a rating out of: read at open.
    public var ratingScales: RatingScales { sections.ratingScales }
}
