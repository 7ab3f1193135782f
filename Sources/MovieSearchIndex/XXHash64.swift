/// XXH64, the 64-bit xxHash of Yann Collet: the checksum of cache blocks.
///
/// Chosen because it is fast (several GB/s, so checking a 64 KB block the first time a query touches it costs
/// microseconds), well specified, and easy to check against other implementations (tests use published values).
/// It detects accidental damage, not tampering.
enum XXHash64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The hash of `bytes` with `seed`.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return finish(seed &+ prime5, tail: bytes, from: 0, total: 0) }
        var offset = 0
        var h: UInt64
        if count >= 32 {
            var v1 = seed &+ prime1 &+ prime2
            var v2 = seed &+ prime2
            var v3 = seed
            var v4 = seed &- prime1
            while offset + 32 <= count {
                v1 = round(v1, lane(base, offset))
                v2 = round(v2, lane(base, offset + 8))
                v3 = round(v3, lane(base, offset + 16))
                v4 = round(v4, lane(base, offset + 24))
                offset += 32
            }
            h = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            h = merge(h, v1)
            h = merge(h, v2)
            h = merge(h, v3)
            h = merge(h, v4)
        } else {
            h = seed &+ prime5
        }
        return finish(h, tail: bytes, from: offset, total: count)
    }

    /// The hash of an array's bytes.
    static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    private static func finish(_ start: UInt64, tail bytes: UnsafeRawBufferPointer, from start0: Int, total: Int) -> UInt64 {
        var h = start &+ UInt64(truncatingIfNeeded: total)
        var offset = start0
        if let base = bytes.baseAddress {
            while offset + 8 <= total {
                h ^= round(0, lane(base, offset))
                h = rotate(h, 27) &* prime1 &+ prime4
                offset += 8
            }
            if offset + 4 <= total {
                let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                h ^= UInt64(word) &* prime1
                h = rotate(h, 23) &* prime2 &+ prime3
                offset += 4
            }
            while offset < total {
                h ^= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &* prime5
                h = rotate(h, 11) &* prime1
                offset += 1
            }
        }
        h ^= h >> 33
        h = h &* prime2
        h ^= h >> 29
        h = h &* prime3
        h ^= h >> 32
        return h
    }

    @inline(__always)
    private static func lane(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
        (accumulator ^ round(0, value)) &* prime1 &+ prime4
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
