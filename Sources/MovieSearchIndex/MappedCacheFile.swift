import MovieSearchPlatform

/// A cache file mapped read-only, its header and directory checked: every read of the engine goes through it.
///
/// Opening maps the file (`MappedFile`: a regular file, opened without blocking), then parses and checks the
/// header (`CacheHeader`: magic, version, header checksum, file length, field ranges) and the directory
/// (`CacheDirectory`: metadata checksum, which also covers the block checksum table, and every entry); each costs
/// O(1) or O(file size / block size). Content is checked lazily (`BlockVerifier`): every read names the bytes it
/// needs, which are bounds-checked against their section and whose blocks are hashed the first time any read
/// touches them. A damaged file (a flipped bit, a cut-off copy) therefore produces a `CacheError` before it can
/// produce a wrong answer. A forged file, whose checksums were recomputed after an edit, can still make a query
/// answer wrongly in ways the cheap structural checks miss, but never trap or read out of bounds: every offset
/// and count is checked before use (fuzzed in `Scripts/fuzz`).
///
/// Pointers into the mapping are confined to this folder and `Platform/MappedFile.swift`, and made only after a
/// check: `MappedFile` owns the mapping; `CacheHeader`, `CacheDirectory` and `BlockVerifier` read the fixed structures once
/// they are checked against the file's size; this type bounds-checks every range a query asks for before it hands
/// out a view of it (`PackedView`, `LittleEndianView`, raw buffers), and the views load only inside that range.
/// Unsafe buffers over the engine's own memory appear elsewhere, for speed, each within counts it has just
/// checked or allocated: the JSON reader and the tokenizer scan byte buffers, the writer hashes and packs through
/// them (`XXHash64`, `ByteStringTable`, `ByteWriter.packed`), queries filter and count through them (`BitKernels`,
/// `AnswerBuilder`), and the platform layer hands them to C calls.
///
/// The mapping stays valid for the object's lifetime even if the file is replaced or deleted meanwhile (writers
/// rename a new file into place and never truncate one). A file truncated or rewritten in place by someone else
/// (`cp` over it) is not: a long-running reader opens it `guarded` (`MappedFile`), survives the SIGBUS, and asks
/// `isDamaged` and `currentStatus()` whether what it read can be trusted.
/// Views borrow the mapping: never let them outlive the file object.
package final class MappedCacheFile: @unchecked Sendable {
    // @unchecked: the mapping is immutable after `init`; the only mutable state, the verifier's flags, is atomic.

    /// One section's bytes (`CacheDirectory.Section`).
    package typealias Section = CacheDirectory.Section

    /// A row-packed section and its tables of widths and offsets (`CacheFormat`, "Row-packed sections"), their
    /// shapes checked at open, each row when it is read.
    package struct RowsSection: Sendable {
        var data: Section
        var widths: Section
        var offsets: Section
        /// The rows the section holds.
        var count: Int { widths.count }
    }

    /// A blocked section and its bases (`CacheFormat`, "Blocked sections"), both checked at open.
    package struct BlockedSection: Sendable {
        var entries: Section
        var bases: Section
        /// The numbers the section holds.
        var count: Int { entries.count }
    }

    #if FUZZING_SKIP_CHECKSUMS
    /// Fuzz builds only (`FUZZ_SKIP_CHECKSUMS=1 Scripts/fuzz.sh cache`): every checksum is taken as matching, so
    /// that mutated files reach the structural checks behind the checksums. Never defined in a package build.
    static let comparesChecksums = false
    #else
    /// Whether checksums are compared (always, outside the fuzz build above).
    static let comparesChecksums = true
    #endif

    /// The path the file was opened from, for error messages.
    package let path: String
    /// The file's size in bytes.
    package let size: Int
    /// Movies, distinct terms and years, from the header.
    package let movieCount: Int
    package let termCount: Int
    let yearCount: Int

    /// Owns the mapping: unmapped when this object goes away.
    private let mapping: MappedFile
    /// The mapping's first byte, kept apart from `mapping` so that a read costs no extra load.
    private let base: UnsafeRawPointer
    private let header: CacheHeader
    private let directory: CacheDirectory
    private let blocks: BlockVerifier

    /// Maps and checks the cache at `path` (raw bytes; errors name it escaped, as `FilePath.description`);
    /// `guarded`: survives the file's truncation in place (`MappedFile`).
    package init(path filePath: FilePath, guarded: Bool = false) throws(CacheError) {
        let path = filePath.description
        let mapping: MappedFile
        do {
            mapping = try MappedFile(path: filePath, guarded: guarded)
        } catch {
            switch error {
            case let .notARegularFile(kind): throw .notARegularFile(path: path, kind: kind)
            case let .system(failure) where failure.call == "mmap":
                throw .io(path: path, operation: "map cache", reason: failure.reason)
            case .system, .tooLarge:  // `MappedFile` sets no byte limit: never `.tooLarge`.
                throw .io(path: path, operation: "open cache", reason: error.reason)
            }
        }
        // A failed check below throws, and `mapping` unmaps itself.
        let header = try CacheHeader(parsing: mapping.bytes, path: path)
        directory = try CacheDirectory(parsing: mapping.bytes, header: header, path: path)
        self.header = header
        blocks = BlockVerifier(file: mapping.bytes, header: header, path: path)
        self.path = path
        self.mapping = mapping
        base = mapping.bytes.baseAddress!  // a checked header means a non-empty file
        size = mapping.size
        movieCount = header.movieCount
        termCount = header.termCount
        yearCount = header.yearCount
    }

    /// The byte section `tag`, whose length must be `expectedLength` (when given) or a multiple of `unit`.
    func section(_ tag: CacheFormat.Tag, expectedLength: Int? = nil, unit: Int = 1) throws(CacheError) -> Section {
        let section = try lookUp(tag)
        guard section.width == 0 else { throw .corrupt(path: path, detail: "section \(tag.rawValue) is not a byte section") }
        if let expectedLength, section.length != expectedLength {
            throw .corrupt(path: path, detail: "section \(tag.rawValue) holds \(section.length) bytes, expected \(expectedLength)")
        }
        if section.length % unit != 0 {
            throw .corrupt(path: path, detail: "section \(tag.rawValue) holds \(section.length) bytes, not a multiple of \(unit)")
        }
        return section
    }

    /// The packed section `tag`, which must hold `expectedCount` entries when given.
    func packedSection(_ tag: CacheFormat.Tag, expectedCount: Int? = nil) throws(CacheError) -> Section {
        let section = try lookUp(tag)
        guard section.width > 0 else { throw .corrupt(path: path, detail: "section \(tag.rawValue) is not a packed section") }
        if let expectedCount, section.count != expectedCount {
            throw .corrupt(path: path, detail: "section \(tag.rawValue) holds \(section.count) entries, expected \(expectedCount)")
        }
        return section
    }

    /// The blocked section `tag` and its bases (`CacheFormat`, "Blocked sections"); the section must hold
    /// `expectedCount` entries when given, and its bases one per 64 of them.
    func blockedSection(_ tag: CacheFormat.Tag, expectedCount: Int? = nil) throws(CacheError) -> BlockedSection {
        guard let basesTag = tag.bases else { preconditionFailure("\(tag.rawValue) is not a blocked section") }
        let entries = try packedSection(tag, expectedCount: expectedCount)
        let bases = try packedSection(basesTag, expectedCount: CacheFormat.blockedBaseCount(entries: entries.count))
        return BlockedSection(entries: entries, bases: bases)
    }

    /// The row-packed section `tag` with its tables of widths and offsets (`CacheFormat`, "Row-packed sections"):
    /// a byte section, and two packed sections of one entry a row.
    func rowsSection(_ tag: CacheFormat.Tag) throws(CacheError) -> RowsSection {
        guard let (widthsTag, offsetsTag) = tag.rowTables else {
            preconditionFailure("\(tag.rawValue) is not a row-packed section")
        }
        let data = try section(tag)
        let widths = try packedSection(widthsTag)
        let offsets = try packedSection(offsetsTag, expectedCount: widths.count)
        return RowsSection(data: data, widths: widths, offsets: offsets)
    }

    /// Row `row` of a row-packed section, `count` entries at the row's width; its width, its offset and its bytes
    /// (with the 8 a load may read past them) checked against the section.
    func row(_ rows: RowsSection, _ row: Int, count: Int) throws(CacheError) -> PackedView {
        let width = Int(try packed(rows.widths, row))
        let start = Int(try packed(rows.offsets, row))
        guard width >= 1, width <= CacheFormat.maximumWidth, count >= 0 else {
            throw .corrupt(path: path, detail: "a row of a section is malformed")
        }
        let length = (count * width + 7) / 8
        _ = try bytes(rows.data, start..<(start + length + CacheFormat.packedPadding))
        return PackedView(base: base + rows.data.offset + start, firstBit: 0, width: width, count: count)
    }

    /// Whether the directory has the section `tag` (an optional section may be absent).
    func hasSection(_ tag: CacheFormat.Tag) -> Bool {
        directory[tag] != nil
    }

    private func lookUp(_ tag: CacheFormat.Tag) throws(CacheError) -> Section {
        guard let section = directory[tag] else {
            throw .corrupt(path: path, detail: "section \(tag.rawValue) is missing")
        }
        return section
    }

    /// Entries `range` of a packed section, checked against its bounds and checksums.
    @inline(__always)
    package func packed(_ section: Section, _ range: Range<Int>) throws(CacheError) -> PackedView {
        guard range.lowerBound >= 0, range.upperBound <= section.count, section.width > 0 else {
            throw .corrupt(path: path, detail: "a reference points outside its section")
        }
        let firstBit = range.lowerBound &* section.width
        // The bytes that hold the entries' bits; the 8-byte loads may read up to 7 bytes past them, into the
        // section's padding or the next entries, whose bits the mask drops.
        _ = try bytes(section, (firstBit >> 3)..<((range.upperBound &* section.width + 7) >> 3))
        return PackedView(base: base + section.offset, firstBit: firstBit, width: section.width, count: range.count)
    }

    /// Entry `index` of a packed section.
    @inline(__always)
    func packed(_ section: Section, _ index: Int) throws(CacheError) -> UInt32 {
        try packed(section, index..<(index + 1))[0]
    }

    /// Number `index` of a blocked section: its block's base plus its entry, each read checked.
    @inline(__always)
    func blocked(_ section: BlockedSection, _ index: Int) throws(CacheError) -> Int {
        guard index >= 0 else { throw .corrupt(path: path, detail: "a reference points outside its section") }
        let base = Int(try packed(section.bases, index / CacheFormat.blockedEntries))
        return base + Int(try packed(section.entries, index))
    }

    /// Numbers `index` and `index + 1` of a blocked section (where a term's prefix entries or a list set start and
    /// end): the two entries in one checked read, their bases (one, or two at a block's end) in another.
    @inline(__always)
    func blockedPair(_ section: BlockedSection, _ index: Int) throws(CacheError) -> (Int, Int) {
        guard index >= 0 else { throw .corrupt(path: path, detail: "a reference points outside its section") }
        let entries = try packed(section.entries, index..<(index + 2))
        let firstBlock = index / CacheFormat.blockedEntries, lastBlock = (index + 1) / CacheFormat.blockedEntries
        let bases = try packed(section.bases, firstBlock..<(lastBlock + 1))
        return (Int(bases[0]) + Int(entries[0]), Int(bases[lastBlock - firstBlock]) + Int(entries[1]))
    }

    /// The bytes `range` (relative to the section's start), checked against the section's bounds and checksums.
    @inline(__always)
    func bytes(_ section: Section, _ range: Range<Int>) throws(CacheError) -> UnsafeRawBufferPointer {
        guard range.lowerBound >= 0, range.upperBound <= section.length else {
            throw .corrupt(path: path, detail: "a reference points outside its section")
        }
        let start = section.offset + range.lowerBound
        if !blocks.isVerified(section: section.number) {
            try blocks.verify(section, start..<(start + range.count))
        }
        return UnsafeRawBufferPointer(start: base + start, count: range.count)
    }

    /// Entries `range` of a section of little-endian u32s.
    @inline(__always)
    func u32s(_ section: Section, _ range: Range<Int>) throws(CacheError) -> U32View {
        guard range.lowerBound >= 0, range.upperBound <= section.length / 4 else {
            throw .corrupt(path: path, detail: "a reference points outside its section")
        }
        let raw = try bytes(section, (range.lowerBound * 4)..<(range.upperBound * 4))
        return U32View(base: raw.baseAddress ?? base, count: range.count)
    }

    /// `count` little-endian u64s starting `byteOffset` bytes into a section.
    func u64s(_ section: Section, byteOffset: Int, count: Int) throws(CacheError) -> U64View {
        guard byteOffset >= 0, count >= 0, count <= (section.length - byteOffset) / 8 else {
            throw .corrupt(path: path, detail: "a reference points outside its section")
        }
        let raw = try bytes(section, byteOffset..<(byteOffset + count * 8))
        return U64View(base: raw.baseAddress ?? base, count: count)
    }

    /// Where the file's bytes go, from its header and directory alone (`CacheLayout`): no section is read.
    package var layout: CacheLayout {
        CacheLayout(header: header, entries: directory.entriesInOrder, fileLength: size)
    }

    /// Checks every content block now, rather than as queries reach them.
    package func verifyAll() throws(CacheError) {
        try blocks.verifyAll()
    }

    /// Whether a read faulted because the file was cut short under a guarded mapping (`MappedFile.isDamaged`).
    package var isDamaged: Bool { mapping.isDamaged }

    /// The file's status now, for a guarded mapping (`MappedFile.currentStatus()`).
    package func currentStatus() -> FileStatus? { mapping.currentStatus() }

    /// Marks the mapping damaged (tests).
    package func markDamaged() { mapping.markDamaged() }
}
