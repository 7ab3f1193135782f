import MovieSearchPlatform
import Synchronization

/// An ``LRUCache`` that many threads can share: every operation takes a lock around the cache.
///
///     final class Details: Sendable {
///         let index: MovieIndex
///         let recent = SynchronizedLRUCache<Int, Movie>(capacity: 32)
///         func movie(id: Int) throws -> Movie {
///             try recent.value(forKey: id) { try index.movie(id: id) }    // decodes each movie once
///         }
///     }
///
/// The semantics of each operation (recency, expiry, eviction, what `count` counts) are those of ``LRUCache``.
///
/// Costs: every operation is O(1) plus one lock and unlock (uncontended, a few atomic instructions), except
/// `removeAll` and `removeExpired`, which are O(n). `value(forKey:orInsert:)` runs the closure outside the lock,
/// so a slow load never blocks other threads' hits.
public final class SynchronizedLRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline let cache: Mutex<LRUCache<Key, Value>>

    /// The most entries the cache holds; adding one more evicts the least recently used.
    public let capacity: Int

    /// How long an entry stays valid after `add(_:forKey:)`, in seconds; `nil` when entries never expire.
    public let timeToLive: Double?

    /// Creates an empty cache that reads time from the standard library's `ContinuousClock`, as
    /// ``LRUCache/init(capacity:timeToLive:)`` does.
    ///
    ///     let recent = SynchronizedLRUCache<Int, Movie>(capacity: 32)
    ///
    /// Parameters as in ``LRUCache/init(capacity:timeToLive:)``. Cost: O(1).
    public init(capacity: Int = 5, timeToLive: Double? = nil) {
        cache = Mutex(LRUCache(capacity: capacity, timeToLive: timeToLive))
        self.capacity = capacity
        self.timeToLive = timeToLive
    }

    /// Creates an empty cache that reads time from `clock`.
    ///
    ///     let recent = SynchronizedLRUCache<String, PhotoList>(capacity: 8, timeToLive: 60, clock: { fakeNow })
    ///
    /// Parameters as in ``LRUCache/init(capacity:timeToLive:clock:)``. Cost: O(1).
    public init(capacity: Int, timeToLive: Double?, clock: @escaping @Sendable () -> Double) {
        cache = Mutex(LRUCache(capacity: capacity, timeToLive: timeToLive, clock: clock))
        self.capacity = capacity
        self.timeToLive = timeToLive
    }

    /// The value for `key`: the cached one when valid (a hit, made most recently used), else the one `make`
    /// returns, which is added to the cache.
    ///
    ///     let movie = try recent.value(forKey: id) { try index.movie(id: id) }
    ///
    /// `make` runs without the lock held, so it may be slow or use this cache itself. Two threads that miss the
    /// same key at the same time may both run `make`; the first value added wins and both callers get it, so all
    /// callers see one value per key. When `make` throws, nothing is added and the error propagates.
    ///
    /// Cost: O(1) on a hit; on a miss, O(1) plus `make`.
    @inlinable public func value<E: Error>(forKey key: Key, orInsert make: () throws(E) -> Value) throws(E) -> Value {
        if let value = locked({ $0.get(key) }) { return value }
        let made = try make()
        return locked { $0.value(forKey: key, orAdd: made) }
    }

    /// The value for `key`, or `nil` when it is missing or expired; see ``LRUCache/get(_:)``.
    ///
    ///     let movie = recent.get(id)
    ///
    /// Cost: O(1).
    @inlinable public func get(_ key: Key) -> Value? {
        locked { $0.get(key) }
    }

    /// Stores `value` for `key` with the cache's time to live; see ``LRUCache/add(_:forKey:)``.
    ///
    ///     recent.add(movie, forKey: movie.id)
    ///
    /// Cost: O(1), amortized.
    @inlinable public func add(_ value: Value, forKey key: Key) {
        locked { $0.add(value, forKey: key) }
    }

    /// Stores `value` for `key` with its own time to live; see ``LRUCache/add(_:forKey:timeToLive:)``.
    ///
    ///     recent.add(list, forKey: title, timeToLive: 60)
    ///
    /// Cost: O(1), amortized.
    @inlinable public func add(_ value: Value, forKey key: Key, timeToLive: Double?) {
        locked { $0.add(value, forKey: key, timeToLive: timeToLive) }
    }

    /// Whether `key` has an entry that has not expired, leaving recency as it is; see ``LRUCache/isValid(_:)``.
    ///
    ///     if recent.isValid(id) { … }
    ///
    /// Cost: O(1).
    @inlinable public func isValid(_ key: Key) -> Bool {
        locked { $0.isValid(key) }
    }

    /// Removes the entry for `key`, returning its value if it had not expired; see ``LRUCache/remove(_:)``.
    ///
    ///     recent.remove(id)
    ///
    /// Cost: O(1).
    @discardableResult
    @inlinable public func remove(_ key: Key) -> Value? {
        locked { $0.remove(key) }
    }

    /// Removes every entry.
    ///
    ///     recent.removeAll()
    ///
    /// Cost: O(n).
    @inlinable public func removeAll() {
        locked { $0.removeAll() }
    }

    /// Removes every expired entry and returns how many it removed; see ``LRUCache/removeExpired()``.
    ///
    ///     recent.removeExpired()
    ///
    /// Cost: O(n).
    @discardableResult
    @inlinable public func removeExpired() -> Int {
        locked { $0.removeExpired() }
    }

    /// The number of entries stored, including expired ones not yet removed; see ``LRUCache/count``.
    ///
    /// Cost: O(1).
    @inlinable public var count: Int {
        locked { $0.count }
    }

    /// Runs `body` with the lock held, and tells Thread Sanitizer so: on Linux it cannot see `Mutex` by itself
    /// (see `ThreadSanitizer`).
    @inlinable func locked<Result>(_ body: (inout LRUCache<Key, Value>) -> sending Result) -> sending Result {
        cache.withAnnotatedLock(owner: self) { cache in body(&cache) }
    }
}
