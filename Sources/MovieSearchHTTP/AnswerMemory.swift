import MovieSearchPlatform
import Synchronization

/// The bytes of answers queued for clients, over all connections and loops: what lets the server bound the memory
/// that clients who do not read can make it hold, and give memory back after a burst.
///
/// A buffer is counted once while any output queue holds it (`AnswerBytes.holders`), so that one large answer queued
/// for a hundred connections counts, and weighs, once.
package final class AnswerMemory: Sendable {
    /// Past this many queued bytes, `.heavy` requests wait to be answered (the others never do).
    let budget: Int
    /// Once the queued bytes have been this high, their falling back to a quarter of the peak gives freed memory
    /// back to the system (glibc keeps it otherwise).
    let trimLevel: Int
    private let queued = Atomic<Int>(0)
    /// The highest `queued` since memory was last given back.
    private let peak = Atomic<Int>(0)
    private let trims = Atomic<Int>(0)
    /// The highest `queued` ever.
    private let highest = Atomic<Int>(0)

    /// Accounts against `budget`; gives memory back after a peak of `trimLevel` bytes or more.
    init(budget: Int, trimLevel: Int = 32 << 20) {
        self.budget = budget
        self.trimLevel = trimLevel
    }

    /// The bytes of answers queued now.
    package var queuedBytes: Int { queued.load(ordering: .relaxed) }

    /// The most bytes of answers ever queued at once.
    package var highestQueuedBytes: Int { highest.load(ordering: .relaxed) }

    /// How many times memory was given back to the system.
    package var trimCount: Int { trims.load(ordering: .relaxed) }

    /// Whether `.heavy` requests must wait.
    var isOverBudget: Bool { queuedBytes > budget }

    /// One more queue holds `bytes`.
    func hold(_ bytes: AnswerBytes) {
        guard bytes.holders.add(1, ordering: .relaxed).newValue == 1 else { return }
        let now = queued.add(bytes.count, ordering: .relaxed).newValue
        Self.raise(peak, to: now)
        Self.raise(highest, to: now)
    }

    /// `value` becomes `now` if that is higher.
    private static func raise(_ value: borrowing Atomic<Int>, to now: Int) {
        var seen = value.load(ordering: .relaxed)
        while now > seen {
            let (exchanged, original) = value.compareExchange(expected: seen, desired: now, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    /// A queue no longer holds `bytes` (written, or its connection closed). Returns whether memory should now be
    /// given back to the system: the queued bytes fell to a quarter of a peak of at least `trimLevel` (the caller
    /// runs `giveBack()` off the loops: it takes milliseconds).
    func release(_ bytes: AnswerBytes) -> Bool {
        guard bytes.holders.subtract(1, ordering: .relaxed).newValue == 0 else { return false }
        let now = queued.subtract(bytes.count, ordering: .relaxed).newValue
        let high = peak.load(ordering: .relaxed)
        guard high >= trimLevel, now <= high / 4 else { return false }
        // Only one of the callers that see the fall gives memory back.
        return peak.compareExchange(expected: high, desired: now, ordering: .relaxed).exchanged
    }

    /// Gives the memory the allocator holds free back to the system (glibc's `malloc_trim`; nothing elsewhere).
    func giveBack() {
        Syscalls.returnFreeMemory()
        trims.add(1, ordering: .relaxed)
    }
}
