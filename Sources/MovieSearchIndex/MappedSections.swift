import MovieSearchCatalog

/// The sections of an opened cache, each looked up in the directory and its size checked against the header's
/// counts once, at open (`CacheFormat`, "Sections"): the reading side of `CacheSections`. A query then finds a
/// section by a field access, and every read is still bounds-checked against the section (`MappedCacheFile`).
package struct MappedSections: Sendable {
    var movieIDs: MappedCacheFile.BlockedSection
    var movieYears: MappedCacheFile.BlockedSection
    var movieRatings, ratings: MappedCacheFile.Section
    package var ranks, topRated, years: MappedCacheFile.Section
    /// `RNKB`: each year's base of the ids in `RANK`.
    package var rankBases: MappedCacheFile.Section
    var termTextOffsets, termText, termJump, postingOffsets: MappedCacheFile.Section
    /// `POST`, each term's postings Elias–Fano coded, and `TPSP`, where each term's start in it.
    var postings: MappedCacheFile.Section
    var postingPositions: MappedCacheFile.Section
    var prefixOffsets: MappedCacheFile.BlockedSection
    var prefixEntries: MappedCacheFile.Section
    var listSetOffsets: MappedCacheFile.BlockedSection
    /// `LSTD`, the list sets Elias–Fano coded, and `LSTP`, where each starts in it (`CacheFormat`, "Elias–Fano lists").
    var listSetData: MappedCacheFile.Section
    var listSetPositions: MappedCacheFile.Section
    var bitmapCardinalities, bitmapYearCounts, bitmaps, bitmapFirstIDs: MappedCacheFile.Section
    var bitmapPairCounts: MappedCacheFile.RowsSection
    /// Q: `BMPP` holds the pairs of bitmap sets 0..<Q (`CacheFormat.pairedBitmapCount`).
    var pairedBitmapCount = 0
    /// The compressed columns of titles and of name lists (one a slot), and of cast and genre names (`CacheFormat`,
    /// "Compressed text columns").
    var titles, nameLists, names: CompressedTextColumn
    /// The optional sections (`CacheFormat`, "Optional sections"): `nil` when no movie has the field.
    var originalTitles: TextField? = nil, overviews: TextField? = nil
    var posterPaths: TextField? = nil, imdbTexts: TextField? = nil
    var tmdbIDs: MappedCacheFile.Section? = nil, imdbNumbers: MappedCacheFile.BlockedSection? = nil
    /// `CRIT`, `CRTV`, `TOPC`: the critics' ratings and list, when any movie has one.
    var criticRatingNumbers: MappedCacheFile.Section? = nil, criticRatingValues: MappedCacheFile.Section? = nil
    var topCriticRated: MappedCacheFile.Section? = nil
    /// The counts and first ids per year of long lists (`YCRG`, `YCNT`, `YCID`), `nil` when no list has them.
    var rangeYearCountKeys: MappedCacheFile.Section? = nil, rangeYearCounts: MappedCacheFile.Section? = nil
    var rangeFirstIDs: MappedCacheFile.Section? = nil
    /// The rows of the longest of those lists met with every bitmap set (`LBPR`, `LBPC`), `nil` when none is
    /// paired; R, the rows `LBPC` holds.
    var listPairRows: MappedCacheFile.Section? = nil, listPairCounts: MappedCacheFile.RowsSection? = nil
    var pairedListCount = 0
    /// `RSCL`: the scales the users' and the critics' ratings are on, read and checked at open.
    package var ratingScales = RatingScales.tenPoint
    /// The genres by rank (`CacheFormat`, "Filter sections"), looked up and shaped at open.
    var genres = GenreSections()

    /// The sections of the genres by rank: `GNMO`, `GNMT`, `GNRO`, `GNRP`, `GNRR`, `GSET`, `GSTO`, `GSTG`; G genres.
    struct GenreSections: Sendable {
        var nameOffsets, names, rankOffsets, rankStarts, ranks: MappedCacheFile.Section?
        var setOfRank, setOffsets, setGenres: MappedCacheFile.Section?
        var count = 0
    }

    /// The sections of one text field: its compressed column (`FO`, `FT`, `FL`, `FD`), and `FE` (N entries) when
    /// present.
    struct TextField: Sendable {
        var texts: CompressedTextColumn
        var empty: MappedCacheFile.Section?
    }
}

extension MappedSections {
    /// Looks up every section of `file` and checks its shape. Throws `CacheError.corrupt` for a missing section,
    /// one of the wrong kind or size, or counts that disagree.
    package init(file: MappedCacheFile) throws(CacheError) {
            let n = file.movieCount, t = file.termCount
            let bitmapCardinalities = try file.packedSection(.bitmapCardinalities)
            let bitmapCount = bitmapCardinalities.count
            // Counts from a forged directory can be large enough for their products to overflow.
            func product(_ a: Int, _ b: Int) throws(CacheError) -> Int {
                let (value, overflow) = a.multipliedReportingOverflow(by: b)
                if overflow { throw .corrupt(path: file.path, detail: "bitmap sets out of range") }
                return value
            }
            self = try MappedSections(
                movieIDs: file.blockedSection(.movieIDs, expectedCount: n),
                movieYears: file.blockedSection(.movieYears, expectedCount: n),
                movieRatings: file.packedSection(.movieRatings, expectedCount: n),
                ratings: file.section(.ratings, unit: 8),
                ranks: file.packedSection(.ranks, expectedCount: n),
                topRated: file.packedSection(.topRated),
                years: file.section(.years, expectedLength: file.yearCount * 8),
                rankBases: file.packedSection(.rankBases, expectedCount: file.yearCount),
                termTextOffsets: file.packedSection(.termTextOffsets, expectedCount: t + 1),
                termText: file.section(.termText),
                termJump: file.packedSection(.termJump, expectedCount: CacheFormat.termJumpCount),
                postingOffsets: file.packedSection(.postingOffsets, expectedCount: t + 1),
                postings: file.section(.postings),
                postingPositions: file.packedSection(.postingPositions,
                                                     expectedCount: EliasFanoList.startCount(lists: t)),
                prefixOffsets: file.blockedSection(.prefixOffsets, expectedCount: t + 1),
                prefixEntries: file.packedSection(.prefixEntries),
                listSetOffsets: file.blockedSection(.listSetOffsets),
                listSetData: file.section(.listSetData),
                listSetPositions: file.packedSection(.listSetPositions),
                bitmapCardinalities: bitmapCardinalities,
                bitmapYearCounts: file.packedSection(.bitmapYearCounts, expectedCount: product(bitmapCount, file.yearCount)),
                bitmaps: file.section(.bitmaps, expectedLength: product(bitmapCount, CacheFormat.bitmapWordCount(movieCount: n) * 8)),
                bitmapFirstIDs: file.packedSection(
                    .bitmapFirstIDs,
                    expectedCount: product(product(bitmapCount, file.yearCount), CacheFormat.firstIDsPerYear)),
                bitmapPairCounts: file.rowsSection(.bitmapPairCounts),
                titles: CompressedTextColumn(.titles, in: file, count: n),
                nameLists: CompressedTextColumn(.nameLists, in: file, count: n),
                names: CompressedTextColumn(.names, in: file, count: nil))
            // `BMPP` pairs the first Q bitmap sets, Q worked out from its size (the writer may pair fewer than all).
            // Rows of Y counts: a cache without years has none.
            guard let paired = CacheFormat.pairedBitmapCount(pairEntries: try product(bitmapPairCounts.count,
                                                                                       file.yearCount),
                                                             yearCount: file.yearCount),
                  paired <= bitmapCount else {
                throw CacheError.corrupt(path: file.path, detail: "section BMPP holds \(bitmapPairCounts.count) rows, "
                    + "not the pairs of some of the \(bitmapCount) bitmap sets")
            }
            pairedBitmapCount = paired
            ratingScales = try Self.ratingScales(file)
            genres = try Self.genreSections(file)
            if (file.movieCount == 0) != (file.yearCount == 0) {
                throw CacheError.corrupt(path: file.path, detail: "movie and year counts disagree")
            }
            if prefixEntries.count % 2 != 0 || listSetOffsets.count == 0
                || listSetPositions.count != EliasFanoList.startCount(lists: listSetOffsets.count - 1) {
                throw CacheError.corrupt(path: file.path, detail: "a table of offsets is empty or cut in half")
            }
            if topRated.count > n {
                throw CacheError.corrupt(path: file.path, detail: "the top list is longer than the catalog")
            }
            originalTitles = try Self.textField(.originalTitle, file)
            overviews = try Self.textField(.overview, file)
            posterPaths = try Self.textField(.posterPath, file)
            imdbTexts = try Self.textField(.imdbID, file)
            if file.hasSection(.tmdbIDs) { tmdbIDs = try file.packedSection(.tmdbIDs, expectedCount: n) }
            if file.hasSection(.imdbNumbers) || file.hasSection(.imdbNumberBases) {
                imdbNumbers = try file.blockedSection(.imdbNumbers, expectedCount: n)
            }
            if file.hasSection(.criticRatingNumbers) || file.hasSection(.criticRatingValues)
                || file.hasSection(.topCriticRated) {
                criticRatingNumbers = try file.packedSection(.criticRatingNumbers, expectedCount: n)
                criticRatingValues = try file.section(.criticRatingValues, unit: 8)
                let top = try file.packedSection(.topCriticRated)
                guard top.count <= n else {
                    throw CacheError.corrupt(path: file.path, detail: "the critics' list is longer than the catalog")
                }
                topCriticRated = top
            }
            if file.hasSection(.rangeYearCountKeys) || file.hasSection(.rangeYearCounts)
                || file.hasSection(.rangeFirstIDs) {
                let keys = try file.packedSection(.rangeYearCountKeys)
                guard keys.count % 2 == 0 else {
                    throw CacheError.corrupt(path: file.path, detail: "a table of offsets is empty or cut in half")
                }
                rangeYearCountKeys = keys
                rangeYearCounts = try file.packedSection(.rangeYearCounts,
                                                         expectedCount: product(keys.count / 2, file.yearCount))
                rangeFirstIDs = try file.packedSection(
                    .rangeFirstIDs,
                    expectedCount: product(product(keys.count / 2, file.yearCount), CacheFormat.firstIDsPerYear))
                if file.hasSection(.listPairRows) || file.hasSection(.listPairCounts) {
                    let rows = try file.packedSection(.listPairRows, expectedCount: keys.count / 2)
                    let counts = try file.rowsSection(.listPairCounts)
                    // R × B rows of Y counts: R is what the size says (the writer pairs as many lists as fit its
                    // bound).
                    guard bitmapCount > 0, counts.count % bitmapCount == 0 else {
                        throw CacheError.corrupt(path: file.path, detail: "section LBPC holds \(counts.count) rows, "
                            + "not rows of \(bitmapCount) bitmap sets")
                    }
                    listPairRows = rows
                    listPairCounts = counts
                    pairedListCount = counts.count / bitmapCount
                }
            } else if file.hasSection(.listPairRows) || file.hasSection(.listPairCounts) {
                throw CacheError.corrupt(path: file.path, detail: "section LBPR or LBPC without YCRG")
            }
    }

    /// The genre sections (`CacheFormat`, "Filter sections"), their sizes checked against each other: `GNMO` 2G + 1
    /// entries, `GNRO` and `GNRP` G + 1, `GSET` N, `GSTO` at least 2.
    private static func genreSections(_ file: MappedCacheFile) throws(CacheError) -> GenreSections {
        let nameOffsets = try file.packedSection(.genreNameOffsets)
        guard nameOffsets.count % 2 == 1 else {
            throw .corrupt(path: file.path, detail: "section GNMO holds \(nameOffsets.count) entries, not 2G + 1")
        }
        let count = nameOffsets.count / 2
        let setOffsets = try file.packedSection(.genreSetOffsets)
        guard setOffsets.count >= 2 else {
            throw .corrupt(path: file.path, detail: "section GSTO holds \(setOffsets.count) entries, not at least 2")
        }
        return GenreSections(
            nameOffsets: nameOffsets, names: try file.section(.genreNames),
            rankOffsets: try file.packedSection(.genreRankOffsets, expectedCount: count + 1),
            rankStarts: try file.packedSection(.genreRankStarts, expectedCount: count + 1),
            ranks: try file.section(.genreRanks),
            setOfRank: try file.packedSection(.genreSetOfRank, expectedCount: file.movieCount),
            setOffsets: setOffsets, setGenres: try file.packedSection(.genreSetGenres), count: count)
    }

    /// The two scales `RSCL` holds (`CacheFormat`, "Sections"); a section of another size, or a value that is not 0, 5,
    /// 10 or 100, is corrupt.
    private static func ratingScales(_ file: MappedCacheFile) throws(CacheError) -> RatingScales {
        let section = try file.packedSection(.ratingScales, expectedCount: 2)
        var scales: [RatingScale?] = []
        for entry in 0..<2 {
            let value = try file.packed(section, entry)
            guard let scale = CacheFormat.scale(stored: value) else {
                throw .corrupt(path: file.path, detail: "the \(entry == 0 ? "users'" : "critics'") rating scale is "
                    + "\(value), not 5, 10, 100 or 0 (none)")
            }
            scales.append(scale)
        }
        return RatingScales(rating: scales[0], critic: scales[1])
    }

    /// The sections of text field `field`, `nil` when the file has none; its text without its offsets, or its
    /// flags of empty texts without them, is corrupt.
    private static func textField(_ field: CacheFormat.TextField, _ file: MappedCacheFile) throws(CacheError) -> TextField? {
        guard file.hasSection(field.offsets) else {
            for tag in field.column.tags + [field.empty] where file.hasSection(tag) {
                throw .corrupt(path: file.path, detail: "section \(tag.rawValue) without \(field.offsets.rawValue)")
            }
            return nil
        }
        let n = file.movieCount
        return TextField(
            texts: try CompressedTextColumn(field.column, in: file, count: n,
                                            cachedBlocks: field == .overview ? TextBlockCache.longTexts
                                                : TextBlockCache.shortTexts),
            empty: file.hasSection(field.empty) ? try file.packedSection(field.empty, expectedCount: n) : nil)
    }
}
