import Foundation
import MovieSearch
@testable import MovieSearchQuery
import TestSupport
import XCTest

extension MovieIndex {
    /// The cache `bytes`, written to a file in a new temporary folder of `test` and opened: how a test reads a
    /// forged cache (`ForgedCache.opened(in:)`) as the tool would, through the file and its mapping.
    convenience init(bytes: [UInt8], _ test: XCTestCase) throws {
        let path = try TestPaths.temporaryFolder(test).appendingPathComponent("forged.mscache").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try self.init(path: path)
    }
}
