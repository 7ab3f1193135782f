/// A compressed text column of an opened cache (`CacheFormat`, "Compressed text columns"): its four sections,
/// their shapes checked at open, and the texts read back a block at a time. A block's offsets, its length and its
/// varints are checked before they are followed, and a block that does not inflate to exactly its length is
/// corrupt: never a trap, never a text read from outside its block. The last blocks inflated stay in a
/// `TextBlockCache`, shared by the column's copies.
struct CompressedTextColumn: Sendable {
    private let column: CacheFormat.TextColumn
    private let offsets, blocks, lengths, dictionary: MappedCacheFile.Section
    /// Texts in the column when the header says (titles, name lists and text fields: one a movie), else `nil`
    /// (the names: each block says how many it holds).
    private let count: Int?
    private let cache: TextBlockCache

    /// The column's sections in `file`, holding `count` texts when given, with a cache of up to `cachedBlocks`
    /// inflated blocks (`TextBlockCache`).
    init(_ column: CacheFormat.TextColumn, in file: MappedCacheFile, count: Int?,
         cachedBlocks: Int = TextBlockCache.shortTexts) throws(CacheError) {
        let lengths = try file.packedSection(column.blockLengths)
        if let count, lengths.count != CacheFormat.textBlockCount(entries: count) {
            throw .corrupt(path: file.path, detail: "section \(column.blockLengths.rawValue) holds \(lengths.count) "
                           + "entries, expected \(CacheFormat.textBlockCount(entries: count))")
        }
        self.column = column
        self.lengths = lengths
        offsets = try file.packedSection(column.blockOffsets, expectedCount: lengths.count + 1)
        blocks = try file.section(column.blocks)
        dictionary = try file.section(column.dictionary)
        guard dictionary.length <= CacheFormat.textDictionaryLimit else {
            throw .corrupt(path: file.path, detail: "section \(column.dictionary.rawValue) holds more than a deflate "
                           + "window")
        }
        self.count = count
        // No more slots than blocks: a small catalog's one-shot query allocates and touches only what it can use.
        cache = TextBlockCache(capacity: max(1, min(cachedBlocks, lengths.count)))
    }

    /// The texts of one block, inflated: `bytes`, and where each text starts in them.
    struct Block: Sendable {
        /// The block's number in the column.
        let number: Int
        /// The block's first text's number in the column.
        let first: Int
        let bytes: [UInt8]
        /// `starts[i] ..< starts[i + 1]` are the bytes of text `first + i`.
        let starts: [Int]

        /// The bytes of text `index` of the column, which must lie in this block.
        func text(_ index: Int) -> ArraySlice<UInt8> {
            bytes[starts[index - first]..<starts[index - first + 1]]
        }

        /// Whether text `index` of the column lies in this block.
        func holds(_ index: Int) -> Bool {
            index >= first && index - first < starts.count - 1
        }
    }

    /// The block that holds text `index`: from the cache, or inflated, checked and kept there.
    func block(holding index: Int, in file: MappedCacheFile) throws(CacheError) -> Block {
        let number = index / CacheFormat.textBlockEntries
        guard index >= 0, number < lengths.count, count.map({ index < $0 }) ?? true else {
            throw .corrupt(path: file.path, detail: "a reference points outside its section")
        }
        if let block = cache.block(number) {
            // Only the last block may hold fewer than 64 texts, and a reference past its end is corrupt.
            guard block.holds(index) else {
                throw .corrupt(path: file.path, detail: "a reference points outside its section")
            }
            return block
        }
        let block = try inflatedBlock(number, holding: index, in: file)
        cache.keep(block)
        return block
    }

    /// Block `number`, inflated and checked, which must hold text `index`.
    private func inflatedBlock(_ number: Int, holding index: Int, in file: MappedCacheFile) throws(CacheError) -> Block {
        let first = number * CacheFormat.textBlockEntries
        let start = Int(try file.packed(offsets, number)), end = Int(try file.packed(offsets, number + 1))
        guard start <= end else { throw damaged(file) }
        let length = Int(try file.packed(lengths, number))
        let input = try file.bytes(blocks, start..<end)
        let preset = try file.bytes(dictionary, 0..<dictionary.length)
        guard let bytes = TextBlockCodec.inflate(input, dictionary: preset, length: length) else { throw damaged(file) }
        // How many texts, their lengths, as LEB128 varints, then their bytes.
        var position = 0
        func varint() throws(CacheError) -> Int {
            guard let value = LEB128.read(bytes, at: &position) else { throw damaged(file) }
            return value
        }
        let texts = try varint()
        // Every block but the last is full; the last holds what is left of a known count.
        let expected = count.map { min(CacheFormat.textBlockEntries, $0 - first) }
        guard texts >= 1, texts <= CacheFormat.textBlockEntries, expected.map({ texts == $0 }) ?? true,
              number == lengths.count - 1 || texts == CacheFormat.textBlockEntries else { throw damaged(file) }
        guard index - first < texts else {
            throw .corrupt(path: file.path, detail: "a reference points outside its section")
        }
        var starts: [Int] = []
        starts.reserveCapacity(texts + 1)
        var total = 0
        for _ in 0..<texts {
            starts.append(total)
            total += try varint()
        }
        starts.append(total)
        guard total == bytes.count - position else { throw damaged(file) }
        return Block(number: number, first: first, bytes: bytes, starts: starts.map { $0 + position })
    }

    /// The column's blocks: ⌈texts / 64⌉.
    var blockCount: Int { lengths.count }

    /// The bytes of text `index`.
    func text(_ index: Int, in file: MappedCacheFile) throws(CacheError) -> ArraySlice<UInt8> {
        try block(holding: index, in: file).text(index)
    }

    private func damaged(_ file: MappedCacheFile) -> CacheError {
        .corrupt(path: file.path, detail: "a compressed block of \(column.name) is damaged")
    }
}
