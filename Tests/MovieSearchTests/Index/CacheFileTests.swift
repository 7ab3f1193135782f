import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
@_spi(Engine) @testable import MovieSearchText
import TestSupport
import XCTest

/// The writer and the reader checked against each other, and every way a cache file can be bad.
final class CacheFileTests: XCTestCase {
    private func write(_ bytes: [UInt8], name: String = "test.mscache") throws -> String {
        let path = try TestPaths.temporaryFolder(self).path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func openError(_ bytes: [UInt8]) throws -> CacheError? {
        let path = try write(bytes)
        do {
            _ = try MovieIndex(path: path)
            return nil
        } catch {
            return try XCTUnwrap(error as? CacheError, "unexpected error \(error)")
        }
    }

    func testHeaderFieldsAsDocumented() throws {
        let bytes = try CacheWriter.encode(Fixtures.small)
        XCTAssertEqual(Array(bytes[0..<8]), CacheFormat.magic)
        func u32(_ offset: Int) -> UInt32 { bytes.u32(at: offset) }
        func u64(_ offset: Int) -> UInt64 { bytes.u64(at: offset) }
        XCTAssertEqual(u32(8), CacheFormat.version)
        XCTAssertEqual(u32(12), 4096, "a small cache is checked in 4 KB blocks")
        XCTAssertEqual(u64(16), UInt64(bytes.count))
        XCTAssertEqual(u32(24), UInt32(CacheFormat.Tag.required.count))
        XCTAssertEqual(u32(28), 16)
        XCTAssertEqual(u32(36), 7)  // 2017, 2016, 2013, 2012, 2010, 2009, 1999
        XCTAssertEqual(u64(56), XXHash64.hash(Array(bytes[0..<56])))
        // Every section is 8-byte aligned, inside the content, each tag appears once, and a packed section's
        // length follows from its width and count.
        var tags = Set<UInt32>()
        for entry in 0..<Int(u32(24)) {
            let start = 64 + entry * 32
            let width = Int(u32(start + 4)), count = Int(u64(start + 8))
            let offset = u64(start + 16), length = u64(start + 24)
            XCTAssertEqual(offset % 8, 0)
            XCTAssertLessThanOrEqual(offset + length, u64(40))
            XCTAssertEqual(Int(length), width == 0 ? count : (count * width + 7) / 8 + 8)
            XCTAssertLessThanOrEqual(width, 32)
            XCTAssertTrue(tags.insert(u32(start)).inserted)
        }
        XCTAssertEqual(tags, Set(CacheFormat.Tag.required.map(\.code)))
    }

    /// The worked example of `CacheFormat`'s documentation, section by section.
    func testWorkedExampleOfTheFormatDocumentation() throws {
        let catalog = Catalog(movies: [Movie(id: 0, title: "Dark", year: 2010, rating: 3),
                                       Movie(id: 1, title: "The Dark Knight", year: 2012, rating: nil)])
        let index = try Fixtures.index(catalog, self)
        let file = index.file, sections = index.sections
        func packed(_ section: MappedCacheFile.Section) throws -> [UInt32] {
            try file.packed(section, 0..<section.count).values()
        }
        func blocked(_ section: MappedCacheFile.BlockedSection) throws -> [UInt32] {
            let bases = try packed(section.bases), entries = try packed(section.entries)
            return entries.indices.map { bases[$0 / CacheFormat.blockedEntries] + entries[$0] }
        }
        // Ids by rank [1, 0], a movie a year: each year's base is its one id.
        XCTAssertEqual(try packed(sections.ranks), [0, 0])
        XCTAssertEqual(try packed(sections.rankBases), [1, 0])
        let years = try file.u32s(sections.years, 0..<4)
        XCTAssertEqual((0..<4).map { years[$0] }, [2012, 0, 2010, 1])
        XCTAssertEqual(try blocked(sections.movieYears), [1, 0])
        let rating = try file.bytes(sections.ratings, 0..<sections.ratings.length)
        XCTAssertEqual(Array(rating), Array(withUnsafeBytes(of: (3.0).bitPattern.littleEndian) { Array($0) }))
        XCTAssertEqual(try packed(sections.movieRatings), [0, 1])
        let text = try file.bytes(sections.termText, 0..<sections.termText.length)
        XCTAssertEqual(String(decoding: text, as: UTF8.self), "darkknightthe")
        XCTAssertEqual(try packed(sections.termTextOffsets), [0, 4, 10, 13])
        XCTAssertEqual(try packed(sections.postingOffsets), [0, 2, 3, 4])
        // dark → [0, 1]: no low bits, upper bits 0 and 1 + 1; knight → [0] and the → [0]: one low bit (0) after one
        // upper bit (bit 0). Each list a byte, then the padding.
        XCTAssertEqual(Array(try file.bytes(sections.postings, 0..<sections.postings.length)),
                       [0b101, 0b01, 0b01] + [UInt8](repeating: 0, count: 8))
        XCTAssertEqual(try packed(sections.postingPositions), [0, 3])
        XCTAssertEqual(sections.prefixEntries.count, 0)
        XCTAssertEqual(try packed(sections.movieIDs.entries), [0, 0])
        XCTAssertEqual(sections.movieIDs.entries.width, 1)
        XCTAssertEqual(try packed(sections.movieIDs.bases), [0])
        XCTAssertEqual(try file.section(.titleDictionary).length, 0, "two titles deflate smallest without one")
        XCTAssertEqual(try packed(file.packedSection(.titleBlockLengths)), [22])
        XCTAssertEqual(try packed(file.packedSection(.titleBlockOffsets)),
                       [0, UInt32(try file.section(.titleBlocks).length)])
        XCTAssertEqual(try sections.titles.block(holding: 1, in: file).bytes,
                       [2, 4, 15] + Array("DarkThe Dark Knight".utf8))
        XCTAssertEqual(try packed(file.packedSection(.nameBlockOffsets)), [0])
        XCTAssertEqual(try file.packedSection(.nameBlockLengths).count, 0)
        XCTAssertEqual(try file.section(.nameBlocks).length, 0)
        XCTAssertEqual(try file.section(.nameDictionary).length, 0)
        let result = try index.search("kn")
        XCTAssertEqual(result, SearchResult(query: "kn", total: 1, years: [YearMatches(year: 2012, count: 1, movieIDs: [1])]))
    }

    /// Packed sections read back what was packed, at every width and at every start inside a section.
    func testPackedSectionsRoundTripAtEveryWidth() throws {
        var generator = SplitMix64(seed: 7)
        for width in 1...32 {
            let top = width == 32 ? UInt64(UInt32.max) : (UInt64(1) << UInt64(width)) - 1
            var values = (0..<77).map { _ in UInt32(generator.next() % (top + 1)) }
            values[5] = UInt32(top)
            let part = CacheSections.Part.packed(.postings, values)
            XCTAssertEqual(part.width, width)
            XCTAssertEqual(part.bytes.count, (values.count * width + 7) / 8 + 8)
            XCTAssertEqual(Array(part.bytes.suffix(8)), [UInt8](repeating: 0, count: 8))
            // Entry i is bits i × width ..< (i + 1) × width of the little-endian bit string.
            for (index, value) in values.enumerated() {
                XCTAssertEqual(ForgedCache.packedEntry(index, width: width, in: part.bytes), value, "width \(width), entry \(index)")
            }
        }
    }

    /// A view of packed entries reads them back from any start, at every width; one of 24-bit entries from a byte
    /// boundary reads them as bytes too (`BytePackedView`), the last one included (its load reads into the
    /// padding), and no other has such a view. Each entry and the next read as a pair (`pair(at:)`) agree.
    func testPackedViewsReadEveryEntryFromAnyStart() throws {
        var generator = SplitMix64(seed: 9)
        for width in 1...32 {
            let top = width == 32 ? UInt64(UInt32.max) : (UInt64(1) << UInt64(width)) - 1
            let values = (0..<50).map { _ in UInt32(generator.next() % (top + 1)) }
            let bytes = ByteWriter.packed(values, width: width)
            bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return XCTFail("nothing packed at width \(width)") }
                for start in [0, 1, 7, 8, 49] {
                    let view = PackedView(base: base, firstBit: start * width, width: width,
                                          count: values.count - start)
                    XCTAssertEqual((0..<view.count).map { view[$0] }, Array(values[start...]), "width \(width)")
                    XCTAssertEqual((0..<view.count).map { view[unchecked: $0] }, Array(values[start...]))
                    // Pairs: from one load up to width 28, from two past it.
                    for index in 0..<(view.count - 1) {
                        let pair = view.pair(at: index)
                        XCTAssertEqual([pair.0, pair.1], [values[start + index], values[start + index + 1]], "width \(width)")
                    }
                    if let bytePacked = view.bytePacked {
                        XCTAssertEqual(width, 24)
                        XCTAssertEqual((0..<bytePacked.count).map { bytePacked[$0] }, Array(values[start...]))
                    } else {
                        XCTAssertNotEqual(width, 24)
                    }
                }
            }
        }
    }

    /// `count(entriesAt:into:)` counts the entries at the indices given as a dictionary would, at any width and from
    /// any start, and stops with false at an index outside the view or an entry outside the counts.
    func testPackedViewsCountTheirEntriesAtIndices() throws {
        var generator = SplitMix64(seed: 10)
        for width in [1, 3, 11, 13, 24] {
            let bins = min(1 << width, 40)
            let values = (0..<300).map { _ in UInt32(generator.next() % UInt64(bins)) }
            try ByteWriter.packed(values, width: width).withUnsafeBytes { raw in
                let base = try XCTUnwrap(raw.baseAddress)
                for start in [0, 5] {
                    let view = PackedView(base: base, firstBit: start * width, width: width,
                                          count: values.count - start)
                    let indices = (0..<view.count).filter { _ in generator.next() % 3 != 0 }.map(UInt32.init)
                    var expected = [Int](repeating: 0, count: bins)
                    for index in indices { expected[Int(values[start + Int(index)])] += 1 }
                    var counts = [Int](repeating: 0, count: bins)
                    XCTAssertTrue(counts.withUnsafeMutableBufferPointer { view.count(entriesAt: indices, into: $0) })
                    XCTAssertEqual(counts, expected, "width \(width), from \(start)")
                    // A range of indices counts as its members do.
                    var ranged = [Int](repeating: 0, count: bins)
                    XCTAssertTrue(ranged.withUnsafeMutableBufferPointer {
                        view.count(entriesAt: 0..<view.count, into: $0)
                    })
                    XCTAssertEqual(ranged.reduce(0, +), view.count)
                    // An index past the view, or an entry past the counts: false.
                    var past = [Int](repeating: 0, count: bins)
                    XCTAssertFalse(past.withUnsafeMutableBufferPointer {
                        view.count(entriesAt: [UInt32(view.count)], into: $0)
                    })
                    let largest = Int(values[start...].max()!)
                    var fewer = [Int](repeating: 0, count: largest)
                    XCTAssertFalse(fewer.withUnsafeMutableBufferPointer {
                        view.count(entriesAt: 0..<view.count, into: $0)
                    })
                }
            }
        }
    }

    /// Content of up to 4 MiB is cut into 4 KB blocks (a query of a small cache hashes only what it reads), more
    /// into 64 KB blocks (the block table of a large cache stays small). A cache in 64 KB blocks reads, verifies
    /// and catches a flipped byte in any of its blocks as one in 4 KB blocks does.
    func testBlockSizeFollowsTheContentLength() throws {
        XCTAssertEqual(CacheFormat.blockSize(contentLength: 0), 4096)
        XCTAssertEqual(CacheFormat.blockSize(contentLength: 4 << 20), 4096)
        XCTAssertEqual(CacheFormat.blockSize(contentLength: (4 << 20) + 8), 65_536)
        let catalog = try CatalogDecoder.decode(GeneratedCatalog(movies: 3_000, seed: 5).json(), source: "generated")
        let small = try CacheWriter.encode(catalog)
        let large = try CacheWriter.encodeWithStatistics(catalog, blockSize: 65_536).bytes
        XCTAssertEqual(small.u32(at: CacheFormat.HeaderField.blockSize), 4096)
        XCTAssertEqual(large.u32(at: CacheFormat.HeaderField.blockSize), 65_536)
        let contentStart = CacheFormat.aligned(CacheFormat.headerSize
            + Int(large.u32(at: CacheFormat.HeaderField.sectionCount)) * CacheFormat.directoryEntrySize)
        let contentEnd = Int(large.u64(at: CacheFormat.HeaderField.blockTableOffset))
        XCTAssertGreaterThan(contentEnd - contentStart, 65_536, "more than one large block")
        let queries = ["the", "a", "love st", ""]
        let expected = try queries.map { try MovieIndex(path: write(small, name: "small.mscache")).search($0) }
        let index = try MovieIndex(path: write(large, name: "large.mscache"))
        XCTAssertNoThrow(try index.verify())
        XCTAssertEqual(try queries.map { try index.search($0) }, expected)
        for position in stride(from: contentStart + 100, to: contentEnd, by: 65_536) {
            var damaged = large
            damaged[position] ^= 0x10
            let path = try write(damaged, name: "damaged.mscache")
            XCTAssertThrowsError(try MovieIndex(path: path).verify(), "byte \(position)") { error in
                guard case .checksumMismatch? = error as? CacheError else { return XCTFail("byte \(position): \(error)") }
            }
        }
    }

    func testSameCatalogGivesIdenticalBytes() throws {
        let first = try CacheWriter.encode(Fixtures.small)
        let second = try CacheWriter.encode(Catalog(movies: Fixtures.small.movies.reversed()))
        XCTAssertEqual(first, second)
    }

    func testWriteReportsStatistics() throws {
        let path = try TestPaths.temporaryFolder(self).path + "/stats.mscache"
        let statistics = try CacheWriter.write(Fixtures.small, to: path)
        let distinct = Set(Fixtures.small.movies.flatMap { Tokenizer.tokens(in: $0.title) })
        XCTAssertEqual(statistics.movies, 16)
        XCTAssertEqual(statistics.distinctTokens, distinct.count)
        XCTAssertEqual(statistics.bytes, try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let index = try MovieIndex(path: path)
        XCTAssertEqual(index.tokenCount, distinct.count)
        XCTAssertEqual(index.fileSize, statistics.bytes)
        XCTAssertNoThrow(try index.verify())
    }

    /// Every length in a full run (`TestScale`); a sampled run keeps every length up to the header's end (below it a
    /// cut is measured against the header's 64 bytes, from there against the size the header states) and the last
    /// eight, and every 61st of the rest: a cut there is one case, shorter than the header says.
    func testTruncatedAtEveryLength() throws {
        let bytes = try CacheWriter.encode(Fixtures.small)
        let kept = [0..<CacheFormat.headerSize + 1, bytes.count - 8..<bytes.count]
        for length in TestScale.positions(bytes.count, keeping: kept, stride: 61) {
            let error = try openError(Array(bytes[0..<length]))
            switch error {
            case .truncated(_, let expected, let actual)?:
                XCTAssertEqual(actual, length)
                XCTAssertEqual(expected, length < 64 ? 64 : bytes.count)
            default:
                XCTFail("length \(length): \(String(describing: error))")
            }
        }
    }

    func testTrailingBytesAreRejected() throws {
        let bytes = try CacheWriter.encode(Fixtures.small)
        guard case .corrupt? = try openError(bytes + [0]) else { return XCTFail("extra byte accepted") }
    }

    /// Flipping any bit anywhere is caught: at open for the header, directory and block table, and for content
    /// at the latest by `verify()`; a query either throws or answers exactly as the intact cache would. Every byte
    /// in a full run (`TestScale`); a sampled run keeps every byte of the header and directory, each with a meaning
    /// of its own, and every 59th of the content and block table (an odd stride: every bit of a byte, every phase
    /// of an 8-byte field).
    func testFlippedBytesNeverGiveWrongAnswers() throws {
        let bytes = try CacheWriter.encode(Fixtures.small)
        let intact = try Fixtures.index(Fixtures.small, self)
        let queries = ["dark", "", "the d", "knight", "500", "bru"]
        let expected = try queries.map { try intact.search($0) }
        let path = try TestPaths.temporaryFolder(self).path + "/flipped.mscache"
        for position in TestScale.positions(bytes.count, keeping: [Self.headerAndDirectory(bytes)], stride: 59) {
            var damaged = bytes
            damaged[position] ^= UInt8(1) << UInt8(position % 8)
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let index: MovieIndex
            do {
                index = try MovieIndex(path: path)
            } catch let error as CacheError {
                switch error {
                case .checksumMismatch, .notACache, .unsupportedVersion, .truncated, .corrupt: continue
                default: XCTFail("byte \(position): unexpected \(error)"); continue
                }
            }
            for (query, answer) in zip(queries, expected) {
                if let result = try? index.search(query) { XCTAssertEqual(result, answer, "byte \(position)") }
            }
            XCTAssertThrowsError(try index.verify(), "byte \(position) not caught by verify()") { error in
                guard case .checksumMismatch? = error as? CacheError else { return XCTFail("byte \(position): \(error)") }
            }
        }
    }

    /// The bytes of a cache's header and directory, at its start.
    private static func headerAndDirectory(_ bytes: [UInt8]) -> Range<Int> {
        let sections = Int(bytes.u32(at: CacheFormat.HeaderField.sectionCount))
        return 0..<CacheFormat.headerSize + sections * CacheFormat.directoryEntrySize
    }

    func testWrongVersion() throws {
        var bytes = try CacheWriter.encode(Fixtures.small)
        bytes[8] = 1
        XCTAssertEqual(try openError(bytes)?.withPath(nil), .unsupportedVersion(path: "", found: 1, supported: CacheFormat.version))
    }

    func testForeignFiles() throws {
        for foreign in [Array("{\"movies\": []}".utf8), Array(repeating: 0, count: 200), Array("PK\u{3}\u{4}".utf8), [0x89]] {
            let error = try openError(foreign)
            if foreign == [0x89] {
                XCTAssertEqual(error?.withPath(nil), .truncated(path: "", expectedBytes: 64, actualBytes: 1))
            } else {
                XCTAssertEqual(error?.withPath(nil), .notACache(path: ""))
            }
        }
    }

    func testMissingFileAndFolder() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let missing = folder + "/none.mscache"
        XCTAssertThrowsError(try MovieIndex(path: missing)) { error in
            guard case .io(let reported, _, _)? = error as? CacheError else { return XCTFail("\(error)") }
            XCTAssertEqual(reported, missing)
        }
        XCTAssertThrowsError(try MovieIndex(path: folder)) { error in
            XCTAssertEqual(error as? CacheError, .notARegularFile(path: folder, kind: .directory))
        }
    }

    func testErrorMessagesNameTheFileAndTheRemedy() {
        let messages = [
            CacheError.notACache(path: "a.mscache").description,
            CacheError.truncated(path: "a.mscache", expectedBytes: 100, actualBytes: 10).description,
            CacheError.unsupportedVersion(path: "a.mscache", found: 9, supported: 2).description,
            CacheError.checksumMismatch(path: "a.mscache", region: "block 0").description,
            CacheError.corrupt(path: "a.mscache", detail: "x").description,
        ]
        for message in messages {
            XCTAssertTrue(message.contains("a.mscache"), message)
            XCTAssertTrue(message.contains("moviesearch index"), message)
            XCTAssertFalse(message.contains("\n"), message)
        }
    }

    /// Writes that fail before the rename leave the folder as it was: no temporary file. (A write into a read-only
    /// folder, which needs an unprivileged process when the tests run as root, is `WriteFailureTests`'s.)
    func testFailedWritesLeaveNoTemporaryFile() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let path = folder + "/keep.mscache"
        _ = try CacheWriter.write(Fixtures.small, to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try CacheWriter.write(Fixtures.small, to: folder + "/missing/sub/x.mscache"))
        XCTAssertThrowsError(try CacheWriter.write(Fixtures.small, to: "/proc/moviesearch.mscache"))
        // A rename onto a folder fails after the temporary file was written.
        try FileManager.default.createDirectory(atPath: folder + "/occupied.mscache/inside", withIntermediateDirectories: true)
        XCTAssertThrowsError(try CacheWriter.write(Catalog(movies: []), to: folder + "/occupied.mscache")) { error in
            XCTAssertTrue("\(error)".contains(folder + "/occupied.mscache"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["keep.mscache", "occupied.mscache"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/occupied.mscache"), ["inside"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testReplacingACacheKeepsOpenReadersWorking() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let path = folder + "/live.mscache"
        _ = try CacheWriter.write(Fixtures.small, to: path)
        let reader = try MovieIndex(path: path)
        let before = try reader.search("dark")
        _ = try CacheWriter.write(Catalog(movies: [Movie(id: 0, title: "Other", year: 1, rating: nil)]), to: path)
        XCTAssertEqual(try reader.search("dark"), before)
        XCTAssertNoThrow(try reader.verify())
        XCTAssertEqual(try MovieIndex(path: path).movieCount, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["live.mscache"])
    }
}

extension CacheError {
    /// The same error with its path replaced, so tests can compare errors without knowing temporary paths.
    func withPath(_ path: String?) -> CacheError {
        let path = path ?? ""
        switch self {
        case let .io(_, operation, reason): return .io(path: path, operation: operation, reason: reason)
        case .notACache: return .notACache(path: path)
        case let .unsupportedVersion(_, found, supported): return .unsupportedVersion(path: path, found: found, supported: supported)
        case let .truncated(_, expected, actual): return .truncated(path: path, expectedBytes: expected, actualBytes: actual)
        case let .checksumMismatch(_, region): return .checksumMismatch(path: path, region: region)
        case let .corrupt(_, detail): return .corrupt(path: path, detail: detail)
        default: return self
        }
    }
}
