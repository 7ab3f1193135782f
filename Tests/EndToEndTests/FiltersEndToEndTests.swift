import Foundation
import MovieSearch
import TestSupport
import XCTest

/// `--year`, `--genre`, `--cast`, `--min-rating`, `--facets genre` through the built binary on the decade catalog:
/// answers and facets against the catalog counted here, the filters echoed in JSON, the facet line in text, usage
/// errors (exit 2) naming the value, and a genre no movie has answered empty with a did-you-mean note.
final class FiltersEndToEndTests: XCTestCase {
    private struct Film {
        var id: Int, year: Int, rating: Double?, genres: [String], cast: [String]
    }

    private func decade() throws -> (cache: String, films: [Film]) {
        let path = try Requirement.sharedData("data/movies.json")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
            as? [String: Any])
        let movies = try XCTUnwrap(object["movies"] as? [[String: Any]])
        let films = movies.enumerated().map { id, movie in
            Film(id: id, year: movie["year"] as? Int ?? 0, rating: movie["rating"] as? Double,
                 genres: movie["genres"] as? [String] ?? [], cast: movie["cast"] as? [String] ?? [])
        }
        return (try indexedCache(path), films)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testQueryUnderFiltersCountsWhatPasses() throws {
        let (cache, films) = try decade()
        let run = try BinaryRun.run(["query", "", "--genre", "  drama ", "--year", "2015..2016", "--min-rating", "4",
                                     "--facets", "genre", "--json", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        let answer = try json(run.standardOutput)
        let passing = films.filter { film in
            (2015...2016).contains(film.year) && film.genres.contains { $0.lowercased() == "drama" }
                && (film.rating ?? -1) >= 4
        }
        XCTAssertGreaterThan(passing.count, 0)
        XCTAssertEqual(answer["total"] as? Int, passing.count)
        let years = try XCTUnwrap(answer["years"] as? [[String: Any]])
        XCTAssertEqual(years.map { $0["year"] as? Int }, [2016, 2015])
        XCTAssertEqual(years.map { $0["count"] as? Int },
                       [2016, 2015].map { year in passing.filter { $0.year == year }.count })
        let filters = try XCTUnwrap(answer["filters"] as? [String: Any])
        XCTAssertEqual(filters["genre"] as? [String], ["  drama "])
        XCTAssertEqual(filters["min_rating"] as? Double, 4)
        let year = try XCTUnwrap(filters["year"] as? [String: Any])
        XCTAssertEqual(year["from"] as? Int, 2015)
        XCTAssertEqual(year["to"] as? Int, 2016)
        let facet = try XCTUnwrap((answer["facets"] as? [String: Any])?["genre"] as? [[String: Any]])
        var counts: [String: Int] = [:]
        for film in passing { for genre in Set(film.genres) { counts[genre, default: 0] += 1 } }
        XCTAssertEqual(facet.first?["name"] as? String, "Drama")
        XCTAssertEqual(facet.first?["count"] as? Int, passing.count)
        for entry in facet {
            let name = try XCTUnwrap(entry["name"] as? String)
            XCTAssertEqual(entry["count"] as? Int, counts[name], name)
        }
        XCTAssertEqual(facet.count, counts.count)

        // Text: the facet line under the summary.
        let text = try BinaryRun.run(["query", "", "--genre", "Drama", "--year", "2015..2016", "--min-rating", "4",
                                      "--facets", "genre", "--cache", cache])
        XCTAssertEqual(text.status, 0, text.standardError)
        let lines = text.standardOutput.split(separator: "\n")
        XCTAssertTrue(lines.count > 1 && lines[1].hasPrefix("Genres: Drama \(passing.count)"), text.standardOutput)
    }

    func testTopUnderFiltersKeepsTheListsOrder() throws {
        let (cache, films) = try decade()
        let run = try BinaryRun.run(["top", "--genre", "Comedy", "--year", "..2012", "--limit", "7", "--json",
                                     "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        let ids = try XCTUnwrap(try json(run.standardOutput)["movies"] as? [[String: Any]]).map { $0["id"] as? Int }
        let expected = films.filter { $0.year <= 2012 && $0.genres.contains("Comedy") }
            .sorted { left, right in
                switch (left.rating, right.rating) {
                case let (l?, r?) where l != r: return l > r
                case (.some, nil): return true
                case (nil, .some): return false
                default: return left.id < right.id
                }
            }.prefix(7).map(\.id)
        XCTAssertEqual(ids, expected)
    }

    func testTopTextHeaderCountsTheMoviesThatPass() throws {
        let (cache, films) = try decade()
        let passing = films.filter { $0.year <= 2012 && $0.genres.contains("Comedy") }.count
        XCTAssertGreaterThan(passing, 7)
        XCTAssertLessThan(passing, films.count)
        let run = try BinaryRun.run(["top", "--genre", "Comedy", "--year", "..2012", "--limit", "7", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        let header = String(run.standardOutput.split(separator: "\n").first ?? "")
        XCTAssertTrue(header.hasPrefix("The 7 best-rated movies of \(passing) that pass Comedy · –2012"), header)
        XCTAssertEqual(run.standardOutput.split(separator: "\n").count, 8, run.standardOutput)

        // Without filters the header keeps counting the whole catalog.
        let whole = try BinaryRun.run(["top", "--limit", "3", "--cache", cache])
        XCTAssertEqual(whole.status, 0, whole.standardError)
        var digits = Array(String(films.count)), grouped = ""
        while digits.count > 3 { grouped = "," + String(digits.suffix(3)) + grouped; digits.removeLast(3) }
        grouped = String(digits) + grouped
        XCTAssertTrue(whole.standardOutput.hasPrefix("The 3 best-rated movies of \(grouped)"), whole.standardOutput)
    }

    func testBadFilterValuesAreUsageErrors() throws {
        let (cache, _) = try decade()
        for (arguments, value) in [(["--year", "2016..2010"], "2016..2010"), (["--min-rating", "abc"], "abc"),
                                   (["--min-critic", "nan"], "nan"), (["--facets", "cast"], "cast"),
                                   (["--year", "20x"], "20x")] {
            let run = try BinaryRun.run(["query", "dark"] + arguments + ["--cache", cache])
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains("'\(value)'"), run.standardError)
            XCTAssertEqual(run.standardOutput, "")
        }
    }

    func testAGenreNoMovieHasIsAnEmptyAnswerWithANote() throws {
        let (cache, _) = try decade()
        let run = try BinaryRun.run(["query", "love", "--genre", "Dramma", "--json", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(try json(run.standardOutput)["total"] as? Int, 0)
        XCTAssertTrue(run.standardError.contains("no movie has the genre 'Dramma'; did you mean 'Drama'?"),
                      run.standardError)
        let cast = try BinaryRun.run(["top", "--cast", "Zzyzx Qwerty", "--cache", cache])
        XCTAssertEqual(cast.status, 0, cast.standardError)
        XCTAssertTrue(cast.standardError.contains("no movie has 'Zzyzx Qwerty' in its cast"), cast.standardError)
    }
}
