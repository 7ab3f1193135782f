/// The lists of strings a catalog repeats from record to record (IMDb's `genres`: a few thousand combinations
/// among millions of titles), built once per distinct field and shared after that: a list handed out again is
/// the same array buffer, so ten million titles hold a few thousand genre arrays, not ten million.
///
/// Keyed by a field's raw bytes, so a field seen before costs a hash and a comparison, no allocation. It holds at
/// most `maximumEntries` lists of `maximumKeyBytes` bytes of keys in all; past that, lists are built and not kept.
struct StringListCache {
    static let maximumEntries = 1 << 14
    static let maximumKeyBytes = 1 << 20

    /// Where the key of a list is in `keyBytes`, and its hash. Apart from the lists, so that probing a slot copies
    /// no array (a retain and a release).
    private struct Key {
        var hash: UInt64
        var start: Int
        var count: Int
    }

    private var keys: [Key] = []
    private var lists: [[String]] = []
    private var keyBytes: [UInt8] = []
    /// Open addressing: an index into `keys` and `lists` plus one, 0 for an empty slot; twice as many slots as entries.
    private var slots = [Int32](repeating: 0, count: 2 * maximumEntries)

    /// The list `field` stands for: the cached one, or `make(field)`, kept when there is room (an error `make`
    /// throws is passed on, and nothing kept).
    mutating func list<Failure: Error>(for field: UnsafeBufferPointer<UInt8>,
                                       make: (UnsafeBufferPointer<UInt8>) throws(Failure) -> [String])
        throws(Failure) -> [String]
    {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a: keys are a few dozen bytes.
        for byte in field { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            let key = keys[index]
            if key.hash == hash && key.count == field.count && matches(key, field) { return lists[index] }
            slot = (slot + 1) & mask
        }
        let list = try make(field)
        if keys.count < Self.maximumEntries && keyBytes.count + field.count <= Self.maximumKeyBytes {
            keys.append(Key(hash: hash, start: keyBytes.count, count: field.count))
            lists.append(list)
            keyBytes.append(contentsOf: field)
            slots[slot] = Int32(keys.count)
        }
        return list
    }

    private func matches(_ key: Key, _ field: UnsafeBufferPointer<UInt8>) -> Bool {
        keyBytes.withUnsafeBufferPointer { stored in
            DelimitedField.equals(UnsafeBufferPointer(rebasing: stored[key.start..<(key.start + key.count)]), field)
        }
    }
}
