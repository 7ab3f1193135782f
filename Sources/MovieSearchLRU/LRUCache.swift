/// A fixed-capacity cache that evicts its least recently used entry, with an optional time to live per entry.
///
///     var cache = LRUCache<Int, Movie>(capacity: 2)
///     cache.add(heat, forKey: 949)
///     cache.add(alien, forKey: 348)
///     _ = cache.get(949)                // a hit: 949 is now the most recently used
///     cache.add(ronin, forKey: 8914)    // full: evicts 348, the least recently used
///     cache.isValid(348)                // false
///
/// Entries can expire. A time to live (in seconds) is given for the whole cache, or for one entry when it is
/// added; an entry added at time `t` with a time to live `ttl` expires at `t + ttl` (computed once, when it is
/// added) and counts as expired from that instant on: it is expired when `now >= t + ttl`. An expired entry is
/// never returned. The clock is injectable, so that tests can move time by hand.
///
/// Costs: `add`, `get`, `isValid`, `remove` and `count` are O(1) (expected, as they hash the key once or twice;
/// `add` is amortized, as the storage grows up to `capacity`), whatever the number of entries. `removeAll` and
/// `removeExpired` are O(n). Storage is allocated as entries arrive, never up front, so a large capacity costs
/// nothing until it is used.
///
/// A capacity of 0 makes a cache that stores nothing: `add` does nothing and `get` always misses. It lets a caller
/// switch caching off without a second code path. A negative capacity is a programming error and traps.
///
/// Expired entries are removed lazily: when `get` or `remove` meets them, when eviction picks them, or all at once
/// by `removeExpired()`. Until then they take room and `count` includes them (it counts stored entries, which is
/// what bounds memory; knowing how many are still valid would need a scan).
///
/// `LRUCache` is a value type with copy-on-write storage: a copy is cheap until either side changes. `get` is
/// `mutating` because a hit changes recency. It is `Sendable` when its keys and values are; to share one cache
/// between threads, use ``SynchronizedLRUCache``.
public struct LRUCache<Key: Hashable, Value> {
    // Design: entries live in `slots`, an array that grows to at most `capacity` and never shrinks (except in
    // `removeAll`). Occupied slots form a doubly linked list by index, most recently used at `head`; free
    // slots form a singly linked list through `next`, starting at `freeHead`. `index` maps a key to its slot.
    // Indices rather than class nodes: one allocation for all entries, no reference counting per node, and a
    // value type that copies with copy-on-write for free.

    /// One entry, or a free slot when `entry` is `nil`.
    @usableFromInline
    struct Slot {
        /// The key (kept to remove it from `index` on eviction) and the value; `nil` in a free slot, so that a
        /// removed value is released at once.
        @usableFromInline var entry: (key: Key, value: Value)?
        /// The instant the entry expires, in the clock's seconds; `.infinity` for an entry that never does.
        @usableFromInline var expiresAt: Double
        /// The more recently used neighbor, or `LRUCache.none`.
        @usableFromInline var previous: Int
        /// The less recently used neighbor (or the next free slot), or `LRUCache.none`.
        @usableFromInline var next: Int

        @inlinable
        init(entry: (key: Key, value: Value)?, expiresAt: Double, previous: Int, next: Int) {
            self.entry = entry
            self.expiresAt = expiresAt
            self.previous = previous
            self.next = next
        }
    }

    /// The "no slot" index that ends a list.
    @inlinable static var none: Int { -1 }

    @usableFromInline var slots: [Slot] = []
    @usableFromInline var index: [Key: Int] = [:]
    /// The most recently used entry, or `none` when the cache is empty.
    @usableFromInline var head = LRUCache.none
    /// The least recently used entry, or `none` when the cache is empty.
    @usableFromInline var tail = LRUCache.none
    /// The first free slot, or `none`.
    @usableFromInline var freeHead = LRUCache.none
    @usableFromInline let clock: @Sendable () -> Double

    /// The most entries the cache holds; adding one more evicts the least recently used.
    public let capacity: Int

    /// How long an entry added by `add(_:forKey:)` stays valid, in seconds; `nil` when entries never expire.
    public let timeToLive: Double?

    /// Creates an empty cache that reads time from the standard library's `ContinuousClock` (see
    /// `continuousSeconds()`).
    ///
    ///     var details = LRUCache<Int, Movie>()                            // 5 entries, no expiry
    ///     var responses = LRUCache<String, [UInt8]>(capacity: 100, timeToLive: 600)
    ///
    /// - Parameters:
    ///   - capacity: The most entries to hold: 0 or more (0 stores nothing). Defaults to 5.
    ///   - timeToLive: Seconds an entry stays valid after `add(_:forKey:)`: 0 or more (0 expires at once, which
    ///     `.infinity` or `nil` never do). Defaults to `nil`.
    ///
    /// Cost: O(1); no storage is allocated until the first `add`.
    public init(capacity: Int = 5, timeToLive: Double? = nil) {
        self.init(capacity: capacity, timeToLive: timeToLive, clock: continuousSeconds)
    }

    /// Creates an empty cache that reads time from `clock`.
    ///
    ///     let now = Mutex(100.0)
    ///     var cache = LRUCache<String, Int>(capacity: 3, timeToLive: 5, clock: { now.withLock { $0 } })
    ///
    /// - Parameters:
    ///   - capacity: The most entries to hold: 0 or more (0 stores nothing).
    ///   - timeToLive: Seconds an entry stays valid after `add(_:forKey:)`: 0 or more, or `nil`.
    ///   - clock: The current time in seconds. It should never go backwards; it is read only for entries that
    ///     can expire, so a cache without a time to live never calls it.
    ///
    /// Cost: O(1).
    public init(capacity: Int, timeToLive: Double?, clock: @escaping @Sendable () -> Double) {
        precondition(capacity >= 0, "LRUCache capacity must be 0 or more, not \(capacity)")
        LRUCache.checkTimeToLive(timeToLive)
        self.capacity = capacity
        self.timeToLive = timeToLive
        self.clock = clock
    }

    /// The number of entries stored, including expired ones not yet removed (see `removeExpired()`).
    ///
    /// Cost: O(1).
    @inlinable public var count: Int { index.count }

    /// Whether the cache stores no entry (expired ones included).
    ///
    /// Cost: O(1).
    @inlinable public var isEmpty: Bool { index.isEmpty }

    /// Stores `value` for `key` with the cache's time to live, as the most recently used entry.
    ///
    ///     cache.add(movie, forKey: movie.id)
    ///
    /// A key already present gets the new value, becomes the most recently used and starts a new time to live.
    /// A new key in a full cache evicts the least recently used entry (expired or not).
    ///
    /// Cost: O(1), amortized.
    @inlinable public mutating func add(_ value: Value, forKey key: Key) {
        if capacity == 0 { return }
        add(value, forKey: key, expiresAt: expiry(after: timeToLive))
    }

    /// Stores `value` for `key` with its own time to live, as the most recently used entry.
    ///
    ///     cache.add(response, forKey: title, timeToLive: 60)    // this one expires after a minute
    ///     cache.add(movie, forKey: id, timeToLive: nil)         // this one never expires
    ///
    /// Behaves as `add(_:forKey:)` otherwise.
    ///
    /// - Parameter timeToLive: Seconds this entry stays valid: 0 or more, or `nil` for never.
    ///
    /// Cost: O(1), amortized.
    @inlinable public mutating func add(_ value: Value, forKey key: Key, timeToLive: Double?) {
        LRUCache.checkTimeToLive(timeToLive)
        if capacity == 0 { return }
        add(value, forKey: key, expiresAt: expiry(after: timeToLive))
    }

    /// The value for `key`, or `nil` when it is missing or expired. A hit becomes the most recently used entry;
    /// an expired entry is removed.
    ///
    ///     if let movie = cache.get(id) { return movie }
    ///
    /// Cost: O(1).
    @inlinable public mutating func get(_ key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        if isExpired(slot) {
            removeEntry(at: slot)
            return nil
        }
        moveToFront(slot)
        return slots[slot].entry!.value
    }

    /// Whether `key` has an entry that has not expired, leaving recency as it is (asking is not using), and
    /// leaving an expired entry in place (this is a read-only query).
    ///
    ///     if !cache.isValid(title) { refresh(title) }
    ///
    /// Cost: O(1).
    @inlinable public func isValid(_ key: Key) -> Bool {
        guard let slot = index[key] else { return false }
        return !isExpired(slot)
    }

    /// Removes the entry for `key`, returning its value if it had not expired.
    ///
    ///     cache.remove(id)
    ///
    /// Cost: O(1).
    @discardableResult
    @inlinable public mutating func remove(_ key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        let expired = isExpired(slot)
        let value = removeEntry(at: slot)
        return expired ? nil : value
    }

    /// Removes every entry.
    ///
    ///     cache.removeAll()
    ///
    /// - Parameter keepingCapacity: Whether to keep the storage for reuse instead of releasing it.
    ///
    /// Cost: O(n), n the number of slots in use or free.
    @inlinable public mutating func removeAll(keepingCapacity: Bool = false) {
        slots.removeAll(keepingCapacity: keepingCapacity)
        index.removeAll(keepingCapacity: keepingCapacity)
        head = LRUCache.none
        tail = LRUCache.none
        freeHead = LRUCache.none
    }

    /// Removes every expired entry, so that `count` counts valid entries only, and returns how many it removed.
    ///
    ///     let purged = cache.removeExpired()
    ///
    /// Reads the clock once: entries expiring during the call are judged at its start.
    ///
    /// Cost: O(n), n the number of entries.
    @discardableResult
    @inlinable public mutating func removeExpired() -> Int {
        var now: Double?
        var removed = 0
        var slot = head
        while slot != LRUCache.none {
            let next = slots[slot].next
            let expiresAt = slots[slot].expiresAt
            if expiresAt != .infinity {
                if now == nil { now = clock() }
                if now! >= expiresAt {
                    removeEntry(at: slot)
                    removed += 1
                }
            }
            slot = next
        }
        return removed
    }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUCache.Slot: Sendable where Key: Sendable, Value: Sendable {}

/// The default clock of `LRUCache`: seconds on the standard library's `ContinuousClock` since the first reading in
/// this process.
///
/// A monotonic clock, because wall-clock time can jump (NTP, the user), which would expire entries early or keep
/// them for ever; a continuous one, which goes on while the machine sleeps, because a time to live is meant in
/// real time (a Flickr answer cached for ten minutes is stale after a night asleep). Nothing is read at start-up:
/// the origin is taken on the first call, which only a cache with a time to live makes.
func continuousSeconds() -> Double {
    let origin = continuousClockOrigin  // first, so that the first reading is not before it
    return (ContinuousClock.now - origin) / .seconds(1)
}

/// The instant `continuousSeconds()` counts from.
private let continuousClockOrigin = ContinuousClock.now
