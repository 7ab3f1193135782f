/// One request as `HTTPRequestParser` read it: the request line, the header fields in order, and the body.
///
/// Values are kept as they arrived: the target is not percent-decoded (`HTTPPercentDecoding` does that, per
/// component, once the path and query are apart, so that an encoded `?`, `&` or `=` stays data).
package struct HTTPRequest: Equatable, Sendable {
    /// An HTTP version the parser accepts: 1.0 or 1.1 (any other is a 505 before a request exists).
    package enum Version: Equatable, Sendable {
        /// HTTP/1.0: no `Host` required, the connection closes unless `Connection: keep-alive`.
        case http1_0
        /// HTTP/1.1: exactly one `Host`, the connection stays open unless `Connection: close`.
        case http1_1
    }

    /// One header field line: the name as sent (its case kept), the value without surrounding whitespace.
    package struct Field: Equatable, Sendable {
        /// The field name, a token, compared without regard to ASCII case.
        package var name: String
        /// The field value with leading and trailing spaces and tabs removed.
        package var value: String

        /// A field of this name and value.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The method, a token, case-sensitive as RFC 9110 §9.1 says (`get` is not `GET`).
    package var method: String
    /// The raw origin-form target, as sent: `/api/search?q=dark`.
    package var target: String
    /// The HTTP version.
    package var version: Version
    /// The header fields in the order they arrived, repeated names included.
    package var headers: [Field]
    /// The body: `Content-Length` bytes, empty without one.
    package var body: [UInt8]

    /// A request of these parts.
    package init(method: String, target: String, version: Version, headers: [Field], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// Text from a request (a header's value, a path, a parameter) as it may appear in an error message: at most
    /// 100 characters, so that a long one cannot make the message long; the JSON writer escapes the rest.
    package static func excerpt(_ value: some StringProtocol) -> String {
        value.count <= 100 ? String(value) : String(value.prefix(100)) + "…"
    }

    /// The version as the request line gives it: `HTTP/1.1`.
    package var versionText: String {
        switch version {
        case .http1_0: "HTTP/1.0"
        case .http1_1: "HTTP/1.1"
        }
    }

    /// The target before the first `?`, still percent-encoded: `/api/search`.
    package var path: Substring {
        target[..<(target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)]
    }

    /// The target after the first `?`, still percent-encoded; nil without a `?` (an empty query is `""`).
    package var query: Substring? {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return target[target.index(after: mark)...]
    }

    /// The value of the first field with this name, compared without regard to ASCII case; nil without one.
    package func header(_ name: String) -> String? {
        headers.first { Self.equalIgnoringASCIICase($0.name, name) }?.value
    }

    /// Whether the connection stays open after the response (RFC 9112 §9.3): in HTTP/1.1 unless a `Connection`
    /// field lists `close`; in HTTP/1.0 only if one lists `keep-alive` (and none lists `close`).
    package var keepsAlive: Bool {
        if connectionOptionsContain("close") { return false }
        switch version {
        case .http1_1: return true
        case .http1_0: return connectionOptionsContain("keep-alive")
        }
    }

    /// Whether any `Connection` field's comma-separated list holds this option, without regard to ASCII case.
    private func connectionOptionsContain(_ option: String) -> Bool {
        headers.contains { field in
            Self.equalIgnoringASCIICase(field.name, "connection")
                && field.value.split(separator: ",").contains { element in
                    Self.equalIgnoringASCIICase(String(element.filter { $0 != " " && $0 != "\t" }), option)
                }
        }
    }

    /// ASCII case-insensitive equality, which field names and connection options use (never Unicode folding:
    /// a name is a token, and folding could make a non-ASCII byte equal an ASCII letter).
    static func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8) { x, y in lowercased(x) == lowercased(y) }
    }

    /// An ASCII byte in lower case; any other byte unchanged.
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
