/// The section directory of a cache file (`CacheFormat`, "Directory"), parsed and checked: where each section lies
/// and its shape.
///
///     let directory = try CacheDirectory(parsing: mappedFile.bytes, header: header, path: "movies.mscache")
///     let postings = directory[.postings]     // nil when the file has no such section
///
/// Parsing first compares the metadata checksum, which covers the directory and the block checksum table (so a
/// damaged table is caught at open too), then checks every entry: inside the content, the length its width and
/// count imply, each tag once. Unknown tags are kept and never looked up. O(S²) tag comparisons for S entries
/// (at most `CacheFormat.maximumSectionCount`; a cache has about 30): the entries are kept in an array searched in
/// order rather than a `Dictionary`, whose storage's generic metadata and `UInt32: Hashable` look-up the runtime
/// would otherwise build at every open, a measurable part of a one-query process's start-up.
package struct CacheDirectory: Sendable {
    /// One section's bytes: an absolute offset and a length, both inside the checked content.
    package struct Section: Sendable, Equatable {
        var offset: Int
        var length: Int
        /// The section's position in the directory, which numbers its flag in `BlockVerifier`.
        var number: Int
        /// Bits per entry of a packed section; 0 for a byte section.
        var width: Int
        /// Entries of a packed section; the length of a byte section.
        var count: Int
    }

    /// A directory entry: its tag (four ASCII bytes as a little-endian u32) and its section.
    private struct Entry: Sendable {
        let tag: UInt32
        let section: Section
    }

    /// The entries in directory order.
    private let entries: [Entry]

    /// Parses the directory of `file`, the whole file's bytes, whose header is `header`.
    init(parsing file: UnsafeRawBufferPointer, header: CacheHeader, path: String) throws(CacheError) {
        let directoryLength = header.sectionCount * CacheFormat.directoryEntrySize
        // The header's checks put the directory and the table inside the file.
        let directory = UnsafeRawBufferPointer(rebasing: file[CacheFormat.headerSize..<(CacheFormat.headerSize + directoryLength)])
        let table = UnsafeRawBufferPointer(rebasing: file[header.contentEnd..<(header.contentEnd + header.blockCount * 8)])
        if MappedCacheFile.comparesChecksums,
           XXHash64.hash(table, seed: XXHash64.hash(directory)) != header.metadataChecksum {
            throw .checksumMismatch(path: path, region: "the section directory")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(header.sectionCount)
        for index in 0..<header.sectionCount {
            let entry = index * CacheFormat.directoryEntrySize
            let width = directory.littleEndianU32(at: entry + CacheFormat.DirectoryField.width)
            let count = directory.littleEndianU64(at: entry + CacheFormat.DirectoryField.count)
            let offset = directory.littleEndianU64(at: entry + CacheFormat.DirectoryField.offset)
            let length = directory.littleEndianU64(at: entry + CacheFormat.DirectoryField.length)
            guard offset >= UInt64(header.contentStart), offset <= UInt64(header.contentEnd),
                  length <= UInt64(header.contentEnd) - offset
            else { throw .corrupt(path: path, detail: "section \(index) lies outside the file") }
            // `length` fits the file, so `count` bounded by 8 × `length` cannot overflow what follows.
            let shapeIsValid = width == 0 ? count == length
                : width <= UInt32(CacheFormat.maximumWidth) && count <= length * 8
                    && CacheFormat.packedLength(count: Int(count), width: Int(width)) == Int(length)
            guard shapeIsValid else { throw .corrupt(path: path, detail: "section \(index) has the wrong length") }
            let section = Section(offset: Int(offset), length: Int(length), number: index, width: Int(width), count: Int(count))
            let tag = directory.littleEndianU32(at: entry + CacheFormat.DirectoryField.tag)
            if entries.contains(where: { $0.tag == tag }) {
                throw .corrupt(path: path, detail: "section \(index) appears twice")
            }
            entries.append(Entry(tag: tag, section: section))
        }
        self.entries = entries
    }

    /// Every entry in directory order, unknown tags included: its tag as stored (four bytes as a little-endian u32)
    /// and its section. For `CacheLayout`; a query looks sections up by tag.
    var entriesInOrder: [(tag: UInt32, section: Section)] {
        entries.map { ($0.tag, $0.section) }
    }

    /// The section `tag`, or `nil` when the directory has none.
    subscript(tag: CacheFormat.Tag) -> Section? {
        let code = tag.code
        return entries.first { $0.tag == code }?.section
    }
}
