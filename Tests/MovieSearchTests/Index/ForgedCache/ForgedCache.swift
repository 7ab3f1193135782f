import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// A cache file's bytes, edited and then sealed with fresh checksums, as a hostile writer would: how a finding of the
/// cache fuzz target built with `FUZZING_SKIP_CHECKSUMS` becomes a file that the normal reader opens.
struct ForgedCache {
    package private(set) var bytes: [UInt8]

    /// The directory as last read: each tag code's first entry. The forging loops look up a section for every value
    /// they set (thousands, unoptimized), so the entries are read once, and again after each write that reaches the
    /// header or the directory (`wrote(_:)`).
    private var entries: [UInt32: (width: UInt32, count: UInt64, offset: UInt64)] = [:]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        readDirectory()
    }

    /// The cache of `catalog`, ready to edit.
    package init(_ catalog: Catalog) throws {
        self.init(try CacheWriter.encode(catalog))
    }

    /// The little-endian `UInt32` at `offset`.
    package func u32(at offset: Int) -> UInt32 { bytes.u32(at: offset) }

    /// The little-endian `UInt64` at `offset`.
    package func u64(at offset: Int) -> UInt64 { bytes.u64(at: offset) }

    /// Writes the byte `value` at `offset` (the checksums are fixed by `sealed()`).
    package mutating func setU8(_ value: UInt8, at offset: Int) {
        bytes[offset] = value
        wrote(offset..<offset + 1)
    }

    /// Writes `value` little-endian at `offset` (the checksums are fixed by `sealed()`).
    package mutating func setU32(_ value: UInt32, at offset: Int) {
        bytes.setU32(value, at: offset)
        wrote(offset..<offset + 4)
    }

    /// Writes `value` little-endian at `offset` (the checksums are fixed by `sealed()`).
    package mutating func setU64(_ value: UInt64, at offset: Int) {
        bytes.setU64(value, at: offset)
        wrote(offset..<offset + 8)
    }

    /// The directory entry of the section `tag`: its width, count and absolute offset.
    package func entry(of tag: CacheFormat.Tag) -> (width: Int, count: Int, offset: Int) {
        guard let entry = entries[tag.code] else { preconditionFailure("no section \(tag.rawValue)") }
        return (Int(entry.width), Int(entry.count), Int(entry.offset))
    }

    /// Reads the directory again after a write to `range` that reaches the header or the directory.
    private mutating func wrote(_ range: Range<Int>) {
        let count = bytes.count >= CacheFormat.headerSize ? Int(u32(at: CacheFormat.HeaderField.sectionCount)) : 0
        if range.lowerBound < CacheFormat.headerSize + count * CacheFormat.directoryEntrySize { readDirectory() }
    }

    /// Reads the directory into `entries` (the first entry of a tag wins, as `entry(of:)` always took it). A
    /// forged section count past the file reads as many entries as the file holds.
    private mutating func readDirectory() {
        var entries: [UInt32: (width: UInt32, count: UInt64, offset: UInt64)] = [:]
        defer { self.entries = entries }
        guard bytes.count >= CacheFormat.headerSize else { return }
        let count = Int(u32(at: CacheFormat.HeaderField.sectionCount))
        let fitting = (bytes.count - CacheFormat.headerSize) / CacheFormat.directoryEntrySize
        for entry in 0..<min(count, fitting) {
            let start = CacheFormat.headerSize + entry * CacheFormat.directoryEntrySize
            let code = u32(at: start + CacheFormat.DirectoryField.tag)
            guard entries[code] == nil else { continue }
            entries[code] = (u32(at: start + CacheFormat.DirectoryField.width),
                             u64(at: start + CacheFormat.DirectoryField.count),
                             u64(at: start + CacheFormat.DirectoryField.offset))
        }
    }

    /// Entry `index` of the packed section `tag`.
    package func packed(_ tag: CacheFormat.Tag, _ index: Int) -> UInt32 {
        let (width, count, offset) = entry(of: tag)
        precondition(index < count, "no entry \(index) in \(tag.rawValue)")
        return Self.packedEntry(index, width: width, in: bytes, at: offset)
    }

    /// Entry `index` of `width` bits in the packed section starting at `offset` of `bytes`, read a bit at a time as
    /// `CacheFormat` defines it (bits `index × width ..< (index + 1) × width`, bit `b` in byte `b / 8`), not the way
    /// the reader loads it.
    package static func packedEntry(_ index: Int, width: Int, in bytes: [UInt8], at offset: Int = 0) -> UInt32 {
        var value: UInt32 = 0
        for bit in 0..<width where bytes[offset + (index * width + bit) / 8] & (1 << UInt8((index * width + bit) % 8)) != 0 {
            value |= 1 << UInt32(bit)
        }
        return value
    }

    /// Sets entry `index` of the packed section `tag` to `value`, which must fit the section's width.
    package mutating func setPacked(_ tag: CacheFormat.Tag, _ index: Int, to value: UInt32) {
        let (width, _, offset) = entry(of: tag)
        precondition(width == 32 || value >> UInt32(width) == 0, "\(value) does not fit \(tag.rawValue)")
        for bit in 0..<width {
            let position = offset + (index * width + bit) / 8, mask = UInt8(1) << UInt8((index * width + bit) % 8)
            if value & (1 << UInt32(bit)) != 0 { bytes[position] |= mask } else { bytes[position] &= ~mask }
        }
        wrote((offset + index * width / 8)..<(offset + ((index + 1) * width + 7) / 8))
    }

    /// Where the directory entry of section `tag` starts in the file.
    package func directoryEntryOffset(of tag: CacheFormat.Tag) -> Int {
        let sections = Int(u32(at: CacheFormat.HeaderField.sectionCount))
        for entry in 0..<sections {
            let start = CacheFormat.headerSize + entry * CacheFormat.directoryEntrySize
            if u32(at: start) == tag.code { return start }
        }
        preconditionFailure("no section \(tag.rawValue)")
    }

    /// Renames section `tag` to `name` in the directory (an unknown tag is ignored by the reader).
    package mutating func rename(_ tag: CacheFormat.Tag, to name: String) {
        let sections = Int(u32(at: CacheFormat.HeaderField.sectionCount))
        let code = name.utf8.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        for entry in 0..<sections {
            let start = CacheFormat.headerSize + entry * CacheFormat.directoryEntrySize
            if u32(at: start) == tag.code { return setU32(code, at: start) }
        }
        preconditionFailure("no section \(tag.rawValue)")
    }

    /// Forges the directory entry of the packed section `tag` to hold `count` entries, its length to match (the bits
    /// past its own run on into what follows it in the file).
    package mutating func setCount(of tag: CacheFormat.Tag, to count: Int) {
        let sections = Int(u32(at: CacheFormat.HeaderField.sectionCount))
        for entry in 0..<sections {
            let start = CacheFormat.headerSize + entry * CacheFormat.directoryEntrySize
            guard u32(at: start) == tag.code else { continue }
            let width = Int(u32(at: start + CacheFormat.DirectoryField.width))
            setU64(UInt64(count), at: start + CacheFormat.DirectoryField.count)
            setU64(UInt64(CacheFormat.packedLength(count: count, width: width)),
                   at: start + CacheFormat.DirectoryField.length)
            return
        }
        preconditionFailure("no section \(tag.rawValue)")
    }

    /// The rows of the row-packed section `tag` (`CacheFormat`, "Row-packed sections").
    package func rowCount(_ tag: CacheFormat.Tag) -> Int {
        entry(of: tag.rowTables!.widths).count
    }

    /// The width of row `row` of the row-packed section `tag`.
    package func rowWidth(_ tag: CacheFormat.Tag, _ row: Int) -> Int {
        Int(packed(tag.rowTables!.widths, row))
    }

    /// Entry `index` of row `row` of the row-packed section `tag`, read a bit at a time as the format defines it.
    package func rowEntry(_ tag: CacheFormat.Tag, _ row: Int, _ index: Int) -> UInt32 {
        let start = entry(of: tag).offset + Int(packed(tag.rowTables!.offsets, row))
        return Self.packedEntry(index, width: rowWidth(tag, row), in: bytes, at: start)
    }

    /// Sets entry `index` of row `row` of the row-packed section `tag` to `value`, which must fit the row's width.
    package mutating func setRowEntry(_ tag: CacheFormat.Tag, _ row: Int, _ index: Int, to value: UInt32) {
        let width = rowWidth(tag, row)
        precondition(width == 32 || value >> UInt32(width) == 0, "\(value) does not fit row \(row) of \(tag.rawValue)")
        let start = entry(of: tag).offset + Int(packed(tag.rowTables!.offsets, row))
        for bit in 0..<width {
            let position = start + (index * width + bit) / 8, mask = UInt8(1) << UInt8((index * width + bit) % 8)
            if value & (1 << UInt32(bit)) != 0 { bytes[position] |= mask } else { bytes[position] &= ~mask }
        }
        wrote((start + index * width / 8)..<(start + ((index + 1) * width + 7) / 8))
    }

    /// The id of `term` in the term dictionary (`TTXO`, `TTXT`), which must hold it.
    package func termID(_ term: String) -> Int {
        let count = Int(u32(at: CacheFormat.HeaderField.termCount))
        let text = entry(of: .termText).offset
        for id in 0..<count {
            let start = Int(packed(.termTextOffsets, id)), end = Int(packed(.termTextOffsets, id + 1))
            if bytes[(text + start)..<(text + end)].elementsEqual(term.utf8) { return id }
        }
        preconditionFailure("no term \(term)")
    }

    /// The text of term `id` (`TTXO`, `TTXT`).
    package func termText(_ id: Int) -> String {
        let text = entry(of: .termText).offset
        let start = Int(packed(.termTextOffsets, id)), end = Int(packed(.termTextOffsets, id + 1))
        return String(decoding: bytes[(text + start)..<(text + end)], as: UTF8.self)
    }

    /// The cache `sealed()`, written to a file in a new temporary folder of `test` and opened.
    func opened(in test: XCTestCase) throws -> MovieIndex {
        try MovieIndex(bytes: sealed(), test)
    }

    /// The bytes with the block checksums, the metadata checksum and the header checksum recomputed.
    package func sealed() -> [UInt8] {
        var copy = self
        let blockSize = Int(u32(at: CacheFormat.HeaderField.blockSize))
        let sections = Int(u32(at: CacheFormat.HeaderField.sectionCount))
        let contentEnd = Int(u64(at: CacheFormat.HeaderField.blockTableOffset))
        let contentStart = CacheFormat.aligned(CacheFormat.headerSize + sections * CacheFormat.directoryEntrySize)
        var table: [UInt8] = []
        for start in stride(from: contentStart, to: contentEnd, by: blockSize) {
            let hash = XXHash64.hash(Array(bytes[start..<min(start + blockSize, contentEnd)]))
            for index in 0..<8 { table.append(UInt8(truncatingIfNeeded: hash >> (8 * UInt64(index)))) }
        }
        copy.bytes.replaceSubrange(contentEnd..., with: table)
        let directory = Array(bytes[CacheFormat.headerSize..<(CacheFormat.headerSize + sections * CacheFormat.directoryEntrySize)])
        copy.setU64(XXHash64.hash(table, seed: XXHash64.hash(directory)), at: CacheFormat.HeaderField.metadataChecksum)
        copy.setU64(XXHash64.hash(Array(copy.bytes[0..<CacheFormat.HeaderField.headerChecksum])), at: CacheFormat.HeaderField.headerChecksum)
        return copy.bytes
    }
}
