/// Strict percent-decoding of a target's components (RFC 3986 §2.1), and a query split into its pairs.
///
/// Strict because a lenient decoder (one that passes `%zz` through) lets two spellings of one path reach
/// different code; here a malformed escape or bytes that are not UTF-8 are a 400, never a guess.
package enum HTTPPercentDecoding {
    /// One `name=value` pair of a query, both decoded.
    package struct QueryItem: Equatable, Sendable {
        /// The decoded name.
        package var name: String
        /// The decoded value; `""` for a pair without `=`.
        package var value: String

        /// An item of this name and value.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The path decoded: `%41` is `A`; `+` stays `+` (it means a space in a query only).
    package static func decodePath(_ path: some StringProtocol) throws(HTTPParseError) -> String {
        try decode(path, plusIsSpace: false)
    }

    /// A query name or value decoded: `%41` is `A`, `+` is a space (the form encoding browsers use).
    package static func decodeQueryComponent(_ component: some StringProtocol) throws(HTTPParseError) -> String {
        try decode(component, plusIsSpace: true)
    }

    /// The query's pairs in order: split at `&` (empty pieces skipped), each at its first `=`, then decoded, so
    /// that an encoded `%26` or `%3D` stays inside its name or value.
    package static func queryItems(_ query: some StringProtocol) throws(HTTPParseError) -> [QueryItem] {
        var items: [QueryItem] = []
        for piece in Substring(query).split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) {
                name = piece[..<equals]
                value = piece[piece.index(after: equals)...]
            } else {
                name = piece[...]
                value = ""
            }
            items.append(QueryItem(name: try decodeQueryComponent(name), value: try decodeQueryComponent(value)))
        }
        return items
    }

    /// Decodes escapes (and `+` when asked), then checks that the bytes are UTF-8.
    private static func decode(_ text: some StringProtocol, plusIsSpace: Bool) throws(HTTPParseError) -> String {
        // Most components hold no escape: the text is already the answer (a target's bytes are ASCII, checked by
        // the parser, so they are valid UTF-8).
        let hasEscape = text.utf8.contains { $0 == UInt8(ascii: "%") || ($0 == UInt8(ascii: "+") && plusIsSpace) }
        if !hasEscape { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw .invalidPercentEncoding
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return decoded
    }

    /// The value of a hexadecimal digit (either case); nil for any other byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
