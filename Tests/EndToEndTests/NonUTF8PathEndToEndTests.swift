import Foundation
import XCTest
import TestSupport

/// File names that are not valid UTF-8 (`lat\xE9.mscache`, as a Latin-1 tool writes them), through the built
/// binary: paths are taken from the raw argument bytes and used unchanged, and messages show them escaped.
final class NonUTF8PathEndToEndTests: XCTestCase {
    private let b = RawBinaryRun.bytes

    /// A temporary folder, with the sample catalog indexed into `good.mscache` there.
    private func folderWithACache() throws -> (folder: [UInt8], cache: [UInt8]) {
        let folder = try TestPaths.temporaryFolder(self).path + "/"
        let run = try BinaryRun.run(["index", TestPaths.sampleCatalog, "-o", folder + "good.mscache"])
        XCTAssertEqual(run.status, 0, run.standardError)
        return (b(folder), b(folder + "good.mscache"))
    }

    func testACacheWithANonUTF8NameIsRead() throws {
        let (folder, good) = try folderWithACache()
        let latin1 = folder + b("lat") + [0xE9] + b(".mscache")
        RawBinaryRun.rename(good, to: latin1)
        for arguments in [[b("query"), b("dark"), b("--cache"), latin1], [b("query"), b("dark"), b("--cache=") + latin1],
                          [b("show"), b("0"), b("--cache"), latin1]] {
            let run = try RawBinaryRun.run(arguments)
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertFalse(run.standardOutput.isEmpty)
        }
        let fromEnvironment = try RawBinaryRun.run([b("query"), b("dark")], environment: ["MOVIESEARCH_CACHE": latin1])
        XCTAssertEqual(fromEnvironment.status, 0, fromEnvironment.standardError)
        XCTAssertTrue(fromEnvironment.standardOutput.contains("\"dark\""), fromEnvironment.standardOutput)
    }

    func testAMissingNonUTF8FileIsNamedEscaped() throws {
        let (folder, _) = try folderWithACache()
        let missing = folder + b("nope") + [0xE9, 0xFF] + b(".mscache")
        let run = try RawBinaryRun.run([b("query"), b("dark"), b("--cache"), missing])
        XCTAssertEqual(run.status, 1, run.standardError)
        let shown = String(decoding: folder, as: UTF8.self) + "nope\\xE9\\xFF.mscache"
        XCTAssertEqual(run.errorLines, ["moviesearch: cannot open cache \(shown): No such file or directory"])
    }

    func testIndexWritesTheOutputNameAsGiven() throws {
        let (folder, _) = try folderWithACache()
        let output = folder + b("out") + [0xE9] + b(".mscache")
        let run = try RawBinaryRun.run([b("index"), b(TestPaths.sampleCatalog), b("-o"), output])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("out\\xE9.mscache"), run.standardOutput)
        XCTAssertTrue(RawBinaryRun.exists(output), "the cache is at the name given")
        XCTAssertFalse(RawBinaryRun.exists(folder + b("out\u{FFFD}.mscache")), "not at a repaired name")
        let query = try RawBinaryRun.run([b("query"), b("dark"), b("--cache"), output])
        XCTAssertEqual(query.status, 0, query.standardError)
    }

    func testTheDefaultOutputOfANonUTF8CatalogKeepsItsBytes() throws {
        let (folder, good) = try folderWithACache()
        let catalog = folder + b("caf") + [0xE9] + b(".json")
        try FileManager.default.copyItem(atPath: TestPaths.sampleCatalog,
                                         toPath: String(decoding: folder, as: UTF8.self) + "plain.json")
        RawBinaryRun.rename(folder + b("plain.json"), to: catalog)
        let run = try RawBinaryRun.run([b("index"), catalog])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(RawBinaryRun.exists(folder + b("caf") + [0xE9] + b(".mscache")))
        // The same catalog always gives the same bytes.
        XCTAssertEqual(try RawBinaryRun.contents(folder + b("caf") + [0xE9] + b(".mscache")),
                       try RawBinaryRun.contents(good))
    }
}
