import MovieSearch
@testable import MovieSearchQuery
import XCTest

/// `TokenKey` hashes a digest made when the key is made: keys of equal bytes are equal and hash alike, keys of other
/// bytes (a byte changed, moved, added, or left out) are not equal, and a dictionary keyed by them finds each.
final class TokenKeyTests: XCTestCase {
    func testEqualBytesEqualKeysOtherBytesOtherKeys() {
        let words: [[UInt8]] = ["", "a", "b", "ab", "ba", "abc", "abd", "darkness", "darkenss", "darknes", "caf\u{E9}"]
            .map { Array($0.utf8) } + [[0], [0, 0], [0xFF]]
        var table: [TokenKey: Int] = [:]
        for (place, word) in words.enumerated() {
            XCTAssertEqual(TokenKey(bytes: word), TokenKey(bytes: Array(word)))
            XCTAssertEqual(TokenKey(bytes: word).hashValue, TokenKey(bytes: Array(word)).hashValue)
            table[TokenKey(bytes: word)] = place
        }
        XCTAssertEqual(table.count, words.count, "no two words make equal keys")
        for (place, word) in words.enumerated() {
            XCTAssertEqual(table[TokenKey(bytes: word)], place, "\(word)")
            for (other, otherWord) in words.enumerated() where other != place {
                XCTAssertNotEqual(TokenKey(bytes: word), TokenKey(bytes: otherWord))
            }
        }
    }
}
