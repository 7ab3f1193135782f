/// The fixed 64-byte header of a cache file (`CacheFormat`, "Header"), parsed and checked.
///
///     let header = try CacheHeader(parsing: mappedFile.bytes, path: "movies.mscache")
///     header.movieCount, header.contentStart..<header.contentEnd, header.blockCount
///
/// Parsing checks, in this order, and throws the first failure as a `CacheError`: that the file holds a header
/// (a shorter file is `notACache`, or `truncated` when its bytes begin like a cache), the magic number
/// (`notACache`), the version (`unsupportedVersion`), the header checksum (`checksumMismatch`), the file length
/// against the header's (`truncated` if shorter, `corrupt` if longer), the ranges of the other fields and the size
/// of the block checksum table (`corrupt`). Each costs O(1); nothing past the header is read but its size.
struct CacheHeader: Equatable, Sendable {
    /// Size of a checksum block: a power of two within the format's bounds.
    var blockSize: Int
    /// Entries in the directory.
    var sectionCount: Int
    /// Movies, distinct terms and years stored.
    var movieCount, termCount, yearCount: Int
    /// Where the checksummed content starts: after the directory, rounded up to 8.
    var contentStart: Int
    /// Where the content ends and the block checksum table starts (`blockTableOffset`).
    var contentEnd: Int
    /// The XXH64 of the block checksum table seeded with that of the directory (checked by `CacheDirectory`).
    var metadataChecksum: UInt64

    /// Content blocks, and entries in the block checksum table.
    var blockCount: Int { (contentEnd - contentStart + blockSize - 1) / blockSize }

    /// Parses the header of `file`, the whole file's bytes; `path` names the file in errors.
    init(parsing file: UnsafeRawBufferPointer, path: String) throws(CacheError) {
        let size = file.count
        if size < CacheFormat.headerSize {
            // Too short to hold a header: tell a foreign file from a cut-off cache by the bytes that are there.
            if !CacheFormat.magic.starts(with: file.prefix(CacheFormat.magic.count)) { throw .notACache(path: path) }
            throw .truncated(path: path, expectedBytes: CacheFormat.headerSize, actualBytes: size)
        }
        if !CacheFormat.magic.elementsEqual(file.prefix(CacheFormat.magic.count)) { throw .notACache(path: path) }
        let version = file.littleEndianU32(at: CacheFormat.HeaderField.version)
        if version != CacheFormat.version {
            throw .unsupportedVersion(path: path, found: version, supported: CacheFormat.version)
        }
        let headerChecksum = XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[0..<CacheFormat.HeaderField.headerChecksum]))
        if MappedCacheFile.comparesChecksums, headerChecksum != file.littleEndianU64(at: CacheFormat.HeaderField.headerChecksum) {
            throw .checksumMismatch(path: path, region: "the header")
        }
        let fileLength = file.littleEndianU64(at: CacheFormat.HeaderField.fileLength)
        if fileLength > UInt64(size) {
            throw .truncated(path: path, expectedBytes: Int(clamping: fileLength), actualBytes: size)
        }
        if fileLength < UInt64(size) {
            throw .corrupt(path: path, detail: "\(UInt64(size) - fileLength) bytes follow the end its header gives")
        }
        let blockSize = Int(file.littleEndianU32(at: CacheFormat.HeaderField.blockSize))
        let sectionCount = Int(file.littleEndianU32(at: CacheFormat.HeaderField.sectionCount))
        let blockTableOffset = file.littleEndianU64(at: CacheFormat.HeaderField.blockTableOffset)
        let contentStart = CacheFormat.aligned(CacheFormat.headerSize + sectionCount * CacheFormat.directoryEntrySize)
        guard blockSize >= CacheFormat.minimumBlockSize, blockSize <= CacheFormat.maximumBlockSize,
              blockSize & (blockSize - 1) == 0, sectionCount <= CacheFormat.maximumSectionCount, contentStart <= size,
              blockTableOffset >= UInt64(contentStart), blockTableOffset <= UInt64(size)
        else { throw .corrupt(path: path, detail: "header fields out of range") }
        self.blockSize = blockSize
        self.sectionCount = sectionCount
        self.contentStart = contentStart
        self.contentEnd = Int(blockTableOffset)
        movieCount = Int(file.littleEndianU32(at: CacheFormat.HeaderField.movieCount))
        termCount = Int(file.littleEndianU32(at: CacheFormat.HeaderField.termCount))
        yearCount = Int(file.littleEndianU32(at: CacheFormat.HeaderField.yearCount))
        metadataChecksum = file.littleEndianU64(at: CacheFormat.HeaderField.metadataChecksum)
        if size - contentEnd != blockCount * 8 {
            throw .corrupt(path: path, detail: "block checksum table has the wrong size")
        }
    }
}
