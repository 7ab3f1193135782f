/// Interns byte strings (title tokens, cast and genre names) while a cache is built: each distinct string gets
/// the next id, and looking one up never allocates.
///
/// `Dictionary<[UInt8], Int>` would allocate an array per lookup and hash it a byte at a time; this table keeps
/// every string once in a flat arena and probes an open-addressing array (load at most one half), hashing whole
/// strings with XXH64. A slot holds an id and the high half of its string's hash, so that a probe compares bytes
/// only when the hashes agree: at IMDb's scale (40 million title tokens) the probes are most of the lookups.
/// Used by `CacheSections` only (for `CacheWriter`), on one thread.
struct ByteStringTable {
    private var arena: [UInt8] = []
    private var starts: [Int] = [0]
    /// `hash >> 32 << 32 | (id + 1)`; 0 for an empty slot.
    private var slots: [UInt64]
    private var mask: Int

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    /// Number of distinct strings.
    var count: Int { starts.count - 1 }

    /// The bytes of string `id`.
    subscript(id: Int) -> ArraySlice<UInt8> { arena[starts[id]..<starts[id + 1]] }

    /// The id of `bytes`, inserting it if it is new.
    mutating func id(of bytes: UnsafeRawBufferPointer) -> Int {
        let hash = XXHash64.hash(bytes)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry & 0xFFFF_FFFF_0000_0000 == tag {
                let id = Int(entry & 0xFFFF_FFFF) - 1
                if equals(id, bytes) { return id }
            }
            slot = (slot + 1) & mask
        }
        let id = count
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        slots[slot] = tag | UInt64(id + 1)
        if count * 2 > slots.count { grow() }
        return id
    }

    /// Whether string `id` is `bytes`.
    private func equals(_ id: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = starts[id], end = starts[id + 1]
        guard end - start == bytes.count else { return false }
        return arena.withUnsafeBytes { arena in
            UnsafeRawBufferPointer(rebasing: arena[start..<end]).elementsEqual(bytes)
        }
    }

    /// The ids in the byte order of their strings (the order of the cache's term dictionary and name table).
    func idsInByteOrder() -> [Int] {
        arena.withUnsafeBufferPointer { arena in
            (0..<count).sorted { a, b in
                let x = UnsafeBufferPointer(rebasing: arena[starts[a]..<starts[a + 1]])
                let y = UnsafeBufferPointer(rebasing: arena[starts[b]..<starts[b + 1]])
                return x.lexicographicallyPrecedes(y)
            }
        }
    }

    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        mask = slots.count - 1
        arena.withUnsafeBytes { arena in
            for id in 0..<count {
                let hash = XXHash64.hash(UnsafeRawBufferPointer(rebasing: arena[starts[id]..<starts[id + 1]]))
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
            }
        }
    }
}
