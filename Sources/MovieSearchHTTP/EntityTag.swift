/// A strong entity tag for an answer: a 64-bit hash of its body, so that it changes exactly when the bytes do (a new
/// cache, a changed favorite) and costs no state. The gzipped bytes get a tag of their own (RFC 9110 §8.8.3: a strong
/// tag names one representation), the plain tag with `-gz`.
struct EntityTag: Equatable {
    /// `"0123456789abcdef"`, quotes included.
    let value: String
    /// The tag of the gzipped representation: `"0123456789abcdef-gz"`.
    var gzipVariant: String { String(value.dropLast()) + "-gz\"" }

    /// The tag of `body`: its bytes taken 8 at a time, each word mixed in with a multiply and a shift (the
    /// finalizer of SplitMix64), the length last. A byte-at-a-time hash would cost as much as the search the
    /// answer came from; this is not a defence against forged collisions, which an ETag does not need.
    static func of(_ body: [UInt8]) -> EntityTag {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
        body.withUnsafeBytes { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = mix(hash ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
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

/// Whether a client accepts gzip, from its `Accept-Encoding` (RFC 9110 §12.5.3): `gzip`, `x-gzip` or `*` listed
/// with a weight other than 0.
enum AcceptEncoding {
    static func allowsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        return value.split(separator: ",").contains { element in
            let parts = element.split(separator: ";")
            guard let coding = parts.first?.trimmingSpaces.lowercased(),
                  coding == "gzip" || coding == "x-gzip" || coding == "*" else { return false }
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpaces.lowercased()
                if pair.hasPrefix("q="), let weight = Double(pair.dropFirst(2)), weight <= 0 { return false }
            }
            return true
        }
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
