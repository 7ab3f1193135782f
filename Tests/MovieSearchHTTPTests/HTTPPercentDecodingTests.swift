import MovieSearchHTTP
import XCTest

/// `HTTPPercentDecoding`: escapes, `+`, UTF-8, and query pairs.
final class HTTPPercentDecodingTests: XCTestCase {
    private typealias Item = HTTPPercentDecoding.QueryItem

    func testGoodEscapes() throws {
        XCTAssertEqual(try HTTPPercentDecoding.decodePath("/a%41%42c"), "/aABc")
        XCTAssertEqual(try HTTPPercentDecoding.decodePath("/caf%C3%A9/%c3%a9"), "/café/é")
        XCTAssertEqual(try HTTPPercentDecoding.decodePath("/a+b%2B"), "/a+b+", "+ is a space in a query only")
        XCTAssertEqual(try HTTPPercentDecoding.decodeQueryComponent("dark+knight%2B%20x"), "dark knight+ x")
        XCTAssertEqual(try HTTPPercentDecoding.decodeQueryComponent(""), "")
        XCTAssertEqual(try HTTPPercentDecoding.decodeQueryComponent("%25%26"), "%&")
    }

    func testBadEscapes() {
        for text in ["%4", "%zz", "%", "a%g1", "%%41", "abc%"] {
            XCTAssertThrowsError(try HTTPPercentDecoding.decodeQueryComponent(text), text) {
                XCTAssertEqual($0 as? HTTPParseError, .invalidPercentEncoding, text)
            }
            XCTAssertThrowsError(try HTTPPercentDecoding.decodePath(text), text) {
                XCTAssertEqual($0 as? HTTPParseError, .invalidPercentEncoding, text)
            }
        }
        XCTAssertEqual(HTTPParseError.invalidPercentEncoding.status, 400)
    }

    func testInvalidUTF8AfterDecoding() {
        for text in ["%FF", "%C3", "a%C3%28", "%ED%A0%80", "%C0%AF"] {
            XCTAssertThrowsError(try HTTPPercentDecoding.decodePath(text), text) {
                XCTAssertEqual($0 as? HTTPParseError, .invalidUTF8, text)
            }
        }
        XCTAssertEqual(HTTPParseError.invalidUTF8.status, 400)
    }

    func testQueryItemsInOrderSplitBeforeDecoding() throws {
        XCTAssertEqual(try HTTPPercentDecoding.queryItems("q=dark+knight&limit=5&&flag&a%26b=c%3Dd&empty=&x=1=2"), [
            Item(name: "q", value: "dark knight"), Item(name: "limit", value: "5"), Item(name: "flag", value: ""),
            Item(name: "a&b", value: "c=d"), Item(name: "empty", value: ""), Item(name: "x", value: "1=2"),
        ])
        XCTAssertEqual(try HTTPPercentDecoding.queryItems(""), [])
        XCTAssertEqual(try HTTPPercentDecoding.queryItems("q=a&q=b"),
                       [Item(name: "q", value: "a"), Item(name: "q", value: "b")])
        XCTAssertThrowsError(try HTTPPercentDecoding.queryItems("q=ok&bad=%zz")) {
            XCTAssertEqual($0 as? HTTPParseError, .invalidPercentEncoding)
        }
    }

    func testAParsedRequestsQuery() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /api/search?q=the%20dark+knight&year=2008 HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        let request = try XCTUnwrap(try parser.next())
        XCTAssertEqual(try HTTPPercentDecoding.decodePath(request.path), "/api/search")
        XCTAssertEqual(try HTTPPercentDecoding.queryItems(try XCTUnwrap(request.query)),
                       [Item(name: "q", value: "the dark knight"), Item(name: "year", value: "2008")])
    }
}
