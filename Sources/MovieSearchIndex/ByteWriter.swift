/// Appends little-endian numbers and bytes to a growing buffer.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func reserveCapacity(_ count: Int) { bytes.reserveCapacity(count) }
    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    mutating func append(_ other: ArraySlice<UInt8>) { bytes.append(contentsOf: other) }
    mutating func append(_ other: UnsafeRawBufferPointer) { bytes.append(contentsOf: other) }

    mutating func u32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value))
        u32(UInt32(truncatingIfNeeded: value >> 32))
    }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }

    /// `values` as `u64` appends them, in one copy: a bitmap set of the 10M IMDb pair is 145,632 words, 1.2 million
    /// appends of a byte each (with their checks of capacity) by `u64`.
    mutating func u64s(_ values: [UInt64]) {
        #if _endian(little)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for value in values { u64(value) }
        #endif
    }
}

extension ByteWriter {
    /// `values` as the bytes of a packed section (`CacheFormat`, "Directory") of `width` bits per entry, with
    /// its padding. Every value must fit in `width` bits.
    static func packed(_ values: [UInt32], width: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(CacheFormat.packedLength(count: values.count, width: width))
        appendPacked(values[...], width: width, to: &bytes)
        bytes.append(contentsOf: repeatElement(0, count: CacheFormat.packedPadding))
        return bytes
    }

    /// Appends `values` to `bytes` packed at `width` bits each, low bits first, in ⌈count × width / 8⌉ bytes and
    /// no padding: a packed list or a row among others (`EliasFanoList.encodeLists`, `CacheSections.Part.rows`),
    /// which one padding ends. Every value must fit in `width` bits.
    static func appendPacked(_ values: ArraySlice<UInt32>, width: Int, to bytes: inout [UInt8]) {
        precondition(width >= 1 && width <= CacheFormat.maximumWidth, "packed width out of range")
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: (values.count * width + 7) / 8))
        bytes.withUnsafeMutableBufferPointer { output in
            // Bits not yet written, low bits first: fewer than 8 before each value, so at most 39 after.
            var pending: UInt64 = 0, pendingBits = 0, next = start
            for value in values {
                precondition(width == 32 || value >> UInt32(width) == 0, "value wider than its packed section")
                pending |= UInt64(value) << UInt64(pendingBits)
                pendingBits += width
                while pendingBits >= 8 {
                    output[next] = UInt8(truncatingIfNeeded: pending)
                    next += 1
                    pending >>= 8
                    pendingBits -= 8
                }
            }
            if pendingBits > 0 { output[next] = UInt8(truncatingIfNeeded: pending) }
        }
    }
}
