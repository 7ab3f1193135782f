/// Reads the genre sections that `CacheSections.genreParts` lays out (`CacheFormat`, "Filter sections"): a genre's
/// number from its folded name, its names, its ranks, and each rank's set of genres. Every offset and number read
/// from the file is checked against its section before it is followed.
package struct GenreTable {
    private let file: MappedCacheFile
    private let nameOffsets, names, rankOffsets, rankStarts, ranks: MappedCacheFile.Section
    private let setOfRank, setOffsets, setGenres: MappedCacheFile.Section
    /// G: the distinct genres (by folded name).
    package let count: Int

    /// The table of `file`, whose sections are `sections`.
    package init(file: MappedCacheFile, sections: MappedSections) throws(CacheError) {
        let genres = sections.genres
        guard let nameOffsets = genres.nameOffsets, let names = genres.names, let rankOffsets = genres.rankOffsets,
              let rankStarts = genres.rankStarts, let ranks = genres.ranks, let setOfRank = genres.setOfRank,
              let setOffsets = genres.setOffsets, let setGenres = genres.setGenres
        else { throw .corrupt(path: file.path, detail: "the genre sections are missing") }
        self.file = file
        self.nameOffsets = nameOffsets
        self.names = names
        self.rankOffsets = rankOffsets
        self.rankStarts = rankStarts
        self.ranks = ranks
        self.setOfRank = setOfRank
        self.setOffsets = setOffsets
        self.setGenres = setGenres
        count = genres.count
    }

    /// The bytes of name `entry` of `GNMT` (`2g`: genre g's shown name, `2g + 1` its folded name).
    private func nameBytes(_ entry: Int) throws(CacheError) -> UnsafeRawBufferPointer {
        let bounds = try file.packed(nameOffsets, entry..<(entry + 2))
        guard bounds[0] <= bounds[1] else { throw .corrupt(path: file.path, detail: "genre names out of order") }
        return try file.bytes(names, Int(bounds[0])..<Int(bounds[1]))
    }

    /// Genre `genre`'s name as the catalog's lowest-id movie that has it spells it.
    package func shownName(_ genre: Int) throws(CacheError) -> String {
        String(decoding: try nameBytes(2 * genre), as: UTF8.self)
    }

    /// Genre `genre`'s folded name (`NameFolding`).
    package func foldedName(_ genre: Int) throws(CacheError) -> String {
        String(decoding: try nameBytes(2 * genre + 1), as: UTF8.self)
    }

    /// The number of the genre whose folded name is `folded`, `nil` when no movie has it: a binary search, genres
    /// being in the byte order of their folded names.
    package func genre(folded: String) throws(CacheError) -> Int? {
        let key = Array(folded.utf8)
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            let name = try nameBytes(2 * middle + 1)
            if name.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
        }
        guard low < count, try nameBytes(2 * low + 1).elementsEqual(key) else { return nil }
        return low
    }

    /// How many movies genre `genre` has (`GNRO`), at most N.
    package func rankCount(of genre: Int) throws(CacheError) -> Int {
        guard genre >= 0, genre < count else { throw .corrupt(path: file.path, detail: "a genre number is out of range") }
        let bounds = try file.packed(rankOffsets, genre..<(genre + 2))
        guard bounds[0] <= bounds[1], Int(bounds[1] - bounds[0]) <= file.movieCount else {
            throw .corrupt(path: file.path, detail: "genre ranks out of order")
        }
        return Int(bounds[1] - bounds[0])
    }

    /// Genre `genre`'s movies as ascending ranks (`GNRR`, an Elias–Fano list): its count from `GNRO`, its bytes
    /// from `GNRP`, which must span the length the count gives, and the 8 bytes after them inside the section.
    package func ranks(of genre: Int) throws(CacheError) -> EliasFanoList {
        let ranks = try rankCount(of: genre)
        let starts = try file.packed(rankStarts, genre..<(genre + 2))
        let start = Int(starts[0]), end = Int(starts[1])
        guard start <= end, end - start == EliasFanoList.byteCount(count: ranks, universe: file.movieCount) else {
            throw .corrupt(path: file.path, detail: "genre ranks disagree with their starts")
        }
        let bytes = try file.bytes(self.ranks, start..<(end + CacheFormat.packedPadding))
        return EliasFanoList(base: bytes.baseAddress!, count: ranks, universe: file.movieCount)
    }

    /// The genre set of each rank (`GSET`), N entries.
    package func setsOfRanks() throws(CacheError) -> PackedView {
        try file.packed(setOfRank, 0..<setOfRank.count)
    }

    /// The number of genre sets, S.
    package var setCount: Int { setOffsets.count - 1 }

    /// Genre set `set`'s genres, ascending (`GSTG`); each is checked to be below G.
    package func genres(ofSet set: Int) throws(CacheError) -> PackedView {
        guard set >= 0, set < setCount else { throw .corrupt(path: file.path, detail: "a genre set is out of range") }
        let bounds = try file.packed(setOffsets, set..<(set + 2))
        guard bounds[0] <= bounds[1] else { throw .corrupt(path: file.path, detail: "genre sets out of order") }
        let genres = try file.packed(setGenres, Int(bounds[0])..<Int(bounds[1]))
        for index in 0..<genres.count where Int(genres[index]) >= count {
            throw .corrupt(path: file.path, detail: "a genre number is out of range")
        }
        return genres
    }
}
