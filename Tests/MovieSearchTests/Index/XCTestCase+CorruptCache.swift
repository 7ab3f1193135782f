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

    /// Asserts that the cache of `catalog`, forged by each of `forgeries` in turn (each on a fresh copy), is
    /// refused at open as corrupt with the detail each names.
    func assertCorruptAtOpen(_ catalog: Catalog, _ forgeries: [(String, (inout ForgedCache) -> Void)],
                             file: StaticString = #filePath, line: UInt = #line) throws {
        for (detail, forge) in forgeries {
            var cache = try ForgedCache(catalog)
            forge(&cache)
            assertCorrupt(try cache.opened(in: self), detail, file: file, line: line)
        }
    }
}
