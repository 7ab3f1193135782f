import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// Parts of a cache are built on a second core (`IndexingJob`: the compressed columns, the pairs of bitmaps): the
/// file must be the same bytes whatever the timing, and a job's error must reach the caller.
final class IndexingJobTests: XCTestCase {
    /// 3,000 movies with every column a job builds: titles, cast and genres, overviews, original titles.
    private static let catalog = Catalog(movies: (0..<3_000).map { id in
        Movie(id: id, title: "Title \(id % 97) of \(id)", year: 1950 + id % 70,
              rating: id % 5 == 0 ? nil : Double(id % 10),
              cast: ["Actor \(id % 311)", "Actor \(id % 17)"], genres: ["Genre \(id % 9)"],
              originalTitle: id % 11 == 0 ? "Original \(id)" : nil, overview: id % 3 == 0 ? "Plot of \(id)." : nil)
    })

    /// Four encodings one after the other, then four at once (one and two in a sampled run, `TestScale`).
    func testTheSameCatalogGivesTheSameBytesEveryTime() throws {
        let first = try CacheWriter.encode(Self.catalog)
        for _ in 0..<TestScale.pick(sampled: 1, full: 4) { XCTAssertEqual(try CacheWriter.encode(Self.catalog), first) }
        // And the encodings of several threads at once, each with its own jobs.
        let results = LockedArray<[UInt8]>()
        let threads = TestScale.pick(sampled: 2, full: 4)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            if let bytes = try? CacheWriter.encode(Self.catalog) { results.append(bytes) }
        }
        XCTAssertEqual(results.values.count, threads)
        for bytes in results.values { XCTAssertEqual(bytes, first) }
    }

    func testAJobsErrorReachesTheCaller() {
        let job = IndexingJob<Int> { () throws(CacheError) in throw .catalogTooLarge(detail: "forty-two") }
        XCTAssertThrowsError(try job.value()) { error in
            XCTAssertEqual(error as? CacheError, .catalogTooLarge(detail: "forty-two"))
        }
        XCTAssertEqual(try IndexingJob { 6 * 7 }.value(), 42)
    }
}

/// An array appended to from several threads.
private final class LockedArray<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        storage.append(element)
        lock.unlock()
    }

    var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
