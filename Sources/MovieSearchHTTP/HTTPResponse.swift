/// An answer as a responder makes it: the status, the body and its type, and what the server may do with it.
///
/// The server adds the framing (`Content-Length`, `Connection`, `Date`) and the headers every answer carries; for a
/// revalidatable answer also an `ETag` (a hash of the body) and `Cache-Control: no-cache`, and a 304 when the
/// request's `If-None-Match` names that tag; for a compressible one, gzip when the client accepts it and it saves
/// bytes.
package struct HTTPResponse: Sendable {
    /// The status code: 200, 404, …
    package var status: Int
    /// The `Content-Type`.
    package var contentType: String
    /// The body (left out of the answer to a `HEAD`, its length kept).
    package var body: [UInt8]
    /// Other header fields, in order: `Allow` on a 405, …
    package var headers: [HTTPRequest.Field]
    /// Whether the answer gets an `ETag` and `Cache-Control: no-cache`, and a 304 for a matching `If-None-Match`.
    package var isRevalidatable: Bool
    /// Whether the answer may be sent gzipped.
    package var isCompressible: Bool

    /// An answer of these parts.
    package init(
        status: Int, contentType: String, body: [UInt8], headers: [HTTPRequest.Field] = [],
        isRevalidatable: Bool = false, isCompressible: Bool = false
    ) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
        self.isRevalidatable = isRevalidatable
        self.isCompressible = isCompressible
    }

    /// The reason phrase of a status code (RFC 9110 §15), "Unknown" for one this server never sends.
    package static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Unknown"
        }
    }
}
