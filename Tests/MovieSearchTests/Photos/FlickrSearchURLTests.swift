import Foundation
import XCTest

import MovieSearch
@testable import MovieSearchPhotos

final class FlickrSearchURLTests: XCTestCase {
    private let prefix = "https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key="
    private let titles = [
        "The Dark Knight Rises",
        "Tom & Jerry",
        "A=B",
        "#Alive",
        "Romeo + Juliet",
        "What's Up, Doc?",
        "Face/Off",
        "100% Wolf",
        "%2B and %20, already encoded",
        "\"Crocodile\" Dundee",
        "‘Smart’ “quotes”",
        "Amélie",
        "Ame\u{301}lie",
        "Brüno",
        "Mission: Impossible – Ghost Protocol",
        "千と千尋の神隠し",
        "기생충",
        "🎬 Movie Night 👨‍👩‍👧 🇫🇷",
        "½",
        "Tabs\tand\nnew lines",
        "semi;colon,comma!bang*star(paren)'apos'",
        "a~b-c_d.e",
        "",
    ]

    /// The query items of `url` as Foundation parses them, which is how a server will read them.
    private func queryItems(_ url: String, file: StaticString = #filePath, line: UInt = #line) -> [URLQueryItem] {
        guard let components = URLComponents(string: url) else {
            XCTFail("Foundation cannot parse \(url)", file: file, line: line)
            return []
        }
        XCTAssertEqual(components.scheme, "https", file: file, line: line)
        XCTAssertEqual(components.host, "api.flickr.com", file: file, line: line)
        XCTAssertEqual(components.path, "/services/rest/", file: file, line: line)
        return components.queryItems ?? []
    }

    func testDecodingTheTextValueGivesTheTitleBack() {
        for title in titles {
            let url = FlickrPhotos.searchURL(title: title, apiKey: "0123abcd")
            let items = queryItems(url)
            let text = items.first { $0.name == "text" }?.value
            XCTAssertEqual(text.map { Array($0.unicodeScalars) }, Array(title.unicodeScalars), "title \(title)")
            XCTAssertEqual(items.map(\.name), ["method", "api_key", "format", "nojsoncallback", "text", "page", "per_page"])
            XCTAssertNotNil(URL(string: url), "title \(title)")
        }
    }

    func testTheRestOfTheURLIsExactlyTheSpecs() {
        for title in titles {
            let url = FlickrPhotos.searchURL(title: title, apiKey: "0123abcd")
            let head = prefix + "0123abcd&format=json&nojsoncallback=1&text="
            let tail = "&page=1&per_page=10"
            XCTAssertTrue(url.hasPrefix(head), url)
            XCTAssertTrue(url.hasSuffix(tail), url)
            let encoded = url.dropFirst(head.count).dropLast(tail.count)
            XCTAssertTrue(isPercentEncodedQueryValue(encoded), "\(title) → \(encoded)")
        }
    }

    func testTheEncodingOfSomeTitlesExactly() {
        let expected = [
            "Tom & Jerry": "Tom%20%26%20Jerry",
            "Romeo + Juliet": "Romeo%20%2B%20Juliet",
            "100% Wolf": "100%25%20Wolf",
            "What's Up, Doc?": "What%27s%20Up%2C%20Doc%3F",
            "Face/Off": "Face%2FOff",
            "#Alive": "%23Alive",
            "A=B": "A%3DB",
            "\"Crocodile\"": "%22Crocodile%22",
            "Amélie": "Am%C3%A9lie",
            "千": "%E5%8D%83",
            "🎬": "%F0%9F%8E%AC",
            "a~b-c_d.e": "a~b-c_d.e",
            "AZaz09": "AZaz09",
            "": "",
        ]
        for (title, value) in expected {
            XCTAssertEqual(PercentEncoding.queryValue(title), value, title)
            XCTAssertEqual(
                FlickrPhotos.searchURL(title: title, apiKey: "K"),
                prefix + "K&format=json&nojsoncallback=1&text=\(value)&page=1&per_page=10")
        }
    }

    func testEveryByteOutsideTheUnreservedSetIsEncoded() {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        for byte in UInt8(0)...UInt8(127) {
            let text = String(decoding: [byte], as: UTF8.self)
            let expected = unreserved.contains(byte) ? text : "%" + String(format: "%02X", byte)
            XCTAssertEqual(PercentEncoding.queryValue(text), expected, "byte \(byte)")
        }
    }

    func testThePlaceholderKeyIsVisibleInTheURL() {
        let url = FlickrPhotos.searchURL(title: "Heat", apiKey: FlickrPhotos.placeholderAPIKey)
        XCTAssertEqual(
            url,
            prefix + FlickrPhotos.placeholderAPIKey + "&format=json&nojsoncallback=1&text=Heat&page=1&per_page=10")
    }

    func testTheAPIKeyIsEncodedToo() {
        let key = "k&y=1 +#"
        let url = FlickrPhotos.searchURL(title: "Heat", apiKey: key)
        XCTAssertTrue(url.hasPrefix(prefix + "k%26y%3D1%20%2B%23&format=json"), url)
        XCTAssertEqual(queryItems(url).first { $0.name == "api_key" }?.value, key)
    }

    private func isPercentEncodedQueryValue(_ text: Substring) -> Bool {
        let bytes = Array(text.utf8)
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "%") {
                guard position + 2 < bytes.count else { return false }
                let hex = bytes[(position + 1)...(position + 2)]
                guard hex.allSatisfy({ "0123456789ABCDEF".utf8.contains($0) }) else { return false }
                position += 3
            } else {
                guard "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8.contains(byte)
                else { return false }
                position += 1
            }
        }
        return true
    }
}
