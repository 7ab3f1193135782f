/// The sections of a cache, built from a catalog in memory (`CacheFormat`, "Sections"); `CacheWriter` lays them
/// out in a file. Their readers sit beside this writer: `MappedSections` finds them in a mapped file,
/// `TermDictionary`, `YearTable`, `PrefixSetReader` and `MovieRecords` read them.
struct CacheSections {
    /// One section: its tag, its shape (`width` 0 for bytes) and its bytes, padding of a packed section included.
    struct Part {
        var tag: CacheFormat.Tag
        var width: Int
        var count: Int
        var bytes: [UInt8]

        /// A packed section of `values`, at the width its largest value needs.
        static func packed(_ tag: CacheFormat.Tag, _ values: [UInt32]) -> Part {
            let width = CacheFormat.width(of: values.max() ?? 0)
            return Part(tag: tag, width: width, count: values.count, bytes: ByteWriter.packed(values, width: width))
        }

        /// A byte section.
        static func bytes(_ tag: CacheFormat.Tag, _ bytes: [UInt8]) -> Part {
            Part(tag: tag, width: 0, count: bytes.count, bytes: bytes)
        }
    }

    let movieCount: Int
    private(set) var termCount = 0
    private(set) var yearCount = 0
    private(set) var parts: [Part] = []
    /// The first rank of each year, newest year first (the `YEAR` section's second column).
    private var yearFirstRanks: [Int] = []

    /// The sections of `catalog`. Throws `CacheError.invalidMovieID` or `invalidMovieField` for a movie the format
    /// cannot store, `catalogTooLarge` past its 32-bit limits.
    init(_ catalog: Catalog) throws(CacheError) {
        // Records are stored by ascending id; a decoded catalog is already in that order.
        var movies = catalog.movies
        if !zip(movies, movies.dropFirst()).allSatisfy({ $0.id < $1.id }) { movies.sort { $0.id < $1.id } }
        for (movie, next) in zip(movies, movies.dropFirst()) where movie.id == next.id {
            throw .invalidMovieID(id: movie.id, reason: "two movies have this id")
        }
        if let first = movies.first, first.id < 0 { throw .invalidMovieID(id: first.id, reason: "ids start at 0") }
        movieCount = movies.count
        _ = try Self.checked(movies.count, "movies")
        if let last = movies.last { _ = try Self.checked(last.id, "the largest movie id") }
        for movie in movies where Int32(exactly: movie.year) == nil {
            throw .invalidMovieField(id: movie.id, field: "year",
                                     reason: "\(movie.year) is outside \(Int32.min)...\(Int32.max), the years a cache can store")
        }
        for movie in movies where movie.rating.map({ !$0.isFinite }) == true {
            throw .invalidMovieField(id: movie.id, field: "rating", reason: "\(movie.rating!) is not a finite number (an unrated movie has nil)")
        }

        // Answer order: year descending, rating descending with unrated last, id ascending. Sorted on flat keys
        // (unrated as -infinity: catalog ratings are finite), not on `Movie` values, which would be copied.
        let years = movies.map(\.year)
        let ratings = movies.map { $0.rating ?? -.infinity }
        let ratedFirst = { (a: Int, b: Int) -> Bool in ratings[a] != ratings[b] ? ratings[a] > ratings[b] : a < b }
        let ranked = movies.indices.sorted { a, b in years[a] != years[b] ? years[a] > years[b] : ratedFirst(a, b) }
        let byRating = movies.indices.sorted(by: ratedFirst)

        var ranks: [UInt32] = [], yearTable = ByteWriter()
        var yearOfSlot = [UInt32](repeating: 0, count: movies.count)
        ranks.reserveCapacity(movies.count)
        for (rank, index) in ranked.enumerated() {
            ranks.append(UInt32(movies[index].id))
            if rank == 0 || years[ranked[rank - 1]] != years[index] {
                yearTable.i32(Int32(years[index]))
                yearTable.u32(UInt32(rank))
                yearFirstRanks.append(rank)
                yearCount += 1
            }
            yearOfSlot[index] = UInt32(yearCount - 1)
        }
        let topRated = byRating.map { UInt32(movies[$0].id) }

        try buildRecords(movies: movies, yearOfSlot: yearOfSlot)
        try buildTerms(movies: movies, ranked: ranked)
        parts.append(.packed(.ranks, ranks))
        parts.append(.packed(.topRated, topRated))
        parts.append(.bytes(.years, yearTable.bytes))
    }

    /// `TTXO`, `TTXT`, `TJMP`, `TPST`, `POST`, and the prefix sets (`PrefixSetWriter`).
    private mutating func buildTerms(movies: [Movie], ranked: [Int]) throws(CacheError) {
        // Each title's distinct tokens as provisional ids (order of first appearance), flat, by rank.
        var table = ByteStringTable(capacity: 1 << 16)
        var titleTerms: [Int32] = []
        var titleStarts: [Int] = [0]
        titleStarts.reserveCapacity(ranked.count + 1)
        // The rank of the last title each provisional id was listed for: a repeat within a title is one look-up,
        // however many words the title has (a scan of the title's terms so far made a long title quadratic).
        var lastRank: [Int] = []
        for (rank, index) in ranked.enumerated() {
            Tokenizer.forEachToken(in: movies[index].title, joiningWords: true) { token in
                let id = table.id(of: UnsafeRawBufferPointer(token))
                if id == lastRank.count {
                    lastRank.append(rank)  // Ids are given in order: a new id is new to this title too.
                } else if lastRank[id] != rank {
                    lastRank[id] = rank
                } else {
                    return
                }
                titleTerms.append(Int32(id))
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

        var textOffsets: [UInt32] = [], postingOffsets: [UInt32] = [], text = ByteWriter()
        var sortedTerms: [[UInt8]] = []
        textOffsets.reserveCapacity(order.count + 1)
        postingOffsets.reserveCapacity(order.count + 1)
        sortedTerms.reserveCapacity(order.count)
        for (final, provisionalID) in order.enumerated() {
            textOffsets.append(try Self.checked(text.count, "token text"))
            postingOffsets.append(try Self.checked(postingStarts[final], "postings"))
            text.append(table[provisionalID])
            sortedTerms.append(Array(table[provisionalID]))
        }
        textOffsets.append(try Self.checked(text.count, "token text"))
        postingOffsets.append(try Self.checked(postingStarts[order.count], "postings"))

        var jump: [UInt32] = []
        var next = 0
        for byte in 0..<CacheFormat.termJumpCount {
            while next < sortedTerms.count, Int(sortedTerms[next].first ?? 0) < byte { next += 1 }
            jump.append(UInt32(next))
        }

        parts.append(.packed(.termTextOffsets, textOffsets))
        parts.append(.bytes(.termText, text.bytes))
        parts.append(.packed(.termJump, jump))
        parts.append(.packed(.postingOffsets, postingOffsets))
        parts.append(.packed(.postings, flatPostings))
        var prefixSets = PrefixSetWriter(movieCount: movieCount, yearFirstRanks: yearFirstRanks)
        try prefixSets.add(terms: sortedTerms, postings: flatPostings, starts: postingStarts)
        parts.append(contentsOf: try prefixSets.parts())
    }

    /// `MIDS`, `MTTL`, `MYRS`, `MRAT`, `RATE`, `MLST`, `MCST`, `NAME`, `LIST`, `STRG`.
    private mutating func buildRecords(movies: [Movie], yearOfSlot: [UInt32]) throws(CacheError) {
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

        // Distinct ratings by their bits (so -0.0 reads back as stored), descending.
        var ratingNumber: [UInt64: UInt32] = [:]
        for movie in movies { if let rating = movie.rating { ratingNumber[rating.bitPattern] = 0 } }
        let distinctRatings = ratingNumber.keys.map { Double(bitPattern: $0) }
            .sorted { $0 != $1 ? $0 > $1 : $0.bitPattern < $1.bitPattern }
        var ratingValues = ByteWriter()
        for (number, rating) in distinctRatings.enumerated() {
            ratingNumber[rating.bitPattern] = UInt32(number)
            ratingValues.f64(rating)
        }
        let unrated = UInt32(distinctRatings.count)
        let ratingOfSlot = movies.map { movie in movie.rating.map { ratingNumber[$0.bitPattern]! } ?? unrated }

        var strings = ByteWriter()
        var ids: [UInt32] = [], titleOffsets: [UInt32] = [], listOffsets: [UInt32] = [], castCounts: [UInt32] = []
        ids.reserveCapacity(movies.count)
        titleOffsets.reserveCapacity(movies.count + 1)
        listOffsets.reserveCapacity(movies.count + 1)
        castCounts.reserveCapacity(movies.count)
        var listCount = 0
        for movie in movies {
            var title = movie.title
            titleOffsets.append(try Self.checked(strings.count, "text"))
            title.withUTF8 { strings.append(UnsafeRawBufferPointer($0)) }
            ids.append(UInt32(movie.id))
            listOffsets.append(try Self.checked(listCount, "cast and genre lists"))
            castCounts.append(try Self.checked(movie.cast.count, "a cast list"))
            listCount += movie.cast.count + movie.genres.count
        }
        titleOffsets.append(try Self.checked(strings.count, "text"))
        listOffsets.append(try Self.checked(listCount, "cast and genre lists"))
        var nameOffsets: [UInt32] = []
        nameOffsets.reserveCapacity(order.count + 1)
        for provisionalID in order {
            nameOffsets.append(try Self.checked(strings.count, "text"))
            strings.append(table[provisionalID])
        }
        nameOffsets.append(try Self.checked(strings.count, "text"))
        parts.append(.packed(.movieIDs, ids))
        parts.append(.packed(.titleOffsets, titleOffsets))
        parts.append(.packed(.movieYears, yearOfSlot))
        parts.append(.packed(.movieRatings, ratingOfSlot))
        parts.append(.bytes(.ratings, ratingValues.bytes))
        parts.append(.packed(.listOffsets, listOffsets))
        parts.append(.packed(.castCounts, castCounts))
        parts.append(.packed(.names, nameOffsets))
        parts.append(.packed(.lists, listed.map { nameID[Int($0)] }))
        parts.append(.bytes(.strings, strings.bytes))
    }


    /// `value` as a u32, or `catalogTooLarge` naming what overflowed.
    static func checked(_ value: Int, _ what: String) throws(CacheError) -> UInt32 {
        guard let narrow = UInt32(exactly: value) else {
            throw .catalogTooLarge(detail: "\(what) exceed the format's 32-bit limit (\(value))")
        }
        return narrow
    }
}
