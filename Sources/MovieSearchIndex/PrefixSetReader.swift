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
            return RankSet(cardinality: postings.count, storage: .coded(postings.first), yearCounts: counts,
                           firstIDs: ids, countedNumber: number)
        }
        // A title with two of the terms is in both lists: sort, then drop the repeats.
        var merged: [UInt32] = []
        merged.reserveCapacity(postings.count)
        postings.forEachList { list in
            _ = list.forEachRank { rank in
                merged.append(rank)
                return true
            }
            return true
        }
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
            case .list(let list): return .coded(list)
            case .bitmap(let bitmap, let cardinality):
                return .bitmap(try words(ofBitmap: bitmap), cardinality: cardinality)
            }
        }
        let postings = try postings(of: terms)
        return terms.count == 1 ? .coded(postings.first) : .postings(postings)
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
        let per = EliasFanoList.listsPerStart
        let blockStart = terms.lowerBound / per * per
        let blockEnd = min((terms.upperBound + per - 1) / per * per, file.termCount)
        let counts = try file.packed(postingOffsets, blockStart..<(blockEnd + 1))
        let start = try codedLists(blockStart..<blockEnd, first: terms.lowerBound, starts: postingPositions,
                                   data: postings, through: terms.upperBound) { Int(counts[$0 - blockStart]) }
        return PostingLists(base: start,
                            counts: counts.slice((terms.lowerBound - blockStart)..<(terms.upperBound - blockStart + 1)),
                            universe: file.movieCount)
    }

    /// Where list `first` of a section of coded lists starts (`data`, `starts`: `LSTD` and `LSTP`, `POST` and
    /// `TPSP`), the lists `blocks` (whole blocks of `EliasFanoList.listsPerStart`, the last one maybe shorter) read
    /// from their counts (`count(j)`: the cumulative count at list j): each count checked against the movies, each
    /// block's lengths against the next block's start, and the bytes up to list `end`'s start and the padding
    /// after it against the section and its checksums.
    @inline(__always)
    private func codedLists(_ blocks: Range<Int>, first: Int, starts: MappedCacheFile.Section,
                            data: MappedCacheFile.Section, through end: Int,
                            count: (Int) -> Int) throws(CacheError) -> UnsafeRawPointer {
        let per = EliasFanoList.listsPerStart
        let firstStart = blocks.lowerBound / per
        let blockStarts = try file.packed(starts, firstStart..<((blocks.upperBound + per - 1) / per + 1))
        var position = Int(blockStarts[0]), firstPosition = position, endPosition = position
        var previous = count(blocks.lowerBound)
        for list in blocks {
            if list == first { firstPosition = position }
            let next = count(list + 1)
            guard next >= previous, next - previous <= file.movieCount else {
                throw .corrupt(path: file.path, detail: "coded list \(list) has a count out of range")
            }
            position += EliasFanoList.layout(count: next - previous, universe: file.movieCount).byteCount
            previous = next
            if list + 1 == end { endPosition = position }
            if (list + 1) % per == 0 || list + 1 == blocks.upperBound {
                guard position == Int(blockStarts[(list + per) / per - firstStart]) else {
                    throw .corrupt(path: file.path, detail: "coded lists disagree with their starts")
                }
            }
        }
        let bytes = try file.bytes(data, firstPosition..<(endPosition + CacheFormat.packedPadding))
        return bytes.baseAddress!
    }

    /// Where a set of `PRFE` lies: a list set's ranks, or a bitmap set's number among the bitmaps.
    private enum StoredSet {
        case list(EliasFanoList)
        case bitmap(Int, cardinality: Int)
    }

    /// Set number `set` of `PRFE`: a list set below the number of list sets, a bitmap set from there on.
    private func storedSet(_ set: Int) throws(CacheError) -> StoredSet {
        let listSets = listSetOffsets.count - 1
        if set < listSets {
            let per = EliasFanoList.listsPerStart
            let blockStart = set / per * per, blockEnd = min(blockStart + per, listSets)
            let entries = try file.packed(listSetOffsets.entries, blockStart..<(blockEnd + 1))
            let bases = try file.packed(listSetOffsets.bases,
                                        (blockStart / CacheFormat.blockedEntries)..<(blockEnd / CacheFormat.blockedEntries + 1))
            let baseBlock = blockStart / CacheFormat.blockedEntries
            func offset(_ list: Int) -> Int {
                Int(bases[list / CacheFormat.blockedEntries - baseBlock]) + Int(entries[list - blockStart])
            }
            let start = try codedLists(blockStart..<blockEnd, first: set, starts: listSetPositions, data: listSetData,
                                       through: set + 1, count: offset)
            return .list(EliasFanoList(base: start, count: offset(set + 1) - offset(set), universe: file.movieCount))
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
            return RankSet(cardinality: list.count, storage: .coded(list), yearCounts: nil)
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
