// Checks of `LRUCache`'s internal structure, for tests: a broken link shows up here as a message, not later as a
// wrong answer far from its cause.

extension LRUCache {
    /// The keys from most to least recently used, expired entries included. O(n).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = head
        while slot != LRUCache.none {
            keys.append(slots[slot].entry!.key)
            slot = slots[slot].next
        }
        return keys
    }

    /// A description of the first broken invariant, or `nil` when the structure is sound. O(n).
    func invariantViolation() -> String? {
        if slots.count > capacity { return "\(slots.count) slots for capacity \(capacity)" }
        // Walk the recency list forwards, checking back links and that each slot is indexed under its key.
        var seen = [Bool](repeating: false, count: slots.count)
        var previous = LRUCache.none
        var slot = head
        var listed = 0
        while slot != LRUCache.none {
            guard slot >= 0, slot < slots.count else { return "recency list reaches slot \(slot) out of range" }
            guard !seen[slot] else { return "recency list loops at slot \(slot)" }
            seen[slot] = true
            guard let entry = slots[slot].entry else { return "free slot \(slot) in the recency list" }
            guard slots[slot].previous == previous else { return "slot \(slot) has a wrong back link" }
            guard index[entry.key] == slot else { return "slot \(slot) is not indexed under its key" }
            listed += 1
            previous = slot
            slot = slots[slot].next
        }
        if tail != previous { return "tail is \(tail), the list ends at \(previous)" }
        if listed != index.count { return "\(listed) entries listed, \(index.count) indexed" }
        // Every other slot must be on the free list, once.
        var free = 0
        slot = freeHead
        while slot != LRUCache.none {
            guard slot >= 0, slot < slots.count else { return "free list reaches slot \(slot) out of range" }
            guard !seen[slot] else { return "slot \(slot) is both free and listed, or the free list loops" }
            seen[slot] = true
            guard slots[slot].entry == nil else { return "slot \(slot) on the free list holds an entry" }
            free += 1
            slot = slots[slot].next
        }
        if listed + free != slots.count { return "\(slots.count - listed - free) slots are lost" }
        return nil
    }
}
