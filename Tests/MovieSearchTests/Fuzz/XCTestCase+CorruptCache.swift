import MovieSearch
@_spi(Engine) @testable import MovieSearchIndex
import XCTest

extension XCTestCase {
    /// Asserts that `body` throws `CacheError.corrupt`, with `detail` when one is given: a damaged cache is an
    /// error the user can act on, never a trap or a wrong answer.
    func assertCorrupt(_ body: @autoclosure () throws -> some Any, _ detail: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case let .corrupt(_, found)? = error as? CacheError else {
                return XCTFail("not corrupt: \(error)", file: file, line: line)
            }
            if let detail { XCTAssertEqual(found, detail, file: file, line: line) }
        }
    }
}
