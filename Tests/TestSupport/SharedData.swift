import Foundation
import MovieSearch
import XCTest

/// Finds the project's shared data (`../shared` beside the package root), which CI always has.
///
/// A test that needs it and cannot find it fails when the environment variable `CI` is set, and is skipped with a
/// clear message otherwise.
package enum SharedData {
    /// The path of `relative` (for example `data/movies.json`) inside `../shared`.
    package static func path(_ relative: String) throws -> String {
        let path = TestPaths.packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared").appendingPathComponent(relative).path
        if FileManager.default.fileExists(atPath: path) { return path }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw MissingSharedData(path: path)
        }
        throw XCTSkip("\(path) not found: this test needs ../shared beside the package (CI always has it)")
    }

    /// The shared catalog `name` (for example `century-movies.json`), decoded once per test process: a debug build
    /// takes over a second to decode the century catalog, and five test classes read it. A `Catalog` is a value, so
    /// no test can change what another gets. Throws as `path` does when the data is missing.
    package static func catalog(_ name: String) throws -> Catalog {
        let path = try path("data/\(name)")
        decodedLock.lock()
        defer { decodedLock.unlock() }
        if let catalog = decoded[name] { return catalog }
        let catalog = try CatalogDecoder.load(path: path)
        decoded[name] = catalog
        return catalog
    }

    nonisolated(unsafe) private static var decoded: [String: Catalog] = [:]
    private static let decodedLock = NSLock()

    /// The lines of a query set in `../shared/queries`, as typed (blank lines kept: they are queries too).
    package static func queries(_ name: String) throws -> [String] {
        let text = try String(contentsOfFile: path("queries/\(name)"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The error that fails a test needing `../shared` when CI is set and the data is missing.
    package struct MissingSharedData: Error, CustomStringConvertible {
        package var path: String
        package var description: String { "\(path) not found, and CI is set: CI must have ../shared beside the package" }
    }
}
