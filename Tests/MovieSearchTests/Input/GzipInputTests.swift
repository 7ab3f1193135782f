#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchInput
@testable import MovieSearchPlatform
import TestSupport
import XCTest

/// Gzip input through `CatalogInput`: decoded as it is read from bytes, a file or a stream, members one after the
/// other, and every way of not being whole, valid gzip one `corruptGzip` error, never a trap or a hang.
final class GzipInputTests: XCTestCase {
    // MARK: - Helpers

    /// `count` bytes from a seeded generator: they do not compress, so the gzip data is as long as they are.
    private func randomBytes(_ count: Int, seed: UInt64 = 11) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// Text that compresses well, of about `count` bytes: many deflate blocks and back-references.
    private func text(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var line = 0
        while bytes.count < count {
            bytes += Array("tt\(line)\tmovie\tThe Dark Knight Part \(line % 97)\t\\N\t\(1900 + line % 120)\n".utf8)
            line += 1
        }
        return bytes
    }

    /// `input.peek(upTo: count)` called until it is complete: the first `count` bytes, or all when fewer.
    private func peek(_ input: CatalogInput, _ count: Int) throws -> [UInt8] {
        while true {
            let prefix = try input.peek(upTo: count)
            if prefix.isComplete { return prefix.bytes }
        }
    }

    /// Reads `input` to its end through `read(into:)`, `bufferSize` bytes at a time.
    private func readToEnd(_ input: CatalogInput, bufferSize: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: bufferSize)
        var source = input
        while true {
            let count = try source.read(into: &chunk, count: bufferSize)
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// The reason of the `corruptGzip` error reading all of `bytes` throws, or nil (and a failure) if it throws
    /// none or another.
    private func corruptReason(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> String? {
        let input = CatalogInput(bytes: bytes)
        do {
            let decoded = try input.readAll(maximumBytes: .max)
            XCTFail("decoded \(decoded.count) bytes, expected corruptGzip", file: file, line: line)
        } catch let InputError.corruptGzip(reason) {
            XCTAssertTrue(input.isGzip, file: file, line: line)
            return reason
        } catch {
            XCTFail("\(error), expected corruptGzip", file: file, line: line)
        }
        return nil
    }

    // MARK: - Decoding

    func testRoundTripOfSeveralSizesWithPeekBeforeRead() throws {
        for original in [[], [0x41], randomBytes(1 << 20), text(3 << 20)] {
            let compressed = Gzip.compress(original)
            let input = CatalogInput(bytes: compressed)
            XCTAssertTrue(input.isGzip)
            XCTAssertEqual(input.fileSize, compressed.count, "the size on disk, not decoded")
            XCTAssertEqual(try peek(input, 100), Array(original.prefix(100)), "peek sees decoded bytes")
            XCTAssertEqual(try peek(input, 10), Array(original.prefix(10)), "peek consumes nothing")
            XCTAssertEqual(try readToEnd(input, bufferSize: 4096), original, "\(original.count) bytes")
            var source = input
            var chunk = [UInt8](repeating: 0, count: 16)
            XCTAssertEqual(try source.read(into: &chunk, count: 16), 0, "the end stays the end")
        }
    }

    func testEveryBufferSizeGivesTheSameBytes() throws {
        let original = text(200_000)
        let compressed = Gzip.compress(original, level: 9)
        for bufferSize in [1, 7, 4096, 1 << 18, 1 << 20] {
            XCTAssertEqual(try readToEnd(CatalogInput(bytes: compressed), bufferSize: bufferSize), original,
                           "buffer of \(bufferSize)")
        }
        XCTAssertEqual(try CatalogInput(bytes: compressed).readAll(maximumBytes: original.count), original)
        XCTAssertEqual(try CatalogInput(bytes: Gzip.compress(original, level: 0)).readAll(maximumBytes: .max),
                       original, "stored blocks")
    }

    func testConcatenatedMembersDecodeOneAfterTheOther() throws {
        let first = text(100_000), second = randomBytes(70_000), third = Array("last\n".utf8)
        let input = CatalogInput(bytes: Gzip.compress(first) + Gzip.compress([]) + Gzip.compress(second)
            + Gzip.compress(third, level: 0))
        XCTAssertEqual(try input.readAll(maximumBytes: .max), first + second + third)
    }

    func testPlainBytesAreReadAsTheyAre() throws {
        for bytes: [UInt8] in [[], [0x1F], [0x8B, 0x1F], [0x1F, 0x8A, 0x08], Array("[{\"title\":\"Up\"}]".utf8)] {
            let input = CatalogInput(bytes: bytes)
            XCTAssertFalse(input.isGzip, "\(bytes)")
            XCTAssertEqual(try peek(input, 1), Array(bytes.prefix(1)))
            XCTAssertEqual(try input.readAll(maximumBytes: .max), bytes)
        }
        // Read without asking `isGzip` first: the two bytes looked at are still the first read.
        XCTAssertEqual(try readToEnd(CatalogInput(bytes: [1, 2, 3]), bufferSize: 1), [1, 2, 3])
        XCTAssertEqual(try peek(CatalogInput(bytes: [0x1F]), 5), [0x1F])
    }

    func testTheLimitAppliesToDecodedBytes() throws {
        // A gzip bomb: 16 MiB of zeros in about 16 KiB.
        let bomb = Gzip.compress([UInt8](repeating: 0, count: 16 << 20), level: 9)
        XCTAssertLessThan(bomb.count, 1 << 16)
        XCTAssertThrowsError(try CatalogInput(bytes: bomb).readAll(maximumBytes: 1 << 20)) { error in
            XCTAssertEqual(error as? InputError, .tooLarge(1 << 20))
        }
    }

    // MARK: - Input that is not whole, valid gzip

    func testATruncatedInputSaysSoAtEveryPoint() {
        let original = text(300_000)
        let compressed = Gzip.compress(original)
        // From the magic bytes alone to one byte short of the last member's trailer; and a whole member followed
        // by the start of another.
        let cuts = [2, 3, 9, 10, 11, 100, compressed.count / 2, compressed.count - 8, compressed.count - 4,
                    compressed.count - 1]
        for cut in cuts {
            let reason = corruptReason(Array(compressed[..<cut]))
            XCTAssertTrue(reason?.contains("truncated") == true, "cut at \(cut): \(reason ?? "no error")")
        }
        let reason = corruptReason(compressed + compressed[..<20])
        XCTAssertTrue(reason?.contains("truncated") == true, "second member cut: \(reason ?? "no error")")
    }

    func testAFlippedByteInTheDataOrTheTrailerIsAChecksumMismatch() {
        // Stored blocks (level 0): a flipped byte of data still decodes, so only the CRC-32 catches it.
        let stored = Gzip.compress(text(50_000), level: 0)
        var damaged = stored
        damaged[stored.count / 2] ^= 0x20
        // zlib stops after the CRC-32 (the 4 bytes before the length) when it does not match; after the length,
        // the file's end, when that does not.
        XCTAssertEqual(corruptReason(damaged), "damaged data at byte \(stored.count - 4): a checksum does not match "
            + "(the file is damaged)")
        for offset in 1...Gzip.trailerSize {  // Each byte of the CRC-32 and of the length.
            var damaged = stored
            damaged[stored.count - offset] ^= 0x01
            let end = offset <= 4 ? stored.count : stored.count - 4
            XCTAssertEqual(corruptReason(damaged), "damaged data at byte \(end): a checksum does not match "
                + "(the file is damaged)", "trailer byte \(Gzip.trailerSize - offset)")
        }
    }

    func testAFlippedByteInCompressedDataIsCorrupt() {
        let compressed = Gzip.compress(text(200_000))
        for offset in stride(from: 20, to: compressed.count - Gzip.trailerSize, by: compressed.count / 7) {
            var damaged = compressed
            damaged[offset] ^= 0xFF
            // Either the deflate data no longer decodes, or it decodes to other bytes and the checksum differs.
            let reason = corruptReason(damaged) ?? ""
            XCTAssertTrue(reason.hasPrefix("damaged data at byte "), "byte \(offset): \(reason)")
            // The offset is where zlib stopped: at or after the flipped byte, within the file.
            let at = Int(reason.dropFirst("damaged data at byte ".count).prefix { $0.isNumber }) ?? -1
            XCTAssertTrue((offset...compressed.count).contains(at), "byte \(offset): \(reason)")
        }
    }

    func testTrailingGarbageIsCorrupt() {
        let member = Gzip.compress(text(10_000))
        // Text, zeros then text, a byte like the magic's first, the magic bytes and then no gzip header.
        for tail: [UInt8] in [Array("garbage".utf8), [0, 0, 0x41], [0x1F, 0x00, 0x08], [0x1F, 0x8B, 0x41, 0x42]] {
            let reason = corruptReason(member + tail)
            XCTAssertTrue(reason?.contains("trailing garbage") == true, "\(tail): \(reason ?? "no error")")
        }
        let padded = member + [UInt8](repeating: 0, count: GzipDecoder.inputCapacity + 100) + [7]
        XCTAssertTrue(corruptReason(padded)?.contains("trailing garbage") == true, "a byte after a long padding")
    }

    /// Zero bytes after the last member are padding, which `gzip -d` ignores too: the data decodes whole.
    func testZeroPaddingAfterTheLastMemberIsIgnored() throws {
        let plain = text(10_000)
        for zeros in [1, 4, 512, GzipDecoder.inputCapacity + 100] {
            let input = CatalogInput(bytes: Gzip.compress(plain) + [UInt8](repeating: 0, count: zeros))
            XCTAssertEqual(try input.readAll(maximumBytes: 1 << 20), plain, "\(zeros) zeros")
        }
    }

    func testMagicBytesFollowedByOtherBytesAreNotGzip() {
        for bytes: [UInt8] in [[0x1F, 0x8B, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49],
                               [0x1F, 0x8B, 0x08, 0xE0, 0, 0, 0, 0, 0, 3, 0x41]] {
            let reason = corruptReason(bytes) ?? ""
            XCTAssertTrue(reason.contains("header is not gzip's"), reason)
        }
    }

    func testTheErrorSaysGzip() {
        XCTAssertEqual(InputError.corruptGzip(reason: "x").reason, "not valid gzip data: x")
    }

    // MARK: - Files and streams

    func testAGzipFileIsDecodedAndItsSizeIsTheCompressedOne() throws {
        let original = text(500_000) + randomBytes(500_000)  // Larger than the decoder's input buffer compressed.
        let compressed = Gzip.compress(original)
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("t.tsv.gz").path
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        let input = try CatalogInput(path: FilePath(path))
        XCTAssertTrue(input.isRegularFile)
        XCTAssertEqual(input.fileSize, compressed.count)
        XCTAssertEqual(try peek(input, 8), Array(original.prefix(8)))
        XCTAssertTrue(input.isGzip)
        XCTAssertLessThan(input.bytesReadFromInput, compressed.count, "read as needed, not whole")
        XCTAssertEqual(try input.readAll(maximumBytes: .max), original)
        XCTAssertEqual(input.bytesReadFromInput, compressed.count, "progress counts bytes on disk")
    }

    func testStandardInputAsGzipArrivingAByteAtATime() throws {
        let original = text(100_000)
        let compressed = Gzip.compress(original)
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let done = DispatchSemaphore(value: 0)
        Thread {
            compressed.withUnsafeBytes { buffer in
                // The magic bytes one at a time, then the rest in pieces, so that reads return short.
                var offset = 0
                while offset < buffer.count {
                    let size = offset < 4 ? 1 : min(3000, buffer.count - offset)
                    let result = write(writeEnd, buffer.baseAddress! + offset, size)
                    if result <= 0 { break }
                    offset += result
                    if offset < 4 { usleep(1000) }
                }
            }
            close(writeEnd)
            done.signal()
        }.start()
        let input = CatalogInput(descriptor: readEnd)
        XCTAssertFalse(input.isRegularFile)
        XCTAssertTrue(input.isGzip)
        let decoded = try input.readAll(maximumBytes: .max)
        done.wait()
        close(readEnd)
        XCTAssertEqual(decoded, original)
    }

    func testAStreamThatPausesAfterAFirstByteOtherThan1FIsNotWaitedFor() {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        XCTAssertEqual(write(writeEnd, "[", 1), 1)
        // The writer end stays open: a sniff that waited for a second byte would wait until the watchdog closes it.
        let peeked = DispatchSemaphore(value: 0)
        let closedByWatchdog = Flag()
        let watchdogDone = DispatchSemaphore(value: 0)
        Thread {
            if peeked.wait(timeout: .now() + 10) == .timedOut { closedByWatchdog.value = true }
            close(writeEnd)
            watchdogDone.signal()
        }.start()
        let input = CatalogInput(descriptor: readEnd)
        let prefix = try? input.peek(upTo: 10)
        peeked.signal()
        watchdogDone.wait()
        close(readEnd)
        XCTAssertFalse(closedByWatchdog.value, "the peek waited for more bytes")
        XCTAssertEqual(prefix?.bytes, Array("[".utf8))
        XCTAssertEqual(prefix?.isComplete, false)
        XCTAssertFalse(input.isGzip)
    }

    /// A flag set by another thread, read after it is done.
    private final class Flag: @unchecked Sendable { var value = false }

    // MARK: - Catalogs

    func testAGzippedCatalogLoadsAndCachesAsThePlainOne() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let generated = GeneratedCatalog(movies: 3000, seed: 7).json()
        for (name, plain) in [("sample", try Array(Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleCatalog)))),
                              ("generated", generated)] {
            let plainPath = folder.appendingPathComponent("\(name).json").path
            let gzipPath = folder.appendingPathComponent("\(name).json.gz").path
            try Data(plain).write(to: URL(fileURLWithPath: plainPath))
            try Data(Gzip.compress(plain)).write(to: URL(fileURLWithPath: gzipPath))
            let expected = try CatalogDecoder.load(path: plainPath, options: CatalogOptions())
            let decoded = try CatalogDecoder.load(path: gzipPath, options: CatalogOptions())
            XCTAssertGreaterThan(expected.movies.count, 10)
            XCTAssertEqual(decoded.movies, expected.movies, name)
            XCTAssertEqual(decoded.format, expected.format, name)
            XCTAssertEqual(try CacheWriter.encode(decoded), try CacheWriter.encode(expected), name)
        }
    }

    func testATruncatedGzipCatalogNamesTheFileAndSaysTruncated() throws {
        let plain = GeneratedCatalog(movies: 500, seed: 3).json()
        let compressed = Gzip.compress(plain)
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("cut.json.gz").path
        try Data(compressed[..<(compressed.count * 2 / 3)]).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try CatalogDecoder.load(path: path, options: CatalogOptions())) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains(path), message)
            XCTAssertTrue(message.contains("not valid gzip data: the input ends before the end of its compressed "
                + "data (truncated?"), message)
        }
    }
}
