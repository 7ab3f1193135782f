/// Interns byte strings (title tokens, cast and genre names) while a cache is built: each distinct string gets
/// the next id, and looking one up never allocates.
///
/// `Dictionary<[UInt8], Int>` would allocate an array per lookup and hash it a byte at a time; this table keeps
/// every string once in a flat arena and probes an open-addressing array of ids (load at most one half), hashing
/// whole strings with XXH64. Used by `CacheSections` only (for `CacheWriter`), on one thread.
struct ByteStringTable {
    private var arena: [UInt8] = []
    private var starts: [Int] = [0]
    private var slots: [Int32]
    private var mask: Int

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    /// Number of distinct strings.
    var count: Int { starts.count - 1 }

    /// The bytes of string `id`.
    subscript(id: Int) -> ArraySlice<UInt8> { arena[starts[id]..<starts[id + 1]] }

    /// The id of `bytes`, inserting it if it is new.
    mutating func id(of bytes: UnsafeRawBufferPointer) -> Int {
        var slot = Int(truncatingIfNeeded: XXHash64.hash(bytes)) & mask
        while true {
            let id = Int(slots[slot])
            if id < 0 { break }
            if arena[starts[id]..<starts[id + 1]].elementsEqual(bytes) { return id }
            slot = (slot + 1) & mask
        }
        let id = count
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        slots[slot] = Int32(id)
        if count * 2 > slots.count { grow() }
        return id
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
        slots = [Int32](repeating: -1, count: slots.count * 2)
        mask = slots.count - 1
        arena.withUnsafeBytes { arena in
            for id in 0..<count {
                let bytes = UnsafeRawBufferPointer(rebasing: arena[starts[id]..<starts[id + 1]])
                var slot = Int(truncatingIfNeeded: XXHash64.hash(bytes)) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(id)
            }
        }
    }
}
