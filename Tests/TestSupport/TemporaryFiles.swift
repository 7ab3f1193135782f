import Foundation
import XCTest

extension XCTestCase {
    /// Writes `text` to a new file named `name` in a temporary folder removed after the test; returns its path.
    package func temporaryFile(_ name: String, _ text: String) throws -> String {
        let url = try TestPaths.temporaryFolder(self).appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Indexes `catalog` with the built binary into a temporary folder and returns the cache's path.
    package func indexedCache(_ catalog: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("test.mscache").path
        let run = try BinaryRun.run(["index", catalog, "-o", cache], file: file, line: line)
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        return cache
    }
}
