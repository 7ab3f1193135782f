/// Percent-encoding of URL query values (RFC 3986, section 2).
///
///     PercentEncoding.queryValue("Tom & Jerry")    // "Tom%20%26%20Jerry"
///
/// Only the unreserved characters (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`, `_`, `~`) are left as they are; every other
/// UTF-8 byte becomes `%XX` with upper-case hex digits. RFC 3986 allows more characters in a query, but `&`, `=`,
/// `+` and `;` mean something to the servers that read one (`+` is a space to many of them), so encoding all but
/// the unreserved set is the only choice that every server decodes back to the same text. A space is `%20`.
///
/// Cost: O(n) in the UTF-8 length of the value.
enum PercentEncoding {
    /// `value` percent-encoded for use as one query value (or name).
    static func queryValue(_ value: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
