import Foundation
import Synchronization
import XCTest

import MovieSearch
@testable import MovieSearchLRU
import TestSupport

final class SynchronizedLRUCacheTests: XCTestCase {
    private struct LoadFailed: Error, Equatable {}

    func testValueForKeyMakesOnceThenHits() {
        let cache = SynchronizedLRUCache<Int, String>(capacity: 2)
        var calls = 0
        let make = { () -> String in
            calls += 1
            return "movie \(calls)"
        }
        XCTAssertEqual(cache.value(forKey: 1, orInsert: make), "movie 1")
        XCTAssertEqual(cache.value(forKey: 1, orInsert: make), "movie 1")
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(cache.count, 1)
    }

    func testAThrowingMakeAddsNothing() {
        let cache = SynchronizedLRUCache<Int, String>(capacity: 2)
        XCTAssertThrowsError(try cache.value(forKey: 1) { () throws(LoadFailed) -> String in throw LoadFailed() }) {
            XCTAssertEqual($0 as? LoadFailed, LoadFailed())
        }
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(try cache.value(forKey: 1) { () throws(LoadFailed) -> String in "loaded" }, "loaded")
    }

    func testOperationsFollowLRUCache() {
        let clock = ManualClock(0)
        let cache = SynchronizedLRUCache<String, Int>(capacity: 2, timeToLive: 10, clock: clock.closure)
        XCTAssertEqual(cache.capacity, 2)
        XCTAssertEqual(cache.timeToLive, 10)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b", timeToLive: nil)
        XCTAssertEqual(cache.get("a"), 1)
        cache.add(3, forKey: "c")    // evicts b: a was used last
        XCTAssertFalse(cache.isValid("b"))
        clock.now = 10
        XCTAssertFalse(cache.isValid("a"))
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(cache.removeExpired(), 2)
        cache.add(4, forKey: "d")
        XCTAssertEqual(cache.remove("d"), 4)
        cache.add(5, forKey: "e")
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.value(forKey: "f") { 6 }, 6)
    }

    func testAnExpiredEntryIsMadeAgain() {
        let clock = ManualClock(0)
        let cache = SynchronizedLRUCache<String, Int>(capacity: 2, timeToLive: 5, clock: clock.closure)
        XCTAssertEqual(cache.value(forKey: "a") { 1 }, 1)
        clock.now = 5
        XCTAssertEqual(cache.value(forKey: "a") { 2 }, 2)
    }

    func testConcurrentCallersSeeOneValuePerKey() {
        let cache = SynchronizedLRUCache<Int, Int>(capacity: 64)
        let made = Atomic<Int>(0)
        let seen = Mutex<[Int: Set<Int>]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var random = SplitMix64(seed: UInt64(thread))
            for _ in 0..<2_000 {
                let key = Int(random.next() % 48)
                let value = cache.value(forKey: key) { made.add(1, ordering: .relaxed).newValue }
                seen.withLock { _ = $0[key, default: []].insert(value) }
            }
        }
        let values = seen.withLock { $0 }
        XCTAssertEqual(values.count, 48)
        for (key, set) in values { XCTAssertEqual(set.count, 1, "key \(key) had values \(set)") }
        XCTAssertEqual(cache.count, 48)
    }

    func testConcurrentUseBeyondCapacityStaysBounded() {
        let cache = SynchronizedLRUCache<Int, Int>(capacity: 16)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var random = SplitMix64(seed: UInt64(100 + thread))
            for step in 0..<5_000 {
                let key = Int(random.next() % 100)
                switch step % 4 {
                case 0: cache.add(key, forKey: key)
                case 1: if let value = cache.get(key) { XCTAssertEqual(value, key) }
                case 2: _ = cache.value(forKey: key) { key }
                default: if let value = cache.remove(key) { XCTAssertEqual(value, key) }
                }
            }
        }
        XCTAssertLessThanOrEqual(cache.count, 16)
    }
}
