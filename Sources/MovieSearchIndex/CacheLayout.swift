/// What a cache file holds and where its bytes go, section by section, as `sqlite3_analyzer` tells for SQLite:
/// `moviesearch info`.
///
///     let layout = try MovieIndex(path: "movies.mscache").layout
///     for section in layout.sections.sorted(by: { $0.length > $1.length }) {
///         print(section.tag, section.length, section.summary)      // TTLZ 17904 the titles, 64 a block, …
///     }
///     layout.bytes(in: .search)                                    // what a search reads
///
/// Built from the header and the directory alone, which opening a cache has already checked: no section's
/// content is read, so it costs O(S) for S sections whatever the file's size. The rows add up to the file's
/// length exactly: every section's bytes, plus the header, the directory, the zero bytes that align each section
/// to 8 (`paddingLength`) and the table of block checksums. A section whose tag this version does not know (a
/// newer writer's) is listed too, in the group `.unknown`. What each section means is documented once, in
/// `CacheFormat`.
public struct CacheLayout: Sendable, Equatable {
    /// What reads a section's bytes.
    public enum Group: String, Sendable, CaseIterable {
        /// What a search reads: the terms, postings, prefix sets, counts per year, ranks and years.
        case search
        /// What a movie's details and listings read: ids, titles, years, ratings, names and the optional fields.
        case records
        /// The two lists `top` prints, stored ready-sorted.
        case topLists
        /// What filters and the genre facet read: the genres by rank (`CacheFormat`, "Filter sections").
        case filters
        /// The file's own structure: header, directory, alignment padding and block checksums.
        case structure
        /// Sections of a tag this version does not know (written by a newer version).
        case unknown

        /// The group's name for people: `search`, `records`, `top lists`, `filters`, `file structure`, `unknown sections`.
        public var name: String {
            switch self {
            case .search: "search"
            case .records: "records"
            case .topLists: "top lists"
            case .filters: "filters"
            case .structure: "file structure"
            case .unknown: "unknown sections"
            }
        }
    }

    /// How a section stores its entries (`CacheFormat`, "Directory").
    public enum Kind: String, Sendable {
        /// Unsigned integers of `width` bits each.
        case packed
        /// Bytes, read as the section's tag says.
        case bytes
    }

    /// One section, as the directory describes it.
    public struct Section: Sendable, Equatable {
        /// The four-letter tag, e.g. `TTLZ`. A byte outside printable ASCII, or a backslash, is written `\xNN`,
        /// so that the tag of a forged or newer file is safe to print.
        public let tag: String
        /// Packed integers or bytes.
        public let kind: Kind
        /// Bits per entry of a packed section; 0 for a byte section.
        public let width: Int
        /// Entries of a packed section; the length, in bytes, of a byte section.
        public let count: Int
        /// The section's absolute offset in the file.
        public let offset: Int
        /// The section's size in bytes (for a packed section, the 8 zero bytes after its last entry included).
        public let length: Int
        /// What the section holds, in one sentence without a period; "unknown to this version" for an unknown tag.
        public let summary: String
        /// What reads the section.
        public let group: Group
    }

    /// The cache format version of the file (the one this build reads: another is refused at open).
    public let formatVersion: Int
    /// The file's size in bytes.
    public let fileLength: Int
    /// The size of a checksum block: the file's content is hashed in blocks of this many bytes.
    public let blockSize: Int
    /// Movies, distinct terms and years the cache holds, from its header.
    public let movieCount: Int
    /// Distinct title tokens (terms), joined tokens included.
    public let termCount: Int
    /// Distinct years.
    public let yearCount: Int
    /// Every section, in directory order.
    public let sections: [Section]
    /// Bytes of the fixed header (64).
    public let headerLength: Int
    /// Bytes of the section directory (32 per section).
    public let directoryLength: Int
    /// Zero bytes that no section holds: after the directory and between sections, each aligned to 8.
    public let paddingLength: Int
    /// Bytes of the block checksum table at the end of the file (8 per block).
    public let checksumLength: Int

    /// The layout of a file of `fileLength` bytes whose checked header is `header` and directory `entries`.
    init(header: CacheHeader, entries: [(tag: UInt32, section: CacheDirectory.Section)], fileLength: Int) {
        formatVersion = Int(CacheFormat.version)
        self.fileLength = fileLength
        blockSize = header.blockSize
        movieCount = header.movieCount
        termCount = header.termCount
        yearCount = header.yearCount
        sections = entries.map { entry in
            let known = CacheFormat.Tag.allCases.first { $0.code == entry.tag }
            let section = entry.section
            return Section(
                tag: known?.rawValue ?? Self.printableTag(entry.tag),
                kind: section.width == 0 ? .bytes : .packed, width: section.width, count: section.count,
                offset: section.offset, length: section.length,
                summary: known?.summary ?? "unknown to this version", group: known?.group ?? .unknown)
        }
        headerLength = CacheFormat.headerSize
        directoryLength = header.sectionCount * CacheFormat.directoryEntrySize
        checksumLength = header.blockCount * 8
        // The content's bytes that no section covers; sections of a sound file do not overlap, but a forged one's
        // may, so covered bytes are counted once.
        var covered = 0, end = header.contentStart
        for section in entries.map(\.section).sorted(by: { $0.offset < $1.offset }) {
            let start = max(section.offset, end), sectionEnd = section.offset + section.length
            if sectionEnd > start {
                covered += sectionEnd - start
                end = sectionEnd
            }
        }
        let gaps = (header.contentEnd - header.contentStart) - covered
        paddingLength = (header.contentStart - headerLength - directoryLength) + gaps
    }

    /// The bytes of every section of `group`, or of the header, directory, padding and checksums for
    /// `.structure`. The groups' bytes add up to `fileLength`.
    public func bytes(in group: Group) -> Int {
        if group == .structure { return headerLength + directoryLength + paddingLength + checksumLength }
        return sections.reduce(0) { $0 + ($1.group == group ? $1.length : 0) }
    }

    /// `tag`'s four bytes as text: printable ASCII as it is, any other byte (and `\`) as `\xNN`.
    static func printableTag(_ tag: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = ""
        for index in 0..<4 {
            let byte = UInt8(truncatingIfNeeded: tag >> (8 * UInt32(index)))
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return text
    }
}
