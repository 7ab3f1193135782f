import Foundation
import XCTest

/// Where tests find the package, its sample data and the built `moviesearch` binary, and where they put their
/// temporary files. The shared data in `../shared` is `SharedData`'s.
package enum TestPaths {
    /// The package root: three levels above this file (`Tests/TestSupport/TestPaths.swift`).
    package static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    package static let sampleCatalog = packageRoot.appendingPathComponent("Data/sample-movies.json").path
    package static let sampleCache = packageRoot.appendingPathComponent("Data/sample-movies.mscache").path

    /// The `moviesearch` executable that `swift build` / `swift test` put beside the test bundle, or the one
    /// `MOVIESEARCH_TEST_BINARY` names: `.ci/run` runs the end-to-end tests once more against the installed static
    /// binary, to check it reads caches and writes files as the dynamic one does.
    package static let binary: URL = {
        if let given = ProcessInfo.processInfo.environment["MOVIESEARCH_TEST_BINARY"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        #if os(macOS)
        // Without a test bundle, the main bundle's folder: if `moviesearch` is not there, `ChildProcess.binary()`
        // fails the test that asked, naming the path, rather than a trap here ending every test.
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? Bundle.main
        let products = bundle.bundleURL.deletingLastPathComponent()
        #else
        let products = Bundle.main.bundleURL
        #endif
        return products.appendingPathComponent("moviesearch")
    }()

    /// A new empty folder, removed when the test ends.
    package static func temporaryFolder(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("moviesearch-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock {
            // Undo any `chmod` a test made, so that the folder can be removed.
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            try? FileManager.default.removeItem(at: url)
        }
        return url
    }
}
