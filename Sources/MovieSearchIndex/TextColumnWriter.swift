/// Lays out a compressed text column (`CacheFormat`, "Compressed text columns"): the texts cut into blocks of 64,
/// each block its count and lengths as varints and then its bytes, deflated with a dictionary sampled from the
/// whole column. The same texts always give the same bytes (zlib is deterministic for a given level and input).
enum TextColumnWriter {
    /// The four sections of `column` for the `count` texts `text(0) ..< text(count)`. Throws
    /// `CacheError.catalogTooLarge` when the column's compressed bytes pass the format's 32-bit offsets, or zlib
    /// runs out of memory.
    static func parts(_ column: CacheFormat.TextColumn, count: Int, text: (Int) -> ArraySlice<UInt8>)
        throws(CacheError) -> [CacheSections.Part]
    {
        let dictionary = Self.dictionary(count: count, text: text)
        guard let deflater = TextBlockCodec.Deflater(dictionary: dictionary) else {
            throw .catalogTooLarge(detail: "zlib has no memory to compress the \(column.name)")
        }
        var offsets: [UInt32] = [0], lengths: [UInt32] = []
        offsets.reserveCapacity(CacheFormat.textBlockCount(entries: count) + 1)
        lengths.reserveCapacity(CacheFormat.textBlockCount(entries: count))
        var blocks = ByteWriter()
        var block: [UInt8] = []
        for first in stride(from: 0, to: count, by: CacheFormat.textBlockEntries) {
            let end = min(first + CacheFormat.textBlockEntries, count)
            block.removeAll(keepingCapacity: true)
            appendVarint(end - first, to: &block)
            for index in first..<end { appendVarint(text(index).count, to: &block) }
            for index in first..<end { block.append(contentsOf: text(index)) }
            guard let deflated = deflater.deflate(block) else {
                throw .catalogTooLarge(detail: "zlib has no memory to compress the \(column.name)")
            }
            blocks.append(deflated)
            lengths.append(try CacheSections.checked(block.count, "a block of \(column.name)"))
            offsets.append(try CacheSections.checked(blocks.count, column.name))
        }
        return [.packed(column.blockOffsets, offsets), .bytes(column.blocks, blocks.bytes),
                .packed(column.blockLengths, lengths), .bytes(column.dictionary, dictionary)]
    }

    /// The column's preset dictionary: texts taken at an even stride through it, about
    /// `CacheFormat.textDictionaryLimit` bytes of them, the last bytes kept (deflate reaches the nearest ones with
    /// the shortest codes). All the texts when they are fewer bytes than that.
    static func dictionary(count: Int, text: (Int) -> ArraySlice<UInt8>) -> [UInt8] {
        let limit = CacheFormat.textDictionaryLimit
        var total = 0
        for index in 0..<count { total += text(index).count }
        let stride = max(1, total / limit)
        var sample: [UInt8] = []
        sample.reserveCapacity(min(total, 2 * limit))
        for index in Swift.stride(from: 0, to: count, by: stride) { sample.append(contentsOf: text(index)) }
        return Array(sample.suffix(limit))
    }

    /// `value` (not negative) as a LEB128 varint: 7 bits a byte, low bits first, the high bit set on all but the last.
    static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var rest = UInt(value)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
