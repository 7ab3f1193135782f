@testable import MovieSearchHTTP
import MovieSearchPlatform
import XCTest

/// `RequestPolicy`, `ResponseEncoder` and the parser's `Expect: 100-continue` without sockets.
final class RequestPolicyTests: XCTestCase {
    private let server = SocketAddress(host: .ipv4(127, 0, 0, 1), port: 8080)

    private func request(_ method: String, _ fields: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: method, target: "/api/favorites/1", version: .http1_1,
                    headers: [.init(name: "Host", value: "127.0.0.1:8080")] + fields.map { .init(name: $0, value: $1) })
    }

    func testWritesFromElsewhereAreRefusedByOriginOrSecFetchSite() {
        let policy = RequestPolicy(server: server, allowedHosts: [], corsOrigin: "https://app.example")
        let refused: [[(String, String)]] = [
            [("Origin", "https://evil.example")], [("Sec-Fetch-Site", "cross-site")], [("Sec-Fetch-Site", "same-site")],
        ]
        for fields in refused {
            XCTAssertEqual(policy.refusal(of: request("PUT", fields), local: nil)?.status, 403, "\(fields)")
            XCTAssertNil(policy.refusal(of: request("GET", fields), local: nil), "\(fields)")
        }
        let allowed: [[(String, String)]] = [
            [], [("Origin", "http://127.0.0.1:8080")], [("Origin", "https://app.example")],
            [("Origin", "https://app.example"), ("Sec-Fetch-Site", "cross-site")], [("Sec-Fetch-Site", "same-origin")],
            [("Sec-Fetch-Site", "none")],
        ]
        for fields in allowed { XCTAssertNil(policy.refusal(of: request("DELETE", fields), local: nil), "\(fields)") }
        XCTAssertEqual(policy.refusal(of: HTTPRequest(method: "GET", target: "/", version: .http1_1,
                                                      headers: [.init(name: "Host", value: "evil.example")]),
                                      local: nil)?.status, 421)
    }

    func testACORSOriginIsSchemeHostAndPortOnly() throws {
        for origin in ["http://app.example", "https://app.example:8443", "http://[::1]:8080"] {
            XCTAssertEqual(try RequestPolicy.checkedCORSOrigin(origin), origin)
        }
        for text in ["app.example", "http://app.example/", "ftp://app.example", "http://", "https://a b",
                     "http://app.example?x", "http://app.example#x", "HTTP://app.example", "http://caf\u{E9}.example"] {
            XCTAssertThrowsError(try RequestPolicy.checkedCORSOrigin(text), text) { error in
                XCTAssertEqual(error as? RequestPolicy.InvalidOrigin, RequestPolicy.InvalidOrigin(text: text))
                XCTAssertEqual("\(error)", "'\(text)' is not an origin, http://host[:port] or https://host[:port]")
            }
        }
    }

    func testCORSFieldsVaryByOriginWheneverACORSOriginIsSet() {
        let policy = RequestPolicy(server: server, allowedHosts: [], corsOrigin: "https://app.example")
        XCTAssertEqual(policy.corsFields(for: request("GET", [("Origin", "https://app.example")])).map(\.0),
                       ["Access-Control-Allow-Origin", "Vary"])
        XCTAssertEqual(policy.corsFields(for: request("GET", [("Origin", "https://other.example")])).map(\.1),
                       ["Origin"])
        XCTAssertEqual(policy.corsFields(for: request("GET", [])).map(\.1), ["Origin"])
        let none = RequestPolicy(server: server, allowedHosts: [], corsOrigin: nil)
        XCTAssertTrue(none.corsFields(for: request("GET", [("Origin", "https://app.example")])).isEmpty)
    }

    func testTheEncoderSharesIdenticalLargeBodiesAndAnswers304() {
        let encoder = ResponseEncoder(commonHeaderBytes: [], cache: EncodedBodyCache(capacity: 1 << 20,
                                                                                      minimumBytes: 1024))
        let body = [UInt8](repeating: 0x61, count: 4096)
        let response = HTTPResponse(status: 200, contentType: "text/plain", body: body, isRevalidatable: true,
                                    isCompressible: true)
        let asked = HTTPRequest(method: "GET", target: "/", version: .http1_1, headers: [])
        let first = encoder.encode(response, for: asked, keepAlive: true, omitsBody: false, extra: [], date: "D")
        let second = encoder.encode(response, for: asked, keepAlive: true, omitsBody: false, extra: [], date: "D")
        XCTAssertEqual(first.chunks.count, 2)
        XCTAssertTrue(first.chunks[1] === second.chunks[1], "one shared buffer")
        XCTAssertEqual(first.chunks[1].bytes, body)
        let tag = EntityTag.of(body).value
        let revalidated = HTTPRequest(method: "GET", target: "/", version: .http1_1,
                                      headers: [.init(name: "If-None-Match", value: tag)])
        let notModified = encoder.encode(response, for: revalidated, keepAlive: true, omitsBody: false, extra: [],
                                         date: "D")
        XCTAssertEqual(notModified.status, 304)
        XCTAssertEqual(notModified.chunks.count, 1)
    }

    func testTheParserOffersTheHeadOfARequestThatExpectsContinueOnce() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT /x HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n".utf8))
        XCTAssertNil(try parser.next())
        XCTAssertEqual(parser.takeContinueExpectation()?.target, "/x")
        XCTAssertNil(parser.takeContinueExpectation())
        parser.append(Array("abcGET /y HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n".utf8))
        XCTAssertEqual(try parser.next()?.body, Array("abc".utf8))
        XCTAssertNil(try parser.next())
        XCTAssertNil(parser.takeContinueExpectation(), "never to HTTP/1.0")
    }
}
