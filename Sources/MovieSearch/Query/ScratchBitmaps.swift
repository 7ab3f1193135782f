import Synchronization

/// Zeroed bitmaps over the ranks of one cache (⌈N / 64⌉ words each), lent to queries that meet two lists of like
/// size through a bitmap (`QueryExecutor.filter`), and taken back zeroed.
///
///     var bits = scratch.take()              // all zero
///     … set bits, test candidates, then clear exactly the words that were set …
///     scratch.giveBack(bits)                 // must be all zero again
///
/// At 10 million movies a bitmap is 1.2 MB: allocating one per query meant clearing it and faulting its pages in
/// each time (the allocator hands such a block back to the system when it is freed), which cost more than the
/// bits the query sets. A borrowed bitmap costs a lock and is cleared by the query where it set bits, word by
/// word (or whole, when it set the bits of as many ranks as a sixteenth of its words or more), so its cost follows
/// the list, not the catalog. A few are kept (`keptLimit`), for as many queries at once;
/// a query beyond them allocates its own. Safe to share between threads.
final class ScratchBitmaps: Sendable {
    /// Words of each bitmap.
    let wordCount: Int
    private let idle = Mutex<[[UInt64]]>([])
    /// Bitmaps kept between queries at most: one per thread that queries at once, for a few threads.
    static let keptLimit = 4

    /// A lender of bitmaps of `wordCount` words; none is made until one is asked for.
    init(wordCount: Int) {
        self.wordCount = wordCount
    }

    /// A bitmap of `wordCount` zero words, kept or new.
    func take() -> [UInt64] {
        let kept = locked { $0.popLast() }
        return kept ?? [UInt64](repeating: 0, count: wordCount)
    }

    /// Takes back `bitmap`, which must hold `wordCount` zero words (the caller cleared what it set): kept for the
    /// next query unless `keptLimit` are kept already.
    func giveBack(_ bitmap: consuming [UInt64]) {
        precondition(bitmap.count == wordCount, "a scratch bitmap of the wrong size")
        let returned = bitmap
        locked { idle in
            if idle.count < Self.keptLimit { idle.append(returned) }
        }
    }

    /// `body` on the kept bitmaps under the lock.
    private func locked<Result>(_ body: (inout [[UInt64]]) -> Result) -> Result {
        idle.withLock { bitmaps in
            // Thread Sanitizer cannot see `Mutex` on Linux by itself (see `ThreadSanitizer`).
            let address = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
            ThreadSanitizer.acquire(address)
            defer { ThreadSanitizer.release(address) }
            return body(&bitmaps)
        }
    }
}
