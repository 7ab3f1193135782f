import Foundation
import MovieSearch
import XCTest
import TestSupport

/// The built binary on the sample catalog of `Data/`, whose answers are known by heart.
final class SampleEndToEndTests: XCTestCase {
    private var cache = ""

    override func setUpWithError() throws {
        cache = try indexedCache(TestPaths.sampleCatalog)
    }

    func testIndexSaysWhatItDid() throws {
        let output = try TestPaths.temporaryFolder(self).appendingPathComponent("s.mscache").path
        let run = try BinaryRun.run(["index", TestPaths.sampleCatalog, "--output", output])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardError, "")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Indexed \(TestPaths.sampleCatalog) into \(output)")
        XCTAssertEqual(lines.dropFirst().first, "  format           moviesearch JSON (detected)")
        XCTAssertEqual(lines.dropFirst(2).first, "  movies           62")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  distinct tokens  ") }, run.standardOutput)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  file size        ") && $0.hasSuffix(" bytes)") }, run.standardOutput)
        let grouped = size.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        XCTAssertTrue(run.standardOutput.contains("(\(grouped) bytes)"), "\(size): \(run.standardOutput)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  time             ") && $0.hasSuffix("s") }, run.standardOutput)
        XCTAssertEqual(lines.count, 6)
    }

    func testQueryForPeople() throws {
        let run = try BinaryRun.run(["query", "dark", "--cache", cache])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardError, "")
        XCTAssertEqual(run.standardOutput, """
            "dark": 11 matches in 10 years

            2023 · 1 match
                  3/5  Beyond the Dark Orchard

            2022 · 1 match
                  4/5  Dark Horses of Kilkenny

            2021 · 1 match
                  4/5  Darkness at Noon Street

            2020 · 1 match
                  3/5  Dark Dark Woods

            2019 · 1 match
                  2/5  The Dark Knightingale

            2018 · 1 match
                  3/5  Into the Darkroom

            2017 · 1 match
                  5/5  Dark Matter Sundays

            2016 · 2 matches
                  4/5  Darker Than Amber Light
              unrated  Whispers Under the Dark Pier

            2015 · 1 match
                  3/5  Darkwater Crossing

            2014 · 1 match
                  4/5  The Dark Lighthouse

            """)
    }

    func testQueryPerYearCapsTheListNotTheCount() throws {
        let run = try BinaryRun.run(["query", "", "--cache", cache, "--per-year", "1"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.standardOutput.hasPrefix(
            "\"\": 62 matches in 10 years (no words in the query: every movie matches)\n\n2023 · 6 matches, 1 shown\n"
            + "  5/5  Zoë and the Zeppelin\n"), run.standardOutput)
        let none = try BinaryRun.run(["query", "zzz", "--cache", cache])
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.standardOutput, "No movie matches \"zzz\".\n")
    }

    func testQueryJSON() throws {
        let run = try BinaryRun.run(["query", "dark", "--cache", cache, "--json", "--per-year", "1"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.standardOutput.hasSuffix("}\n"))
        XCTAssertEqual(run.standardOutput.filter { $0 == "\n" }.count, 1, "exactly one line")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(object["query"] as? String, "dark")
        XCTAssertEqual(object["total"] as? Int, 11)
        let years = try XCTUnwrap(object["years"] as? [[String: Any]])
        XCTAssertEqual(years.compactMap { $0["year"] as? Int }, Array((2014...2023).reversed()))
        let year2016 = years[7]
        XCTAssertEqual(year2016["count"] as? Int, 2)
        let listed = try XCTUnwrap(year2016["movies"] as? [[String: Any]])
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(listed[0]["id"] as? Int, 12)
        XCTAssertEqual(listed[0]["title"] as? String, "Darker Than Amber Light")
        XCTAssertEqual(listed[0]["genres"] as? [String], ["Crime", "Thriller"])
        XCTAssertEqual(listed[0]["cast"] as? [String], ["Nadia Volkova", "Reuben Ashe"])

        let unrated = try BinaryRun.run(["query", "whispers", "--cache", cache, "--json"])
        XCTAssertTrue(unrated.standardOutput.contains(
            #""id":17,"title":"Whispers Under the Dark Pier","year":2016,"rating":null,"#), unrated.standardOutput)
        let fractional = try BinaryRun.run(["query", "umbrellas", "--cache", cache, "--json"])
        XCTAssertTrue(fractional.standardOutput.contains(#""rating":3.5,"#), fractional.standardOutput)
    }

    func testOddQueriesAreJustQueries() throws {
        for query in ["", "   ", "?!…", "😀", "日本", "'", String(repeating: "dark ", count: 2_000)] {
            let run = try BinaryRun.run(["query", "--json", "--cache", cache, "--", query])
            XCTAssertEqual(run.status, 0, "\(query.prefix(20)): \(run.standardError)")
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            XCTAssertEqual(object["query"] as? String, query)
        }
        let dash = try BinaryRun.run(["query", "--cache", cache, "--", "-dark"])
        XCTAssertEqual(dash.status, 0, dash.standardError)
    }

    func testQueryStandardInputAnswersEachLineAsTheSingleQueryDoes() throws {
        let queries = ["dark", "", "zzz", "cafe", "DON’T wake", "bruno", "strasse", "dark wo"]
        let input = queries.enumerated().map { $0.offset == 3 ? $0.element + "\r" : $0.element }.joined(separator: "\n")
        // No final line feed: the last line still counts.
        let run = try BinaryRun.run(["query", "--stdin", "--cache", cache, "--per-year", "2"], input: Data(input.utf8))
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardError, "")
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(lines.count, queries.count)
        for (query, line) in zip(queries, lines) {
            let single = try BinaryRun.run(["query", "--json", "--cache", cache, "--per-year", "2", "--", query])
            XCTAssertEqual(line + "\n", single.standardOutput, query)
        }
        let totals = try lines.map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["total"] as? Int
        }
        XCTAssertEqual(totals, [11, 62, 0, 2, 1, 0, 1, 1])

        let empty = try BinaryRun.run(["query", "--stdin", "--cache", cache])
        XCTAssertEqual(empty.status, 0)
        XCTAssertEqual(empty.standardOutput, "")
        let blankLines = try BinaryRun.run(["query", "--stdin", "--cache", cache], input: Data("\n\n".utf8))
        XCTAssertEqual(blankLines.standardOutput.split(separator: "\n").count, 2, "an empty line is a query too")
    }

    func testShow() throws {
        let url = FlickrPhotos.searchURL(title: "The Clockmaker's Daughter", apiKey: "k3y")
        let run = try BinaryRun.run(["show", "7", "--cache", cache], environment: ["FLICKR_API_KEY": "k3y"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardError, "")
        XCTAssertEqual(run.standardOutput, """
            The Clockmaker's Daughter
              id      7
              year    2015
              rating  ★★★★★ 5/5
              genres  Drama, Mystery
              cast    Ottilie Brandt, Samir Haddad
              flickr  \(url)

            """)

        let flagWins = try BinaryRun.run(["show", "31", "--cache", cache, "--flickr-key", "mine"],
                                         environment: ["FLICKR_API_KEY": "k3y"])
        XCTAssertEqual(flagWins.standardOutput, """
            Tidepool
              id      31
              year    2018
              rating  unrated
              genres  none listed
              cast    none listed
              flickr  \(FlickrPhotos.searchURL(title: "Tidepool", apiKey: "mine"))

            """)

        let placeholder = try BinaryRun.run(["show", "7", "--cache", cache])
        XCTAssertEqual(placeholder.status, 0)
        XCTAssertTrue(placeholder.standardOutput.contains(
            FlickrPhotos.searchURL(title: "The Clockmaker's Daughter", apiKey: FlickrPhotos.placeholderAPIKey)))
        XCTAssertEqual(placeholder.standardError, """
            moviesearch: note: no Flickr API key (pass --flickr-key <key> or set FLICKR_API_KEY): the request URL \
            holds the placeholder \(FlickrPhotos.placeholderAPIKey)

            """)
    }

    func testTop() throws {
        let run = try BinaryRun.run(["top", "--limit", "3", "--cache", cache])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardOutput, """
            The 3 best-rated movies of 62:
              1.  5/5  2014  Café Solitude
              2.  5/5  2015  The Clockmaker's Daughter
              3.  5/5  2016  The Last Ferry to Oyster Bay

            """)
        let all = try BinaryRun.run(["top", "--limit", "1000", "--cache", cache])
        let lines = all.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 63)
        let last = String(try XCTUnwrap(lines.last))
        XCTAssertTrue(last.hasSuffix("unrated  2023  Small Hours at Kells"), last)
        XCTAssertEqual(try BinaryRun.run(["top", "--cache", cache]).standardOutput.split(separator: "\n").count, 16)
        XCTAssertEqual(try BinaryRun.run(["top", "--limit", "0", "--cache", cache]).standardOutput, "No movies to list.\n")
    }

    func testCacheFromTheEnvironmentAndTheShippedSample() throws {
        let fromEnvironment = try BinaryRun.run(["query", "dark"], environment: ["MOVIESEARCH_CACHE": cache])
        XCTAssertEqual(fromEnvironment.status, 0)
        XCTAssertEqual(fromEnvironment.standardError, "")
        let flagWins = try BinaryRun.run(["query", "dark", "--cache", cache],
                                         environment: ["MOVIESEARCH_CACHE": "/nonexistent.mscache"])
        XCTAssertEqual(flagWins.status, 0)

        let sample = try BinaryRun.run(["query", "dark"])
        XCTAssertEqual(sample.status, 0, sample.standardError)
        XCTAssertEqual(sample.standardOutput, fromEnvironment.standardOutput)
        XCTAssertEqual(sample.standardError, """
            moviesearch: note: using the sample catalog \(TestPaths.sampleCache) (pass --cache <file> or set \
            MOVIESEARCH_CACHE)

            """)
    }

    func testAClosedPipeEndsTheRunQuietly() throws {
        // Far more output than a pipe holds, read by `head`, which then goes away: with pipefail, the status is
        // the tool's own unless `head` failed.
        let input = try temporaryFile("queries.txt", String(repeating: "\n", count: 5000))
        let script = #"set -o pipefail; "$0" query --stdin --cache "$1" < "$2" | head -c 100 >/dev/null"#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, TestPaths.binary.path, cache, input]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        ChildProcess.waitForExit(process)
        XCTAssertEqual(String(decoding: stderr, as: UTF8.self), "")
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
