import MovieSearchHTTP
import XCTest

/// `HTTPRequestParser` on bytes written out in full: requests, pipelining, pieces, every limit at and one byte past
/// its size, and each malformation with the exact error and status it gives.
final class HTTPRequestParserTests: XCTestCase {
    private typealias Field = HTTPRequest.Field

    /// The bytes of a string: requests are written with explicit `\r\n` so that each test shows its line ends.
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Every request in `bytes` appended at once, until the parser asks for more.
    private func parseAll(_ bytes: [UInt8], limits: HTTPRequestParser.Limits = .init()) throws -> [HTTPRequest] {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(bytes)
        var requests: [HTTPRequest] = []
        while let request = try parser.next() { requests.append(request) }
        return requests
    }

    /// The same bytes appended one at a time, `next()` called after each.
    private func parseByteByByte(_ bytes: [UInt8]) throws -> [HTTPRequest] {
        var parser = HTTPRequestParser()
        var requests: [HTTPRequest] = []
        for byte in bytes {
            parser.append(CollectionOfOne(byte))
            while let request = try parser.next() { requests.append(request) }
        }
        return requests
    }

    /// Asserts that parsing `bytes` throws exactly `expected`, which maps to `status`.
    private func assertError(
        _ bytes: [UInt8], _ expected: HTTPParseError, status: Int, limits: HTTPRequestParser.Limits = .init(),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try parseAll(bytes, limits: limits), file: file, line: line) { error in
            XCTAssertEqual(error as? HTTPParseError, expected, file: file, line: line)
        }
        XCTAssertEqual(expected.status, status, file: file, line: line)
    }

    /// `assertError` on text.
    private func assertError(
        _ text: String, _ expected: HTTPParseError, status: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        assertError(bytes(text), expected, status: status, file: file, line: line)
    }

    // MARK: Requests

    func testAPlainGet() throws {
        let requests = try parseAll(
            bytes("GET /api/search?q=dark HTTP/1.1\r\nHost: localhost:8080\r\nAccept: */*\r\n\r\n"))
        XCTAssertEqual(requests.count, 1)
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.target, "/api/search?q=dark")
        XCTAssertEqual(request.path, "/api/search")
        XCTAssertEqual(request.query, "q=dark")
        XCTAssertEqual(request.version, .http1_1)
        XCTAssertEqual(request.headers,
                       [Field(name: "Host", value: "localhost:8080"), Field(name: "Accept", value: "*/*")])
        XCTAssertEqual(request.body, [])
        XCTAssertTrue(request.keepsAlive)
    }

    func testNilUntilTheHeaderSectionEnds() throws {
        var parser = HTTPRequestParser()
        parser.append(bytes("GET / HTTP/1.1\r\nHost: a\r\n"))
        XCTAssertNil(try parser.next())
        parser.append(bytes("\r"))
        XCTAssertNil(try parser.next())
        parser.append(bytes("\n"))
        XCTAssertEqual(try parser.next()?.target, "/")
        XCTAssertNil(try parser.next())
    }

    func testHeadersKeepTheirOrderAndCaseAndAreFoundWithoutRegardToCase() throws {
        let request = try XCTUnwrap(try parseAll(bytes(
            "GET / HTTP/1.1\r\nhOsT: example\r\nX-Tag: one\r\nx-tag: two\r\nX-Pad: \t padded value \t\r\nEmpty:\r\n\r\n"
        )).first)
        XCTAssertEqual(request.headers.map(\.name), ["hOsT", "X-Tag", "x-tag", "X-Pad", "Empty"])
        XCTAssertEqual(request.header("host"), "example")
        XCTAssertEqual(request.header("HOST"), "example")
        XCTAssertEqual(request.header("X-TAG"), "one")
        XCTAssertEqual(request.header("x-pad"), "padded value")
        XCTAssertEqual(request.header("empty"), "")
        XCTAssertNil(request.header("X-Missing"))
        XCTAssertNil(request.header("X-Ta"))
    }

    func testABodyWithContentLengthEvenWhenItArrivesInPieces() throws {
        var parser = HTTPRequestParser()
        parser.append(bytes("POST /api/favorites HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\n{\"id\":"))
        XCTAssertNil(try parser.next())
        parser.append(bytes(" 42}\r\nGET"))
        let request = try XCTUnwrap(try parser.next())
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.body, bytes("{\"id\": 42}\r\n"))
        XCTAssertEqual(request.header("content-length"), "12")
        XCTAssertNil(try parser.next())
        parser.append(bytes(" /next HTTP/1.1\r\nHost: a\r\n\r\n"))
        XCTAssertEqual(try parser.next()?.target, "/next")
    }

    func testTwoPipelinedRequestsInOneAppend() throws {
        let requests = try parseAll(bytes(
            "GET /one HTTP/1.1\r\nHost: a\r\n\r\nPOST /two HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"))
        XCTAssertEqual(requests.map(\.method), ["GET", "POST"])
        XCTAssertEqual(requests.map(\.target), ["/one", "/two"])
        XCTAssertEqual(requests.map(\.body), [[], bytes("abc")])
    }

    func testOneByteAtATimeGivesTheSameRequests() throws {
        let stream = bytes(
            "GET /one?x=1 HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n\r\n"
                + "POST /two HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
                + "\r\n\nGET /three HTTP/1.0\nConnection: keep-alive\n\n"
                + "GET /four HTTP/1.1\r\nHost: b\r\nContent-Length: 0\r\n\r\n")
        let whole = try parseAll(stream)
        XCTAssertEqual(whole.map(\.target), ["/one?x=1", "/two", "/three", "/four"])
        XCTAssertEqual(whole[1].body, bytes("hello"))
        XCTAssertEqual(whole[2].version, .http1_0)
        XCTAssertEqual(try parseByteByByte(stream), whole)
    }

    func testALongPipelinedStreamInPiecesOfAnySizeGivesTheSameRequests() throws {
        // Long enough that consumed bytes are dropped from the buffer's front many times, mid-line and mid-body.
        let stream = bytes((0..<400).map { index in
            let body = String(repeating: "b", count: index % 37)
            return "POST /item/\(index)?n=\(index) HTTP/1.1\r\nHost: a\r\nX-Index: \(index)\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        }.joined())
        let whole = try parseAll(stream)
        XCTAssertEqual(whole.count, 400)
        XCTAssertEqual(whole.map(\.target), (0..<400).map { "/item/\($0)?n=\($0)" })
        XCTAssertEqual(whole.map(\.body.count), (0..<400).map { $0 % 37 })
        for pieceSize in [1, 7, 4099] {
            var parser = HTTPRequestParser()
            var requests: [HTTPRequest] = []
            var offset = 0
            while offset < stream.count {
                parser.append(stream[offset..<min(offset + pieceSize, stream.count)])
                offset += pieceSize
                while let request = try parser.next() { requests.append(request) }
            }
            XCTAssertEqual(requests, whole, "pieces of \(pieceSize) bytes")
        }
    }

    func testBareLineFeedsAndLeadingEmptyLinesAreAccepted() throws {
        let requests = try parseAll(bytes("\r\n\n\r\nGET /a HTTP/1.1\nHost: x\n\n"))
        XCTAssertEqual(requests, [HTTPRequest(method: "GET", target: "/a", version: .http1_1,
                                              headers: [Field(name: "Host", value: "x")])])
    }

    func testABareCarriageReturnIsRefusedWhereverItIs() {
        assertError("GET / HTTP/1.1\rHost: a\r\n\r\n", .bareCarriageReturn, status: 400)
        assertError("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", .bareCarriageReturn, status: 400)
        assertError("GET / HTTP/1.1\r\nHost: a\r\n\r\r\n", .bareCarriageReturn, status: 400)
        assertError("\rGET / HTTP/1.1\r\nHost: a\r\n\r\n", .bareCarriageReturn, status: 400)
    }

    func testAnErrorIsThrownAgainAfterMoreBytes() throws {
        var parser = HTTPRequestParser()
        parser.append(bytes("GET / HTTP/1.1\r\n Host: a\r\n\r\n"))
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual($0 as? HTTPParseError, .obsoleteLineFolding) }
        parser.append(bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual($0 as? HTTPParseError, .obsoleteLineFolding) }
    }

    // MARK: Limits

    /// A GET whose request line is exactly `length` bytes long (without its CRLF).
    private func requestLine(length: Int) -> String {
        let fixed = "GET / HTTP/1.1".utf8.count
        return "GET /" + String(repeating: "a", count: length - fixed) + " HTTP/1.1"
    }

    func testTheRequestLineAtItsLimitAndOneByteOver() throws {
        let atLimit = requestLine(length: 8 * 1024)
        XCTAssertEqual(atLimit.utf8.count, 8192)
        XCTAssertEqual(try parseAll(bytes(atLimit + "\r\nHost: a\r\n\r\n")).first?.target.utf8.count, 8192 - 14 + 1)
        assertError(bytes(requestLine(length: 8193) + "\r\nHost: a\r\n\r\n"), .requestLineTooLong(limit: 8192),
                    status: 414)
    }

    func testTheRequestLineLimitIsEnforcedBeforeTheLineEnds() throws {
        var parser = HTTPRequestParser()
        parser.append(bytes("GET /" + String(repeating: "a", count: 8192 - 5)))
        XCTAssertNil(try parser.next(), "8 KiB without a line end: still within the limit")
        parser.append(bytes("\r"))
        XCTAssertNil(try parser.next(), "a CR may start the line end: not counted")
        parser.append(bytes("a"))
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual($0 as? HTTPParseError, .bareCarriageReturn) }

        var flood = HTTPRequestParser()
        flood.append(bytes("GET /" + String(repeating: "a", count: 8192 - 4)))
        XCTAssertThrowsError(try flood.next()) {
            XCTAssertEqual($0 as? HTTPParseError, .requestLineTooLong(limit: 8192))
        }
    }

    /// Found by the `http` fuzz target: a bare CR past the limit was a 400 when the line arrived whole (the scan for
    /// its end reached the CR before the length was checked) but a 414 or 431 when it arrived in pieces.
    func testALineOverItsLimitGivesTheLimitsErrorWhateverFollowsAndHoweverItArrives() throws {
        let limits = HTTPRequestParser.Limits(requestLineBytes: 16, headerBytes: 30, headerFields: 4, bodyBytes: 4)
        let cases: [(String, HTTPParseError)] = [
            ("GET /abcdefghijkl\rx HTTP/1.1\r\nHost: a\r\n\r\n", .requestLineTooLong(limit: 16)),
            ("GET / HTTP/1.1\r\nHost: a\r\nX-Long: 12345678901234567890\rx\r\n\r\n", .headerSectionTooLarge(limit: 30)),
        ]
        for (text, expected) in cases {
            for pieceSize in [text.utf8.count, 1, 7] {
                var parser = HTTPRequestParser(limits: limits)
                let stream = bytes(text)
                var thrown: HTTPParseError?
                for start in stride(from: 0, to: stream.count, by: pieceSize) where thrown == nil {
                    parser.append(stream[start..<min(start + pieceSize, stream.count)])
                    do { _ = try parser.next() } catch { thrown = error }
                }
                XCTAssertEqual(thrown, expected, "\(text.debugDescription) in pieces of \(pieceSize)")
            }
        }
        // Within the limit, the bare CR is still found.
        assertError(bytes("GET /a\rb HTTP/1.1\r\n"), .bareCarriageReturn, status: 400, limits: limits)
    }

    /// A request whose header section (field lines with their CRLFs) is exactly `size` bytes.
    private func request(headerSection size: Int) -> String {
        let host = "Host: x\r\n"
        let fill = size - host.utf8.count - "X-Fill: \r\n".utf8.count
        return "GET / HTTP/1.1\r\n" + host + "X-Fill: " + String(repeating: "f", count: fill) + "\r\n\r\n"
    }

    func testTheHeaderSectionAtItsLimitAndOneByteOver() throws {
        let parsed = try XCTUnwrap(try parseAll(bytes(request(headerSection: 32 * 1024))).first)
        XCTAssertEqual(parsed.header("x-fill")?.utf8.count, 32768 - 9 - 10)
        XCTAssertEqual(try parseByteByByte(bytes(request(headerSection: 32 * 1024))), [parsed])
        assertError(bytes(request(headerSection: 32 * 1024 + 1)), .headerSectionTooLarge(limit: 32768), status: 431)
    }

    func testTheHeaderSectionLimitIsEnforcedBeforeTheLineEnds() throws {
        let head = "GET / HTTP/1.1\r\nHost: x\r\nX-Fill: "
        var parser = HTTPRequestParser()
        parser.append(bytes(head + String(repeating: "f", count: 32768 - 9 - 8)))
        XCTAssertNil(try parser.next())
        parser.append(bytes("f"))
        XCTAssertThrowsError(try parser.next()) {
            XCTAssertEqual($0 as? HTTPParseError, .headerSectionTooLarge(limit: 32768))
        }
    }

    /// A request with `Host` and `count - 1` more fields.
    private func request(fields count: Int) -> String {
        "GET / HTTP/1.1\r\nHost: x\r\n" + (1..<count).map { "X-\($0): v\r\n" }.joined() + "\r\n"
    }

    func testTheFieldCountAtItsLimitAndOneOver() throws {
        XCTAssertEqual(try parseAll(bytes(request(fields: 100))).first?.headers.count, 100)
        assertError(bytes(request(fields: 101)), .tooManyHeaderFields(limit: 100), status: 431)
    }

    func testTheBodyAtItsLimitAndOneByteOverWhichIsRefusedBeforeItArrives() throws {
        let body = [UInt8](repeating: 0x61, count: 65536)
        let head = bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 65536\r\n\r\n")
        let request = try XCTUnwrap(try parseAll(head + body).first)
        XCTAssertEqual(request.body, body)
        assertError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 65537\r\n\r\n", .bodyTooLarge(limit: 65536),
                    status: 413)
        assertError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                    .bodyTooLarge(limit: 65536), status: 413)
    }

    func testSmallerLimits() throws {
        let limits = HTTPRequestParser.Limits(requestLineBytes: 16, headerBytes: 30, headerFields: 2, bodyBytes: 4)
        XCTAssertEqual(try parseAll(bytes("GET /ab HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd"),
                                    limits: limits).first?.body, bytes("abcd"))
        assertError(bytes("GET /abc HTTP/1.1\r\nHost: a\r\n\r\n"), .requestLineTooLong(limit: 16), status: 414,
                    limits: limits)
        assertError(bytes("GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\nY: 2\r\n\r\n"), .tooManyHeaderFields(limit: 2),
                    status: 431, limits: limits)
        assertError(bytes("GET / HTTP/1.1\r\nHost: a\r\nX-Long: 12345678901234567890\r\n\r\n"),
                    .headerSectionTooLarge(limit: 30),
                    status: 431, limits: limits)
        assertError(bytes("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n"), .bodyTooLarge(limit: 4),
                    status: 413, limits: limits)
    }

    // MARK: Framing

    func testContentLengthWithTransferEncodingAndTransferEncodingAlone() {
        assertError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
                    .contentLengthWithTransferEncoding, status: 400)
        assertError("POST / HTTP/1.1\r\nHost: a\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\nabc",
                    .contentLengthWithTransferEncoding, status: 400)
        assertError("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
                    .transferEncodingNotSupported, status: 501)
    }

    func testContentLengthMustBeDigitsAndAgree() throws {
        for value in ["abc", "-1", "+5", "5, 5", "0x10", "1 2"] {
            assertError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(value)\r\n\r\n", .invalidContentLength,
                        status: 400)
        }
        assertError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", .invalidContentLength, status: 400)
        assertError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
                    .conflictingContentLength, status: 400)
        let agreeing = try parseAll(
            bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\ncontent-length: 005\r\n\r\nhello"))
        XCTAssertEqual(agreeing.map(\.body), [bytes("hello")])
    }

    // MARK: Field lines

    func testObsoleteLineFolding() {
        assertError("GET / HTTP/1.1\r\nHost: a\r\nX-A: one\r\n two\r\n\r\n", .obsoleteLineFolding, status: 400)
        assertError("GET / HTTP/1.1\r\nHost: a\r\nX-A: one\r\n\ttwo\r\n\r\n", .obsoleteLineFolding, status: 400)
        assertError("GET / HTTP/1.1\r\n Host: a\r\n\r\n", .obsoleteLineFolding, status: 400)
    }

    func testWhitespaceBeforeTheColon() {
        assertError("GET / HTTP/1.1\r\nHost : a\r\n\r\n", .whitespaceBeforeColon, status: 400)
        assertError("GET / HTTP/1.1\r\nHost: a\r\nContent-Length\t: 0\r\n\r\n", .whitespaceBeforeColon, status: 400)
    }

    func testMalformedFieldLines() {
        assertError("GET / HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n", .malformedHeaderField, status: 400)
        assertError("GET / HTTP/1.1\r\nHost: a\r\n: empty name\r\n\r\n", .malformedHeaderField, status: 400)
        assertError("GET / HTTP/1.1\r\nHost: a\r\nX(A): v\r\n\r\n", .malformedHeaderField, status: 400)
    }

    func testControlCharactersInAFieldValue() throws {
        assertError("GET / HTTP/1.1\r\nHost: a\r\nX-A: a\u{01}b\r\n\r\n", .controlCharacterInFieldValue, status: 400)
        assertError("GET / HTTP/1.1\r\nHost: a\r\nX-A: a\u{7F}b\r\n\r\n", .controlCharacterInFieldValue, status: 400)
        assertError(bytes("GET / HTTP/1.1\r\nHost: a\r\nX-A: a") + [0] + bytes("b\r\n\r\n"),
                    .controlCharacterInFieldValue, status: 400)
        let request = try XCTUnwrap(try parseAll(bytes("GET / HTTP/1.1\r\nHost: a\r\nX-A: a\tb é\r\n\r\n")).first)
        XCTAssertEqual(request.header("x-a"), "a\tb é")
    }

    func testHostIsRequiredOnceInHTTP11AndAtMostOnceInHTTP10() throws {
        assertError("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", .missingHost, status: 400)
        assertError("GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n", .repeatedHost, status: 400)
        assertError("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", .repeatedHost, status: 400)
        XCTAssertEqual(try parseAll(bytes("GET / HTTP/1.0\r\n\r\n")).first?.headers, [])
    }

    // MARK: Request line

    func testBadAndUnsupportedVersions() throws {
        assertError("GET / HTTP/2.0\r\nHost: a\r\n\r\n", .unsupportedVersion("HTTP/2.0"), status: 505)
        assertError("GET / HTTP/1.2\r\nHost: a\r\n\r\n", .unsupportedVersion("HTTP/1.2"), status: 505)
        assertError("GET / HTTP/0.9\r\nHost: a\r\n\r\n", .unsupportedVersion("HTTP/0.9"), status: 505)
        for version in ["HTTP/1", "http/1.1", "HTTP/1.1x", "HTTP/11.1", "HTTP/1.1 ", "HTTP 1.1", ""] {
            assertError("GET / \(version)\r\nHost: a\r\n\r\n", .malformedRequestLine, status: 400)
        }
        assertError("GET /\r\n\r\n", .malformedRequestLine, status: 400)
        assertError("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", .malformedRequestLine, status: 400)
    }

    func testMethodsAreCaseSensitiveTokens() throws {
        let lowercase = try XCTUnwrap(try parseAll(bytes("get / HTTP/1.1\r\nHost: a\r\n\r\n")).first)
        XCTAssertEqual(lowercase.method, "get", "a lowercase method is a token, kept as sent: it is not GET")
        XCTAssertNotEqual(lowercase.method, "GET")
        assertError("GE(T / HTTP/1.1\r\nHost: a\r\n\r\n", .invalidMethod, status: 400)
        assertError("GÉT / HTTP/1.1\r\nHost: a\r\n\r\n", .invalidMethod, status: 400)
        assertError(" / HTTP/1.1\r\nHost: a\r\n\r\n", .invalidMethod, status: 400)
        assertError("GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", .malformedRequestLine, status: 400)
    }

    func testTheTargetMustBeOriginForm() {
        assertError("GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n", .invalidTarget, status: 400)
        assertError("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", .invalidTarget, status: 400)
        assertError("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n", .invalidTarget, status: 400)
        assertError("GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n", .invalidTarget, status: 400)
        assertError("GET /a\"b HTTP/1.1\r\nHost: a\r\n\r\n", .invalidTarget, status: 400)
        assertError("GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", .malformedRequestLine, status: 400)
    }

    // MARK: Errors

    func testEveryErrorHasItsStatusAndOneLineDescription() {
        let statuses: [(HTTPParseError, Int)] = [
            (.malformedRequestLine, 400), (.invalidMethod, 400), (.invalidTarget, 400), (.bareCarriageReturn, 400),
            (.malformedHeaderField, 400), (.whitespaceBeforeColon, 400), (.obsoleteLineFolding, 400),
            (.controlCharacterInFieldValue, 400), (.missingHost, 400), (.repeatedHost, 400),
            (.invalidContentLength, 400), (.conflictingContentLength, 400), (.contentLengthWithTransferEncoding, 400),
            (.invalidPercentEncoding, 400), (.invalidUTF8, 400), (.requestLineTooLong(limit: 1), 414),
            (.headerSectionTooLarge(limit: 1), 431), (.tooManyHeaderFields(limit: 1), 431),
            (.bodyTooLarge(limit: 1), 413), (.transferEncodingNotSupported, 501),
            (.unsupportedVersion("HTTP/2.0"), 505),
        ]
        for (error, status) in statuses {
            XCTAssertEqual(error.status, status, "\(error)")
            XCTAssertFalse(error.description.isEmpty)
            XCTAssertFalse(error.description.contains("\n"))
        }
        XCTAssertEqual(HTTPParseError.requestLineTooLong(limit: 8192).description,
                       "the request line is longer than 8192 bytes")
        XCTAssertEqual(HTTPParseError.unsupportedVersion("HTTP/2.0").description,
                       "HTTP/2.0 is not supported (HTTP/1.0 and HTTP/1.1 are)")
    }
}
