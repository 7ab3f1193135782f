import Synchronization

/// A cache file mapped read-only: the only type in the engine that touches raw pointers.
///
/// Opening checks, in this order: that the path is a regular file (opened without blocking, so that a FIFO
/// cannot hang it; `RegularFile`), the magic number, the version, the header checksum, the file length, the
/// directory and the block checksum table (`CacheFormat`); each costs O(1) or O(file size / block size). Content is
/// checked lazily: every read names the bytes it needs, which are bounds-checked against their section and whose
/// blocks are hashed the first time any read touches them. A damaged file (a flipped bit, a cut-off copy)
/// therefore produces a `CacheError` before it can produce a wrong answer. A forged file, whose checksums were
/// recomputed after an edit, can still make a query answer wrongly in ways the cheap structural checks miss, but
/// never trap or read out of bounds: every offset and count is checked before use (fuzzed in `Scripts/fuzz`).
///
/// The mapping stays valid for the object's lifetime even if the file is replaced or deleted meanwhile (writers
/// rename a new file into place and never truncate one), so a long-running reader is never hit by SIGBUS.
/// Views (`PackedView`, `U32View`, raw buffers) borrow the mapping: never let them outlive the file object.
final class MappedCacheFile: @unchecked Sendable {
    // @unchecked: the mapping is immutable after `init`; the only mutable state, `verifiedBlocks`, is atomic.

    /// One section's bytes: an absolute offset and a length, both inside the checked content.
    struct Section: Sendable {
        var offset: Int
        var length: Int
        /// The section's position in the directory, which indexes `verifiedSections`.
        var number: Int
        /// Bits per entry of a packed section; 0 for a byte section.
        var width: Int
        /// Entries of a packed section; the length of a byte section.
        var count: Int
    }

    /// Sections up to this size are checked whole the first time any part is read, and flagged, so that the
    /// small, hot sections (term dictionary, year table, prefix entries) cost one flag test per read afterwards.
    /// Larger ones are checked block by block, so a query never hashes more than it reads plus a block.
    static let wholeSectionLimit = 4 * CacheFormat.blockSize

    #if FUZZING_SKIP_CHECKSUMS
    /// Fuzz builds only (`FUZZ_SKIP_CHECKSUMS=1 Scripts/fuzz.sh cache`): every checksum is taken as matching, so
    /// that mutated files reach the structural checks behind the checksums. Never defined in a package build.
    static let comparesChecksums = false
    #else
    /// Whether checksums are compared (always, outside the fuzz build above).
    static let comparesChecksums = true
    #endif

    /// The path the file was opened from, for error messages.
    let path: String
    /// The file's size in bytes.
    let size: Int
    /// Movies, distinct terms and years, from the header.
    let movieCount: Int
    let termCount: Int
    let yearCount: Int

    private let base: UnsafeRawPointer
    private let contentStart: Int
    private let contentEnd: Int
    private let blockShift: Int
    private let blockCount: Int
    private let verifiedBlocks: UnsafeMutablePointer<Atomic<UInt64>>
    private let verifiedWordCount: Int
    private let verifiedSections: UnsafeMutablePointer<Atomic<Bool>>
    private let sectionCount: Int
    private let sections: [UInt32: Section]

    /// Maps and checks the cache at `filePath` (raw bytes; errors name it escaped, as `FilePath.description`).
    init(path filePath: FilePath) throws(CacheError) {
        let path = filePath.description
        self.path = path
        // Never blocks (a FIFO), and never maps or reads what is not a regular file (`/dev/zero`).
        let descriptor: Int32, size: Int
        switch RegularFile.openForReading(filePath) {
        case let .success(opened): (descriptor, size) = opened
        case let .failure(.system(error)): throw .io(path: path, operation: "open cache", reason: error.reason)
        case let .failure(.notARegularFile(kind)): throw .notARegularFile(path: path, kind: kind)
        }
        defer { Syscalls.closeDescriptor(descriptor) }
        self.size = size
        if size < CacheFormat.headerSize {
            // Too short to map usefully: tell a foreign file from a cut-off cache by the bytes that are there.
            var prefix = [UInt8](repeating: 0, count: min(size, CacheFormat.magic.count))
            let got = prefix.withUnsafeMutableBytes { Syscalls.readSome(descriptor, into: $0, at: 0) }
            if got != .success(prefix.count) || !CacheFormat.magic.starts(with: prefix) { throw .notACache(path: path) }
            throw .truncated(path: path, expectedBytes: CacheFormat.headerSize, actualBytes: size)
        }
        let base: UnsafeRawPointer
        switch Syscalls.mapReadOnly(descriptor, size: size) {
        case let .success(mapping): base = mapping
        case let .failure(error): throw .io(path: path, operation: "map cache", reason: error.reason)
        }
        self.base = base

        // From here on a failed check must unmap before throwing.
        func fail(_ error: CacheError) -> CacheError {
            Syscalls.unmap(base, size: size)
            return error
        }
        func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        func hash(_ offset: Int, _ count: Int, seed: UInt64 = 0) -> UInt64 {
            XXHash64.hash(UnsafeRawBufferPointer(start: base + offset, count: count), seed: seed)
        }

        if !CacheFormat.magic.elementsEqual(UnsafeRawBufferPointer(start: base, count: 8)) { throw fail(.notACache(path: path)) }
        let version = u32(CacheFormat.HeaderField.version)
        if version != CacheFormat.version {
            throw fail(.unsupportedVersion(path: path, found: version, supported: CacheFormat.version))
        }
        if Self.comparesChecksums, hash(0, CacheFormat.HeaderField.headerChecksum) != u64(CacheFormat.HeaderField.headerChecksum) {
            throw fail(.checksumMismatch(path: path, region: "the header"))
        }
        let fileLength = u64(CacheFormat.HeaderField.fileLength)
        if fileLength > UInt64(size) {
            throw fail(.truncated(path: path, expectedBytes: Int(clamping: fileLength), actualBytes: size))
        }
        if fileLength < UInt64(size) {
            throw fail(.corrupt(path: path, detail: "\(UInt64(size) - fileLength) bytes follow the end its header gives"))
        }
        let blockSize = Int(u32(CacheFormat.HeaderField.blockSize))
        let sectionCount = Int(u32(CacheFormat.HeaderField.sectionCount))
        let blockTableOffset = u64(CacheFormat.HeaderField.blockTableOffset)
        let contentStart = CacheFormat.aligned(CacheFormat.headerSize + sectionCount * CacheFormat.directoryEntrySize)
        guard blockSize >= 4096, blockSize <= 1 << 30, blockSize & (blockSize - 1) == 0,
              sectionCount <= 1024, contentStart <= size,
              blockTableOffset >= UInt64(contentStart), blockTableOffset <= UInt64(size)
        else { throw fail(.corrupt(path: path, detail: "header fields out of range")) }
        let contentEnd = Int(blockTableOffset)
        let blockCount = (contentEnd - contentStart + blockSize - 1) / blockSize
        if size - contentEnd != blockCount * 8 {
            throw fail(.corrupt(path: path, detail: "block checksum table has the wrong size"))
        }
        let directoryLength = sectionCount * CacheFormat.directoryEntrySize
        let metadata = hash(contentEnd, blockCount * 8, seed: hash(CacheFormat.headerSize, directoryLength))
        if Self.comparesChecksums, metadata != u64(CacheFormat.HeaderField.metadataChecksum) {
            throw fail(.checksumMismatch(path: path, region: "the section directory"))
        }

        var sections: [UInt32: Section] = [:]
        for index in 0..<sectionCount {
            let entry = CacheFormat.headerSize + index * CacheFormat.directoryEntrySize
            let width = u32(entry + CacheFormat.DirectoryField.width)
            let count = u64(entry + CacheFormat.DirectoryField.count)
            let offset = u64(entry + CacheFormat.DirectoryField.offset)
            let length = u64(entry + CacheFormat.DirectoryField.length)
            guard offset >= UInt64(contentStart), offset <= UInt64(contentEnd),
                  length <= UInt64(contentEnd) - offset
            else { throw fail(.corrupt(path: path, detail: "section \(index) lies outside the file")) }
            // `length` fits the file, so `count` bounded by 8 × `length` cannot overflow what follows.
            let shapeIsValid = width == 0 ? count == length
                : width <= UInt32(CacheFormat.maximumWidth) && count <= length * 8
                    && CacheFormat.packedLength(count: Int(count), width: Int(width)) == Int(length)
            guard shapeIsValid else { throw fail(.corrupt(path: path, detail: "section \(index) has the wrong length")) }
            let section = Section(offset: Int(offset), length: Int(length), number: index, width: Int(width), count: Int(count))
            if sections.updateValue(section, forKey: u32(entry + CacheFormat.DirectoryField.tag)) != nil {
                throw fail(.corrupt(path: path, detail: "section \(index) appears twice"))
            }
        }
        self.sections = sections
        self.movieCount = Int(u32(CacheFormat.HeaderField.movieCount))
        self.termCount = Int(u32(CacheFormat.HeaderField.termCount))
        self.yearCount = Int(u32(CacheFormat.HeaderField.yearCount))
        self.contentStart = contentStart
        self.contentEnd = contentEnd
        self.blockShift = blockSize.trailingZeroBitCount
        self.blockCount = blockCount
        let words = (blockCount + 63) / 64
        self.verifiedWordCount = words
        self.verifiedBlocks = .allocate(capacity: max(words, 1))
        for word in 0..<max(words, 1) { (verifiedBlocks + word).initialize(to: Atomic(0)) }
        self.sectionCount = sectionCount
        self.verifiedSections = .allocate(capacity: max(sectionCount, 1))
        for section in 0..<max(sectionCount, 1) { (verifiedSections + section).initialize(to: Atomic(false)) }
    }

    deinit {
        Syscalls.unmap(base, size: size)
        verifiedBlocks.deinitialize(count: max(verifiedWordCount, 1))
        verifiedBlocks.deallocate()
        verifiedSections.deinitialize(count: max(sectionCount, 1))
        verifiedSections.deallocate()
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

    private func lookUp(_ tag: CacheFormat.Tag) throws(CacheError) -> Section {
        guard let section = sections[tag.code] else {
            throw .corrupt(path: path, detail: "section \(tag.rawValue) is missing")
        }
        return section
    }

    /// Entries `range` of a packed section, checked against its bounds and checksums.
    @inline(__always)
    func packed(_ section: Section, _ range: Range<Int>) throws(CacheError) -> PackedView {
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

    /// The bytes `range` (relative to the section's start), checked against the section's bounds and checksums.
    @inline(__always)
    func bytes(_ section: Section, _ range: Range<Int>) throws(CacheError) -> UnsafeRawBufferPointer {
        guard range.lowerBound >= 0, range.upperBound <= section.length else {
            throw .corrupt(path: path, detail: "a reference points outside its section")
        }
        let start = section.offset + range.lowerBound
        if !verifiedSections[section.number].load(ordering: .acquiring) {
            try verify(section, start..<(start + range.count))
        }
        return UnsafeRawBufferPointer(start: base + start, count: range.count)
    }

    /// Checks a small section whole (and flags it), or the blocks of `range` in a large one.
    private func verify(_ section: Section, _ range: Range<Int>) throws(CacheError) {
        if section.length <= Self.wholeSectionLimit {
            try verify(section.offset..<(section.offset + section.length))
            verifiedSections[section.number].store(true, ordering: .releasing)
        } else {
            try verify(range)
        }
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

    /// Checks every content block now, rather than as queries reach them.
    func verifyAll() throws(CacheError) {
        try verify(contentStart..<contentEnd)
    }

    /// Checks the blocks that hold the absolute byte range `range`, each once per process. Inlined for the
    /// common case, a range inside one block that is already checked: a shift, a load and a test.
    @inline(__always)
    private func verify(_ range: Range<Int>) throws(CacheError) {
        if range.isEmpty { return }
        let first = (range.lowerBound - contentStart) >> blockShift
        let last = (range.upperBound - 1 - contentStart) >> blockShift
        if first == last, verifiedBlocks[first >> 6].load(ordering: .acquiring) & (1 << UInt64(first & 63)) != 0 { return }
        try verifyBlocks(first...last)
    }

    private func verifyBlocks(_ blocks: ClosedRange<Int>) throws(CacheError) {
        for block in blocks {
            let word = block >> 6
            let bit = UInt64(1) << UInt64(block & 63)
            if verifiedBlocks[word].load(ordering: .acquiring) & bit != 0 { continue }
            let start = contentStart + block << blockShift
            let end = min(start + (1 << blockShift), contentEnd)
            let actual = XXHash64.hash(UnsafeRawBufferPointer(start: base + start, count: end - start))
            let expected = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: contentEnd + block * 8, as: UInt64.self))
            if Self.comparesChecksums, actual != expected {
                throw .checksumMismatch(path: path, region: "block \(block) (bytes \(start)–\(end - 1))")
            }
            verifiedBlocks[word].bitwiseOr(bit, ordering: .releasing)
        }
    }
}

/// A run of little-endian integers inside a checked, verified part of a mapping.
struct LittleEndianView<Element: FixedWidthInteger> {
    fileprivate let base: UnsafeRawPointer
    /// Number of entries.
    let count: Int

    /// Entry `index`; traps on an index outside the view (a bug in the engine, not in the file: every range a
    /// view is made from has been checked).
    @inline(__always)
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "LittleEndianView index out of range")
        return Element(littleEndian: base.loadUnaligned(fromByteOffset: index &* MemoryLayout<Element>.size, as: Element.self))
    }
}

/// u32 entries: the year table.
typealias U32View = LittleEndianView<UInt32>
/// u64 words: bitmaps.
typealias U64View = LittleEndianView<UInt64>

extension LittleEndianView where Element == UInt64 {
    /// The words, copied into an array.
    func copied() -> [UInt64] {
        [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                buffer[index] = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
            }
            initialized = count
        }
    }

    /// `words[i] &= self[i]` for every word (the two have the same count).
    func intersect(into words: inout [UInt64]) {
        precondition(words.count == count, "bitmaps of different sizes")
        words.withUnsafeMutableBufferPointer { target in
            for index in 0..<count {
                target[index] &= UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
            }
        }
    }
}

/// Entries of a packed section (`CacheFormat`, "Directory") inside a checked, verified part of a mapping: each
/// read is one unaligned 8-byte load, a shift and a mask, which the section's 8 bytes of padding keep in bounds.
struct PackedView {
    fileprivate let base: UnsafeRawPointer
    private let firstBit: Int
    private let width: Int
    private let mask: UInt64
    /// Number of entries.
    let count: Int

    fileprivate init(base: UnsafeRawPointer, firstBit: Int, width: Int, count: Int) {
        self.base = base
        self.firstBit = firstBit
        self.width = width
        self.mask = (1 << UInt64(width)) - 1  // width ≤ 32: the directory checks it
        self.count = count
    }

    /// Entry `index`; traps on an index outside the view (a bug in the engine, not in the file: every range a
    /// view is made from has been checked).
    @inline(__always)
    subscript(index: Int) -> UInt32 {
        precondition(index >= 0 && index < count, "PackedView index out of range")
        let bit = firstBit &+ index &* width
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
        return UInt32(truncatingIfNeeded: (word &>> UInt64(bit & 7)) & mask)
    }

    /// The entries, copied into an array.
    func values() -> [UInt32] {
        (0..<count).map { self[$0] }
    }
}

/// Set operations on bitmaps over ranks whose inner loops write through a pointer, kept here with the engine's
/// other unsafe code.
enum BitKernels {
    /// The ranks of `candidates` (each below `limit`, which `word` covers) whose bit is set; `nil` if one is not.
    ///
    /// Branch-free: whether a candidate matches is a coin toss that a branch would mispredict half the time, which
    /// cost more than everything else in the loop. Each rank is written, and the count moves on by its bit.
    @inline(__always)
    static func filter<Candidates: RankSequence>(_ candidates: Candidates, below limit: Int,
                                                 word: (Int) -> UInt64) -> [UInt32]? {
        var inRange = true
        let kept = [UInt32](unsafeUninitializedCapacity: candidates.count) { buffer, initialized in
            var count = 0
            for position in 0..<candidates.count {
                let rank = Int(candidates[position])
                guard rank < limit else {
                    inRange = false
                    break
                }
                buffer[count] = UInt32(truncatingIfNeeded: rank)  // count ≤ position < capacity
                count &+= Int(truncatingIfNeeded: (word(rank &>> 6) &>> UInt64(rank & 63)) & 1)
            }
            initialized = count
        }
        return inRange ? kept : nil
    }

    /// `ranks` (each below `limit`) as a bitmap of ⌈limit / 64⌉ words; `nil` if a rank is not below `limit`.
    static func bitmap<Ranks: RankSequence>(of ranks: Ranks, below limit: Int) -> [UInt64]? {
        var words = [UInt64](repeating: 0, count: (limit + 63) / 64)
        for position in 0..<ranks.count {
            let rank = Int(ranks[position])
            guard rank < limit else { return nil }
            words[rank &>> 6] |= 1 &<< UInt64(rank & 63)
        }
        return words
    }
}
