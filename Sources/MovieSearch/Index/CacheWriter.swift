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

    /// The cache file's bytes for `catalog`. Throws `CacheError.catalogTooLarge` past the format's limits.
    public static func encode(_ catalog: Catalog) throws -> [UInt8] {
        try encodeWithStatistics(catalog).bytes
    }

    /// Writes the cache of `catalog` to a temporary file beside `path`, then renames it into place, so that a
    /// failure leaves any previous file at `path` untouched. Throws `CacheError`.
    public static func write(_ catalog: Catalog, to path: String) throws -> Statistics {
        let (bytes, statistics) = try encodeWithStatistics(catalog)
        do {
            try AtomicFileWriter.replaceFile(at: path, with: bytes)
        } catch {
            throw CacheError.io(path: path, operation: "\(error.operation) cache", reason: error.error.reason)
        }
        return statistics
    }

    static func encodeWithStatistics(_ catalog: Catalog) throws(CacheError) -> (bytes: [UInt8], statistics: Statistics) {
        let sections = try CacheSections(catalog)
        let bytes = try assemble(sections)
        return (bytes, Statistics(movies: catalog.movies.count, distinctTokens: sections.termCount, bytes: bytes.count))
    }

    /// Lays out header, directory, sections and block checksums.
    private static func assemble(_ sections: CacheSections) throws(CacheError) -> [UInt8] {
        let parts = sections.parts
        let contentStart = CacheFormat.aligned(CacheFormat.headerSize + parts.count * CacheFormat.directoryEntrySize)
        var file = ByteWriter()
        file.reserve(contentStart + parts.reduce(0) { $0 + CacheFormat.aligned($1.bytes.count) } + 4096)
        file.zeros(contentStart)
        var directory = ByteWriter()
        for (tag, bytes) in parts {
            file.padToMultiple(of: 8)
            directory.u32(tag.code)
            directory.u32(0)
            directory.u64(UInt64(file.count))
            directory.u64(UInt64(bytes.count))
            file.append(bytes)
        }
        file.padToMultiple(of: 8)
        let contentEnd = file.count
        let blockSize = CacheFormat.blockSize
        var blockTable = ByteWriter()
        var start = contentStart
        while start < contentEnd {
            let end = min(start + blockSize, contentEnd)
            blockTable.u64(file.bytes.withUnsafeBytes { XXHash64.hash(UnsafeRawBufferPointer(rebasing: $0[start..<end])) })
            start = end
        }
        file.append(blockTable.bytes)

        var header = ByteWriter()
        header.append(CacheFormat.magic)
        header.u32(CacheFormat.version)
        header.u32(UInt32(blockSize))
        header.u64(UInt64(file.count))
        header.u32(UInt32(parts.count))
        header.u32(try sections.checked(sections.movieCount, "movies"))
        header.u32(try sections.checked(sections.termCount, "distinct tokens"))
        header.u32(try sections.checked(sections.yearCount, "years"))
        header.u64(UInt64(contentEnd))
        header.u64(XXHash64.hash(blockTable.bytes, seed: XXHash64.hash(directory.bytes)))
        header.u64(XXHash64.hash(header.bytes))
        file.overwrite(at: 0, with: header.bytes)
        file.overwrite(at: CacheFormat.headerSize, with: directory.bytes)
        return file.bytes
    }
}

/// The sections of a cache, built from a catalog in memory (`CacheFormat`, "Sections").
struct CacheSections {
    let movieCount: Int
    private(set) var termCount = 0
    private(set) var yearCount = 0
    private(set) var parts: [(tag: CacheFormat.Tag, bytes: [UInt8])] = []
    /// The first rank of each year, newest year first (the `YEAR` section's second column).
    private var yearFirstRanks: [Int] = []

    init(_ catalog: Catalog) throws(CacheError) {
        // Records are stored by ascending id; a decoded catalog is already in that order.
        var movies = catalog.movies
        if !zip(movies, movies.dropFirst()).allSatisfy({ $0.id < $1.id }) { movies.sort { $0.id < $1.id } }
        for (movie, next) in zip(movies, movies.dropFirst()) where movie.id == next.id {
            throw .invalidMovieID(id: movie.id, reason: "two movies have this id")
        }
        if let first = movies.first, first.id < 0 { throw .invalidMovieID(id: first.id, reason: "ids start at 0") }
        movieCount = movies.count
        _ = try checked(movies.count, "movies")
        if let last = movies.last { _ = try checked(last.id, "the largest movie id") }
        for movie in movies where Int32(exactly: movie.year) == nil {
            throw .invalidMovieID(id: movie.id, reason: "year \(movie.year) does not fit in 32 bits")
        }

        // Answer order: year descending, rating descending with unrated last, id ascending.
        let ranked = movies.indices.sorted { a, b in
            let x = movies[a], y = movies[b]
            if x.year != y.year { return x.year > y.year }
            return Self.ratedBefore(x, y)
        }
        let byRating = movies.indices.sorted { Self.ratedBefore(movies[$0], movies[$1]) }

        var ranks = ByteWriter(), topRated = ByteWriter(), years = ByteWriter()
        for (rank, index) in ranked.enumerated() {
            ranks.u32(UInt32(movies[index].id))
            if rank == 0 || movies[ranked[rank - 1]].year != movies[index].year {
                years.i32(Int32(movies[index].year))
                years.u32(UInt32(rank))
                yearFirstRanks.append(rank)
                yearCount += 1
            }
        }
        for index in byRating { topRated.u32(UInt32(movies[index].id)) }

        try buildTerms(movies: movies, ranked: ranked)
        try buildRecords(movies: movies)
        parts.append((.ranks, ranks.bytes))
        parts.append((.topRated, topRated.bytes))
        parts.append((.years, years.bytes))
    }

    /// `TERM`, `TJMP`, `TTXT`, `POST`, and the prefix sets.
    private mutating func buildTerms(movies: [Movie], ranked: [Int]) throws(CacheError) {
        var provisional: [[UInt8]: Int] = [:]
        var provisionalTerms: [[UInt8]] = []
        var titleTerms: [[Int]] = []  // by rank, provisional ids
        titleTerms.reserveCapacity(ranked.count)
        for index in ranked {
            var ids: [Int] = []
            for token in Tokenizer.tokenBytes(in: movies[index].title) {
                let id: Int
                if let known = provisional[token] {
                    id = known
                } else {
                    id = provisionalTerms.count
                    provisional[token] = id
                    provisionalTerms.append(token)
                }
                ids.append(id)
            }
            titleTerms.append(ids)
        }
        // Final ids follow the byte order of the terms, so a prefix's terms form one contiguous range.
        let order = provisionalTerms.indices.sorted { provisionalTerms[$0].lexicographicallyPrecedes(provisionalTerms[$1]) }
        var finalID = [Int](repeating: 0, count: order.count)
        for (final, provisionalID) in order.enumerated() { finalID[provisionalID] = final }
        termCount = order.count

        var postingsByTerm = [[UInt32]](repeating: [], count: order.count)
        for (rank, ids) in titleTerms.enumerated() {
            for term in Set(ids.map { finalID[$0] }) { postingsByTerm[term].append(UInt32(rank)) }
        }

        var terms = ByteWriter(), text = ByteWriter(), postings = ByteWriter()
        var postingCount = 0
        var sortedTerms: [[UInt8]] = []
        sortedTerms.reserveCapacity(order.count)
        for provisionalID in order {
            terms.u32(try checked(text.count, "token text"))
            terms.u32(try checked(postingCount, "postings"))
            text.append(provisionalTerms[provisionalID])
            sortedTerms.append(provisionalTerms[provisionalID])
            for rank in postingsByTerm[finalID[provisionalID]] { postings.u32(rank) }
            postingCount += postingsByTerm[finalID[provisionalID]].count
        }
        terms.u32(try checked(text.count, "token text"))
        terms.u32(try checked(postingCount, "postings"))
        var postingsBySortedTerm = [[UInt32]]()
        postingsBySortedTerm.reserveCapacity(order.count)
        for provisionalID in order { postingsBySortedTerm.append(postingsByTerm[finalID[provisionalID]]) }

        var jump = ByteWriter()
        var next = 0
        for byte in 0...256 {
            while next < sortedTerms.count, Int(sortedTerms[next].first ?? 0) < byte { next += 1 }
            jump.u32(UInt32(next))
        }

        parts.append((.terms, terms.bytes))
        parts.append((.termJump, jump.bytes))
        parts.append((.termText, text.bytes))
        parts.append((.postings, postings.bytes))
        try buildPrefixSets(terms: sortedTerms, postings: postingsBySortedTerm)
    }

    /// `PRFO`, `PRFE`, `SETS`, `SETD`, `SETY`: the union of postings of every prefix range of two terms or more,
    /// and a bitmap for every single term whose posting list is longer than a bitmap.
    private mutating func buildPrefixSets(terms: [[UInt8]], postings: [[UInt32]]) throws(CacheError) {
        var offsets = ByteWriter(), entries = ByteWriter(), sets = ByteWriter(), data = ByteWriter(), yearCounts = ByteWriter()
        var entryCount = 0, setCount = 0, dataCount = 0, yearCountCount = 0
        let bitmapWords = (movieCount + 63) / 64
        var bitmap = [UInt64](repeating: 0, count: bitmapWords)
        var seen = [UInt32](repeating: UInt32.max, count: movieCount)
        var members: [UInt32] = []
        var perYear = [UInt32](repeating: 0, count: yearFirstRanks.count)
        var yearOfRank = [Int32](repeating: 0, count: movieCount)
        for (year, first) in yearFirstRanks.enumerated() {
            let end = year + 1 < yearFirstRanks.count ? yearFirstRanks[year + 1] : movieCount
            for rank in first..<end { yearOfRank[rank] = Int32(year) }
        }

        /// Stores `members` (distinct ranks) as set number `setCount`, a list or, when smaller, a bitmap.
        func store(_ members: inout [UInt32]) throws(CacheError) {
            let asBitmap = members.count * 32 > movieCount
            sets.u32(asBitmap ? 1 : 0)
            sets.u32(UInt32(members.count))
            sets.u32(try checked(dataCount, "prefix set data"))
            if asBitmap {
                for word in bitmap.indices { bitmap[word] = 0 }
                for year in perYear.indices { perYear[year] = 0 }
                for rank in members {
                    bitmap[Int(rank) >> 6] |= 1 << UInt64(rank & 63)
                    perYear[Int(yearOfRank[Int(rank)])] += 1
                }
                for word in bitmap { data.u64(word) }
                for count in perYear { yearCounts.u32(count) }
                sets.u32(UInt32(bitmapWords * 2))
                sets.u32(try checked(yearCountCount, "prefix set year counts"))
                dataCount += bitmapWords * 2
                yearCountCount += perYear.count
            } else {
                members.sort()
                for rank in members { data.u32(rank) }
                sets.u32(UInt32(members.count))
                sets.u32(UInt32.max)
                dataCount += members.count
            }
            sets.u32(0)
            setCount += 1
        }

        for low in terms.indices {
            offsets.u32(try checked(entryCount, "prefix entries"))
            let term = terms[low]
            // A frequent term gets a bitmap too, so that it meets other bitmaps word by word.
            if postings[low].count * 32 > movieCount {
                members = postings[low]
                entries.u32(UInt32(low + 1))
                entries.u32(try checked(setCount, "prefix sets"))
                entryCount += 1
                try store(&members)
            }
            // Prefixes that begin at `low` are those longer than what `low` shares with the term before it.
            let shared = low == 0 ? 0 : zip(terms[low - 1], term).prefix { $0 == $1 }.count
            var lastEnd = -1
            for length in stride(from: term.count, to: shared, by: -1) where Self.isScalarBoundary(term, length) {
                let end = Self.prefixEnd(terms, from: low, prefix: term[0..<length])
                // Longer prefixes have the same or smaller ranges: each distinct range is stored once.
                guard end - low >= 2, end != lastEnd else { continue }
                lastEnd = end
                // Union of the postings of terms low..<end, without repeats.
                members.removeAll(keepingCapacity: true)
                let stamp = UInt32(truncatingIfNeeded: setCount)
                for termID in low..<end {
                    for rank in postings[termID] where seen[Int(rank)] != stamp {
                        seen[Int(rank)] = stamp
                        members.append(rank)
                    }
                }
                entries.u32(UInt32(end))
                entries.u32(try checked(setCount, "prefix sets"))
                entryCount += 1
                try store(&members)
            }
        }
        offsets.u32(try checked(entryCount, "prefix entries"))
        parts.append((.prefixOffsets, offsets.bytes))
        parts.append((.prefixEntries, entries.bytes))
        parts.append((.sets, sets.bytes))
        parts.append((.setData, data.bytes))
        parts.append((.setYearCounts, yearCounts.bytes))
    }

    /// Whether a query token could end after `length` bytes of `term`: at its end or before a UTF-8 lead byte.
    private static func isScalarBoundary(_ term: [UInt8], _ length: Int) -> Bool {
        length == term.count || term[length] & 0xC0 != 0x80
    }

    /// The first term id at or after `low` that does not start with `prefix` (all of `low..<result` do).
    private static func prefixEnd(_ terms: [[UInt8]], from low: Int, prefix: ArraySlice<UInt8>) -> Int {
        var low = low + 1, high = terms.count
        while low < high {
            let middle = (low + high) / 2
            if terms[middle].starts(with: prefix) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// `MOVI`, `NAME`, `LIST`, `STRG`.
    private mutating func buildRecords(movies: [Movie]) throws(CacheError) {
        var distinctNames = Set<String>()
        for movie in movies {
            distinctNames.formUnion(movie.cast)
            distinctNames.formUnion(movie.genres)
        }
        let names = distinctNames.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var nameID: [[UInt8]: UInt32] = [:]
        for (id, name) in names.enumerated() { nameID[name] = UInt32(id) }

        var strings = ByteWriter(), records = ByteWriter(), lists = ByteWriter(), nameTable = ByteWriter()
        var listCount = 0
        for movie in movies {
            let title = Array(movie.title.utf8)
            records.u32(try checked(strings.count, "text"))
            records.u32(try checked(title.count, "a title"))
            records.i32(Int32(movie.year))
            records.u32(UInt32(movie.id))
            records.f64(movie.rating ?? .nan)
            records.u32(try checked(listCount, "cast and genre lists"))
            records.u32(try checked(movie.cast.count, "a cast list"))
            records.u32(try checked(movie.genres.count, "a genre list"))
            records.u32(0)
            strings.append(title)
            for name in movie.cast + movie.genres { lists.u32(nameID[Array(name.utf8)]!) }
            listCount += movie.cast.count + movie.genres.count
        }
        for name in names {
            nameTable.u32(try checked(strings.count, "text"))
            nameTable.u32(try checked(name.count, "a name"))
            strings.append(name)
        }
        _ = try checked(strings.count, "text")
        parts.insert((.movies, records.bytes), at: 0)
        parts.append((.names, nameTable.bytes))
        parts.append((.lists, lists.bytes))
        parts.append((.strings, strings.bytes))
    }

    /// Rating descending, unrated last, id ascending: the order inside a year and of `TOPR`.
    static func ratedBefore(_ x: Movie, _ y: Movie) -> Bool {
        switch (x.rating, y.rating) {
        case let (a?, b?) where a != b: return a > b
        case (.some, nil): return true
        case (nil, .some): return false
        default: return x.id < y.id
        }
    }

    /// `value` as a u32, or `catalogTooLarge` naming what overflowed.
    func checked(_ value: Int, _ what: String) throws(CacheError) -> UInt32 {
        guard let narrow = UInt32(exactly: value) else {
            throw .catalogTooLarge(detail: "\(what) exceed the format's 32-bit limit (\(value))")
        }
        return narrow
    }
}

/// Appends little-endian numbers and bytes to a growing buffer.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func reserve(_ capacity: Int) { bytes.reserveCapacity(capacity) }
    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }
    mutating func padToMultiple(of alignment: Int) { zeros((alignment - bytes.count % alignment) % alignment) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }

    mutating func overwrite(at offset: Int, with other: [UInt8]) {
        bytes.replaceSubrange(offset..<(offset + other.count), with: other)
    }
}
