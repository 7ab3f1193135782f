import XCTest

import MovieSearch
@testable import MovieSearchPhotos
import TestSupport

final class FlickrPhotosTests: XCTestCase {
    private typealias Fixtures = FlickrResponseFixtures

    private func photos(_ response: String, source: String = "test.json") throws -> PhotoList {
        try FlickrPhotos.photos(fromResponse: Array(response.utf8), source: source)
    }

    /// Asserts that `response` fails with `expected`, and that its message is one line naming the source.
    private func assertError(
        _ response: String, _ expected: FlickrError, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try photos(response), file: file, line: line) { error in
            XCTAssertEqual(error as? FlickrError, expected, file: file, line: line)
            let message = String(describing: error)
            XCTAssertTrue(message.hasPrefix("test.json: "), message, file: file, line: line)
            XCTAssertFalse(message.contains("\n"), message, file: file, line: line)
        }
    }

    private func unexpectedShape(_ reason: String) -> FlickrError {
        .unexpectedShape(source: "test.json", reason: reason)
    }

    // MARK: Good responses

    func testANormalResponseGivesItsURLsInOrder() throws {
        XCTAssertEqual(try photos(Fixtures.normal), PhotoList(urls: Fixtures.normalURLs, skipped: 0))
    }

    func testFarmAsANumberOrAString() throws {
        XCTAssertEqual(try photos(Fixtures.farmForms), PhotoList(urls: Fixtures.farmFormURLs, skipped: 0))
    }

    func testAFarmThatIsNotANonNegativeIntegerSkipsThePhoto() throws {
        let list = try photos(Fixtures.badFarms)
        XCTAssertEqual(list.urls, ["http://farm2.static.flickr.com/1/13_e.jpg"])
        XCTAssertEqual(list.skipped, 12)
    }

    func testPhotosMissingAFieldAreSkippedAndCounted() throws {
        let list = try photos(Fixtures.missingFields)
        XCTAssertEqual(list, PhotoList(urls: ["http://farm1.static.flickr.com/1/3_e3.jpg"], skipped: 5))
    }

    func testFieldsOfTheWrongTypeAreSkippedAndCounted() throws {
        let list = try photos(Fixtures.wrongTypes)
        XCTAssertEqual(list, PhotoList(urls: ["http://farm1.static.flickr.com/1/109_e.jpg"], skipped: 12))
    }

    /// SPEC.md "Flickr photos": a photo whose id or server is not all digits, or whose secret is not lowercase
    /// hexadecimal, is left out (a letter in an id, an uppercase secret, a secret with a letter past `f`).
    func testIdsAndServersAreDigitsAndSecretsLowercaseHex() throws {
        let response = #"""
            {"photos":{"photo":[
              {"id":"51","secret":"0a9f","server":"65535","farm":66},
              {"id":"5a","secret":"0a9f","server":"65535","farm":66},
              {"id":"52","secret":"0a9f","server":"6553x","farm":66},
              {"id":"53","secret":"0A9F","server":"65535","farm":66},
              {"id":"54","secret":"0a9g","server":"65535","farm":66},
              {"id":"55","secret":"abcdef0123456789","server":"1","farm":"7"}
            ]},"stat":"ok"}
            """#
        let list = try photos(response)
        XCTAssertEqual(list.urls, ["http://farm66.static.flickr.com/65535/51_0a9f.jpg",
                                   "http://farm7.static.flickr.com/1/55_abcdef0123456789.jpg"])
        XCTAssertEqual(list.skipped, 4)
    }

    func testAnEmptyPhotoArrayIsANormalAnswer() throws {
        XCTAssertEqual(try photos(Fixtures.emptyPhotoArray), PhotoList(urls: [], skipped: 0))
    }

    func testStatMayBeAbsent() throws {
        XCTAssertEqual(try photos(Fixtures.statAbsent).urls, ["http://farm3.static.flickr.com/2/1_e.jpg"])
    }

    func testWhiteSpaceAroundTheDocumentIsFine() throws {
        XCTAssertEqual(try photos("\n\t " + Fixtures.emptyPhotoArray + "\r\n").urls, [])
    }

    // MARK: Flickr's refusals

    func testStatFailReportsFlickrsCodeAndMessage() {
        let expected = FlickrError.apiFailure(
            source: "test.json", code: 100, message: "Invalid API Key (Key has invalid format)")
        assertError(Fixtures.statFail, expected)
        XCTAssertEqual(
            expected.description,
            "test.json: Flickr refused the request: error 100, Invalid API Key (Key has invalid format)"
                + " (check the Flickr API key)")
    }

    func testStatFailWithACodeAsAString() {
        assertError(
            Fixtures.statFailWithCodeAsString,
            .apiFailure(source: "test.json", code: 105, message: "Service currently unavailable"))
        XCTAssertEqual(
            FlickrError.apiFailure(source: "r.json", code: 105, message: "Service currently unavailable").description,
            "r.json: Flickr refused the request: error 105, Service currently unavailable")
    }

    func testStatFailWithoutAMessage() {
        assertError(Fixtures.statFailWithoutMessage, .apiFailure(source: "test.json", code: 3, message: ""))
        XCTAssertEqual(
            FlickrError.apiFailure(source: "test.json", code: 3, message: "").description,
            "test.json: Flickr refused the request: error 3, no message")
    }

    func testStatFailWithoutACodeKeepsTheMessage() {
        assertError(
            Fixtures.statFailWithoutCode,
            unexpectedShape(#""stat" is "fail" without an integer "code" (message: "Something broke")"#))
    }

    func testStatFailWinsOverPhotos() {
        assertError(
            Fixtures.statFailWithPhotos,
            .apiFailure(
                source: "test.json", code: 10, message: "Sorry, the Flickr search API is not currently available."))
    }

    // MARK: Not a response

    func testMalformedJSONGivesItsLineAndColumn() {
        XCTAssertThrowsError(try photos(Fixtures.malformed)) { error in
            guard case let .malformedJSON(source, line, column, offset, reason)? = error as? FlickrError else {
                return XCTFail("expected malformedJSON, got \(error)")
            }
            XCTAssertEqual(source, "test.json")
            XCTAssertEqual(line, 4)
            XCTAssertEqual(column, 18)
            XCTAssertEqual(offset, Array(Fixtures.malformed.utf8).firstIndex(of: UInt8(ascii: "}")))
            XCTAssertFalse(reason.isEmpty)
            let message = String(describing: error)
            XCTAssertTrue(message.hasPrefix("test.json: not a Flickr response: malformed JSON at line 4, column 18"))
            XCTAssertFalse(message.contains("\n"))
        }
    }

    func testOtherMalformedInputs() {
        for response in [Fixtures.jsonp, Fixtures.truncated, "", "   ", "{\"photos\":", "ok"] {
            XCTAssertThrowsError(try photos(response), response) { error in
                guard case .malformedJSON? = error as? FlickrError else {
                    return XCTFail("\(response): expected malformedJSON, got \(error)")
                }
            }
        }
    }

    func testATopLevelThatIsNotAnObject() {
        assertError(Fixtures.notAnObject, unexpectedShape("the top level is an array, not an object"))
        assertError("\"photos\"", unexpectedShape("the top level is a string, not an object"))
        assertError("null", unexpectedShape("the top level is null, not an object"))
    }

    func testPhotosMissingOrNotAnObject() {
        assertError(Fixtures.photosMissing, unexpectedShape(#"no "photos" member"#))
        assertError(Fixtures.photosNotAnObject, unexpectedShape(#""photos" is an array, not an object"#))
    }

    func testPhotoMissingOrNotAnArray() {
        assertError(Fixtures.photoMissing, unexpectedShape(#"no "photo" member in "photos""#))
        assertError(Fixtures.photoNotAnArray, unexpectedShape(#""photos.photo" is an object, not an array"#))
    }

    func testAStatOtherThanOkOrFail() {
        assertError(Fixtures.unknownStat, unexpectedShape(#""stat" is "maybe", not "ok" or "fail""#))
        assertError(Fixtures.statNotAString, unexpectedShape(#""stat" is a number, not a string"#))
    }

    func testUnexpectedShapeMessage() {
        XCTAssertEqual(
            unexpectedShape(#"no "photos" member"#).description,
            #"test.json: not a Flickr photos.search response: no "photos" member"#)
    }
}
