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
        // Larger compressed than what the read-ahead thread holds (two buffers of decoded bytes and the decoder's
        // input buffer), so that a read of the first bytes cannot have read it whole.
        let original = text(500_000) + Self.noise
        let compressed = Gzip.compress(original)
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("t.tsv.gz").path
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        let input = try CatalogInput(path: FilePath(path))
        XCTAssertTrue(input.isRegularFile)
        XCTAssertEqual(input.fileSize, compressed.count)
        XCTAssertEqual(try peek(input, 8), Array(original.prefix(8)))
        XCTAssertTrue(input.isGzip)
        XCTAssertLessThan(input.bytesReadFromInput, compressed.count, "read as needed (two buffers ahead), not whole")
        XCTAssertEqual(try input.readAll(maximumBytes: .max), original)
        XCTAssertEqual(input.bytesReadFromInput, compressed.count, "progress counts bytes on disk")
    }

    // MARK: - Read ahead (a gzip regular file is decoded on a thread of its own)

    /// Bytes that do not compress, three read-ahead buffers and a few bytes of them, made once for the tests below.
    private static let noise: [UInt8] = {
        var generator = SplitMix64(seed: 29)
        var bytes = [UInt8](repeating: 0, count: 3 * GzipReadAhead.bufferSize + 8)
        bytes.withUnsafeMutableBytes { raw in
            for word in 0..<(raw.count / 8) { raw.storeBytes(of: generator.next(), toByteOffset: word * 8, as: UInt64.self) }
        }
        return bytes
    }()

    /// Whether `a` and `b` hold the same bytes, compared with `memcmp` (megabytes of them; `==` is slow unoptimized).
    private func equalBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        })
    }

    /// A gzip file, written to a temporary folder.
    private func gzipFile(_ compressed: [UInt8], name: String = "r.gz") throws -> FilePath {
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent(name).path
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        return FilePath(path)
    }

    /// What reading `input` to its end `bufferSize` bytes at a time gives: the bytes until the first error, the
    /// error's description, and whether the next read after it returned 0 again.
    private func outcome(_ input: CatalogInput, bufferSize: Int) -> (bytes: [UInt8], error: String?, thenEnd: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: bufferSize)
        var source = input
        do {
            while true {
                let count = try source.read(into: &chunk, count: bufferSize)
                if count == 0 { return (bytes, nil, (try? source.read(into: &chunk, count: bufferSize)) == 0) }
                bytes.append(contentsOf: chunk[..<count])
            }
        } catch {
            return (bytes, "\(error)", (try? source.read(into: &chunk, count: bufferSize)) == 0)
        }
    }

    /// Read from a file (ahead, on another thread) or from the same bytes in memory (directly): the same bytes, at
    /// every size around the read-ahead's buffers and at every reader's buffer size, members and stored blocks too.
    func testAGzipFileReadAheadGivesTheBytesOfADirectRead() throws {
        let size = GzipReadAhead.bufferSize, noise = Self.noise
        let inputs: [[UInt8]] = [
            Gzip.compress([]), Gzip.compress(text(10)), Gzip.compress(Array(noise[..<(size - 1)]), level: 1),
            Gzip.compress(Array(noise[..<size]), level: 1), Gzip.compress(Array(noise[..<(size + 1)]), level: 0),
            Gzip.compress(text(size + 5_000)) + Gzip.compress(Array(noise[..<(size / 2 + 3)]), level: 1)
                + Gzip.compress([]),
        ]
        for (number, compressed) in inputs.enumerated() {
            let path = try gzipFile(compressed, name: "\(number).gz")
            let direct = try CatalogInput(bytes: compressed).readAll(maximumBytes: .max)
            // Reads of 7 bytes only where there are few: a read costs its call, unoptimized.
            for bufferSize in (direct.count < 100 ? [7] : []) + [4_093, size, 3 * size] {
                let read = outcome(try CatalogInput(path: path), bufferSize: bufferSize)
                XCTAssertNil(read.error, "input \(number), buffer \(bufferSize)")
                XCTAssertTrue(read.thenEnd, "input \(number): the end stays the end")
                XCTAssertEqual(read.bytes.count, direct.count, "input \(number), buffer \(bufferSize)")
                XCTAssertTrue(equalBytes(read.bytes[...], direct[...]), "input \(number), buffer \(bufferSize)")
            }
            let peeked = try CatalogInput(path: path)
            XCTAssertEqual(try peek(peeked, 100), Array(direct.prefix(100)))
            XCTAssertTrue(equalBytes(try peeked.readAll(maximumBytes: .max)[...], direct[...]), "input \(number) after a peek")
        }
    }

    /// A damaged or cut file read ahead fails as read directly: with the same error, after the data's first bytes,
    /// and every read after it returns 0; the damage may lie buffers past where the reader is.
    func testAGzipFileReadAheadFailsWhereADirectReadFails() throws {
        let original = text(50_000) + Self.noise + text(20_000)
        let compressed = Gzip.compress(original, level: 1)
        var flipped = compressed
        flipped[compressed.count - 6] ^= 0x01  // the CRC-32
        var damaged = compressed
        damaged[compressed.count / 3] ^= 0x40
        let cases: [(String, [UInt8])] = [("cut", Array(compressed[..<(compressed.count * 2 / 3)])),
                                           ("trailer", flipped), ("data", damaged),
                                           ("garbage after", compressed + Array("tail".utf8))]
        for (name, bytes) in cases {
            let path = try gzipFile(bytes, name: "\(name).gz")
            let direct = outcome(CatalogInput(bytes: bytes), bufferSize: 65_536)
            XCTAssertNotNil(direct.error, name)
            let ahead = outcome(try CatalogInput(path: path), bufferSize: 65_536)
            XCTAssertEqual(ahead.error, direct.error, name)
            // The bytes a read inflated before the error are dropped with it, so how many come first follows the
            // size of the reads (as it does reading directly): the same decoded stream, cut at most one read-ahead
            // buffer apart; the data's first bytes, but where a flipped byte of data decodes to other bytes first.
            let shorter = min(ahead.bytes.count, direct.bytes.count)
            XCTAssertTrue(equalBytes(ahead.bytes[..<shorter], direct.bytes[..<shorter]), name)
            XCTAssertLessThanOrEqual(abs(ahead.bytes.count - direct.bytes.count), GzipReadAhead.bufferSize, name)
            if name != "data" { XCTAssertTrue(equalBytes(ahead.bytes[...], original.prefix(ahead.bytes.count)), name) }
            XCTAssertTrue(ahead.thenEnd, "\(name): reads after the error return 0")
        }
    }

    /// An input let go after its first bytes stops its thread, which closes nothing of its own: no thread is left
    /// reading, no descriptor left open, however often it happens.
    func testAGzipFileLetGoMidwayLeavesNoThreadNorDescriptor() throws {
        let original = Self.noise
        let path = try gzipFile(Gzip.compress(original, level: 1))
        func openDescriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        func threads() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count }
        let (descriptorsBefore, threadsBefore) = (try openDescriptors(), try threads())
        for round in 0..<20 {
            let input = try CatalogInput(path: path)
            var chunk = [UInt8](repeating: 0, count: 10 + round)
            var source = input
            let count = try source.read(into: &chunk, count: chunk.count)
            XCTAssertEqual(count, chunk.count, "round \(round)")
            XCTAssertEqual(Array(chunk[..<count]), Array(original.prefix(count)), "round \(round)")
        }
        XCTAssertEqual(try openDescriptors(), descriptorsBefore)
        XCTAssertLessThanOrEqual(try threads(), threadsBefore, "each input's thread ended with it")
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
        let generated = GeneratedCatalog(movies: 1_500, seed: 7).json()
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
