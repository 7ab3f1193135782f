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
        let (chunks, statistics) = try layOut(catalog)
        do {
            try AtomicFileWriter.replaceFile(at: path, with: chunks)
        } catch {
            throw CacheError.io(path: path, operation: "\(error.operation) cache", reason: error.error.reason)
        }
        return statistics
    }

    static func encodeWithStatistics(_ catalog: Catalog) throws(CacheError) -> (bytes: [UInt8], statistics: Statistics) {
        let (chunks, statistics) = try layOut(catalog)
        return (Array(chunks.joined()), statistics)
    }

    /// The file as consecutive chunks: header, directory, each section with its padding, block checksums. Kept
    /// apart rather than copied into one buffer: for a million movies that copy alone would touch 150 MB anew.
    private static func layOut(_ catalog: Catalog) throws(CacheError) -> (chunks: [[UInt8]], statistics: Statistics) {
        let sections = try CacheSections(catalog)
        let parts = sections.parts
        let contentStart = CacheFormat.aligned(CacheFormat.headerSize + parts.count * CacheFormat.directoryEntrySize)
        var chunks: [[UInt8]] = [[], []]  // header and directory, filled in last
        var directory = ByteWriter()
        var hasher = BlockHasher(blockSize: CacheFormat.blockSize)
        var offset = contentStart
        for (tag, bytes) in parts {
            directory.u32(tag.code)
            directory.u32(0)
            directory.u64(UInt64(offset))
            directory.u64(UInt64(bytes.count))
            hasher.add(bytes)
            chunks.append(bytes)
            offset += bytes.count
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
        header.u32(UInt32(CacheFormat.blockSize))
        header.u64(UInt64(fileLength))
        header.u32(UInt32(parts.count))
        header.u32(try sections.checked(sections.movieCount, "movies"))
        header.u32(try sections.checked(sections.termCount, "distinct tokens"))
        header.u32(try sections.checked(sections.yearCount, "years"))
        header.u64(UInt64(contentEnd))
        header.u64(XXHash64.hash(blockTable, seed: XXHash64.hash(directory.bytes)))
        header.u64(XXHash64.hash(header.bytes))
        chunks[0] = header.bytes
        chunks[1] = directory.bytes + [UInt8](repeating: 0, count: contentStart - CacheFormat.headerSize - directory.count)
        let statistics = Statistics(movies: catalog.movies.count, distinctTokens: sections.termCount, bytes: fileLength)
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
        for movie in movies where movie.rating.map({ !$0.isFinite }) == true {
            throw .invalidMovieID(id: movie.id, reason: "rating \(movie.rating!) is not a finite number")
        }

        // Answer order: year descending, rating descending with unrated last, id ascending. Sorted on flat keys
        // (unrated as -infinity: catalog ratings are finite), not on `Movie` values, which would be copied.
        let years = movies.map(\.year)
        let ratings = movies.map { $0.rating ?? -.infinity }
        let ratedFirst = { (a: Int, b: Int) -> Bool in ratings[a] != ratings[b] ? ratings[a] > ratings[b] : a < b }
        let ranked = movies.indices.sorted { a, b in years[a] != years[b] ? years[a] > years[b] : ratedFirst(a, b) }
        let byRating = movies.indices.sorted(by: ratedFirst)

        var ranks = ByteWriter(), topRated = ByteWriter(), yearTable = ByteWriter()
        for (rank, index) in ranked.enumerated() {
            ranks.u32(UInt32(movies[index].id))
            if rank == 0 || years[ranked[rank - 1]] != years[index] {
                yearTable.i32(Int32(years[index]))
                yearTable.u32(UInt32(rank))
                yearFirstRanks.append(rank)
                yearCount += 1
            }
        }
        for index in byRating { topRated.u32(UInt32(movies[index].id)) }

        try buildTerms(movies: movies, ranked: ranked)
        try buildRecords(movies: movies)
        parts.append((.ranks, ranks.bytes))
        parts.append((.topRated, topRated.bytes))
        parts.append((.years, yearTable.bytes))
    }

    /// `TERM`, `TJMP`, `TTXT`, `POST`, and the prefix sets.
    private mutating func buildTerms(movies: [Movie], ranked: [Int]) throws(CacheError) {
        // Each title's distinct tokens as provisional ids (order of first appearance), flat, by rank.
        var table = ByteStringTable(capacity: 1 << 16)
        var titleTerms: [Int32] = []
        var titleStarts: [Int] = [0]
        titleStarts.reserveCapacity(ranked.count + 1)
        for index in ranked {
            let start = titleTerms.count
            Tokenizer.forEachToken(in: movies[index].title) { token in
                let id = Int32(table.id(of: UnsafeRawBufferPointer(token)))
                if !titleTerms[start...].contains(id) { titleTerms.append(id) }
            }
            titleStarts.append(titleTerms.count)
        }
        // Final ids follow the byte order of the terms, so a prefix's terms form one contiguous range.
        let order = table.idsInByteOrder()
        var finalID = [Int32](repeating: 0, count: order.count)
        for (final, provisionalID) in order.enumerated() { finalID[provisionalID] = Int32(final) }
        termCount = order.count

        // Postings, flat, by final term id: count, then place ranks in ascending order.
        var postingStarts = [Int](repeating: 0, count: order.count + 1)
        for id in titleTerms { postingStarts[Int(finalID[Int(id)]) + 1] += 1 }
        for term in 0..<order.count { postingStarts[term + 1] += postingStarts[term] }
        var fill = postingStarts
        var flatPostings = [UInt32](repeating: 0, count: titleTerms.count)
        for rank in 0..<ranked.count {
            for position in titleStarts[rank]..<titleStarts[rank + 1] {
                let term = Int(finalID[Int(titleTerms[position])])
                flatPostings[fill[term]] = UInt32(rank)
                fill[term] += 1
            }
        }

        var terms = ByteWriter(), text = ByteWriter()
        var sortedTerms: [[UInt8]] = []
        sortedTerms.reserveCapacity(order.count)
        for (final, provisionalID) in order.enumerated() {
            terms.u32(try checked(text.count, "token text"))
            terms.u32(try checked(postingStarts[final], "postings"))
            text.append(table[provisionalID])
            sortedTerms.append(Array(table[provisionalID]))
        }
        terms.u32(try checked(text.count, "token text"))
        terms.u32(try checked(postingStarts[order.count], "postings"))
        var postings = ByteWriter()
        postings.u32s(flatPostings)

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
        try buildPrefixSets(terms: sortedTerms, postings: flatPostings, starts: postingStarts)
    }

    /// `PRFO`, `PRFE`, `SETS`, `SETD`, `SETY`: the union of postings of every prefix range of two terms or more,
    /// and a bitmap for every single term whose posting list is longer than a bitmap.
    private mutating func buildPrefixSets(terms: [[UInt8]], postings: [UInt32], starts: [Int]) throws(CacheError) {
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
            let asBitmap = members.count > bitmapWords * 2  // strictly smaller as a bitmap
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
            if starts[low + 1] - starts[low] > bitmapWords * 2 {
                members.removeAll(keepingCapacity: true)
                members.append(contentsOf: postings[starts[low]..<starts[low + 1]])
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
                for rank in postings[starts[low]..<starts[end]] where seen[Int(rank)] != stamp {
                    seen[Int(rank)] = stamp
                    members.append(rank)
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
        // Names by provisional id, then renumbered in byte order so the same catalog always gives the same file.
        var table = ByteStringTable(capacity: 1 << 14)
        var listed: [Int32] = []
        for movie in movies {
            for var name in movie.cast { listed.append(Int32(name.withUTF8 { table.id(of: UnsafeRawBufferPointer($0)) })) }
            for var name in movie.genres { listed.append(Int32(name.withUTF8 { table.id(of: UnsafeRawBufferPointer($0)) })) }
        }
        let order = table.idsInByteOrder()
        var nameID = [UInt32](repeating: 0, count: order.count)
        for (final, provisionalID) in order.enumerated() { nameID[provisionalID] = UInt32(final) }

        var strings = ByteWriter(), records = ByteWriter(), lists = ByteWriter(), nameTable = ByteWriter()
        var listCount = 0
        for movie in movies {
            var title = movie.title
            let titleStart = strings.count
            title.withUTF8 { strings.append(UnsafeRawBufferPointer($0)) }
            records.u32(try checked(titleStart, "text"))
            records.u32(try checked(strings.count - titleStart, "a title"))
            records.i32(Int32(movie.year))
            records.u32(UInt32(movie.id))
            records.f64(movie.rating ?? .nan)
            records.u32(try checked(listCount, "cast and genre lists"))
            records.u32(try checked(movie.cast.count, "a cast list"))
            records.u32(try checked(movie.genres.count, "a genre list"))
            records.u32(0)
            listCount += movie.cast.count + movie.genres.count
        }
        for provisionalID in listed { lists.u32(nameID[Int(provisionalID)]) }
        for provisionalID in order {
            nameTable.u32(try checked(strings.count, "text"))
            nameTable.u32(try checked(table[provisionalID].count, "a name"))
            strings.append(table[provisionalID])
        }
        _ = try checked(strings.count, "text")
        parts.insert((.movies, records.bytes), at: 0)
        parts.append((.names, nameTable.bytes))
        parts.append((.lists, lists.bytes))
        parts.append((.strings, strings.bytes))
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

    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    mutating func append(_ other: ArraySlice<UInt8>) { bytes.append(contentsOf: other) }
    mutating func append(_ other: UnsafeRawBufferPointer) { bytes.append(contentsOf: other) }

    mutating func u32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value))
        u32(UInt32(truncatingIfNeeded: value >> 32))
    }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }

    /// Many u32s at once (one copy on little-endian hosts).
    mutating func u32s(_ values: [UInt32]) {
        let littleEndian = UInt32(1).littleEndian == 1 ? values : values.map(\.littleEndian)
        littleEndian.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
}
