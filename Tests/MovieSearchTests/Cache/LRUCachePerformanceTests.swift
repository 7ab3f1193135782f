import XCTest

@testable import MovieSearch

/// The same 100,000 mixed operations against caches of 10, 10,000 and 1,000,000 entries: the times XCTest reports
/// should stay roughly flat (every operation is O(1)); a larger cache is somewhat slower only because its slots
/// no longer fit in the processor's caches. Nothing here asserts a time.
final class LRUCachePerformanceTests: XCTestCase {
    private static let operations = 100_000

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
    private func measureMixedOperations(entries: Int) {
        var cache = LRUCache<Int, Int>(capacity: entries)
        for key in 0..<entries { cache.add(key, forKey: key) }
        var random = SplitMix64(seed: UInt64(entries))
        let keys = (0..<Self.operations).map { _ in Int(random.next() % UInt64(2 * entries)) }
        var hits = 0
        measure {
            for (step, key) in keys.enumerated() {
                if step % 2 == 0 {
                    if cache.get(key) != nil { hits += 1 }
                } else {
                    cache.add(step, forKey: key)
                }
            }
        }
        XCTAssertEqual(cache.count, entries)
        XCTAssertGreaterThan(hits, 0)
    }
}
