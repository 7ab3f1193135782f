import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// `BlockVerifier` on bytes in memory: lazy, per block, each once, and a damaged block named.
final class BlockVerifierTests: XCTestCase {
    /// A catalog whose content spans several checksum blocks.
    private static let large = Catalog(movies: (0..<6_000).map { id in
        Movie(id: id, title: "Title \(id) word\(id % 97) more\(id % 13)", year: 1950 + id % 70, rating: Double(id % 11),
              cast: ["Actor \(id % 500)", "Actor \(id % 37)"], genres: ["Genre \(id % 9)"])
    })

    /// The catalog's cache, encoded once for the tests (each damages a copy); an encoding error fails each test.
    private static let encoded = Result { try CacheWriter.encode(large) }

    /// Runs `body` with a verifier over `bytes` (the buffer stays alive meanwhile) and the parsed directory.
    private func withVerifier<T>(_ bytes: inout [UInt8],
                                 _ body: (borrowing BlockVerifier, CacheHeader, CacheDirectory, UnsafeMutableRawBufferPointer) throws -> T) throws -> T {
        try bytes.withUnsafeMutableBytes { raw in
            let file = UnsafeRawBufferPointer(raw)
            let header = try CacheHeader(parsing: file, path: "b.mscache")
            let directory = try CacheDirectory(parsing: file, header: header, path: "b.mscache")
            let verifier = BlockVerifier(file: file, header: header, path: "b.mscache")
            return try body(verifier, header, directory, raw)
        }
    }

    private func sectionRange(_ section: CacheDirectory.Section) -> Range<Int> { section.offset..<(section.offset + section.length) }

    func testIntactFileVerifies() throws {
        var bytes = try Self.encoded.get()
        try withVerifier(&bytes) { verifier, header, directory, _ in
            XCTAssertGreaterThan(header.blockCount, 2)
            let titles = try XCTUnwrap(directory[.titleBlockOffsets])
            XCTAssertFalse(verifier.isVerified(section: titles.number))
            try verifier.verify(titles, titles.offset..<(titles.offset + 8))
            XCTAssertTrue(verifier.isVerified(section: titles.number), "a small section is flagged whole")
            XCTAssertNoThrow(try verifier.verifyAll())
        }
    }

    /// A damaged block is reported by the reads that touch it and by `verifyAll`, and by no other read.
    func testDamagedBlockIsNamedAndOnlyItsReadersFail() throws {
        var bytes = try Self.encoded.get()
        let (header, directory) = try withVerifier(&bytes) { _, header, directory, _ in (header, directory) }
        let lastBlock = header.blockCount - 1
        let blockStart = header.contentStart + lastBlock * header.blockSize
        // The section that ends last holds bytes of the last block (only padding follows it; an empty section, such
        // as a column's empty dictionary, holds none).
        let last = try XCTUnwrap(CacheFormat.Tag.allCases.compactMap { directory[$0] }.filter { $0.length > 0 }
            .max { $0.offset < $1.offset })
        XCTAssertGreaterThan(last.offset + last.length, blockStart)
        let position = max(last.offset, blockStart)
        bytes[position] ^= 0x40
        try withVerifier(&bytes) { verifier, header, directory, _ in
            let ids = try XCTUnwrap(directory[.movieIDs])
            XCTAssertLessThan(ids.offset + ids.length, blockStart)
            XCTAssertNoThrow(try verifier.verify(ids, sectionRange(ids)))
            let expected = CacheError.checksumMismatch(
                path: "b.mscache", region: "block \(lastBlock) (bytes \(blockStart)–\(header.contentEnd - 1))")
            XCTAssertThrowsError(try verifier.verify(last, position..<(position + 1))) { error in
                XCTAssertEqual(error as? CacheError, expected)
            }
            XCTAssertFalse(verifier.isVerified(section: last.number))
            XCTAssertThrowsError(try verifier.verifyAll()) { error in XCTAssertEqual(error as? CacheError, expected) }
        }
    }

    /// A block is hashed once: damage after it was checked goes unseen (the mapping of a cache never changes),
    /// while an unchecked block still catches it.
    func testEachBlockIsCheckedOnce() throws {
        var bytes = try Self.encoded.get()
        try withVerifier(&bytes) { verifier, header, directory, raw in
            let ids = try XCTUnwrap(directory[.movieIDs])
            try verifier.verify(ids, sectionRange(ids))
            raw[ids.offset] ^= 1
            XCTAssertNoThrow(try verifier.verify(ids, sectionRange(ids)))
            raw[header.contentEnd - 1] ^= 1
            XCTAssertThrowsError(try verifier.verifyAll())
        }
    }
}
