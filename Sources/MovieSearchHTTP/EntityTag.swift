/// A strong entity tag for an answer: a 64-bit hash of its body, so that it changes exactly when the bytes do (a new
/// cache, a changed favorite) and costs no state. The gzipped bytes get a tag of their own (RFC 9110 §8.8.3: a strong
/// tag names one representation), the plain tag with `-gz`.
struct EntityTag: Equatable {
    /// `"0123456789abcdef"`, quotes included.
    let value: String
    /// The tag of the gzipped representation: `"0123456789abcdef-gz"`.
    var gzipVariant: String { String(value.dropLast()) + "-gz\"" }

    /// The tag of `body`: four lanes of 8-byte words, each lane mixed with a multiply and a rotation (so that the
    /// four run side by side), then the lanes, the tail and the length through SplitMix64's finalizer. About a
    /// byte per cycle: an answer's tag costs far less than rendering it. Not a defence against forged collisions,
    /// which an ETag does not need.
    static func of(_ body: [UInt8]) -> EntityTag {
        let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
        var hash: UInt64 = 0
        body.withUnsafeBytes { bytes in
            func word(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            func step(_ lane: UInt64, _ value: UInt64) -> UInt64 {
                ((lane ^ value) &* prime).rotatedLeft(by: 29)
            }
            var offset = 0
            while offset + 32 <= bytes.count {
                lanes.0 = step(lanes.0, word(offset))
                lanes.1 = step(lanes.1, word(offset + 8))
                lanes.2 = step(lanes.2, word(offset + 16))
                lanes.3 = step(lanes.3, word(offset + 24))
                offset += 32
            }
            hash = mix(lanes.0) ^ mix(lanes.1 &+ 1) ^ mix(lanes.2 &+ 2) ^ mix(lanes.3 &+ 3)
            while offset + 8 <= bytes.count {
                hash = mix(hash ^ word(offset))
                offset += 8
            }
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
            hash = mix(mix(hash ^ tail) ^ UInt64(bytes.count))
        }
        let hex = String(hash, radix: 16)
        return EntityTag(value: "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\"")
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    /// Whether an `If-None-Match` value names this tag or its gzip variant (weak comparison, RFC 9110 §13.1.2: a
    /// `W/` prefix is ignored), or is `*`.
    static func matches(_ ifNoneMatch: String, _ tag: EntityTag) -> Bool {
        if ifNoneMatch.trimmingSpaces == "*" { return true }
        return ifNoneMatch.split(separator: ",").contains { element in
            var candidate = Substring(element.trimmingSpaces)
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            return candidate == tag.value || candidate == tag.gzipVariant
        }
    }
}

/// Whether a client accepts gzip, from its `Accept-Encoding` (RFC 9110 §12.5.3): `gzip` or `x-gzip` listed with a
/// weight other than 0; or, when neither is listed, `*` with a weight other than 0 (`*` stands only for the codings
/// not listed, so `gzip;q=0, *` refuses gzip).
enum AcceptEncoding {
    static func allowsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        var gzip: Bool?, any: Bool?
        for element in value.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let coding = parts.first?.trimmingSpaces.lowercased() else { continue }
            let accepted = !parts.dropFirst().contains { parameter in
                let pair = parameter.trimmingSpaces.lowercased()
                guard pair.hasPrefix("q="), let weight = Double(pair.dropFirst(2)) else { return false }
                return weight <= 0
            }
            if coding == "gzip" || coding == "x-gzip" {
                gzip = (gzip ?? false) || accepted
            } else if coding == "*" {
                any = (any ?? false) || accepted
            }
        }
        return gzip ?? any ?? false
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension UInt64 {
    /// The bits rotated left by `count` (0 < count < 64).
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
