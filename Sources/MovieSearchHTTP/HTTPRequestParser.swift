/// A strict, incremental HTTP/1.1 request parser (RFC 9112), fed bytes as they arrive; no sockets, no blocking.
///
/// ```swift
/// var parser = HTTPRequestParser()
/// parser.append(bytesFromTheSocket)
/// while let request = try parser.next() { answer(request) }   // nil: wait for more bytes
/// ```
///
/// Requests may be pipelined: the bytes after one request stay for the next. Each byte is scanned once (the scan
/// resumes where the last one stopped), and consumed bytes are dropped from the front only once they are at least
/// half of the buffer, so a request costs time linear in its size however it is cut into pieces. Limits are
/// enforced as soon as they are passed, before the line or section ends, so that a client cannot make the server
/// buffer more than a limit by never sending a line end; and before any byte past them is looked at, so that the
/// error does not depend on how the bytes were cut (a bare CR past the limit gives the limit's error). Lines end in
/// CRLF or a bare LF (RFC 9112 §2.2 allows the latter); a bare CR is an error; empty lines before a request line are
/// skipped (§2.2). After an error the parser throws that error again: the stream cannot be framed any more, and the
/// connection must be closed.
package struct HTTPRequestParser: Sendable {
    /// The sizes past which a request is refused, with the status each gives (nginx's and Go's conventions).
    package struct Limits: Equatable, Sendable {
        /// The request line's bytes without its line end; over it, 414.
        package var requestLineBytes: Int
        /// The header section's bytes: every field line with its line end, not the empty line that ends it; over
        /// it, 431.
        package var headerBytes: Int
        /// The number of header field lines; over it, 431.
        package var headerFields: Int
        /// The body's bytes, as `Content-Length` announces them; over it, 413 before any of the body is read.
        package var bodyBytes: Int

        /// Limits of these sizes; the defaults suit a JSON API whose requests are short GETs and small POSTs.
        package init(
            requestLineBytes: Int = 8 * 1024, headerBytes: Int = 32 * 1024, headerFields: Int = 100,
            bodyBytes: Int = 64 * 1024
        ) {
            self.requestLineBytes = requestLineBytes
            self.headerBytes = headerBytes
            self.headerFields = headerFields
            self.bodyBytes = bodyBytes
        }
    }

    /// What the next bytes are.
    private enum Phase: Sendable {
        /// The request line, or empty lines before it.
        case requestLine
        /// Header field lines, up to an empty line.
        case headers
        /// The body: this many bytes.
        case body(Int)
    }

    /// The request being read, before its body.
    private struct Head: Sendable {
        /// The method, a token.
        var method = ""
        /// The raw origin-form target.
        var target = ""
        /// The version.
        var version = HTTPRequest.Version.http1_1
        /// The fields so far, in order.
        var fields: [HTTPRequest.Field] = []
        /// The header section's bytes so far, line ends included.
        var headerBytes = 0
        /// Whether `takeContinueExpectation()` returned this request already.
        var continueTaken = false
    }

    /// The limits this parser enforces.
    package let limits: Limits
    /// Bytes received; those before `start` are consumed, and dropped in `append` once they are many.
    private var buffer: [UInt8] = []
    /// The first byte not yet consumed: the start of the current line, or of the body.
    private var start = 0
    /// Where the search for the current line's end resumes: every byte before it (from `start`) has been checked.
    private var scanned = 0
    /// What is being read.
    private var phase = Phase.requestLine
    /// The request being read (kept outside `phase` so that appending a field does not copy the array).
    private var head = Head()
    /// The error that stopped this stream, thrown again by every later `next()`.
    private var failure: HTTPParseError?

    /// A parser with these limits.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether bytes of a request not yet returned are buffered: the server's clock for a slow request runs while
    /// this is true, its idle clock while it is false.
    package var isMidRequest: Bool {
        guard case .requestLine = phase else { return true }
        return buffer.count > start
    }

    /// The head of the request whose body is awaited (its body empty), if it asks `Expect: 100-continue` (RFC 9110
    /// §10.1.1) and is HTTP/1.1; once per request, and only after `next()` returned nil. The server answers
    /// `100 Continue`, or its final status at once, so that the client does not wait before sending the body.
    package mutating func takeContinueExpectation() -> HTTPRequest? {
        guard failure == nil, case .body = phase, !head.continueTaken, head.version == .http1_1,
              head.fields.contains(where: {
                  HTTPRequest.equalIgnoringASCIICase($0.name, "expect")
                      && HTTPRequest.equalIgnoringASCIICase($0.value, "100-continue")
              })
        else { return nil }
        head.continueTaken = true
        return HTTPRequest(method: head.method, target: head.target, version: head.version, headers: head.fields)
    }

    /// Adds bytes as they arrived; `next()` parses them.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        // Drop consumed bytes only when they are at least half the buffer (and not tiny), so each byte is moved
        // a bounded number of times on average, however the stream is cut.
        if start > 4096 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete request, or nil if more bytes are needed; the bytes after it stay for the next call.
    ///
    /// - Throws: `HTTPParseError`, with the status to answer; the same error on every later call.
    package mutating func next() throws(HTTPParseError) -> HTTPRequest? {
        if let failure { throw failure }
        do throws(HTTPParseError) {
            return try parse()
        } catch {
            failure = error
            throw error
        }
    }

    /// The state machine: goes as far as the bytes allow.
    private mutating func parse() throws(HTTPParseError) -> HTTPRequest? {
        while true {
            switch phase {
            case .requestLine:
                guard let lineEnd = try findLineEnd(within: limits.requestLineBytes) else {
                    // `scanned` stops before a final CR, so this counts the line's bytes without its line end.
                    if scanned - start > limits.requestLineBytes {
                        throw .requestLineTooLong(limit: limits.requestLineBytes)
                    }
                    return nil
                }
                if lineEnd.contentEnd == start {
                    consumeLine(through: lineEnd.next)
                    continue
                }
                if lineEnd.contentEnd - start > limits.requestLineBytes {
                    throw .requestLineTooLong(limit: limits.requestLineBytes)
                }
                head = try parseRequestLine(start..<lineEnd.contentEnd)
                consumeLine(through: lineEnd.next)
                phase = .headers
            case .headers:
                guard let lineEnd = try findLineEnd(within: limits.headerBytes - head.headerBytes) else {
                    if head.headerBytes + (scanned - start) > limits.headerBytes {
                        throw .headerSectionTooLarge(limit: limits.headerBytes)
                    }
                    return nil
                }
                if lineEnd.contentEnd == start {
                    consumeLine(through: lineEnd.next)
                    let length = try bodyLength()
                    if length == 0 { return finish(body: []) }
                    phase = .body(length)
                    continue
                }
                head.headerBytes += lineEnd.next - start
                if head.headerBytes > limits.headerBytes {
                    throw .headerSectionTooLarge(limit: limits.headerBytes)
                }
                if head.fields.count == limits.headerFields {
                    throw .tooManyHeaderFields(limit: limits.headerFields)
                }
                head.fields.append(try parseField(start..<lineEnd.contentEnd))
                consumeLine(through: lineEnd.next)
            case .body(let length):
                guard buffer.count - start >= length else { return nil }
                let body = Array(buffer[start..<(start + length)])
                consumeLine(through: start + length)
                return finish(body: body)
            }
        }
    }

    /// The end of the line at `start`, resuming the scan at `scanned`: where its content ends (before CRLF or LF)
    /// and where the next line starts; nil if no line end has arrived yet, or none is within `limit + 1` bytes.
    ///
    /// The scan looks at no more than the line's first `limit + 1` bytes (and the LF after a CR among them): a line
    /// with no line end there is over a limit of `limit`, which the caller checks, so that a bare CR further on is
    /// never seen before the limit is, whether it arrived with the line or later.
    ///
    /// - Throws: `.bareCarriageReturn` for a CR followed by anything but LF.
    private mutating func findLineEnd(within limit: Int) throws(HTTPParseError) -> (contentEnd: Int, next: Int)? {
        // `buffer.count - start > limit` rather than `start + limit + 1`, which could overflow for a huge limit.
        let end = buffer.count - start > limit ? start + limit + 1 : buffer.count
        var index = scanned
        while index < end {
            switch buffer[index] {
            case ASCII.lineFeed:
                scanned = index + 1
                return (index, index + 1)
            case ASCII.carriageReturn:
                // A CR last in the buffer waits for the next byte: it may be the start of a CRLF.
                if index + 1 == buffer.count {
                    scanned = index
                    return nil
                }
                if buffer[index + 1] != ASCII.lineFeed { throw .bareCarriageReturn }
                scanned = index + 2
                return (index, index + 2)
            default:
                break
            }
            index += 1
        }
        scanned = index
        return nil
    }

    /// Marks the bytes up to `next` as consumed.
    private mutating func consumeLine(through next: Int) {
        start = next
        scanned = next
    }

    /// The request read, with this body; the parser is ready for the next one.
    private mutating func finish(body: [UInt8]) -> HTTPRequest {
        let request = HTTPRequest(
            method: head.method, target: head.target, version: head.version, headers: head.fields, body: body)
        head = Head()
        phase = .requestLine
        return request
    }

    /// `method SP request-target SP HTTP-version` (RFC 9112 §3), each part checked.
    private func parseRequestLine(_ range: Range<Int>) throws(HTTPParseError) -> Head {
        let line = buffer[range]
        let parts = line.split(separator: ASCII.space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].contains(ASCII.space) else { throw .malformedRequestLine }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard !method.isEmpty, method.allSatisfy(ASCII.isTokenCharacter) else { throw .invalidMethod }
        guard target.first == ASCII.slash, target.allSatisfy(ASCII.isTargetCharacter) else { throw .invalidTarget }
        var head = Head()
        head.method = String(decoding: method, as: UTF8.self)
        head.target = String(decoding: target, as: UTF8.self)
        head.version = try parseVersion(version)
        return head
    }

    /// `HTTP/1.0` or `HTTP/1.1`; another `HTTP/x.y` is 505, anything else 400.
    private func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPRequest.Version {
        let text = Array(bytes)
        guard text.count == 8, text[0..<5].elementsEqual("HTTP/".utf8), ASCII.isDigit(text[5]),
              text[6] == UInt8(ascii: "."), ASCII.isDigit(text[7])
        else { throw .malformedRequestLine }
        switch (text[5], text[7]) {
        case (UInt8(ascii: "1"), UInt8(ascii: "1")): return .http1_1
        case (UInt8(ascii: "1"), UInt8(ascii: "0")): return .http1_0
        default: throw .unsupportedVersion(String(decoding: text, as: UTF8.self))
        }
    }

    /// `field-name ":" OWS field-value OWS` (RFC 9112 §5), with no whitespace before the colon and no folding.
    private func parseField(_ range: Range<Int>) throws(HTTPParseError) -> HTTPRequest.Field {
        let line = buffer[range]
        if let first = line.first, ASCII.isWhitespace(first) { throw .obsoleteLineFolding }
        guard let colon = line.firstIndex(of: ASCII.colon) else { throw .malformedHeaderField }
        let name = line[..<colon]
        if let last = name.last, ASCII.isWhitespace(last) { throw .whitespaceBeforeColon }
        guard !name.isEmpty, name.allSatisfy(ASCII.isTokenCharacter) else { throw .malformedHeaderField }
        var value = line[(colon + 1)...]
        while let first = value.first, ASCII.isWhitespace(first) { value = value.dropFirst() }
        while let last = value.last, ASCII.isWhitespace(last) { value = value.dropLast() }
        // Field values are visible characters, obs-text (0x80 and above), spaces and tabs (RFC 9110 §5.5).
        guard value.allSatisfy({ $0 == ASCII.tab || ($0 >= ASCII.space && $0 != ASCII.delete) }) else {
            throw .controlCharacterInFieldValue
        }
        return HTTPRequest.Field(
            name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    /// The body's length from the complete header section, after the checks that need all of it: `Host` (RFC
    /// 9112 §3.2), `Transfer-Encoding` and `Content-Length` (§6), the body's limit.
    private func bodyLength() throws(HTTPParseError) -> Int {
        let hosts = head.fields.count { HTTPRequest.equalIgnoringASCIICase($0.name, "host") }
        if hosts > 1 { throw .repeatedHost }
        if hosts == 0 && head.version == .http1_1 { throw .missingHost }
        let lengths = head.fields.filter { HTTPRequest.equalIgnoringASCIICase($0.name, "content-length") }
        if head.fields.contains(where: { HTTPRequest.equalIgnoringASCIICase($0.name, "transfer-encoding") }) {
            throw lengths.isEmpty ? .transferEncodingNotSupported : .contentLengthWithTransferEncoding
        }
        var length: Int?
        for field in lengths {
            guard let value = Self.decimal(field.value) else { throw .invalidContentLength }
            if let length, length != value { throw .conflictingContentLength }
            length = value
        }
        let body = length ?? 0
        if body > limits.bodyBytes { throw .bodyTooLarge(limit: limits.bodyBytes) }
        return body
    }

    /// `1*DIGIT` as a number, saturating at `Int.max` (any such length is over the limit anyway); nil otherwise.
    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy(ASCII.isDigit) else { return nil }
        var value = 0
        for digit in text.utf8 {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return Int.max }
            value = sum
        }
        return value
    }
}

/// The bytes and character classes of the HTTP grammar (RFC 9110 §5.6.2, RFC 3986 §2 and §3.3).
private enum ASCII {
    /// Horizontal tab.
    static let tab: UInt8 = 0x09
    /// LF.
    static let lineFeed: UInt8 = 0x0A
    /// CR.
    static let carriageReturn: UInt8 = 0x0D
    /// SP.
    static let space: UInt8 = 0x20
    /// `/`.
    static let slash = UInt8(ascii: "/")
    /// `:`.
    static let colon = UInt8(ascii: ":")
    /// DEL, a control character.
    static let delete: UInt8 = 0x7F

    /// A decimal digit.
    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A letter.
    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// SP or HTAB: optional whitespace.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// A `tchar`: what methods and field names are made of.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// A byte an origin-form target may hold: `pchar`, `/`, `?`, and `%` (escapes are checked when decoded).
    static func isTargetCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "-._~!$&'()*+,;=:@/?%".utf8.contains(byte)
    }
}
