/// Why a request could not be parsed, and the status the server answers it with before it closes the connection.
///
/// Every case is final for its connection: after one, the bytes that follow cannot be framed, so the parser keeps
/// throwing it (RFC 9112 §2.2 and §6.3: a server that cannot tell where a request ends must not read on).
package enum HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request line is not `method SP request-target SP HTTP-version` with single spaces (400).
    case malformedRequestLine
    /// The method is empty or has a byte that is not a token character (400).
    case invalidMethod
    /// The target is not in origin form (`/path?query`), or has a byte a URI may not hold (400).
    case invalidTarget
    /// A carriage return that is not followed by a line feed (400): RFC 9112 §2.2 forbids reading it as a line end.
    case bareCarriageReturn
    /// A field line with no colon, an empty name, or a name that is not a token (400).
    case malformedHeaderField
    /// Whitespace between a field name and its colon (400): RFC 9112 §5.1, a request smuggling vector.
    case whitespaceBeforeColon
    /// A field line that starts with a space or tab, the obsolete line folding (400): RFC 9112 §5.2.
    case obsoleteLineFolding
    /// A control character (other than a tab) in a field value (400).
    case controlCharacterInFieldValue
    /// An HTTP/1.1 request without a `Host` field (400): RFC 9112 §3.2.
    case missingHost
    /// More than one `Host` field (400): RFC 9112 §3.2.
    case repeatedHost
    /// A `Content-Length` that is not one or more digits (400).
    case invalidContentLength
    /// Two `Content-Length` fields that disagree (400): the body's end would be ambiguous.
    case conflictingContentLength
    /// `Content-Length` beside `Transfer-Encoding` (400): refused, not resolved, as a request smuggling guard.
    case contentLengthWithTransferEncoding
    /// A `%` not followed by two hexadecimal digits in a percent-encoded component (400).
    case invalidPercentEncoding
    /// A percent-decoded component that is not valid UTF-8 (400).
    case invalidUTF8
    /// A request line longer than the limit, in bytes without its line end (414).
    case requestLineTooLong(limit: Int)
    /// A header section larger than the limit, in bytes of its field lines with their line ends (431).
    case headerSectionTooLarge(limit: Int)
    /// More header fields than the limit (431).
    case tooManyHeaderFields(limit: Int)
    /// A `Content-Length` over the body's limit (413), refused before the body is read.
    case bodyTooLarge(limit: Int)
    /// `Transfer-Encoding` without `Content-Length` (501): chunked bodies are not supported.
    case transferEncodingNotSupported
    /// A well-formed `HTTP/x.y` version other than 1.0 and 1.1 (505).
    case unsupportedVersion(String)

    /// The HTTP status code the server answers this error with.
    package var status: Int {
        switch self {
        case .requestLineTooLong: 414
        case .headerSectionTooLarge, .tooManyHeaderFields: 431
        case .bodyTooLarge: 413
        case .transferEncodingNotSupported: 501
        case .unsupportedVersion: 505
        case .malformedRequestLine, .invalidMethod, .invalidTarget, .bareCarriageReturn, .malformedHeaderField,
             .whitespaceBeforeColon, .obsoleteLineFolding, .controlCharacterInFieldValue, .missingHost, .repeatedHost,
             .invalidContentLength, .conflictingContentLength, .contentLengthWithTransferEncoding,
             .invalidPercentEncoding, .invalidUTF8:
            400
        }
    }

    /// One line for a person: what was wrong, without the request's bytes (they may hold anything).
    package var description: String {
        switch self {
        case .malformedRequestLine: "malformed request line"
        case .invalidMethod: "the method is not a token"
        case .invalidTarget: "the request target is not an origin-form path ('/...')"
        case .bareCarriageReturn: "a carriage return without a line feed"
        case .malformedHeaderField: "malformed header field"
        case .whitespaceBeforeColon: "whitespace between a header field's name and its colon"
        case .obsoleteLineFolding: "a header line starts with whitespace (obsolete line folding)"
        case .controlCharacterInFieldValue: "a control character in a header field's value"
        case .missingHost: "an HTTP/1.1 request without a Host header"
        case .repeatedHost: "more than one Host header"
        case .invalidContentLength: "Content-Length is not a number"
        case .conflictingContentLength: "two Content-Length headers disagree"
        case .contentLengthWithTransferEncoding: "Content-Length together with Transfer-Encoding"
        case .invalidPercentEncoding: "a '%' not followed by two hexadecimal digits"
        case .invalidUTF8: "a percent-decoded component is not valid UTF-8"
        case .requestLineTooLong(let limit): "the request line is longer than \(limit) bytes"
        case .headerSectionTooLarge(let limit): "the header section is larger than \(limit) bytes"
        case .tooManyHeaderFields(let limit): "more than \(limit) header fields"
        case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
        case .transferEncodingNotSupported: "Transfer-Encoding is not supported (send Content-Length)"
        case .unsupportedVersion(let version): "\(version) is not supported (HTTP/1.0 and HTTP/1.1 are)"
        }
    }
}
