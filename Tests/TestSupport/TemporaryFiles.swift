import Foundation
import Synchronization
import XCTest

extension XCTestCase {
    /// Writes `text` to a new file named `name` in a temporary folder removed after the test; returns its path.
    package func temporaryFile(_ name: String, _ text: String) throws -> String {
        let url = try TestPaths.temporaryFolder(self).appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Indexes `catalog` with the built binary into a temporary folder and returns the cache's path.
    ///
    /// A catalog no test writes (the shared data, the sample catalog) is indexed once per test process
    /// (`IndexedOnce`), and each test gets a copy of that cache of its own: a debug binary takes half a second to
    /// index the decade catalog, which a dozen tests serve.
    package func indexedCache(_ catalog: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("test.mscache").path
        if let indexed = try IndexedOnce.cache(of: catalog, file: file, line: line) {
            try FileManager.default.copyItem(atPath: indexed, toPath: cache)
            return cache
        }
        let run = try BinaryRun.run(["index", catalog, "-o", cache], file: file, line: line)
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        return cache
    }
}

/// The caches of the catalogs that no test writes, each indexed by the built binary once per test process into a
/// folder removed when the process exits.
enum IndexedOnce {
    private static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("moviesearch-tests-indexed-\(ProcessInfo.processInfo.processIdentifier)")
    private static let caches = Mutex<[String: String]>([:])

    /// `index` failed on a catalog: the test fails with its message.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The cache of `catalog` when it is one that no test writes, indexed on the first call; else `nil`.
    static func cache(of catalog: String, file: StaticString, line: UInt) throws -> String? {
        let readOnly = catalog == TestPaths.sampleCatalog || catalog.hasPrefix(SharedData.folder.path + "/")
        guard readOnly else { return nil }
        return try caches.withLock { caches throws -> String in
            if let known = caches[catalog] { return known }
            if caches.isEmpty {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                atexit { try? FileManager.default.removeItem(at: IndexedOnce.folder) }
            }
            let cache = folder.appendingPathComponent("\(caches.count).mscache").path
            let run = try BinaryRun.run(["index", catalog, "-o", cache], file: file, line: line)
            guard run.status == 0 else { throw Failure(description: "index \(catalog): \(run.standardError)") }
            caches[catalog] = cache
            return cache
        }
    }
}
