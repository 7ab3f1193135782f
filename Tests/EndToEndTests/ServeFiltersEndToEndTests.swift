import Foundation
import TestSupport
import XCTest

/// The filters and the genre facet through `moviesearch serve` on the decade catalog: `/api/search` and `/api/top`
/// with `year`, `genre`, `cast`, `min_rating`, `min_critic`, `facets=genre` against the CLI's `--json` bytes for the
/// same filters; bad values and too many or too long names answered 400 naming the value; `/api/genres` against a
/// count made here from the catalog; ETag and 304 per filtered answer.
final class ServeFiltersEndToEndTests: XCTestCase {
    private func cli(_ arguments: [String], input: String = "", file: StaticString = #filePath, line: UInt = #line)
        throws -> String
    {
        let run = try BinaryRun.run(arguments, input: Data(input.utf8), file: file, line: line)
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.standardError)", file: file, line: line)
        return run.standardOutput
    }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// A request's query from its parameters, each value percent-encoded.
    private func query(_ parameters: [(String, String)]) -> String {
        parameters.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    /// Each case with three searches and both lists, with and without a limit, in a full run (`TestScale`); a sampled
    /// run, where each of the CLI's answers is a debug binary's run, makes two searches and the lists without one.
    /// The CLI answers a case's searches in one run (`query --stdin --json`: a line each, the single query's bytes).
    func testFilteredSearchesAndTopListsAreTheCLIs() throws {
        let cache = try servedDecadeCache()
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        // (the API's parameters, the CLI's options for them)
        let cases: [([(String, String)], [String])] = [
            ([("genre", "Drama")], ["--genre", "Drama"]),
            ([("genre", "  science   FICTION "), ("facets", "genre")], ["--genre", "  science   FICTION ", "--facets", "genre"]),
            ([("year", "2012..2014"), ("genre", "Comedy"), ("genre", "Romance"), ("facets", "genre")],
             ["--year", "2012..2014", "--genre", "Comedy", "--genre", "Romance", "--facets", "genre"]),
            ([("year", "2015.."), ("min_rating", "7")], ["--year", "2015..", "--min-rating", "7"]),
            ([("year", "..2011"), ("min_critic", "6.5"), ("facets", "genre")],
             ["--year", "..2011", "--min-critic", "6.5", "--facets", "genre"]),
            ([("year", "2013")], ["--year", "2013"]),
            ([("cast", "Bradley Cooper")], ["--cast", "Bradley Cooper"]),
            ([("cast", "kristen wiig"), ("genre", "Comedy"), ("facets", "genre")],
             ["--cast", "kristen wiig", "--genre", "Comedy", "--facets", "genre"]),
            // A genre no movie has: an empty answer, the same bytes.
            ([("genre", "Dramma"), ("facets", "genre")], ["--genre", "Dramma", "--facets", "genre"]),
        ]
        var narrowed = 0
        let texts = TestScale.pick(sampled: ["", "dark"], full: ["", "dark", "lov"])
        let plains = try texts.map { try json(try server.request("/api/search?q=\(percentEncoded($0))").text) }
        for (parameters, options) in cases {
            let lines = try cli(["query", "--stdin", "--json", "--cache", cache] + options,
                                input: texts.map { $0 + "\n" }.joined())
                .split(separator: "\n", omittingEmptySubsequences: false).map { String($0) + "\n" }
            XCTAssertEqual(lines.count, texts.count + 1, "\(options): a line per query")
            for (number, (text, plain)) in zip(texts, plains).enumerated() {
                let target = "/api/search?" + query([("q", text)] + parameters)
                let answer = try server.request(target)
                XCTAssertEqual(answer.status, 200, target)
                XCTAssertEqual(answer.header("Content-Type"), "application/json", target)
                XCTAssertEqual(answer.text, lines[number], target)
                let filtered = try json(answer.text)
                XCTAssertNotNil(filtered["filters"], target)
                XCTAssertEqual(filtered["facets"] != nil, parameters.contains { $0.0 == "facets" }, target)
                if let total = filtered["total"] as? Int, let all = plain["total"] as? Int, total < all {
                    narrowed += 1
                }
            }
        }
        // The filters did filter: most filtered answers hold fewer movies than the plain search.
        XCTAssertGreaterThan(narrowed, cases.count * texts.count * 2 / 3)

        // Each case under both orders in a full run; a sampled one takes the orders in turn: by rating under a genre
        // and a year, by critic under a year with a minimum rating and under a cast.
        let unfaceted = cases.filter { !$0.0.contains { $0.0 == "facets" } }
        for (number, (parameters, options)) in unfaceted.enumerated() {
            let inTurn = number.isMultiple(of: 2) ? "rating" : "critic"
            for by in TestScale.pick(sampled: [inTurn], full: ["rating", "critic"]) {
                for limit in TestScale.pick(sampled: [nil], full: [nil, 40]) {
                    let target = "/api/top?" + query([("by", by)] + parameters + (limit.map { [("limit", "\($0)")] }
                        ?? []))
                    let answer = try server.request(target)
                    XCTAssertEqual(answer.status, 200, target)
                    XCTAssertEqual(answer.text, try cli(["top", "--by", by, "--json", "--cache", cache] + options
                        + (limit.map { ["--limit", "\($0)"] } ?? [])), target)
                }
            }
        }
    }

    func testBadFilterValuesAre400sNamingTheValue() throws {
        let cache = try servedDecadeCache()
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        let long = String(repeating: "x", count: 201)
        // (the query, what the error must name)
        let cases: [(String, String)] = [
            ("q=dark&year=2016..2010", "'2016..2010'"),
            ("q=dark&year=20x", "'20x'"),
            ("q=dark&year=", "''"),
            ("q=dark&year=..", "'..'"),
            ("q=dark&min_rating=abc", "'abc'"),
            ("q=dark&min_critic=nan", "'nan'"),
            ("q=dark&min_rating=inf", "'inf'"),
            ("q=dark&facets=cast", "'cast'"),
            ("q=dark&year=2010&year=2011", "'year'"),
            ("q=dark&min_rating=1&min_rating=2", "'min_rating'"),
            ("q=dark&genre=" + long, "'" + long.prefix(100) + "…'"),
            ("q=dark&" + Array(repeating: "genre=Drama", count: 17).joined(separator: "&"), "'genre'"),
            ("q=dark&" + Array(repeating: "cast=a", count: 17).joined(separator: "&"), "'cast'"),
            ("by=rating&year=1999..1990", "'1999..1990'"),
            ("by=critic&min_critic=x", "'x'"),
            ("facets=genre", "'facets'"),
        ]
        for (query, named) in cases {
            let target = (query.hasPrefix("q=") ? "/api/search?" : "/api/top?") + query
            let answer = try server.request(target)
            XCTAssertEqual(answer.status, 400, target)
            XCTAssertEqual(answer.header("Content-Type"), "application/json", target)
            let error = try XCTUnwrap(try json(answer.text)["error"] as? String, answer.text)
            XCTAssertTrue(error.contains(named), "\(target): \(error)")
        }
        // The CLI's wording for the same value.
        let usage = try BinaryRun.run(["query", "dark", "--year", "2016..2010", "--cache", cache])
        let expectation = "a year Y or a range A..B, A.. or ..B whose start is not after its end"
        XCTAssertTrue(usage.standardError.contains(expectation), usage.standardError)
        let error = try json(try server.request("/api/search?q=dark&year=2016..2010").text)["error"] as? String
        XCTAssertTrue(error?.contains(expectation) == true, error ?? "")
        // Sixteen names are still an answer.
        let sixteen = try server.request("/api/search?q=dark&" + Array(repeating: "genre=Drama", count: 16)
            .joined(separator: "&"))
        XCTAssertEqual(sixteen.status, 200, sixteen.text)
    }

    func testGenresCountEveryMovieOfEachGenre() throws {
        let path = try Requirement.sharedData("data/movies.json")
        let object = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        let movies = try XCTUnwrap(object["movies"] as? [[String: Any]])
        var counts: [String: Int] = [:]
        for movie in movies {
            for genre in Set(movie["genres"] as? [String] ?? []) { counts[genre, default: 0] += 1 }
        }
        XCTAssertGreaterThan(counts.count, 10)

        let server = try ServeProcess(self, ["--cache", try indexedCache(path), "--listen", "127.0.0.1:0", "--quiet"])
        let answer = try server.request("/api/genres")
        XCTAssertEqual(answer.status, 200)
        let genres = try XCTUnwrap(try json(answer.text)["genres"] as? [[String: Any]])
        var served: [String: Int] = [:]
        for entry in genres { served[try XCTUnwrap(entry["name"] as? String)] = entry["count"] as? Int }
        XCTAssertEqual(served, counts)
        XCTAssertEqual(genres.count, counts.count)
        // Most movies first, as the facet orders them.
        let listed = genres.compactMap { $0["count"] as? Int }
        XCTAssertEqual(listed, listed.sorted(by: >))
        // The same counts as the facet of a search that matches every movie.
        let facet = try json(try server.request("/api/search?q=&facets=genre").text)["facets"] as? [String: Any]
        let facetGenres = try XCTUnwrap(facet?["genre"] as? [[String: Any]])
        XCTAssertEqual(facetGenres.compactMap { $0["name"] as? String }, genres.compactMap { $0["name"] as? String })
        XCTAssertEqual(try server.request("/api/genres?q=dark").status, 400)
    }

    func testFilteredAnswersRevalidateByTheirOwnTags() throws {
        let server = try ServeProcess(self, ["--cache", try servedDecadeCache(), "--listen", "127.0.0.1:0", "--quiet"])
        let drama = try server.request("/api/search?q=the&genre=Drama")
        let comedy = try server.request("/api/search?q=the&genre=Comedy")
        let dramaTag = try XCTUnwrap(drama.header("ETag"))
        XCTAssertNotEqual(dramaTag, comedy.header("ETag"))
        XCTAssertEqual(try server.request("/api/search?q=the&genre=Drama", headers: ["If-None-Match": dramaTag]).status,
                       304)
        let other = try server.request("/api/search?q=the&genre=Comedy", headers: ["If-None-Match": dramaTag])
        XCTAssertEqual(other.status, 200)
        XCTAssertEqual(other.text, comedy.text)
        let top = try server.request("/api/top?genre=Drama")
        let topTag = try XCTUnwrap(top.header("ETag"))
        XCTAssertEqual(try server.request("/api/top?genre=Drama", headers: ["If-None-Match": topTag]).status, 304)
        XCTAssertEqual(try server.request("/api/top?genre=Horror", headers: ["If-None-Match": topTag]).status, 200)
    }
}
