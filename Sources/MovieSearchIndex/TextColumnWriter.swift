/// Lays out a compressed text column (`CacheFormat`, "Compressed text columns"): the texts cut into blocks of 64,
/// each block its count and lengths as varints and then its bytes, deflated with a dictionary sampled from the
/// whole column when that makes the column smaller. The same texts always give the same bytes (zlib is deterministic
/// for a given level and input).
enum TextColumnWriter {
    /// The four sections of `column` for the `count` texts `text(0) ..< text(count)`. Throws
    /// `CacheError.catalogTooLarge` when the column's compressed bytes pass the format's 32-bit offsets, or zlib
    /// runs out of memory.
    static func parts(_ column: CacheFormat.TextColumn, count: Int, text: (Int) -> ArraySlice<UInt8>)
        throws(CacheError) -> [CacheSections.Part]
    {
        let noMemory = CacheError.catalogTooLarge(detail: "zlib has no memory to compress the \(column.name)")
        let blockCount = CacheFormat.textBlockCount(entries: count)
        var block: [UInt8] = []
        /// Block `number` before it is deflated: how many texts, their lengths, then their bytes.
        func raw(_ number: Int) -> [UInt8] {
            let first = number * CacheFormat.textBlockEntries, end = min(first + CacheFormat.textBlockEntries, count)
            block.removeAll(keepingCapacity: true)
            LEB128.append(end - first, to: &block)
            for index in first..<end { LEB128.append(text(index).count, to: &block) }
            for index in first..<end { block.append(contentsOf: text(index)) }
            return block
        }
        // The dictionary's size is the writer's choice: none, or 4, 8 or 16 KiB of texts sampled from the column,
        // whichever makes the column smallest, judged on about 64 blocks taken at an even stride (their deflated
        // bytes counted over the whole column, plus the dictionary's own). Titles and names gain several times its
        // size; a column of numbers (the name lists) need not carry one.
        let stride = max(1, blockCount / 64)
        let sample = Array(Swift.stride(from: 0, to: blockCount, by: stride)).map { raw($0) }
        var best: (dictionary: [UInt8], deflater: TextBlockCodec.Deflater, bytes: Int)?
        var tried: Set<Int> = []
        var total = 0
        for index in 0..<count { total += text(index).count }
        for limit in [0] + CacheFormat.textDictionarySizes {
            let dictionary = limit == 0 ? [] : Self.dictionary(count: count, total: total, text: text, limit: limit)
            // A column of fewer bytes than a size gives the same dictionary (all its texts) at every larger one.
            guard tried.insert(dictionary.count).inserted else { continue }
            guard let deflater = TextBlockCodec.Deflater(dictionary: dictionary) else { throw noMemory }
            var sampled = 0
            for bytes in sample {
                guard let deflated = deflater.deflate(bytes) else { throw noMemory }
                sampled += deflated.count
            }
            let estimate = sample.isEmpty ? dictionary.count : sampled * blockCount / sample.count + dictionary.count
            if best == nil || estimate < best!.bytes { best = (dictionary, deflater, estimate) }
        }
        var dictionary = best?.dictionary ?? []
        var deflater = best?.deflater
        // Titles that deflating would shrink by less than `CacheFormat.storedColumnSaving` are stored as they are
        // (in stored deflate blocks): every movie an answer lists costs inflating its block of titles, a few
        // microseconds of Huffman tables and decoding, which a one-query process of a small catalog would pay for
        // a few KB. (The other columns are read for one movie's details at a time.)
        let sampledBytes = sample.reduce(0) { $0 + $1.count }
        let saving = sample.isEmpty ? 0 : sampledBytes * blockCount / sample.count - (best?.bytes ?? 0)
        if case .titles = column, saving < CacheFormat.storedColumnSaving {
            dictionary = []
            deflater = TextBlockCodec.Deflater(dictionary: [], level: 0)
        }
        guard let chosen = deflater else { throw noMemory }
        var offsets: [UInt32] = [0], lengths: [UInt32] = []
        offsets.reserveCapacity(blockCount + 1)
        lengths.reserveCapacity(blockCount)
        var blocks = ByteWriter()
        for number in 0..<blockCount {
            let block = raw(number)
            guard let deflated = chosen.deflate(block) else { throw noMemory }
            blocks.append(deflated)
            lengths.append(try CacheSections.checked(block.count, "a block of \(column.name)"))
            offsets.append(try CacheSections.checked(blocks.count, column.name))
        }
        return [.packed(column.blockOffsets, offsets), .bytes(column.blocks, blocks.bytes),
                .packed(column.blockLengths, lengths), .bytes(column.dictionary, dictionary)]
    }

    /// A preset dictionary for the column of `count` texts of `total` bytes: texts taken at an even stride through
    /// it, about `limit` bytes of them, the last bytes kept (deflate reaches the nearest ones with the shortest
    /// codes). All the texts when they are fewer bytes than that.
    static func dictionary(count: Int, total: Int, text: (Int) -> ArraySlice<UInt8>, limit: Int) -> [UInt8] {
        let stride = max(1, total / limit)
        var sample: [UInt8] = []
        sample.reserveCapacity(min(total, 2 * limit))
        for index in Swift.stride(from: 0, to: count, by: stride) { sample.append(contentsOf: text(index)) }
        return Array(sample.suffix(limit))
    }
}
