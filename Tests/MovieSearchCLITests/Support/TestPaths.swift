import Foundation
import XCTest

/// Where the CLI tests find the package, its sample data, the shared data and the built `moviesearch` binary.
enum TestPaths {
    /// The package root: four levels above this file (`Tests/MovieSearchCLITests/Support/TestPaths.swift`).
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }()

    static let sampleCatalog = packageRoot.appendingPathComponent("Data/sample-movies.json").path
    static let sampleCache = packageRoot.appendingPathComponent("Data/sample-movies.mscache").path

    /// The path of `relative` (for example `data/movies.json`) inside `../shared`, which CI always has: a test
    /// that needs it fails when `CI` is set and is skipped otherwise.
    static func shared(_ relative: String) throws -> String {
        let path = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
            .appendingPathComponent(relative).path
        if FileManager.default.fileExists(atPath: path) { return path }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("\(path) not found, and CI is set: CI must have ../shared beside the package")
            throw CocoaError(.fileNoSuchFile)
        }
        throw XCTSkip("\(path) not found: this test needs ../shared beside the package (CI always has it)")
    }

    /// The `moviesearch` executable that `swift build` / `swift test` put beside the test bundle.
    static let binary: URL = {
        #if os(macOS)
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }!.bundleURL
            .deletingLastPathComponent()
        #else
        let products = Bundle.main.bundleURL
        #endif
        return products.appendingPathComponent("moviesearch")
    }()

    /// A new empty folder, removed when the test ends.
    static func temporaryFolder(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("moviesearch-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock {
            // Undo any `chmod` a test made, so that the folder can be removed.
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            try? FileManager.default.removeItem(at: url)
        }
        return url
    }
}
