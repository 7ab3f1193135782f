import Foundation
import MovieSearch
import XCTest
import TestSupport

/// The built binary on the decade dataset of `../shared` (2,272 movies, 2009–2018).
final class DecadeEndToEndTests: XCTestCase {
    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(try Requirement.sharedData("data/movies.json"))
    }

    private func answer(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], file: file, line: line)
    }

    func testIndex() throws {
        let catalog = try Requirement.sharedData("data/movies.json")
        let output = try TestPaths.temporaryFolder(self).appendingPathComponent("d.mscache").path
        let run = try BinaryRun.run(["index", catalog, "-o", output])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("\n  movies           2,272\n"), run.standardOutput)
    }

    /// The shape the spec asks for: years newest first, counts that add up, at most K listed, ratings descending
    /// with unrated last and ids ascending on ties.
    func testQueryAnswersAreWellFormed() throws {
        for (query, perYear) in [("dark", 5), ("the", 3), ("", 2), ("love", 0), ("xyzzy", 5)] {
            let run = try BinaryRun.run(["query", query, "--json", "--per-year", "\(perYear)", "--cache", cache])
            XCTAssertEqual(run.status, 0, run.standardError)
            let object = try answer(run.standardOutput)
            let years = try XCTUnwrap(object["years"] as? [[String: Any]])
            let yearNumbers = years.compactMap { $0["year"] as? Int }
            XCTAssertEqual(yearNumbers, yearNumbers.sorted(by: >), query)
            XCTAssertEqual(years.compactMap { $0["count"] as? Int }.reduce(0, +), object["total"] as? Int, query)
            for year in years {
                let movies = try XCTUnwrap(year["movies"] as? [[String: Any]])
                let count = try XCTUnwrap(year["count"] as? Int, query)
                XCTAssertEqual(movies.count, min(perYear, count), query)
                let keys = try movies.map { ($0["rating"] as? Int ?? -1, -(try XCTUnwrap($0["id"] as? Int))) }
                XCTAssertTrue(zip(keys, keys.dropFirst()).allSatisfy { $0 > $1 }, "\(query): \(keys)")
                XCTAssertTrue(movies.allSatisfy { $0["year"] as? Int == year["year"] as? Int })
            }
        }
        let browse = try answer(try BinaryRun.run(["query", "", "--json", "--cache", cache]).standardOutput)
        XCTAssertEqual(browse["total"] as? Int, 2272)
    }

    func testQueryStandardInputWithTheTypingQueries() throws {
        let path = try Requirement.sharedData("queries/decade-typing.txt")
        let queries = Array(try String(contentsOfFile: path, encoding: .utf8)
            .components(separatedBy: "\n").dropLast().prefix(300))
        let run = try BinaryRun.run(["query", "--stdin", "--cache", cache],
                                    input: Data((queries.joined(separator: "\n") + "\n").utf8))
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(lines.count, queries.count)
        for index in stride(from: 0, to: queries.count, by: 60) {
            let single = try BinaryRun.run(["query", "--json", "--cache", cache, "--", queries[index]])
            XCTAssertEqual(lines[index] + "\n", single.standardOutput, queries[index])
        }
    }

    func testShowTopAndPhotos() throws {
        let dark = try answer(try BinaryRun.run(["query", "dark", "--json", "--cache", cache]).standardOutput)
        let first = try XCTUnwrap(((dark["years"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])?.first)
        let id = try XCTUnwrap(first["id"] as? Int)
        let title = try XCTUnwrap(first["title"] as? String)

        let show = try BinaryRun.run(["show", "\(id)", "--cache", cache, "--flickr-key", "k"])
        XCTAssertEqual(show.status, 0)
        XCTAssertTrue(show.standardOutput.hasPrefix("\(title)\n  id      \(id)\n"), show.standardOutput)
        XCTAssertTrue(show.standardOutput.contains(FlickrPhotos.searchURL(title: title, apiKey: "k")))

        let top = try BinaryRun.run(["top", "--cache", cache])
        XCTAssertEqual(top.status, 0)
        let lines = top.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.first, "The 15 best-rated movies of 2,272:")
        XCTAssertEqual(lines.count, 16)

        let photos = try BinaryRun.run(["photos", "\(id)", "--cache", cache, "--flickr-key", "k", "--json",
                                        "--offline"])
        XCTAssertEqual(try answer(photos.standardOutput)["title"] as? String, title)
    }
}
