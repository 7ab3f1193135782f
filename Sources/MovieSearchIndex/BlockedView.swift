/// Numbers of a blocked section (`CacheFormat`, "Blocked sections") inside a checked, verified part of a mapping:
/// number `i` is its block's base plus its entry, two loads (the bases, a 64th of the entries, stay in cache).
@_spi(Engine) public struct BlockedView {
    @usableFromInline let entries: PackedView
    @usableFromInline let bases: PackedView

    /// The numbers of a whole blocked section: its `entries` and its `bases`, one per 64 of them (the shift by 6
    /// below is `CacheFormat.blockedEntries`, which `init` checks).
    init(entries: PackedView, bases: PackedView) {
        precondition(CacheFormat.blockedEntries == 1 << 6, "a block of a blocked section is 64 entries")
        precondition(bases.count == CacheFormat.blockedBaseCount(entries: entries.count), "one base a block")
        self.entries = entries
        self.bases = bases
    }

    /// Number of numbers.
    @inlinable public var count: Int { entries.count }

    /// Number `index`; traps on an index outside the view (a bug in the engine: the view covers its section).
    /// A forged base can make the sum pass 32 bits: it wraps, a wrong number but never a trap.
    @inlinable @inline(__always)
    public subscript(index: Int) -> UInt32 {
        precondition(index >= 0 && index < count, "BlockedView index out of range")
        return bases[unchecked: index &>> 6] &+ entries[unchecked: index]
    }
}
