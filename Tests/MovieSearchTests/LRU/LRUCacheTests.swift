import Foundation
import XCTest

import MovieSearch
@testable import MovieSearchLRU
import TestSupport

final class LRUCacheTests: XCTestCase {
    /// A cache of the given capacity whose entries never expire and whose clock would fail the test if read.
    private func cache(capacity: Int) -> LRUCache<String, Int> {
        LRUCache(capacity: capacity, timeToLive: nil, clock: { XCTFail("clock read without expiry"); return 0 })
    }

    private func assertSound<K, V>(_ cache: LRUCache<K, V>, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(cache.invariantViolation(), file: file, line: line)
    }

    // MARK: Construction

    func testNewCacheIsEmpty() {
        var cache = LRUCache<String, Int>()
        XCTAssertEqual(cache.capacity, 5)
        XCTAssertNil(cache.timeToLive)
        XCTAssertEqual(cache.count, 0)
        XCTAssertTrue(cache.isEmpty)
        XCTAssertNil(cache.get("a"))
        XCTAssertFalse(cache.isValid("a"))
        XCTAssertNil(cache.remove("a"))
        assertSound(cache)
    }

    func testDefaultCapacityIsFive() {
        var cache = LRUCache<Int, Int>()
        for key in 0..<6 { cache.add(key * 10, forKey: key) }
        XCTAssertEqual(cache.count, 5)
        XCTAssertFalse(cache.isValid(0))
        XCTAssertEqual(cache.keysByRecency, [5, 4, 3, 2, 1])
    }

    /// The default clock counts seconds: an entry outlives a time to live far longer than the test, and expires
    /// once a time to live far shorter than a pause has passed (the pause only ever makes the test pass later, never
    /// wrongly).
    func testDefaultClockExpiresEntriesAfterTheirTimeToLive() {
        var lasting = LRUCache<String, Int>(capacity: 2, timeToLive: 3600)
        lasting.add(1, forKey: "a")
        var fleeting = LRUCache<String, Int>(capacity: 2, timeToLive: 0.001)
        fleeting.add(2, forKey: "b")
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(lasting.get("a"), 1)
        XCTAssertNil(fleeting.get("b"), "1 ms to live, read 50 ms later")
        XCTAssertEqual(fleeting.count, 0)
    }

    // MARK: add and get

    func testAddThenGet() {
        var cache = cache(capacity: 3)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b")
        XCTAssertEqual(cache.get("a"), 1)
        XCTAssertEqual(cache.get("b"), 2)
        XCTAssertNil(cache.get("c"))
        XCTAssertEqual(cache.count, 2)
        assertSound(cache)
    }

    func testCapacityOneKeepsOnlyTheLastKey() {
        var cache = cache(capacity: 1)
        cache.add(1, forKey: "a")
        XCTAssertEqual(cache.get("a"), 1)
        cache.add(2, forKey: "b")
        XCTAssertNil(cache.get("a"))
        XCTAssertEqual(cache.get("b"), 2)
        cache.add(3, forKey: "b")
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.get("b"), 3)
        XCTAssertEqual(cache.remove("b"), 3)
        XCTAssertTrue(cache.isEmpty)
        cache.add(4, forKey: "c")
        XCTAssertEqual(cache.get("c"), 4)
        XCTAssertEqual(cache.slots.count, 1)
        assertSound(cache)
    }

    func testCapacityZeroStoresNothing() {
        var cache = cache(capacity: 0)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "a", timeToLive: 10)
        XCTAssertEqual(cache.count, 0)
        XCTAssertNil(cache.get("a"))
        XCTAssertFalse(cache.isValid("a"))
        XCTAssertNil(cache.remove("a"))
        XCTAssertEqual(cache.removeExpired(), 0)
        XCTAssertEqual(cache.slots.count, 0)
        assertSound(cache)
    }

    func testReAddingReplacesValueAndRefreshesRecency() {
        var cache = cache(capacity: 3)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b")
        cache.add(3, forKey: "c")
        cache.add(10, forKey: "a")
        XCTAssertEqual(cache.count, 3)
        XCTAssertEqual(cache.keysByRecency, ["a", "c", "b"])
        cache.add(4, forKey: "d")    // evicts b, not a
        XCTAssertFalse(cache.isValid("b"))
        XCTAssertEqual(cache.get("a"), 10)
        XCTAssertEqual(cache.keysByRecency, ["a", "d", "c"])
        assertSound(cache)
    }

    func testReAddingTheMostRecentKeyChangesOnlyItsValue() {
        var cache = cache(capacity: 3)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b")
        cache.add(20, forKey: "b")
        XCTAssertEqual(cache.keysByRecency, ["b", "a"])
        XCTAssertEqual(cache.get("b"), 20)
        assertSound(cache)
    }

    func testGetRefreshesRecency() {
        var cache = cache(capacity: 3)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b")
        cache.add(3, forKey: "c")
        XCTAssertEqual(cache.get("a"), 1)
        cache.add(4, forKey: "d")    // b is now the least recently used
        XCTAssertEqual(cache.keysByRecency, ["d", "a", "c"])
        XCTAssertNil(cache.get("b"))
        assertSound(cache)
    }

    func testAMissDoesNotChangeRecency() {
        var cache = cache(capacity: 2)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b")
        XCTAssertNil(cache.get("z"))
        XCTAssertEqual(cache.keysByRecency, ["b", "a"])
    }

    func testIsValidDoesNotRefreshRecency() {
        var cache = cache(capacity: 3)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b")
        cache.add(3, forKey: "c")
        XCTAssertTrue(cache.isValid("a"))
        cache.add(4, forKey: "d")    // a is still the least recently used
        XCTAssertFalse(cache.isValid("a"))
        XCTAssertEqual(cache.keysByRecency, ["d", "c", "b"])
        assertSound(cache)
    }

    func testEvictionOrderAfterMixedGets() {
        var cache = cache(capacity: 4)
        for (value, key) in ["a", "b", "c", "d"].enumerated() { cache.add(value, forKey: key) }
        _ = cache.get("b")
        _ = cache.get("a")
        _ = cache.get("c")
        _ = cache.get("a")
        XCTAssertEqual(cache.keysByRecency, ["a", "c", "b", "d"])
        var evicted: [String] = []
        for key in ["e", "f", "g", "h"] {
            let before = Set(cache.keysByRecency)
            cache.add(0, forKey: key)
            evicted += before.subtracting(cache.keysByRecency)
            assertSound(cache)
        }
        XCTAssertEqual(evicted, ["d", "b", "c", "a"])
    }

    // MARK: remove

    func testRemoveHeadTailMiddleAndMissing() {
        var cache = cache(capacity: 5)
        for (value, key) in ["a", "b", "c", "d", "e"].enumerated() { cache.add(value, forKey: key) }
        XCTAssertEqual(cache.keysByRecency, ["e", "d", "c", "b", "a"])

        XCTAssertEqual(cache.remove("e"), 4)    // head
        XCTAssertEqual(cache.keysByRecency, ["d", "c", "b", "a"])
        assertSound(cache)

        XCTAssertEqual(cache.remove("a"), 0)    // tail
        XCTAssertEqual(cache.keysByRecency, ["d", "c", "b"])
        assertSound(cache)

        XCTAssertEqual(cache.remove("c"), 2)    // middle
        XCTAssertEqual(cache.keysByRecency, ["d", "b"])
        assertSound(cache)

        XCTAssertNil(cache.remove("c"))         // already gone
        XCTAssertNil(cache.remove("zz"))        // never there
        XCTAssertEqual(cache.count, 2)

        XCTAssertEqual(cache.remove("d"), 3)
        XCTAssertEqual(cache.remove("b"), 1)    // the last one
        XCTAssertTrue(cache.isEmpty)
        XCTAssertEqual(cache.keysByRecency, [])
        assertSound(cache)

        cache.add(9, forKey: "x")
        XCTAssertEqual(cache.keysByRecency, ["x"])
        assertSound(cache)
    }

    func testRemovedSlotsAreReusedBeforeGrowing() {
        var cache = cache(capacity: 1_000)
        for round in 0..<10_000 {
            let keys = (0..<(round % 8 + 1)).map { "k\(round)-\($0)" }
            for key in keys { cache.add(round, forKey: key) }
            let order = round % 2 == 0 ? keys : keys.reversed()
            for key in order { XCTAssertEqual(cache.remove(key), round) }
            XCTAssertTrue(cache.isEmpty)
            XCTAssertLessThanOrEqual(cache.slots.count, 8, "round \(round)")
            if round % 500 == 0 { assertSound(cache) }
        }
        XCTAssertEqual(cache.slots.count, 8)
        assertSound(cache)
    }

    func testAFullCacheReusesTheEvictedSlot() {
        var cache = cache(capacity: 4)
        for key in 0..<10_000 { cache.add(key, forKey: "k\(key)") }
        XCTAssertEqual(cache.slots.count, 4)
        XCTAssertEqual(cache.keysByRecency, ["k9999", "k9998", "k9997", "k9996"])
        assertSound(cache)
    }

    func testRemoveAll() {
        var cache = cache(capacity: 3)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b")
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertNil(cache.get("a"))
        assertSound(cache)
        cache.add(3, forKey: "c")
        cache.removeAll(keepingCapacity: true)
        XCTAssertTrue(cache.isEmpty)
        for (value, key) in ["d", "e", "f", "g"].enumerated() { cache.add(value, forKey: key) }
        XCTAssertEqual(cache.keysByRecency, ["g", "f", "e"])
        assertSound(cache)
    }

    func testCountFollowsAddsEvictionsAndRemovals() {
        var cache = cache(capacity: 3)
        XCTAssertEqual(cache.count, 0)
        cache.add(1, forKey: "a")
        XCTAssertEqual(cache.count, 1)
        cache.add(1, forKey: "a")
        XCTAssertEqual(cache.count, 1)
        cache.add(2, forKey: "b")
        cache.add(3, forKey: "c")
        cache.add(4, forKey: "d")
        XCTAssertEqual(cache.count, 3)
        cache.remove("b")
        XCTAssertEqual(cache.count, 2)
        cache.remove("b")
        XCTAssertEqual(cache.count, 2)
    }

    func testCopiesAreIndependent() {
        var original = cache(capacity: 2)
        original.add(1, forKey: "a")
        var copy = original
        copy.add(2, forKey: "b")
        copy.add(3, forKey: "c")
        XCTAssertEqual(original.keysByRecency, ["a"])
        XCTAssertEqual(copy.keysByRecency, ["c", "b"])
        XCTAssertEqual(original.get("a"), 1)
        assertSound(original)
        assertSound(copy)
    }

    // MARK: Expiry

    func testExpiryAtTheExactBoundary() {
        let clock = ManualClock(100)
        var cache = LRUCache<String, Int>(capacity: 3, timeToLive: 5, clock: clock.closure)
        cache.add(1, forKey: "a")    // expires at 105

        clock.now = 105.nextDown     // one tick before
        XCTAssertTrue(cache.isValid("a"))
        XCTAssertEqual(cache.get("a"), 1)

        clock.now = 105              // at the boundary: expired
        XCTAssertFalse(cache.isValid("a"))
        XCTAssertEqual(cache.count, 1, "isValid leaves an expired entry in place")
        XCTAssertNil(cache.get("a"))
        XCTAssertEqual(cache.count, 0, "get removes an expired entry")
        assertSound(cache)

        cache.add(2, forKey: "b")    // expires at 110
        clock.now = 110.nextUp       // one tick after
        XCTAssertFalse(cache.isValid("b"))
        XCTAssertNil(cache.get("b"))
        XCTAssertEqual(cache.count, 0)
    }

    func testGetDoesNotExtendExpiry() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 3, timeToLive: 10, clock: clock.closure)
        cache.add(1, forKey: "a")
        clock.now = 9
        XCTAssertEqual(cache.get("a"), 1)
        clock.now = 10
        XCTAssertNil(cache.get("a"))
    }

    func testReAddingRefreshesExpiry() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 3, timeToLive: 10, clock: clock.closure)
        cache.add(1, forKey: "a")    // expires at 10
        clock.now = 8
        cache.add(2, forKey: "a")    // expires at 18
        clock.now = 17
        XCTAssertEqual(cache.get("a"), 2)
        clock.now = 18
        XCTAssertNil(cache.get("a"))
    }

    func testReAddingAnExpiredKeyRevivesIt() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 3, timeToLive: 1, clock: clock.closure)
        cache.add(1, forKey: "a")
        clock.now = 5
        XCTAssertFalse(cache.isValid("a"))
        cache.add(2, forKey: "a")
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.get("a"), 2)
        assertSound(cache)
    }

    /// `value(forKey:orAdd:)` (the locked step of `SynchronizedLRUCache.value(forKey:orInsert:)` after its loader
    /// ran) does what `get` then, on a miss, `add` do: a valid entry wins and is made the most recent, a missing
    /// or expired one takes the value with a new time to live, a full cache evicts its least recent entry, and a
    /// cache of capacity 0 keeps nothing.
    func testValueOrAddIsGetThenAdd() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 2, timeToLive: 10, clock: clock.closure)
        XCTAssertEqual(cache.value(forKey: "a", orAdd: 1), 1)
        XCTAssertEqual(cache.value(forKey: "b", orAdd: 2), 2)
        XCTAssertEqual(cache.value(forKey: "a", orAdd: 3), 1, "a valid entry wins")
        XCTAssertEqual(cache.keysByRecency, ["a", "b"])
        XCTAssertEqual(cache.value(forKey: "c", orAdd: 4), 4)
        XCTAssertEqual(cache.keysByRecency, ["c", "a"], "the least recent entry evicted")
        assertSound(cache)
        clock.now = 5
        XCTAssertEqual(cache.value(forKey: "d", orAdd: 5), 5)  // evicts "a"; expires at 15
        clock.now = 10  // "c" (added at 0) has expired
        XCTAssertEqual(cache.value(forKey: "c", orAdd: 6), 6, "an expired entry takes the new value")
        XCTAssertEqual(cache.keysByRecency, ["c", "d"])
        XCTAssertEqual(cache.count, 2)
        clock.now = 19
        XCTAssertEqual(cache.get("c"), 6, "with a new time to live")
        XCTAssertNil(cache.get("d"))
        assertSound(cache)

        var none = LRUCache<String, Int>(capacity: 0, timeToLive: nil, clock: { 0 })
        XCTAssertEqual(none.value(forKey: "a", orAdd: 1), 1)
        XCTAssertEqual(none.count, 0)
    }

    func testTimeToLivePerEntryOverridesTheDefault() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 4, timeToLive: 10, clock: clock.closure)
        cache.add(1, forKey: "default")
        cache.add(2, forKey: "short", timeToLive: 2)
        cache.add(3, forKey: "forever", timeToLive: nil)
        cache.add(4, forKey: "infinite", timeToLive: .infinity)
        clock.now = 2
        XCTAssertFalse(cache.isValid("short"))
        XCTAssertTrue(cache.isValid("default"))
        clock.now = 1e12
        XCTAssertFalse(cache.isValid("default"))
        XCTAssertEqual(cache.get("forever"), 3)
        XCTAssertEqual(cache.get("infinite"), 4)
    }

    func testTimeToLiveZeroExpiresAtOnce() {
        let clock = ManualClock(7)
        var cache = LRUCache<String, Int>(capacity: 2, timeToLive: 0, clock: clock.closure)
        cache.add(1, forKey: "a")
        XCTAssertFalse(cache.isValid("a"))
        XCTAssertNil(cache.get("a"))
        XCTAssertTrue(cache.isEmpty)
    }

    func testEntriesThatCannotExpireNeverReadTheClock() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 2, timeToLive: nil, clock: clock.closure)
        cache.add(1, forKey: "a")
        cache.add(2, forKey: "b", timeToLive: .infinity)
        _ = cache.get("a")
        _ = cache.isValid("b")
        cache.remove("a")
        cache.removeExpired()
        XCTAssertEqual(clock.reads, 0)
        cache.add(3, forKey: "c", timeToLive: 1)
        XCTAssertEqual(clock.reads, 1)
    }

    func testRemoveOfAnExpiredEntryReturnsNil() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 2, timeToLive: 1, clock: clock.closure)
        cache.add(1, forKey: "a")
        clock.now = 1
        XCTAssertNil(cache.remove("a"))
        XCTAssertEqual(cache.count, 0)
        assertSound(cache)
    }

    func testRemoveExpiredPurgesOnlyExpiredEntries() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 5, timeToLive: 10, clock: clock.closure)
        cache.add(1, forKey: "a")                      // 10
        cache.add(2, forKey: "b", timeToLive: 3)       // 3
        cache.add(3, forKey: "c", timeToLive: nil)     // never
        cache.add(4, forKey: "d", timeToLive: 5)       // 5
        cache.add(5, forKey: "e", timeToLive: 20)      // 20
        clock.now = 5
        XCTAssertEqual(cache.count, 5, "count includes expired entries until they are removed")
        XCTAssertEqual(cache.removeExpired(), 2)
        XCTAssertEqual(cache.count, 3)
        XCTAssertEqual(cache.keysByRecency, ["e", "c", "a"])
        assertSound(cache)
        XCTAssertEqual(cache.removeExpired(), 0)
    }

    func testEvictionTakesTheLeastRecentlyUsedEvenWhenAnotherHasExpired() {
        let clock = ManualClock(0)
        var cache = LRUCache<String, Int>(capacity: 2, timeToLive: nil, clock: clock.closure)
        cache.add(1, forKey: "old")
        cache.add(2, forKey: "expiring", timeToLive: 1)
        clock.now = 2
        cache.add(3, forKey: "new")
        XCTAssertEqual(cache.keysByRecency, ["new", "expiring"])
        XCTAssertNil(cache.get("expiring"))
        XCTAssertEqual(cache.count, 1)
        assertSound(cache)
    }

    // MARK: Against a reference model

    func testRandomOperationsAgreeWithAReferenceModel() {
        checkAgainstModel(capacity: 8, keys: 20, operations: 100_000, seed: 0x5EED_1234)
    }

    func testRandomOperationsAgreeWithAReferenceModelAtCapacityOne() {
        checkAgainstModel(capacity: 1, keys: 3, operations: 10_000, seed: 42)
    }

    private func checkAgainstModel(capacity: Int, keys: Int, operations: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let clock = ManualClock(0)
        var cache = LRUCache<Int, Int>(capacity: capacity, timeToLive: 10, clock: clock.closure)
        var model = ReferenceLRU(capacity: capacity, timeToLive: 10)
        for step in 0..<operations {
            let key = Int(random.next() % UInt64(keys))
            let value = step
            let now = clock.now
            let context = "step \(step), key \(key), time \(now)"
            switch random.next() % 100 {
            case 0..<30:
                cache.add(value, forKey: key)
                model.add(value, forKey: key, timeToLive: 10, now: now)
            case 30..<40:
                let ttl: Double? = [nil, 0, 1, 3, 25][Int(random.next() % 5)]
                cache.add(value, forKey: key, timeToLive: ttl)
                model.add(value, forKey: key, timeToLive: ttl, now: now)
            case 40..<75:
                XCTAssertEqual(cache.get(key), model.get(key, now: now), context)
            case 75..<85:
                XCTAssertEqual(cache.isValid(key), model.isValid(key, now: now), context)
            case 85..<92:
                XCTAssertEqual(cache.remove(key), model.remove(key, now: now), context)
            case 92..<93:
                XCTAssertEqual(cache.removeExpired(), model.removeExpired(now: now), context)
            case 93..<94 where random.next() % 20 == 0:
                cache.removeAll()
                model.removeAll()
            default:
                clock.now += Double(random.next() % 4)
            }
            XCTAssertEqual(cache.count, model.entries.count, context)
            if step % 1_000 == 0 || step == operations - 1 {
                XCTAssertEqual(cache.keysByRecency, model.entries.map(\.key), context)
                XCTAssertNil(cache.invariantViolation(), context)
            }
            if testRun?.failureCount ?? 0 > 0 { return }    // one divergence explains the rest
        }
    }
}

/// The obvious LRU cache: an array from most to least recently used, searched linearly. Slow, and plainly right.
private struct ReferenceLRU {
    var entries: [(key: Int, value: Int, expiresAt: Double)] = []
    let capacity: Int
    let timeToLive: Double?

    init(capacity: Int, timeToLive: Double?) {
        self.capacity = capacity
        self.timeToLive = timeToLive
    }

    mutating func add(_ value: Int, forKey key: Int, timeToLive: Double?, now: Double) {
        guard capacity > 0 else { return }
        let expiresAt = timeToLive.map { now + $0 } ?? .infinity
        if let position = entries.firstIndex(where: { $0.key == key }) {
            entries.remove(at: position)
        } else if entries.count == capacity {
            entries.removeLast()
        }
        entries.insert((key, value, expiresAt), at: 0)
    }

    mutating func get(_ key: Int, now: Double) -> Int? {
        guard let position = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: position)
        if now >= entry.expiresAt { return nil }
        entries.insert(entry, at: 0)
        return entry.value
    }

    func isValid(_ key: Int, now: Double) -> Bool {
        entries.contains { $0.key == key && now < $0.expiresAt }
    }

    mutating func remove(_ key: Int, now: Double) -> Int? {
        guard let position = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: position)
        return now >= entry.expiresAt ? nil : entry.value
    }

    mutating func removeExpired(now: Double) -> Int {
        let before = entries.count
        entries.removeAll { now >= $0.expiresAt }
        return before - entries.count
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
