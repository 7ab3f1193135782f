@testable import MovieSearchHTTP
import XCTest

/// `EntityTag`: the tag of a body, `If-None-Match` against it; and `AcceptEncoding.allowsGzip`.
final class EntityTagTests: XCTestCase {
    private let tag = EntityTag.of(Array("a body".utf8))

    func testTagIsQuotedHexOfTheBody() {
        XCTAssertEqual(tag.value.count, 18)
        XCTAssertTrue(tag.value.hasPrefix("\"") && tag.value.hasSuffix("\""))
        XCTAssertTrue(tag.value.dropFirst().dropLast().allSatisfy { $0.isHexDigit && !$0.isUppercase })
        XCTAssertEqual(EntityTag.of(Array("a body".utf8)), tag)
        XCTAssertEqual(tag.gzipVariant, String(tag.value.dropLast()) + "-gz\"")
        // Every length up to a few blocks, and one changed byte anywhere, give another tag.
        var seen: Set<String> = []
        for length in 0..<100 {
            var body = [UInt8](repeating: 7, count: length)
            XCTAssertTrue(seen.insert(EntityTag.of(body).value).inserted, "length \(length)")
            for index in body.indices {
                body[index] = 8
                XCTAssertNotEqual(EntityTag.of(body), EntityTag.of([UInt8](repeating: 7, count: length)))
                body[index] = 7
            }
        }
    }

    func testIfNoneMatch() {
        XCTAssertTrue(EntityTag.matches(tag.value, tag))
        XCTAssertTrue(EntityTag.matches(" \(tag.value) ", tag))
        XCTAssertTrue(EntityTag.matches("W/" + tag.value, tag))
        XCTAssertTrue(EntityTag.matches(tag.gzipVariant, tag))
        XCTAssertTrue(EntityTag.matches("W/" + tag.gzipVariant, tag))
        XCTAssertTrue(EntityTag.matches("\"other\", \(tag.value)", tag))
        XCTAssertTrue(EntityTag.matches("\"other\",W/\(tag.value),\"third\"", tag))
        XCTAssertTrue(EntityTag.matches("*", tag))
        XCTAssertTrue(EntityTag.matches(" * ", tag))

        XCTAssertFalse(EntityTag.matches("", tag))
        XCTAssertFalse(EntityTag.matches("\"other\"", tag))
        XCTAssertFalse(EntityTag.matches("\"other\", \"third\"", tag))
        XCTAssertFalse(EntityTag.matches(String(tag.value.dropFirst().dropLast()), tag), "unquoted")
        XCTAssertFalse(EntityTag.matches("w/" + tag.value, tag), "the weak prefix is case-sensitive")
        XCTAssertFalse(EntityTag.matches(tag.value.uppercased(), tag))
        XCTAssertFalse(EntityTag.matches(EntityTag.of(Array("another body".utf8)).value, tag))
        XCTAssertFalse(EntityTag.matches(String(tag.value.dropLast()) + "-br\"", tag))
    }

    func testAcceptEncodingAllowsGzip() {
        for value in ["gzip", "GZIP", "x-gzip", "*", "deflate, gzip", "gzip;q=0.5", "gzip; q=1", "br;q=1, gzip;q=0.1",
                      "identity, *", "gzip;q=0.001", "x-gzip;q=0, gzip"] {
            XCTAssertTrue(AcceptEncoding.allowsGzip(value), "'\(value)'")
        }
        for value in ["", "identity", "deflate, br", "gzip;q=0", "gzip; q=0.0", "GZIP;Q=0", "x-gzip;q=0", "*;q=0",
                      "gzipped", "gzip-x", "br, gzip;q=0.000",
                      // RFC 9110 §12.5.3: `*` stands for the codings not listed; gzip listed with q=0 is refused.
                      "gzip;q=0, *", "*, gzip;q=0", "x-gzip;q=0, *;q=1"] {
            XCTAssertFalse(AcceptEncoding.allowsGzip(value), "'\(value)'")
        }
        XCTAssertFalse(AcceptEncoding.allowsGzip(nil))
    }
}
