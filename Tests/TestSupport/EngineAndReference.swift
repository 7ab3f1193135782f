import Foundation
import XCTest
import MovieSearch

/// A catalog indexed by the engine (a cache file in a temporary folder) beside `SpecReference` on the same
/// catalog, so that a test can ask both the same query and compare mode, total, years, ids, typo counts and spans.
package final class EngineAndReference {
    package let catalog: Catalog
    package let index: MovieIndex
    package let reference: SpecReference
    private let titles: [Int: String]

    /// Indexes `catalog` in a temporary folder of `test` and builds the reference.
    package convenience init(_ catalog: Catalog, _ test: XCTestCase) throws {
        try self.init(catalog, index: Fixtures.index(catalog, test))
    }

    /// The engine's `index` of `catalog` beside the reference built from `catalog`.
    package init(_ catalog: Catalog, index: MovieIndex) {
        self.catalog = catalog
        self.index = index
        reference = SpecReference(catalog)
        titles = Dictionary(uniqueKeysWithValues: catalog.movies.map { ($0.id, $0.title) })
    }

    /// The engine and the reference on the shared catalog `name` (in `../shared/data`), built once per test process:
    /// indexing the century catalog takes seconds in a debug build. The cache file is deleted as soon as it is
    /// open (the mapping keeps its bytes), so nothing is left behind. Throws as `Requirement.sharedData` does when the
    /// data is missing.
    package static func shared(_ name: String) throws -> EngineAndReference {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if let built = shared[name] { return built }
        let catalog = try SharedData.catalog(name)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviesearch-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shared.mscache").path
        _ = try CacheWriter.write(catalog, to: path)
        let built = EngineAndReference(catalog, index: try MovieIndex(path: path))
        shared[name] = built
        return built
    }

    nonisolated(unsafe) private static var shared: [String: EngineAndReference] = [:]
    private static let sharedLock = NSLock()

    /// The engine's answer, with its highlighter's spans for each listed title.
    package func engine(_ query: String, perYear: Int = 5, typos: TypoTolerance = .auto) throws -> SpecAnswer {
        let result = try index.search(query, perYear: perYear, typos: typos)
        return try SpecAnswer(result) { try self.title($0) }
    }

    /// The reference's answer.
    package func expected(_ query: String, perYear: Int = 5, typos: TypoTolerance = .auto) -> SpecAnswer {
        reference.search(query, perYear: perYear, typos: typos)
    }

    /// The title of the movie with this id; throws (failing the test) for an id the catalog does not have.
    package func title(_ id: Int) throws -> String {
        try XCTUnwrap(titles[id], "no movie with id \(id) in the catalog")
    }

    /// Whether the engine's answer equals the reference's; when not, and `report` is set, a failure naming the
    /// first difference. (`report: false` lets a caller count mismatches and report a few.)
    @discardableResult
    package func check(_ query: String, perYear: Int = 5, typos: TypoTolerance = .auto, report: Bool = true,
                       file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let actual = try engine(query, perYear: perYear, typos: typos)
        let expected = expected(query, perYear: perYear, typos: typos)
        if actual == expected { return true }
        if report {
            XCTFail("query \(query.debugDescription) perYear \(perYear) typos \(typos.rawValue): engine \(actual.firstDifference(from: expected)) (engine vs reference)\n  engine:    \(actual)\n  reference: \(expected)",
                    file: file, line: line)
        }
        return false
    }

    /// The engine's answer, after checking that it equals the reference's (a failure when not).
    package func answer(_ query: String, perYear: Int = 5, typos: TypoTolerance = .auto,
                        file: StaticString = #filePath, line: UInt = #line) throws -> SpecAnswer {
        try check(query, perYear: perYear, typos: typos, file: file, line: line)
        return try engine(query, perYear: perYear, typos: typos)
    }

    /// The titles an answer lists, in its order; throws as `title(_:)` does.
    package func titles(_ answer: SpecAnswer) throws -> [String] {
        try answer.years.flatMap(\.ids).map(title)
    }
}
