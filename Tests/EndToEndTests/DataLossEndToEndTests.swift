import Foundation
import XCTest
import TestSupport

/// `index` never replaces what it should not: the catalog itself (named directly or through a link), or a good
/// cache with one of no movie. Through the built binary.
final class DataLossEndToEndTests: XCTestCase {
    private static let catalog = """
        [{"title": "Alpha Dawn", "year": 2010, "rating": 3}, {"title": "Beta Dusk", "year": 2011}]
        """

    /// Status 1, nothing on stdout, one stderr line that starts with `prefix`.
    private func assertRefused(_ arguments: [String], startsWith prefix: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try BinaryRun.run(arguments, file: file, line: line)
        XCTAssertEqual(run.status, 1, "\(arguments): \(run.standardError)", file: file, line: line)
        XCTAssertEqual(run.standardOutput, "", file: file, line: line)
        XCTAssertEqual(run.errorLines.count, 1, run.standardError, file: file, line: line)
        XCTAssertTrue(run.standardError.hasPrefix(prefix), "\(run.standardError) should start with \(prefix)",
                      file: file, line: line)
    }

    private func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testIndexRefusesToWriteOverItsCatalog() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let catalog = folder + "/cat.json"
        try write(Self.catalog, catalog)
        try assertRefused(["index", catalog, "-o", catalog],
                          startsWith: "moviesearch: the output \(catalog) is the catalog itself")
        // Through a symbolic link, a hard link, and a path spelled differently.
        try FileManager.default.createSymbolicLink(atPath: folder + "/soft.mscache", withDestinationPath: "cat.json")
        try FileManager.default.linkItem(atPath: catalog, toPath: folder + "/hard.mscache")
        for output in [folder + "/soft.mscache", folder + "/hard.mscache", folder + "/./cat.json"] {
            try assertRefused(["index", catalog, "-o", output], startsWith: "moviesearch: the output \(output) is ")
        }
        XCTAssertEqual(try contents(catalog), Data(Self.catalog.utf8), "the catalog is untouched")
        let soft = try FileManager.default.attributesOfItem(atPath: folder + "/soft.mscache")
        XCTAssertEqual(soft[.type] as? FileAttributeType, .typeSymbolicLink, "the link is still a link")
    }

    func testIndexRefusesAnOutputThatIsTheFileOnItsStandardInput() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let catalog = folder + "/movies.json"
        try write(Self.catalog, catalog)
        // `index - -o movies.json < movies.json`, and the same output named through /dev/stdin.
        for output in [catalog, "/dev/stdin"] {
            let input = try XCTUnwrap(FileHandle(forReadingAtPath: catalog))
            defer { try? input.close() }
            let run = try ChildProcess.run(try ChildProcess.binary(), ["index", "-", "-o", output], standardInput: input)
            XCTAssertTrue(run.exited(1), "-o \(output): \(run.summary)")
            XCTAssertEqual(run.standardError, "moviesearch: the output \(output) is the catalog <stdin> (the same file); "
                + "give another path with -o <cache>\n")
            XCTAssertEqual(try contents(catalog), Data(Self.catalog.utf8), "the catalog is untouched (-o \(output))")
        }
    }

    func testIndexRefusesADefaultOutputThatIsTheCatalog() throws {
        // A JSON catalog named like a cache: its default output is itself.
        let catalog = try TestPaths.temporaryFolder(self).path + "/movies.mscache"
        try write(Self.catalog, catalog)
        try assertRefused(["index", catalog], startsWith: "moviesearch: the output \(catalog) is the catalog itself")
        XCTAssertEqual(try contents(catalog), Data(Self.catalog.utf8))
    }

    func testNoValidMovieKeepsThePreviousCache() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let good = folder + "/good.json", cache = folder + "/good.mscache"
        try write(Self.catalog, good)
        XCTAssertEqual(try BinaryRun.run(["index", good, "-o", cache]).status, 0)
        let before = try contents(cache)

        let invalid = folder + "/allinvalid.json"
        try write(#"[{"title": "A", "year": "2010"}, {"title": "B"}, {"year": 2011}]"#, invalid)
        try assertRefused(["index", invalid, "--skip-invalid", "-o", cache],
                          startsWith: "moviesearch: no valid movie in \(invalid): 3 skipped")
        for (name, text) in [("empty.json", "[]"), ("nomovies.json", #"{"movies": []}"#)] {
            try write(text, folder + "/" + name)
            for skip in [[], ["--skip-invalid"]] {
                try assertRefused(["index", folder + "/" + name, "-o", cache] + skip,
                                  startsWith: "moviesearch: no movie in \(folder)/\(name): the catalog is empty")
            }
        }
        XCTAssertEqual(try contents(cache), before, "the previous cache stays byte for byte")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertFalse(names.contains { $0.hasPrefix(".") }, "no temporary file left: \(names)")
    }
}
