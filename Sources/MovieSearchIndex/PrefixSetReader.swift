/// Reads the prefix sets and posting lists of a cache (`PRFO`, `PRFE`, `LSTO`, `LSTD`, `BMPN`, `BMPC`, `BMPS`,
/// `BMPI`, `BMPP`, `TPST`, `POST`; `YCRG`, `YCNT`, `YCID`), which `PrefixSetWriter` and `CacheSections` lay out
/// (`CacheFormat`, "Sections"): for a range of term ids, the ranks of the titles that have one of those terms.
///
/// Built once per open and kept by `MovieIndex`, rather than at each query. A class, not a struct: a query calls
/// it once per token, and a struct of its fourteen sections was copied at each call, which cost a short query more
/// than the reference that is passed instead.
package final class PrefixSetReader: Sendable {
    private let file: MappedCacheFile
    private let prefixEntries, postingOffsets, postings: MappedCacheFile.Section
    private let postingPositions: MappedCacheFile.Section
    private let prefixOffsets, listSetOffsets: MappedCacheFile.BlockedSection
    private let listSetPositions: MappedCacheFile.Section
    private let listSetData, bitmapCardinalities, bitmapYearCounts, bitmaps: MappedCacheFile.Section
    private let bitmapFirstIDs: MappedCacheFile.Section
    private let bitmapPairCounts: MappedCacheFile.RowsSection
    /// `BMPP` pairs bitmap sets 0..<this.
    private let pairedBitmapCount: Int
    private let rangeYearCountKeys, rangeYearCounts, rangeFirstIDs: MappedCacheFile.Section?
    private let listPairRows: MappedCacheFile.Section?
    private let listPairCounts: MappedCacheFile.RowsSection?
    /// `LBPC` holds this many rows.
    private let pairedListCount: Int
    /// The lengths of the coded lists of `POST` and `LSTD`, whose ranks are below the movie count.
    private let lengths: EliasFanoList.Lengths

    package init(file: MappedCacheFile, sections: MappedSections) {
        self.file = file
        prefixOffsets = sections.prefixOffsets
        prefixEntries = sections.prefixEntries
        postingOffsets = sections.postingOffsets
        postings = sections.postings
        postingPositions = sections.postingPositions
        listSetOffsets = sections.listSetOffsets
        listSetData = sections.listSetData
        listSetPositions = sections.listSetPositions
        bitmapCardinalities = sections.bitmapCardinalities
        bitmapYearCounts = sections.bitmapYearCounts
        bitmaps = sections.bitmaps
        bitmapFirstIDs = sections.bitmapFirstIDs
        bitmapPairCounts = sections.bitmapPairCounts
        pairedBitmapCount = sections.pairedBitmapCount
        rangeYearCountKeys = sections.rangeYearCountKeys
        rangeYearCounts = sections.rangeYearCounts
        rangeFirstIDs = sections.rangeFirstIDs
        listPairRows = sections.listPairRows
        listPairCounts = sections.listPairCounts
        pairedListCount = sections.pairedListCount
        lengths = EliasFanoList.Lengths(universe: file.movieCount)
    }

    /// The ranks whose titles have a term in `terms`: the range's prefix set if it has one (ranges of two terms
    /// or more with many postings, and frequent single terms), else the single term's posting list, else the
    /// range's few postings merged.
    package func rankSet(of terms: Range<Int>) throws(CacheError) -> RankSet {
        if let number = try storedSetNumber(of: terms) {
            var set = try prefixSet(number)
            if !set.isBitmap && set.cardinality >= CacheFormat.yearCountMinimum {
                (set.yearCounts, set.firstIDs, set.countedNumber) = try yearCounts(of: terms)
            }
            return set
        }
        let postings = try postings(of: terms)
        if terms.count == 1 {
            let (counts, ids, number) = postings.count >= CacheFormat.yearCountMinimum ? try yearCounts(of: terms)
                : (nil, nil, nil)
            return RankSet(cardinality: postings.count, storage: postings.first.storage, yearCounts: counts,
                           firstIDs: ids, countedNumber: number)
        }
        // A title with two of the terms is in both lists: sort, then drop the repeats.
        var merged = postings.concatenated()
        merged.sort()
        var kept = 0
        for position in merged.indices where position == 0 || merged[position] != merged[kept - 1] {
            merged[kept] = merged[position]
            kept += 1
        }
        merged.removeLast(merged.count - kept)
        return RankSet(cardinality: merged.count, storage: .merged(merged), yearCounts: nil)
    }

    /// The counts and first ids per year stored for the list of `terms` (`YCRG`, `YCNT`, `YCID`), and the range's
    /// number in `YCRG`, if the file has them: a binary search over the ranges.
    private func yearCounts(of terms: Range<Int>) throws(CacheError) -> (PackedView?, PackedView?, Int?) {
        guard let rangeYearCountKeys, let rangeYearCounts, let rangeFirstIDs else { return (nil, nil, nil) }
        let keys = try file.packed(rangeYearCountKeys, 0..<rangeYearCountKeys.count)
        var low = 0, high = keys.count / 2
        while low < high {
            let middle = (low + high) / 2
            let key = (Int(keys[middle * 2]), Int(keys[middle * 2 + 1]))
            if key < (terms.lowerBound, terms.upperBound) { low = middle + 1 } else { high = middle }
        }
        guard low < keys.count / 2, Int(keys[low * 2]) == terms.lowerBound, Int(keys[low * 2 + 1]) == terms.upperBound
        else { return (nil, nil, nil) }
        let slots = file.yearCount * CacheFormat.firstIDsPerYear
        return (try file.packed(rangeYearCounts, (low * file.yearCount)..<((low + 1) * file.yearCount)),
                try file.packed(rangeFirstIDs, (low * slots)..<((low + 1) * slots)), low)
    }

    /// The ranks whose titles have a term in `terms`, for the typo pass: the range's stored set if it has one,
    /// else its postings as they lie (`RankSource.postings`, not merged), and no counts per year (the pass ranks
    /// by typos, and reads none).
    package func rankSource(of terms: Range<Int>) throws(CacheError) -> RankSource {
        if let number = try storedSetNumber(of: terms) {
            switch try storedSet(number) {
            case .list(let list): return list.source
            case .bitmap(let bitmap, let cardinality):
                return .bitmap(try words(ofBitmap: bitmap), cardinality: cardinality)
            }
        }
        let postings = try postings(of: terms)
        return terms.count == 1 ? postings.first.source : .postings(postings)
    }

    /// The number in `PRFE` of the set stored for `terms`, if the range has one.
    private func storedSetNumber(of terms: Range<Int>) throws(CacheError) -> Int? {
        let (first, last) = try file.blockedPair(prefixOffsets, terms.lowerBound)
        guard first <= last else { throw .corrupt(path: file.path, detail: "prefix offsets out of order") }
        let candidates = try file.packed(prefixEntries, (first * 2)..<(last * 2))
        for entry in 0..<(candidates.count / 2) where Int(candidates[entry * 2]) == terms.upperBound {
            return Int(candidates[entry * 2 + 1])
        }
        return nil
    }

    /// The posting lists of the terms `terms`, end to end (`CacheFormat`, "Elias–Fano lists").
    private func postings(of terms: Range<Int>) throws(CacheError) -> PostingLists {
        let blockStart = terms.lowerBound / EliasFanoList.listsPerStart * EliasFanoList.listsPerStart
        let counts = try file.packed(postingOffsets, blockStart..<(terms.upperBound + 1))
        let start = try codedLists(first: terms.lowerBound, end: terms.upperBound, listCount: file.termCount,
                                   starts: postingPositions, data: postings,
                                   counts: PackedCounts(view: counts, first: blockStart))
        return PostingLists(base: start, counts: counts.slice((terms.lowerBound - blockStart)..<counts.count),
                            lengths: lengths)
    }

    /// Where list `first` of a section of coded lists starts (`data`, `starts`: `LSTD` and `LSTP`, `POST` and
    /// `TPSP`), worked out from the start of its block of `EliasFanoList.listsPerStart` and the counts of the lists
    /// before it (`count`: the cumulative count at list j, for j from the block's start to `end`), through list
    /// `end − 1`: each count checked against the movies, the end against the next start (equal to it at a block's
    /// end, else not past it), and the bytes to the end and the padding after it against the section and its
    /// checksums.
    @inline(__always)
    private func codedLists<Counts: CumulativeCounts>(first: Int, end: Int, listCount: Int,
                                                      starts: MappedCacheFile.Section, data: MappedCacheFile.Section,
                                                      counts: Counts) throws(CacheError) -> UnsafeRawPointer {
        let per = EliasFanoList.listsPerStart
        let block = first / per, lastBlock = (end + per - 1) / per
        let blockStarts = try file.packed(starts, block..<(lastBlock + 1))
        var position = Int(blockStarts[0]), firstPosition = position
        var previous = counts[block * per]
        for list in (block * per)..<end {
            if list == first { firstPosition = position }
            let next = counts[list + 1]
            // One comparison: a count below 0 is a large unsigned one.
            guard UInt(bitPattern: next &- previous) <= UInt(bitPattern: lengths.universe) else {
                throw .corrupt(path: file.path, detail: "coded list \(list) has a count out of range")
            }
            position &+= lengths.storedByteCount(next &- previous)
            previous = next
            // Each block crossed, and the last one reached, agree with their starts.
            if (list + 1) % per == 0 || list + 1 == listCount {
                guard position == Int(blockStarts[(list + 1 + per - 1) / per - block]) else {
                    throw .corrupt(path: file.path, detail: "coded lists disagree with their starts")
                }
            }
        }
        guard position <= Int(blockStarts[lastBlock - block]) else {
            throw .corrupt(path: file.path, detail: "coded lists disagree with their starts")
        }
        let bytes = try file.bytes(data, firstPosition..<(position + CacheFormat.packedPadding))
        return bytes.baseAddress!
    }

    /// Where a set of `PRFE` lies: a list set's ranks, or a bitmap set's number among the bitmaps.
    private enum StoredSet {
        case list(StoredList)
        case bitmap(Int, cardinality: Int)
    }

    /// Set number `set` of `PRFE`: a list set below the number of list sets, a bitmap set from there on.
    private func storedSet(_ set: Int) throws(CacheError) -> StoredSet {
        let listSets = listSetOffsets.count - 1
        if set < listSets {
            let blockStart = set / EliasFanoList.listsPerStart * EliasFanoList.listsPerStart
            let baseBlock = blockStart / CacheFormat.blockedEntries
            let counts = BlockedCounts(
                entries: try file.packed(listSetOffsets.entries, blockStart..<(set + 2)),
                bases: try file.packed(listSetOffsets.bases, baseBlock..<((set + 1) / CacheFormat.blockedEntries + 1)),
                first: blockStart)
            let start = try codedLists(first: set, end: set + 1, listCount: listSets, starts: listSetPositions,
                                       data: listSetData, counts: counts)
            return .list(StoredList(base: start, count: counts[set + 1] - counts[set], universe: file.movieCount))
        }
        let bitmap = set - listSets
        guard bitmap < bitmapCardinalities.count else {
            throw .corrupt(path: file.path, detail: "prefix set \(set) does not exist")
        }
        // Callers size buffers by the cardinality: a forged one must not ask for more than there are movies.
        let cardinality = Int(try file.packed(bitmapCardinalities, bitmap))
        guard cardinality <= file.movieCount else {
            throw .corrupt(path: file.path, detail: "prefix set \(set) holds more ranks than there are movies")
        }
        return .bitmap(bitmap, cardinality: cardinality)
    }

    /// The words of bitmap set `bitmap`.
    private func words(ofBitmap bitmap: Int) throws(CacheError) -> U64View {
        let words = CacheFormat.bitmapWordCount(movieCount: file.movieCount)
        return try file.u64s(bitmaps, byteOffset: bitmap * words * 8, count: words)
    }

    /// Set number `set` of `PRFE`, with a bitmap set's counts and first ids per year.
    private func prefixSet(_ set: Int) throws(CacheError) -> RankSet {
        switch try storedSet(set) {
        case .list(let list):
            return RankSet(cardinality: list.count, storage: list.storage, yearCounts: nil)
        case .bitmap(let bitmap, let cardinality):
            let slots = file.yearCount * CacheFormat.firstIDsPerYear
            return RankSet(cardinality: cardinality, storage: .bitmap(try words(ofBitmap: bitmap)),
                           yearCounts: try file.packed(bitmapYearCounts,
                                                       (bitmap * file.yearCount)..<((bitmap + 1) * file.yearCount)),
                           firstIDs: try file.packed(bitmapFirstIDs, (bitmap * slots)..<((bitmap + 1) * slots)),
                           bitmapNumber: bitmap)
        }
    }

    /// The matches per year of the list of counted range `counted` (its number in `YCRG`, `RankSet.countedNumber`)
    /// met with bitmap set `bitmap`, from `LBPC`; `nil` when the file does not pair that list (`LBPR` 0, or no
    /// `LBPR` at all).
    package func listPairYearCounts(counted: Int, bitmap: Int) throws(CacheError) -> PackedView? {
        guard let listPairRows, let listPairCounts else { return nil }
        let bitmapCount = bitmapCardinalities.count
        guard counted >= 0, counted < listPairRows.count, bitmap >= 0, bitmap < bitmapCount else {
            throw .corrupt(path: file.path, detail: "a paired list or bitmap set out of range")
        }
        let row = Int(try file.packed(listPairRows, counted))
        if row == 0 { return nil }
        guard row <= pairedListCount else { throw .corrupt(path: file.path, detail: "section LBPR names a row past LBPC") }
        return try file.row(listPairCounts, (row - 1) * bitmapCount + bitmap, count: file.yearCount)
    }

    /// The matches per year of the intersection of bitmap sets `a` and `b` (two different ones), from `BMPP`;
    /// `nil` when the file does not pair them (`CacheFormat.pairedBitmapCount`: too many bitmaps to pair all).
    package func pairYearCounts(_ a: Int, _ b: Int) throws(CacheError) -> PackedView? {
        let count = bitmapCardinalities.count
        guard a != b, a >= 0, b >= 0, a < count, b < count else {
            throw .corrupt(path: file.path, detail: "bitmap sets out of range")
        }
        guard a < pairedBitmapCount, b < pairedBitmapCount else { return nil }
        let pair = CacheFormat.bitmapPairIndex(min(a, b), max(a, b), bitmapCount: pairedBitmapCount)
        return try file.row(bitmapPairCounts, pair, count: file.yearCount)
    }
}

/// The cumulative counts of a run of coded lists, read by list number (`PrefixSetReader.codedLists`).
private protocol CumulativeCounts {
    subscript(list: Int) -> Int { get }
}

/// `TPST`'s entries from list `first` on.
private struct PackedCounts: CumulativeCounts {
    let view: PackedView
    let first: Int
    subscript(list: Int) -> Int { Int(view[list - first]) }
}

/// `LSTO`'s numbers (a blocked section) from list `first` on: a block's base plus the entry.
private struct BlockedCounts: CumulativeCounts {
    let entries: PackedView
    let bases: PackedView
    let first: Int
    subscript(list: Int) -> Int {
        Int(bases[list / CacheFormat.blockedEntries - first / CacheFormat.blockedEntries]) + Int(entries[list - first])
    }
}
