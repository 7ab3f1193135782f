import MovieSearchHTTP
import XCTest

/// `HTTPRequest` alone: the target's path and query, and whether the connection stays open.
final class HTTPRequestTests: XCTestCase {
    /// A request of this version with these `Connection` values (and a `Host`).
    private func request(_ version: HTTPRequest.Version, connection: [String]) -> HTTPRequest {
        let fields = connection.map { HTTPRequest.Field(name: "Connection", value: $0) }
        return HTTPRequest(method: "GET", target: "/", version: version,
                           headers: [HTTPRequest.Field(name: "Host", value: "a")] + fields)
    }

    func testKeepAliveInHTTP11UnlessClose() {
        XCTAssertTrue(request(.http1_1, connection: []).keepsAlive)
        XCTAssertTrue(request(.http1_1, connection: ["keep-alive"]).keepsAlive)
        XCTAssertTrue(request(.http1_1, connection: ["closed"]).keepsAlive)
        XCTAssertFalse(request(.http1_1, connection: ["close"]).keepsAlive)
        XCTAssertFalse(request(.http1_1, connection: ["Close"]).keepsAlive)
        XCTAssertFalse(request(.http1_1, connection: ["keep-alive, close"]).keepsAlive)
        XCTAssertFalse(request(.http1_1, connection: ["upgrade", "CLOSE"]).keepsAlive)
    }

    func testKeepAliveInHTTP10OnlyWithKeepAlive() {
        XCTAssertFalse(request(.http1_0, connection: []).keepsAlive)
        XCTAssertTrue(request(.http1_0, connection: ["keep-alive"]).keepsAlive)
        XCTAssertTrue(request(.http1_0, connection: ["Keep-Alive"]).keepsAlive)
        XCTAssertTrue(request(.http1_0, connection: ["upgrade ,\tkeep-alive"]).keepsAlive)
        XCTAssertFalse(request(.http1_0, connection: ["keep-alive, close"]).keepsAlive)
        XCTAssertFalse(request(.http1_0, connection: ["keep-alive-ish"]).keepsAlive)
    }

    func testKeepAliveFromParsedRequests() throws {
        var parser = HTTPRequestParser()
        parser.append(Array(("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n"
                             + "GET /c HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").utf8))
        var keepsAlive: [Bool] = []
        while let request = try parser.next() { keepsAlive.append(request.keepsAlive) }
        XCTAssertEqual(keepsAlive, [true, false, false])
    }

    func testPathAndQuerySplitAtTheFirstQuestionMark() {
        func parts(_ target: String) -> (String, String?) {
            let request = HTTPRequest(method: "GET", target: target, version: .http1_1, headers: [])
            return (String(request.path), request.query.map(String.init))
        }
        XCTAssertTrue(parts("/api/search?q=dark") == ("/api/search", "q=dark"))
        XCTAssertTrue(parts("/api/search") == ("/api/search", nil))
        XCTAssertTrue(parts("/api/search?") == ("/api/search", ""))
        XCTAssertTrue(parts("/a?b?c=d") == ("/a", "b?c=d"))
    }
}
