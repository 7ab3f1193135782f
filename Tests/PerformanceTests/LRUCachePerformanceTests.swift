import MovieSearch
@testable import MovieSearchLRU
import TestSupport
import XCTest

/// The same 20,000 mixed operations against caches of 10, 10,000 and 1,000,000 entries: the times XCTest reports
/// should stay roughly flat (every operation is O(1)); a larger cache is somewhat slower only because its slots
/// no longer fit in the processor's caches. Nothing here asserts a time.
final class LRUCachePerformanceTests: XCTestCase {
    /// Few enough that a measured run stays well under a second: swift-corelibs-xctest fails a `measure` whose
    /// runs deviate by more than 10% and 0.1 s, which a loaded machine causes with longer runs.
    private static let operations = 20_000

    override func setUpWithError() throws {
        try requireOptimizedBuild()
    }

    func testMixedOperationsOn10Entries() {
        measureMixedOperations(entries: 10)
    }

    func testMixedOperationsOn10_000Entries() {
        measureMixedOperations(entries: 10_000)
    }

    func testMixedOperationsOn1_000_000Entries() {
        measureMixedOperations(entries: 1_000_000)
    }

    /// Fills a cache of capacity `entries` to the brim, then measures gets and adds of keys drawn from twice as
    /// many keys as fit: about half the gets hit, and adds of new keys evict, so every path is exercised.
    ///
    /// Afterwards the cache must still be sound (its table and recency list agree, `invariantViolation`) and hold
    /// the last key added as the most recent, with the value added last.
    private func measureMixedOperations(entries: Int) {
        var cache = LRUCache<Int, Int>(capacity: entries)
        for key in 0..<entries { cache.add(key, forKey: key) }
        var random = SplitMix64(seed: UInt64(entries))
        let keys = (0..<Self.operations).map { _ in random.below(2 * entries) }
        var hits = 0, misses = 0
        measure {
            for (step, key) in keys.enumerated() {
                if step % 2 == 0 {
                    if cache.get(key) != nil { hits += 1 } else { misses += 1 }
                } else {
                    cache.add(step, forKey: key)
                }
            }
        }
        XCTAssertNil(cache.invariantViolation())
        let lastStep = keys.indices.last { $0 % 2 == 1 }!
        XCTAssertEqual(cache.keysByRecency.first, keys[lastStep])
        XCTAssertEqual(cache.get(keys[lastStep]), lastStep)
        // Keys are drawn from twice the capacity: both outcomes of a get must have occurred.
        XCTAssertGreaterThan(hits, 0)
        XCTAssertGreaterThan(misses, 0)
    }
}
