import MovieSearchCatalog
@_spi(Engine) import MovieSearchText

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

        /// A blocked section of `values` and its bases (`CacheFormat`, "Blocked sections"): each block of 64
        /// entries stored less its smallest, at the width the largest spread of a block needs.
        static func blocked(_ tag: CacheFormat.Tag, _ values: [UInt32]) -> [Part] {
            guard let basesTag = tag.bases else { preconditionFailure("\(tag.rawValue) is not a blocked section") }
            let block = CacheFormat.blockedEntries
            var bases: [UInt32] = []
            bases.reserveCapacity(CacheFormat.blockedBaseCount(entries: values.count))
            var rest = values
            for start in stride(from: 0, to: values.count, by: block) {
                let end = min(start + block, values.count)
                let base = values[start..<end].min() ?? 0
                bases.append(base)
                for index in start..<end { rest[index] -= base }
            }
            return [.packed(tag, rest), .packed(basesTag, bases)]
        }

        /// A row-packed section of `values`, rows of `rowLength` entries, with its tables of widths and offsets
        /// (`CacheFormat`, "Row-packed sections"): each row at the width its largest entry needs, from a byte.
        static func rows(_ tag: CacheFormat.Tag, _ values: [UInt32], rowLength: Int) throws(CacheError) -> [Part] {
            guard let (widthsTag, offsetsTag) = tag.rowTables else {
                preconditionFailure("\(tag.rawValue) is not a row-packed section")
            }
            precondition(rowLength > 0 && values.count % rowLength == 0, "rows of \(rowLength) entries")
            var widths: [UInt32] = [], offsets: [UInt32] = []
            var bytes: [UInt8] = []
            for start in stride(from: 0, to: values.count, by: rowLength) {
                let row = values[start..<(start + rowLength)]
                let width = CacheFormat.width(of: row.max() ?? 0)
                widths.append(UInt32(width))
                offsets.append(try CacheSections.checked(bytes.count, "rows of \(tag.rawValue)"))
                // The row's bits, without the 8 bytes of padding a packed section ends with: one padding ends all.
                ByteWriter.appendPacked(row, width: width, to: &bytes)
            }
            bytes += [UInt8](repeating: 0, count: CacheFormat.packedPadding)
            return [.bytes(tag, bytes), .packed(widthsTag, widths), .packed(offsetsTag, offsets)]
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
    /// The compressed columns of titles, name lists and names, and the optional fields' sections, laid out on other
    /// cores from the start (`startTextColumns`), and the postings from `buildTerms` on (`IndexingJob`); taken last.
    private var backgroundParts: [IndexingJob<[Part]>] = []
    /// The first rank of each year, newest year first (the `YEAR` section's second column).
    private var yearFirstRanks: [Int] = []

    /// The sections of `catalog`. Throws `CacheError.invalidMovieID` or `invalidMovieField` for a movie the format
    /// cannot store, `catalogTooLarge` past its 32-bit limits.
    ///
    /// Memory matters at IMDb's scale (10 million titles): the movies are read from the catalog's columns, work
    /// arrays are 32-bit where the format's limits allow, and each is let go once its section is made.
    ///
    /// `maximumPairEntries` bounds `BMPP` (`CacheFormat.maximumPairEntries`; tests pass less).
    ///
    /// `titles`: the catalog's titles tokenized as it was read (`TitleTokenizer`), used when they are its titles,
    /// one per movie in id order; else the titles are tokenized here.
    init(_ catalog: consuming Catalog, titles tokenized: consuming TokenizedTitles? = nil,
         progress: IndexingProgressHandler? = nil,
         maximumPairEntries: Int = CacheFormat.maximumPairEntries) throws(CacheError) {
        let records = catalog.movieCount
        let report = { (phase: IndexingProgress.Phase) in progress?(IndexingProgress(phase: phase, records: records)) }
        report(.ranking)
        // Records are stored by ascending id; a decoded catalog is already in that order.
        let inIDOrder = catalog.columns.isSortedByID
        var movies = inIDOrder ? catalog.columns : catalog.columns.sortedByID()
        // Titles tokenized as they were read are by movie in the catalog's order: by slot, when that is id order.
        var tokenized = consume tokenized
        if !inIDOrder || tokenized?.count != movies.count { tokenized = nil }
        let scales = catalog.ratingScales
        let ratingScale = catalog.ratingScale, highestRating = catalog.highestRating
        let criticRatingScale = catalog.criticRatingScale, highestCriticRating = catalog.highestCriticRating
        // The catalog is this builder's (`consuming`): from here `movies` alone holds its columns, which are let go
        // once the titles are tokenized (below), before the prefix sets, the largest work space, are built.
        _ = consume catalog
        let ids = movies.ids
        for (id, next) in zip(ids, ids.dropFirst()) where id == next {
            throw .invalidMovieID(id: id, reason: "two movies have this id")
        }
        if let first = ids.first, first < 0 { throw .invalidMovieID(id: first, reason: "ids start at 0") }
        movieCount = movies.count
        _ = try Self.checked(movies.count, "movies")
        if let last = ids.last { _ = try Self.checked(last, "the largest movie id") }
        for (slot, year) in movies.years.enumerated() where Int32(exactly: year) == nil {
            throw .invalidMovieField(id: ids[slot], field: "year",
                                     reason: "\(year) is outside \(Int32.min)...\(Int32.max), the years a cache can store")
        }
        for slot in 0..<movieCount {
            if let rating = movies.rating(slot), !rating.isFinite {
                throw .invalidMovieField(id: ids[slot], field: "rating",
                                         reason: "\(rating) is not a finite number (an unrated movie has nil)")
            }
        }
        // The scales the ratings are shown on (`RSCL`): a scale given must hold every rating of its kind.
        if let given = ratingScale, let highest = highestRating, !given.holds(highest.rating) {
            throw .invalidMovieField(id: highest.id, field: "rating",
                                     reason: "\(highest.rating) exceeds the rating scale given, \(given.rawValue)")
        }
        if let given = criticRatingScale, let highest = highestCriticRating, !given.holds(highest.rating) {
            throw .invalidMovieField(id: highest.id, field: "critic_rating",
                                     reason: "\(highest.rating) exceeds the critics' rating scale given, \(given.rawValue)")
        }
        // The text columns need nothing but the movies in slot order: deflating them (at 10 million titles, the
        // longest single job of indexing) starts now, on the cores this thread's ranking leaves idle.
        startTextColumns(movies)

        // Distinct ratings, descending; a movie's rating number is its place among them, one past the last for none.
        let ratings = Self.ratingNumbers(count: movieCount, movies.rating)
        let distinctRatings = ratings.distinct
        var ratingOfSlot = ratings.numberOfSlot

        // Answer order: year descending, rating descending with unrated last, id ascending (slots ascend with
        // ids). Sorted on one flat key per movie, not through closures over the columns. The key's rating is the
        // rating's place among the distinct values, not bit patterns: 0.0 and -0.0 are equal ratings, whose movies
        // keep id order (SPEC.md), though each is stored with its own bits.
        var valueOrder = [UInt32](repeating: 0, count: distinctRatings.count + 1)
        for number in distinctRatings.indices.dropFirst() {
            valueOrder[number] = valueOrder[number - 1] + (distinctRatings[number] != distinctRatings[number - 1] ? 1 : 0)
        }
        if let last = distinctRatings.indices.last { valueOrder[last + 1] = valueOrder[last] + 1 }  // unrated
        let ratingBits = UInt64.bitWidth - UInt64(valueOrder.last ?? 0).leadingZeroBitCount
        // Years count down from the newest: `newest - year` takes few bits in any real catalog (IMDb's span, 8),
        // and at most 32 (years fit an `Int32`, checked above).
        let newest = movies.years.max() ?? 0, oldest = movies.years.min() ?? 0
        let spanBits = UInt64.bitWidth - UInt64(newest - oldest).leadingZeroBitCount
        let ranked = Self.slotsSorted(count: movieCount, keyBits: spanBits + ratingBits) { slot in
            UInt64(newest - movies.years[slot]) << UInt64(ratingBits) | UInt64(valueOrder[Int(ratingOfSlot[slot])])
        }
        // The rated movies only: the unrated ones, last and in id order, are the slots `MRAT` calls unrated.
        let unrated = UInt32(distinctRatings.count)
        var topRated: [UInt32] = []
        for slot in Self.slotsSorted(count: movieCount, keyBits: ratingBits, key: { UInt64(valueOrder[Int(ratingOfSlot[$0])]) })
        where ratingOfSlot[Int(slot)] != unrated {
            topRated.append(UInt32(movies.ids[Int(slot)]))
        }

        var ranks = [UInt32](repeating: 0, count: movieCount), yearTable = ByteWriter()
        var yearOfSlot = [UInt32](repeating: 0, count: movieCount)
        for (rank, slot) in ranked.enumerated() {
            let slot = Int(slot)
            ranks[rank] = UInt32(movies.ids[slot])
            if rank == 0 || movies.years[Int(ranked[rank - 1])] != movies.years[slot] {
                yearTable.i32(Int32(movies.years[slot]))
                yearTable.u32(UInt32(rank))
                yearFirstRanks.append(rank)
                yearCount += 1
            }
            yearOfSlot[slot] = UInt32(yearCount - 1)
        }

        // The genre sections come first in the file; they are built on another core and put in their place last.
        let genreIndex = parts.count
        let genres = IndexingJob {
            [ranked, names = movies.names, nameLists = movies.lists, listStarts = movies.listStarts,
             castCounts = movies.castCounts] () throws(CacheError) in
            try Self.genreParts(names: names, nameLists: nameLists, listStarts: listStarts, castCounts: castCounts,
                                ranked: ranked)
        }
        buildRecords(movies: movies, yearOfSlot: yearOfSlot, ratingOfSlot: ratingOfSlot, distinctRatings: distinctRatings)
        yearOfSlot = []
        ratingOfSlot = []
        report(.terms)
        // Not tokenized as they were read: tokenized now, in slot order too.
        let titleTerms = tokenized.take() ?? {
            var titles = TokenizedTitles()
            titles.append(movies.titles)
            return titles.finished()
        }()
        movies = MovieColumns()  // the last use here; the jobs hold the columns they read until they end
        try buildTerms(titleTerms, ranked: ranked, idOfRank: ranks, progress: progress,
                       maximumPairEntries: maximumPairEntries)
        // Each rank's id less the smallest id of its year: a catalog whose ids follow its years (most do, roughly)
        // spreads a year's ids over that year's movies, not over the whole catalog.
        var rankBases: [UInt32] = []
        for (number, first) in yearFirstRanks.enumerated() {
            let end = number + 1 < yearFirstRanks.count ? yearFirstRanks[number + 1] : ranks.count
            let base = ranks[first..<end].min() ?? 0
            rankBases.append(base)
            for rank in first..<end { ranks[rank] -= base }
        }
        parts.append(.packed(.ranks, ranks))
        parts.append(.packed(.rankBases, rankBases))
        parts.append(.packed(.topRated, topRated))
        parts.append(.bytes(.years, yearTable.bytes))
        parts.append(.packed(.ratingScales, [CacheFormat.storedScale(scales.rating), CacheFormat.storedScale(scales.critic)]))
        parts.insert(contentsOf: try genres.value(), at: genreIndex)
        for job in backgroundParts { parts += try job.value() }
        backgroundParts = []
    }

    /// The slots `0..<count` in the order of `key(slot)`, ties in slot order. When the key's `keyBits` and the
    /// slot's bits fit 64, each slot is sorted as one `UInt64` (key above slot), by radix (`RadixSort`): a sort of
    /// plain integers, where `RankKey`'s merges were 5 % of the 10M pair's single-threaded first third, and several
    /// times faster in an unoptimized build (the tests'). Else through `RankKey`.
    static func slotsSorted(count: Int, keyBits: Int, key: (Int) -> UInt64) -> [UInt32] {
        let slotBits = UInt64.bitWidth - UInt64(max(count - 1, 0)).leadingZeroBitCount
        if keyBits + slotBits <= 64 {
            var packed = [UInt64](repeating: 0, count: count)
            for slot in 0..<count { packed[slot] = key(slot) << UInt64(slotBits) | UInt64(slot) }
            // The values ascend by slot as made: a stable sort by the key's bits alone orders them whole.
            RadixSort.sort(&packed, bits: slotBits..<(slotBits + keyBits))
            let mask = slotBits == 64 ? ~0 : (UInt64(1) << UInt64(slotBits)) - 1
            return packed.map { UInt32(truncatingIfNeeded: $0 & mask) }
        }
        var keyed = [RankKey](repeating: RankKey(key: 0, slot: 0), count: count)
        for slot in 0..<count { keyed[slot] = RankKey(key: key(slot), slot: UInt32(slot)) }
        keyed.sort()
        return keyed.map(\.slot)
    }

    /// A movie's place in a sort: `key` first, then the slot (so ties keep id order).
    private struct RankKey: Comparable {
        var key: UInt64
        var slot: UInt32

        static func < (a: RankKey, b: RankKey) -> Bool {
            a.key != b.key ? a.key < b.key : a.slot < b.slot
        }
    }

    /// Calls `body` with each rank of `ranked` (the slot at each rank), in order, and `load` of its slot; the loads
    /// of each `chunk` ranks are made first, by a loop of them alone. Read in rank order, a slot's column entry is a
    /// cache miss; that loop overlaps the misses, where a loop that used each entry as it read it waited on each (a
    /// title's byte range, 2.8 % of the 10M IMDb pair's indexing samples; a movie's genre bits, 2.2 %).
    static func forEachRank<Value, Failure: Error>(in ranked: [UInt32], chunk: Int, loading load: (Int) -> Value,
                                                   _ body: (_ rank: Int, _ value: Value) throws(Failure) -> Void)
        throws(Failure)
    {
        var loaded: [Value] = []
        loaded.reserveCapacity(min(chunk, ranked.count))
        for chunkStart in stride(from: 0, to: ranked.count, by: chunk) {
            let chunkEnd = min(chunkStart + chunk, ranked.count)
            loaded.removeAll(keepingCapacity: true)
            for rank in chunkStart..<chunkEnd { loaded.append(load(Int(ranked[rank]))) }
            for rank in chunkStart..<chunkEnd { try body(rank, loaded[rank - chunkStart]) }
        }
    }

    /// `TTXO`, `TTXT`, `TJMP`, `TPST`, `POST`, and the prefix sets (`PrefixSetWriter`), from the terms of each
    /// movie's title (by slot; the slot at each rank is `ranked[rank]`).
    private mutating func buildTerms(_ tokens: consuming TokenizedTitles, ranked: [UInt32], idOfRank: [UInt32],
                                     progress: IndexingProgressHandler?, maximumPairEntries: Int)
        throws(CacheError)
    {
        var (table, titleTerms, titleStarts) = (tokens.table, tokens.terms, tokens.starts)
        _ = try Self.checked(titleTerms.count, "postings")
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
        // Each rank's terms found through its slot, a chunk of ranks' ranges loaded first (their misses overlap).
        Self.forEachRank(in: ranked, chunk: 1024, loading: { Int(titleStarts[$0])..<Int(titleStarts[$0 + 1]) }) {
            rank, positions in
            for position in positions {
                let term = Int(finalID[Int(titleTerms[position])])
                flatPostings[fill[term]] = UInt32(rank)
                fill[term] += 1
            }
        }
        fill = []
        titleTerms = []
        titleStarts = []

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
        table = ByteStringTable()

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
        // Each term's list Elias–Fano coded (`CacheFormat`, "Elias–Fano lists"), on another core.
        backgroundParts.append(IndexingJob { [flatPostings, postingOffsets, movieCount] () throws(CacheError) in
            let coded = try EliasFanoList.encodeLists(flatPostings, offsets: postingOffsets, universe: movieCount,
                                                      what: "posting bytes")
            return [.bytes(.postings, coded.bytes), .packed(.postingPositions, coded.starts)]
        })
        progress?(IndexingProgress(phase: .prefixSets, records: movieCount))
        var prefixSets = PrefixSetWriter(movieCount: movieCount, yearFirstRanks: yearFirstRanks, idOfRank: idOfRank,
                                         maximumPairEntries: maximumPairEntries)
        try prefixSets.add(terms: sortedTerms, postings: flatPostings, starts: postingStarts)
        parts.append(contentsOf: try prefixSets.parts())
    }

    /// `MIDS` (and its bases), `MYRS`, `MRAT`, `RATE`.
    private mutating func buildRecords(movies: MovieColumns, yearOfSlot: [UInt32], ratingOfSlot: [UInt32],
                                       distinctRatings: [Double]) {
        var ratingValues = ByteWriter()
        for rating in distinctRatings { ratingValues.f64(rating) }
        // Ids ascend, at least one a slot: an id less its slot never falls, and is 0 throughout when no id is
        // missing (1 bit a slot).
        parts += Part.blocked(.movieIDs, movies.ids.enumerated().map { UInt32($0.element - $0.offset) })
        parts += Part.blocked(.movieYears, yearOfSlot)
        parts.append(.packed(.movieRatings, ratingOfSlot))
        parts.append(.bytes(.ratings, ratingValues.bytes))
    }

    /// Starts the jobs (`backgroundParts`) that lay out the compressed columns of titles (`TTL*`), of each movie's
    /// cast and genres (`CST*`) and of the names (`NMS*`), and the optional fields' sections.
    private mutating func startTextColumns(_ movies: MovieColumns) {
        // Each job holds only the columns it reads (the genres' job too, above): the titles' job, the longest, ends
        // while the terms and prefix sets are built, the largest work space, and the others may. Holding every
        // column until then put the 20M pair's peak at 3.83 and 4.05 GB in some runs; now 3.53-3.55 GB in six.
        let titles = movies.titles, count = movies.count
        backgroundParts.append(IndexingJob { [titles, count] () throws(CacheError) in
            try TextColumnWriter.parts(.titles, count: count) { titles.bytes[titles.range($0)] }
        })
        // Names numbered by how many movies name them, most first, then by bytes: the same catalog always gives
        // the same file, and the names most lists hold (the genres, the busiest actors) take one byte a mention.
        let names = movies.names.map { Array($0.utf8) }
        var mentions = [Int](repeating: 0, count: names.count)
        for name in movies.lists { mentions[Int(name)] += 1 }
        let order = names.indices.sorted {
            mentions[$0] != mentions[$1] ? mentions[$0] > mentions[$1] : names[$0].lexicographicallyPrecedes(names[$1])
        }
        let castCounts = movies.castCounts, nameLists = movies.lists, listStarts = movies.listStarts
        backgroundParts.append(IndexingJob { [castCounts, nameLists, listStarts, count] () throws(CacheError) in
            var nameID = [UInt32](repeating: 0, count: order.count)
            for (final, catalogNumber) in order.enumerated() { nameID[catalogNumber] = UInt32(final) }
            // Each movie's names as one text of varints: how many are cast, then the name numbers, cast first.
            var lists: [UInt8] = [], listEnds: [Int] = []
            listEnds.reserveCapacity(count)
            for slot in 0..<count {
                LEB128.append(Int(castCounts[slot]), to: &lists)
                for name in nameLists[listStarts[slot]..<listStarts[slot + 1]] {
                    LEB128.append(Int(nameID[Int(name)]), to: &lists)
                }
                listEnds.append(lists.count)
            }
            return try TextColumnWriter.parts(.nameLists, count: listEnds.count) {
                lists[($0 == 0 ? 0 : listEnds[$0 - 1])..<listEnds[$0]]
            }
        })
        backgroundParts.append(IndexingJob { () throws(CacheError) in
            try TextColumnWriter.parts(.names, count: order.count) { names[order[$0]][...] }
        })
        // The optional fields: their text columns are deflated too.
        backgroundParts.append(IndexingJob { [columns = movies.withoutTitles()] () throws(CacheError) in
            try Self.optionalFieldParts(columns)
        })
    }

    /// `value` as a u32, or `catalogTooLarge` naming what overflowed.
    static func checked(_ value: Int, _ what: String) throws(CacheError) -> UInt32 {
        guard let narrow = UInt32(exactly: value) else {
            throw .catalogTooLarge(detail: "\(what) exceed the format's 32-bit limit (\(value))")
        }
        return narrow
    }
}

extension CacheSections {
    /// The optional sections (`CacheFormat`, "Optional sections") of `movies`, in slot order: original titles,
    /// overviews, poster paths, TMDb and IMDb ids, each field's only when some movie has it. Kept apart from the
    /// other sections and self-contained: it reads each movie's fields by slot, the texts as the bytes the columns
    /// hold (no `String` is made). Throws `CacheError.invalidMovieField` for a TMDb id outside 0 ... 2³² − 2,
    /// `catalogTooLarge` for a field of 4 GiB of text or more.
    ///
    /// Memory: nothing for a field no movie has; else 4 bytes a movie for its offsets or numbers while they are
    /// packed, and a copy of its text.
    static func optionalFieldParts(_ movies: MovieColumns) throws(CacheError) -> [Part] {
        let count = movies.count
        var parts: [Part] = []
        parts += try textFieldParts(.originalTitle, count: count) { movies.originalTitles.bytes($0) }
        parts += try textFieldParts(.overview, count: count) { movies.overviews.bytes($0) }
        parts += try textFieldParts(.posterPath, count: count) { movies.posterPaths.bytes($0) }

        if !movies.tmdbIDs.isEmpty {
            var stored = [UInt32](repeating: 0, count: count)
            for slot in 0..<count {
                guard let id = movies.tmdbID(slot) else { continue }
                guard id >= 0, id < Int(UInt32.max) else {
                    throw .invalidMovieField(id: movies.ids[slot], field: "tmdb_id",
                                             reason: "\(id) is outside 0...\(UInt32.max - 1), the TMDb ids a cache can store")
                }
                stored[slot] = UInt32(id) + 1
            }
            parts.append(.packed(.tmdbIDs, stored))
        }

        parts += criticRatingParts(movies)

        if !movies.imdbIDs.isEmpty {
            // Ids of the packed form as numbers plus 1, the others (0 here) as text.
            var numbers = [UInt32](repeating: 0, count: count)
            var anyNumber = false
            for slot in 0..<count {
                if let bytes = movies.imdbIDs.bytes(slot), let number = CacheFormat.imdbNumber(utf8: bytes) {
                    numbers[slot] = number + 1
                    anyNumber = true
                }
            }
            if anyNumber { parts += Part.blocked(.imdbNumbers, numbers) }
            parts += try textFieldParts(.imdbID, count: count) { slot in
                numbers[slot] == 0 ? movies.imdbIDs.bytes(slot) : nil
            }
        }
        return parts
    }

    /// The sections `FO`, `FT`, `FL`, `FD` (a compressed text column of a text a slot, empty where the slot has
    /// none) and, when some slot has the empty text, `FE` of text field `field`, whose text in slot `slot` is
    /// `text(slot)` (`nil` for none); no section when no slot has a text.
    private static func textFieldParts(_ field: CacheFormat.TextField, count: Int,
                                       text: (Int) -> ArraySlice<UInt8>?) throws(CacheError) -> [Part] {
        guard (0..<count).contains(where: { text($0) != nil }) else { return [] }
        var empty: [UInt32]?
        for slot in 0..<count where text(slot)?.isEmpty == true {
            if empty == nil { empty = [UInt32](repeating: 0, count: count) }
            empty![slot] = 1
        }
        var parts = try TextColumnWriter.parts(field.column, count: count) { text($0) ?? [] }
        if let empty { parts.append(.packed(field.empty, empty)) }
        return parts
    }

    /// `GNMO`, `GNMT`, `GNRO`, `GNRP`, `GNRR`, `GSET`, `GSTO`, `GSTG` (`CacheFormat`, "Filter sections") of
    /// the movies whose names are these columns of theirs (`MovieColumns`: `names`, and each movie's cast, then
    /// genres, as name numbers), whose slot at each rank is `ranked[rank]`: the genres by folded name, each genre's
    /// ranks, and each rank's genre set. Given the columns it reads, not the movies, so that the job it runs in holds
    /// no other.
    static func genreParts(names: [String], nameLists: [UInt32], listStarts: [Int], castCounts: [Int32],
                           ranked: [UInt32]) throws(CacheError) -> [Part] {
        let movieCount = castCounts.count
        // Each catalog name used as a genre, folded once; the spelling shown is the first met in slot (id) order.
        // Names are numbered densely (`MovieColumns.names`), so a name's genre is an array entry, not a hash look-up
        // (at 10 million titles this function ran for seconds on the one thread of this phase).
        /// The name numbers of the genres of the movie at `slot`: those of its list after its cast.
        func genreNames(_ slot: Int) -> ArraySlice<UInt32> {
            nameLists[(listStarts[slot] + Int(castCounts[slot]))..<listStarts[slot + 1]]
        }
        let unknown = -1
        var foldedOfName = [Int](repeating: unknown, count: names.count)
        var genreOfFolded: [String: Int] = [:]
        var folded: [String] = [], shown: [String] = []
        for slot in 0..<movieCount {
            for name in genreNames(slot) where foldedOfName[Int(name)] == unknown {
                let key = NameFolding.fold(names[Int(name)])
                if let known = genreOfFolded[key] {
                    foldedOfName[Int(name)] = known
                } else {
                    genreOfFolded[key] = folded.count
                    foldedOfName[Int(name)] = folded.count
                    folded.append(key)
                    shown.append(names[Int(name)])
                }
            }
        }
        // Genres numbered by folded name in byte order (Unicode scalar order).
        let order = folded.indices.sorted { Array(folded[$0].utf8).lexicographicallyPrecedes(Array(folded[$1].utf8)) }
        var number = [Int](repeating: 0, count: folded.count)
        for (final, provisional) in order.enumerated() { number[provisional] = final }
        var nameOffsets: [UInt32] = [], text = ByteWriter()
        for provisional in order {
            nameOffsets.append(try checked(text.count, "genre names"))
            text.append(Array(shown[provisional].utf8))
            nameOffsets.append(try checked(text.count, "genre names"))
            text.append(Array(folded[provisional].utf8))
        }
        nameOffsets.append(try checked(text.count, "genre names"))

        // Each rank's genres (distinct, ascending), its set number, and each genre's ranks. Sets are numbered in
        // the order their first rank is met. With at most 64 genres (IMDb has 28) a set is its bits, read in slot
        // order first (the catalog's lists lie in slot order; read in rank order, each movie's list was three cache
        // misses, seconds at 10 million titles) and looked up by them; else by its genres, one array reused.
        var lists = [[UInt32]](repeating: [], count: folded.count)
        var setOffsets: [UInt32] = [0, 0], setGenres: [UInt32] = []
        var setOfRank = [UInt32](repeating: 0, count: ranked.count)
        /// The number of the set of `genres` (distinct, ascending), known in `sets` by `key`: a set not met before
        /// is numbered next and its genres stored.
        func setNumber<Key: Hashable>(_ key: Key, in sets: inout [Key: UInt32], genres: () -> [UInt32])
            throws(CacheError) -> UInt32
        {
            if let set = sets[key] { return set }
            let set = UInt32(setOffsets.count - 1)
            sets[key] = set
            setGenres += genres()
            setOffsets.append(try checked(setGenres.count, "genre sets"))
            return set
        }
        if folded.count <= 64 {
            var bitsOfSlot = [UInt64](repeating: 0, count: movieCount)
            for slot in 0..<movieCount {
                var bits: UInt64 = 0
                for name in genreNames(slot) {
                    bits |= 1 << UInt64(number[foldedOfName[Int(name)]])
                }
                bitsOfSlot[slot] = bits
            }
            var setOfBits: [UInt64: UInt32] = [0: 0]
            try Self.forEachRank(in: ranked, chunk: 4096, loading: { bitsOfSlot[$0] }) {
                rank, bits throws(CacheError) in
                if bits == 0 { return }
                var rest = bits
                while rest != 0 {
                    lists[rest.trailingZeroBitCount].append(UInt32(rank))
                    rest &= rest - 1
                }
                setOfRank[rank] = try setNumber(bits, in: &setOfBits) {
                    var genres: [UInt32] = [], rest = bits
                    while rest != 0 {
                        genres.append(UInt32(rest.trailingZeroBitCount))
                        rest &= rest - 1
                    }
                    return genres
                }
            }
        } else {
            var setOfGenres: [[UInt32]: UInt32] = [[]: 0]
            var genres: [UInt32] = []
            for (rank, slot) in ranked.enumerated() {
                let slot = Int(slot)
                genres.removeAll(keepingCapacity: true)
                for name in genreNames(slot) {
                    genres.append(UInt32(number[foldedOfName[Int(name)]]))
                }
                if genres.isEmpty { continue }
                genres.sort()
                var kept = 0
                for genre in genres where kept == 0 || genres[kept - 1] != genre {
                    genres[kept] = genre
                    kept += 1
                }
                genres.removeLast(genres.count - kept)
                for genre in genres { lists[Int(genre)].append(UInt32(rank)) }
                setOfRank[rank] = try setNumber(genres, in: &setOfGenres) { genres }
            }
        }
        // Each genre's ranks Elias–Fano coded, end to end, whatever their count, with where each starts.
        var rankOffsets: [UInt32] = [0], rankStarts: [UInt32] = [0], ranks: [UInt8] = []
        var total = 0
        for list in lists {
            EliasFanoList.encode(list[...], universe: ranked.count, into: &ranks)
            total += list.count
            rankOffsets.append(try checked(total, "genre ranks"))
            rankStarts.append(try checked(ranks.count, "genre ranks"))
        }
        ranks += [UInt8](repeating: 0, count: CacheFormat.packedPadding)
        return [.packed(.genreNameOffsets, nameOffsets), .bytes(.genreNames, text.bytes),
                .packed(.genreRankOffsets, rankOffsets), .packed(.genreRankStarts, rankStarts),
                .bytes(.genreRanks, ranks),
                .packed(.genreSetOfRank, setOfRank), .packed(.genreSetOffsets, setOffsets),
                .packed(.genreSetGenres, setGenres)]
    }

    /// `CRIT`, `CRTV`, `TOPC` (`CacheFormat`, "Optional sections"): each slot's critics' rating as its number among
    /// the distinct ones (descending, by their bits so that -0.0 reads back as stored; one past the last for none),
    /// and the ids of the movies that have one, best first, lower id first on ties (slots ascend with ids). Nothing
    /// when no movie has one.
    static func criticRatingParts(_ movies: MovieColumns) -> [Part] {
        var rated: [(rating: Double, slot: Int)] = []
        for slot in 0..<movies.count { if let rating = movies.criticRating(slot) { rated.append((rating, slot)) } }
        guard !rated.isEmpty else { return [] }
        let (distinct, numbers) = ratingNumbers(count: movies.count, movies.criticRating)
        var values = ByteWriter()
        for rating in distinct { values.f64(rating) }
        // Equal values rank together whatever their bits (0.0 and -0.0), then by slot: a stable sort by value.
        let top = rated.enumerated().sorted { left, right in
            left.element.rating != right.element.rating ? left.element.rating > right.element.rating
                : left.offset < right.offset
        }.map { UInt32(movies.ids[$0.element.slot]) }
        return [.packed(.criticRatingNumbers, numbers), .bytes(.criticRatingValues, values.bytes),
                .packed(.topCriticRated, top)]
    }

    /// The distinct values of a rating column (`MRAT`/`RATE` for the users', `CRIT`/`CRTV` for the critics'),
    /// descending and told apart by their bits (so that -0.0 reads back as stored), and each slot's number: its
    /// value's place among them, one past the last for a slot without a rating.
    static func ratingNumbers(count: Int, _ rating: (Int) -> Double?)
        -> (distinct: [Double], numberOfSlot: [UInt32])
    {
        var numberOfBits: [UInt64: UInt32] = [:]
        for slot in 0..<count { if let value = rating(slot) { numberOfBits[value.bitPattern] = 0 } }
        let distinct = numberOfBits.keys.map { Double(bitPattern: $0) }
            .sorted { $0 != $1 ? $0 > $1 : $0.bitPattern < $1.bitPattern }
        for (number, value) in distinct.enumerated() { numberOfBits[value.bitPattern] = UInt32(number) }
        var numberOfSlot = [UInt32](repeating: UInt32(distinct.count), count: count)
        for slot in 0..<count {
            if let value = rating(slot), let number = numberOfBits[value.bitPattern] { numberOfSlot[slot] = number }
        }
        return (distinct, numberOfSlot)
    }
}
