/// LEB128 varints (7 bits a byte, low bits first, the high bit set on all but the last byte): the counts and
/// lengths of a compressed text column's blocks and the numbers of a name list (`CacheFormat`, "Compressed text
/// columns"). One writer and one reader for all of them.
enum LEB128 {
    /// Appends `value` (not negative).
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        var rest = UInt(value)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The varint at `position` of `bytes`, `position` moved past it; `nil` when it runs past the end of `bytes`
    /// or past 35 bits (a forged file's: no count or length here comes near that).
    static func read(_ bytes: some RandomAccessCollection<UInt8>, at position: inout Int) -> Int? {
        var value = 0, shift = 0
        var index = bytes.index(bytes.startIndex, offsetBy: position)
        while index < bytes.endIndex, shift < 35 {
            let byte = bytes[index]
            index = bytes.index(after: index)
            position += 1
            value |= Int(byte & 0x7F) << shift
            shift += 7
            if byte < 0x80 { return value }
        }
        return nil
    }
}
