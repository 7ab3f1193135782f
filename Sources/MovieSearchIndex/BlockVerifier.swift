import Synchronization

/// Checks the content blocks of a cache file against its block checksum table (`CacheFormat`, "Block
/// checksums") lazily: each block the first time a read touches it, each once per process, from any thread.
///
///     let verifier = BlockVerifier(file: mappedFile.bytes, header: header, path: path)
///     try verifier.verify(section, absoluteRange)    // hashes the blocks of the range not checked yet
///     try verifier.verifyAll()                       // every block now
///
/// A block's flag is one bit of an atomic word, set (releasing) after its hash matched and tested (acquiring)
/// before it is hashed, so two threads may both hash a block, never trust one unhashed. Small sections are
/// checked whole and flagged on their own, so that the hot ones (term dictionary, year table, prefix entries)
/// cost one flag test per read afterwards.
///
/// Noncopyable: it owns the flags, freed by `deinit`. It borrows the file's bytes: it must not outlive them
/// (`MappedCacheFile` holds both).
struct BlockVerifier: ~Copyable {
    /// Sections up to this size (four blocks) are checked whole the first time any part is read, and flagged.
    /// Larger ones are checked block by block, so a query never hashes more than it reads plus a block. A
    /// reading policy, not part of the format.
    private let wholeSectionLimit: Int

    private let path: String
    private let base: UnsafeRawPointer
    private let contentStart: Int
    private let contentEnd: Int
    private let blockShift: Int
    private let verifiedBlocks: UnsafeMutablePointer<Atomic<UInt64>>
    private let verifiedWordCount: Int
    private let verifiedSections: UnsafeMutablePointer<Atomic<Bool>>
    private let sectionCount: Int

    /// A verifier for `file`, the whole file's bytes, whose header (checked) is `header`; nothing is hashed yet.
    init(file: UnsafeRawBufferPointer, header: CacheHeader, path: String) {
        precondition(file.count >= header.contentEnd + header.blockCount * 8, "header not checked against the file")
        self.path = path
        base = file.baseAddress!  // a checked header means a non-empty file
        contentStart = header.contentStart
        contentEnd = header.contentEnd
        blockShift = header.blockSize.trailingZeroBitCount
        wholeSectionLimit = 4 * header.blockSize
        let words = (header.blockCount + 63) / 64
        verifiedWordCount = words
        verifiedBlocks = .allocate(capacity: max(words, 1))
        for word in 0..<max(words, 1) { (verifiedBlocks + word).initialize(to: Atomic(0)) }
        sectionCount = header.sectionCount
        verifiedSections = .allocate(capacity: max(sectionCount, 1))
        for section in 0..<max(sectionCount, 1) { (verifiedSections + section).initialize(to: Atomic(false)) }
    }

    deinit {
        verifiedBlocks.deinitialize(count: max(verifiedWordCount, 1))
        verifiedBlocks.deallocate()
        verifiedSections.deinitialize(count: max(sectionCount, 1))
        verifiedSections.deallocate()
    }

    /// Whether the section numbered `number` has been checked whole (then its reads need no further check).
    @inline(__always)
    func isVerified(section number: Int) -> Bool {
        verifiedSections[number].load(ordering: .acquiring)
    }

    /// Checks a small section whole (and flags it), or the blocks of `range` (absolute, inside the section) in a
    /// large one.
    func verify(_ section: CacheDirectory.Section, _ range: Range<Int>) throws(CacheError) {
        if section.length <= wholeSectionLimit {
            try verify(section.offset..<(section.offset + section.length))
            verifiedSections[section.number].store(true, ordering: .releasing)
        } else {
            try verify(range)
        }
    }

    /// Checks every content block now, rather than as reads reach them.
    func verifyAll() throws(CacheError) {
        try verify(contentStart..<contentEnd)
    }

    /// Checks the blocks that hold the absolute byte range `range` (inside the content), each once per process.
    /// Inlined for the common case, a range inside one block that is already checked: a shift, a load and a test.
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
            if MappedCacheFile.comparesChecksums, actual != expected {
                throw .checksumMismatch(path: path, region: "block \(block) (bytes \(start)–\(end - 1))")
            }
            verifiedBlocks[word].bitwiseOr(bit, ordering: .releasing)
        }
    }
}
