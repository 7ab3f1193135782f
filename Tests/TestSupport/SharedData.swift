import Foundation
import MovieSearch

/// The project's shared data (`../shared` beside the package root), which CI always has: its catalogs decoded once
/// per test process, its query sets. A test that needs it and cannot find it is skipped, or fails when the
/// environment variable `CI` is set (`Requirement.sharedData`).
package enum SharedData {
    /// The folder of the shared data: `shared` beside the package root.
    package static let folder = TestPaths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The shared catalog `name` (for example `century-movies.json`), decoded once per test process: a debug build
    /// takes over a second to decode the century catalog, and several test classes read it. A `Catalog` is a value, so
    /// no test can change what another gets. Throws as `Requirement.sharedData` does when the data is missing.
    package static func catalog(_ name: String) throws -> Catalog {
        let path = try Requirement.sharedData("data/\(name)")
        decodedLock.lock()
        defer { decodedLock.unlock() }
        if let catalog = decoded[name] { return catalog }
        let catalog = try CatalogDecoder.load(path: path)
        decoded[name] = catalog
        return catalog
    }

    nonisolated(unsafe) private static var decoded: [String: Catalog] = [:]
    private static let decodedLock = NSLock()

    /// The titles of the shared catalog `name`, in its order, read with Foundation's JSON reader (optimized in
    /// every build), not the catalog decoder under test: for tests that need the titles only, where decoding the
    /// century catalog unoptimized would cost a second. Fails when the file holds no array of movies with titles.
    package static func titles(_ name: String) throws -> [String] {
        let path = try Requirement.sharedData("data/\(name)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        guard let movies = ((json as? [String: Any])?["movies"] ?? json) as? [[String: Any]] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
        }
        return movies.compactMap { $0["title"] as? String }
    }

    /// The lines of a query set in `../shared/queries`, as typed (blank lines kept: they are queries too).
    package static func queries(_ name: String) throws -> [String] {
        let text = try String(contentsOfFile: Requirement.sharedData("queries/\(name)"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
