// The recency list and the free list behind `LRUCache`: every function here is O(1).

extension LRUCache {
    /// Traps on a time to live that has no meaning, so that a mistake shows where it is made rather than as
    /// entries that never (NaN) or always (negative) expire.
    @usableFromInline static func checkTimeToLive(_ timeToLive: Double?) {
        if let timeToLive {
            precondition(timeToLive >= 0, "LRUCache time to live must be 0 or more seconds, not \(timeToLive)")
        }
    }

    /// The instant an entry added now with `timeToLive` expires; reads the clock only when it can expire.
    @inlinable func expiry(after timeToLive: Double?) -> Double {
        guard let timeToLive, timeToLive != .infinity else { return .infinity }
        return clock() + timeToLive
    }

    /// Whether the entry in `slot` has expired; reads the clock only when it can expire.
    @inlinable func isExpired(_ slot: Int) -> Bool {
        let expiresAt = slots[slot].expiresAt
        return expiresAt != .infinity && clock() >= expiresAt
    }

    /// The value a valid entry for `key` holds (made the most recently used), else `value`, added with the cache's
    /// time to live: `get(key)` then, on a miss, `add(value, forKey: key)`, with the key looked up once, not
    /// twice (`SynchronizedLRUCache.value(forKey:orInsert:)` after its loader ran).
    @inlinable mutating func value(forKey key: Key, orAdd value: Value) -> Value {
        if let slot = index[key] {
            if !isExpired(slot) {
                moveToFront(slot)
                return slots[slot].entry!.value
            }
            // Expired: `get` would remove it and `add` put the new value back, as the most recently used.
            if capacity > 0 { replaceValue(at: slot, with: value, expiresAt: expiry(after: timeToLive)) }
            return value
        }
        if capacity > 0 { addNew(value, forKey: key, expiresAt: expiry(after: timeToLive)) }
        return value
    }

    /// Gives the entry in `slot` a new value and expiry, as the most recently used entry. The dictionary keeps the
    /// key it has; the slot keeps the same one, so the two never disagree.
    @inlinable mutating func replaceValue(at slot: Int, with value: Value, expiresAt: Double) {
        slots[slot].entry!.value = value
        slots[slot].expiresAt = expiresAt
        moveToFront(slot)
    }

    /// Adds or replaces an entry; the capacity is more than 0 (the public `add`s return before reading the clock).
    @inlinable mutating func add(_ value: Value, forKey key: Key, expiresAt: Double) {
        if let slot = index[key] {
            replaceValue(at: slot, with: value, expiresAt: expiresAt)
            return
        }
        addNew(value, forKey: key, expiresAt: expiresAt)
    }

    /// Adds an entry for `key`, which has none; the capacity is more than 0.
    @inlinable mutating func addNew(_ value: Value, forKey key: Key, expiresAt: Double) {
        let slot: Int
        if freeHead != LRUCache.none {
            slot = freeHead
            freeHead = slots[slot].next
            slots[slot] = Slot(entry: (key, value), expiresAt: expiresAt, previous: LRUCache.none, next: LRUCache.none)
        } else if slots.count < capacity {
            slot = slots.count
            slots.append(Slot(entry: (key, value), expiresAt: expiresAt, previous: LRUCache.none, next: LRUCache.none))
        } else {
            // Full, and no slot is free: the least recently used entry gives up its slot.
            slot = tail
            unlink(slot)
            index.removeValue(forKey: slots[slot].entry!.key)
            slots[slot].entry = (key, value)
            slots[slot].expiresAt = expiresAt
        }
        linkAtFront(slot)
        index[key] = slot
    }

    /// Removes the entry in `slot` from the index and the recency list, frees the slot and returns the value.
    @discardableResult @inlinable mutating func removeEntry(at slot: Int) -> Value {
        unlink(slot)
        let entry = slots[slot].entry!
        index.removeValue(forKey: entry.key)
        slots[slot].entry = nil
        slots[slot].next = freeHead
        freeHead = slot
        return entry.value
    }

    /// Makes the entry in `slot` the most recently used.
    @inlinable mutating func moveToFront(_ slot: Int) {
        if slot == head { return }
        unlink(slot)
        linkAtFront(slot)
    }

    /// Takes `slot` out of the recency list, joining its neighbors.
    @inlinable mutating func unlink(_ slot: Int) {
        let previous = slots[slot].previous
        let next = slots[slot].next
        if previous == LRUCache.none { head = next } else { slots[previous].next = next }
        if next == LRUCache.none { tail = previous } else { slots[next].previous = previous }
        slots[slot].previous = LRUCache.none
        slots[slot].next = LRUCache.none
    }

    /// Puts `slot`, which is in no list, at the front of the recency list.
    @inlinable mutating func linkAtFront(_ slot: Int) {
        slots[slot].previous = LRUCache.none
        slots[slot].next = head
        if head == LRUCache.none { tail = slot } else { slots[head].previous = slot }
        head = slot
    }
}
