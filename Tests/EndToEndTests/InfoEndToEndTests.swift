import Foundation
import MovieSearch
import TestSupport
import XCTest

/// `moviesearch info` run as the built binary on a cache built from the sample catalog in `Data/`: its text and
/// its JSON, whose bytes add up to the size of the file on disk; and the sample used when no cache is named.
final class InfoEndToEndTests: XCTestCase {
    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(TestPaths.sampleCatalog)
    }

    private func fileSize(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    func testTextSaysWhatTheCacheHoldsAndAddsUp() throws {
        let run = try BinaryRun.run(["info", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardError, "")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let size = try fileSize(cache)
        let grouped = size.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        let version = MovieIndex.cacheFormatVersion
        XCTAssertTrue(lines[0].hasPrefix("\(cache): format version \(version), \(grouped) bytes ("), lines[0])
        XCTAssertTrue(lines[0].hasSuffix("), checksum blocks of 4,096 bytes"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("62 movies, ") && lines[1].hasSuffix(" terms, 10 years"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("section  kind "), lines[2])
        for tag in ["MIDS", "RANK", "TOPR", "TTXO", "TTXT", "POST", "BMPS", "YEAR", "NMSZ"] {
            XCTAssertEqual(lines.filter { $0.hasPrefix(tag + " ") }.count, 1, tag)
        }
        // The groups' bytes, one line each, add up to the file's size.
        let groups = ["search", "records", "top lists", "filters", "file structure"]
        let totals = try groups.map { group in
            let line = try XCTUnwrap(lines.first { $0.hasPrefix(group + ": ") }, group)
            let figure = line.dropFirst(group.count + 2).prefix { $0 != " " }
            return try XCTUnwrap(Int(figure.replacingOccurrences(of: ",", with: "")), line)
        }
        XCTAssertEqual(totals.reduce(0, +), size)
        XCTAssertFalse(run.standardOutput.contains("unknown"), run.standardOutput)
    }

    func testJSONAddsUpToTheFileSize() throws {
        let run = try BinaryRun.run(["info", "--json", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardError, "")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let size = try fileSize(cache)
        XCTAssertEqual(object["version"] as? Int, MovieIndex.cacheFormatVersion)
        XCTAssertEqual(object["file_bytes"] as? Int, size)
        XCTAssertEqual(object["block_size"] as? Int, 4096)
        XCTAssertEqual(object["movie_count"] as? Int, 62)
        XCTAssertEqual(object["year_count"] as? Int, 10)
        let sections = try XCTUnwrap(object["sections"] as? [[String: Any]])
        let tags = sections.compactMap { $0["tag"] as? String }
        XCTAssertEqual(Set(tags).count, sections.count)
        XCTAssertTrue(Set(tags).isSuperset(of: ["MIDS", "TTLZ", "TTXT", "POST", "TOPR"]), "\(tags)")
        let structure = try XCTUnwrap(object["structure"] as? [String: Int])
        XCTAssertEqual(structure["header"], 64)
        XCTAssertEqual(structure["directory"], 32 * sections.count)
        let sectionBytes = sections.compactMap { $0["bytes"] as? Int }.reduce(0, +)
        XCTAssertEqual(sectionBytes + structure.values.reduce(0, +), size)
        let groups = try XCTUnwrap(object["groups"] as? [String: Int])
        XCTAssertEqual(groups.values.reduce(0, +), size)
        XCTAssertEqual(groups["unknown"], 0)
        for section in sections {
            let group = try XCTUnwrap(section["group"] as? String)
            XCTAssertTrue(["search", "records", "top_lists", "filters"].contains(group), "\(section)")
            XCTAssertFalse((section["holds"] as? String ?? "").isEmpty, "\(section)")
        }
    }

    /// Without --cache, info reads the cache MOVIESEARCH_CACHE names, as every command does.
    func testTheEnvironmentsCacheIsTheDefault() throws {
        let named = try BinaryRun.run(["info"], environment: ["MOVIESEARCH_CACHE": cache])
        XCTAssertEqual(named.status, 0, named.standardError)
        XCTAssertEqual(named.standardOutput, try BinaryRun.run(["info", "--cache", cache]).standardOutput)
    }
}
