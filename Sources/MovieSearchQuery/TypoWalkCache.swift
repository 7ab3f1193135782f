@_spi(Engine) import MovieSearchIndex
import MovieSearchPlatform
import Synchronization

/// The typo walks of recent query words (folded token bytes → the term ranges they match, with their distances,
/// from `TypoTermWalk`), the least recently used dropped first: a query typed a letter at a time repeats its earlier
/// words, and a walk costs microseconds where a look-up costs a fraction of one.
///
/// A few dozen entries in plain arrays, looked through in full: the digests of all of them compared in one loop
/// cost less than the dictionary and recency list of `LRUCache` (hashing the key, and at every miss of a full cache
/// removing the evicted key from the table, which rehashes its neighbours), which was a tenth of a typo query. A
/// scan has no hash table for crafted tokens to fill with collisions either: a digest only spares most byte
/// comparisons.
///
/// Every operation takes the lock; a walk runs outside it, so two threads that miss one word at once may both walk
/// it, and the first walk stored is the one both return (as `SynchronizedLRUCache.value(forKey:orInsert:)` does).
final class TypoWalkCache: Sendable {
    /// A walk's answer: term ranges, disjoint and ascending, each with the prefix distance of its terms.
    typealias Walk = [(terms: Range<Int>, distance: Int)]

    /// The entries, slot by slot: `used` is the tick of the last look-up of each slot (ticks only grow, so the
    /// smallest is the least recently used).
    private struct Entries {
        var digests: [UInt64] = []
        var keys: [[UInt8]] = []
        var walks: [Walk] = []
        var used: [UInt64] = []
        var tick: UInt64 = 0
        /// Walks stored so far: a miss that finds it unchanged after its walk knows no other thread stored one.
        var stored = 0

        /// The slot that holds `key`, whose digest is `digest`.
        func slot(of key: [UInt8], digest: UInt64) -> Int? {
            let found = digests.withUnsafeBufferPointer { digests -> Int? in
                for slot in digests.indices where digests[slot] == digest && keys[slot] == key { return slot }
                return nil
            }
            return found
        }

        /// The least recently used slot.
        func oldest() -> Int {
            used.withUnsafeBufferPointer { used in
                var oldest = 0
                for slot in used.indices where used[slot] < used[oldest] { oldest = slot }
                return oldest
            }
        }

        mutating func touch(_ slot: Int) {
            tick &+= 1
            used[slot] = tick
        }
    }

    private let entries: Mutex<Entries>
    /// The most entries kept.
    let capacity: Int

    /// An empty cache of at most `capacity` (≥ 1) entries.
    init(capacity: Int) {
        precondition(capacity >= 1, "a walk cache holds at least one entry")
        self.capacity = capacity
        var entries = Entries()
        entries.digests.reserveCapacity(capacity)
        entries.keys.reserveCapacity(capacity)
        entries.walks.reserveCapacity(capacity)
        entries.used.reserveCapacity(capacity)
        self.entries = Mutex(entries)
    }

    /// The walk stored for `key`, made the most recently used; else the one `make` returns, stored in place of
    /// the least recently used entry when the cache is full. When `make` throws, nothing is stored.
    func walk<E: Error>(for key: [UInt8], orMake make: () throws(E) -> Walk) throws(E) -> Walk {
        let digest = FNV1a.digest(of: key)
        let (hit, stored) = locked { entries -> (Walk?, Int) in
            guard let slot = entries.slot(of: key, digest: digest) else { return (nil, entries.stored) }
            entries.touch(slot)
            return (entries.walks[slot], entries.stored)
        }
        if let hit { return hit }
        let made = try make()
        return locked { entries in
            // Another thread may have stored the same word meanwhile: its walk wins, so that all see one.
            if entries.stored != stored, let slot = entries.slot(of: key, digest: digest) {
                entries.touch(slot)
                return entries.walks[slot]
            }
            entries.stored &+= 1
            let slot: Int
            if entries.digests.count < capacity {
                slot = entries.digests.count
                entries.digests.append(digest)
                entries.keys.append(key)
                entries.walks.append(made)
                entries.used.append(0)
            } else {
                slot = entries.oldest()
                entries.digests[slot] = digest
                entries.keys[slot] = key
                entries.walks[slot] = made
            }
            entries.touch(slot)
            return made
        }
    }

    /// The words stored, least recently used first: for tests.
    var keys: [[UInt8]] {
        locked { entries in
            entries.used.indices.sorted { entries.used[$0] < entries.used[$1] }.map { entries.keys[$0] }
        }
    }

    /// Runs `body` with the lock held, and tells Thread Sanitizer so (see `ThreadSanitizer`).
    private func locked<Result>(_ body: (inout Entries) -> sending Result) -> sending Result {
        entries.withAnnotatedLock(owner: self) { entries in body(&entries) }
    }
}
