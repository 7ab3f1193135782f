import Foundation
import MovieSearch
@testable import MovieSearchOutput
import XCTest

/// The JSON and human forms of a query's answer, from a result built in memory (no cache needed). The match spans
/// come from the engine's `MatchHighlighter`; the expected ones here are worked out from SPEC.md "Match spans".
final class QueryOutputTests: XCTestCase {
    private let movies = [
        Movie(id: 0, title: "The Dark Lighthouse", year: 2014, rating: 4, cast: ["Maren Holt"], genres: ["Thriller"]),
        Movie(id: 1, title: "Darker \"Than\" Amber", year: 2016, rating: 3.5, cast: [], genres: []),
        Movie(id: 2, title: "Whispers Under the Dark Pier", year: 2016, rating: nil, cast: ["Silas Vane", "Ada"],
              genres: ["Horror"]),
        Movie(id: 3, title: "Dark Matter Sundays", year: 2016, rating: 5, cast: ["Hollis Grant"],
              genres: ["Comedy", "Science Fiction"]),
    ]

    private var result: SearchResult {
        SearchResult(query: "dark", total: 5, years: [
            YearMatches(year: 2016, count: 4, movieIDs: [3, 1, 2]),
            YearMatches(year: 2014, count: 1, movieIDs: [0]),
        ])
    }

    /// The catalog's scales: its ratings run from 3.5 to 5, so five stars.
    private let scales = RatingScales(rating: .five, critic: .ten)

    private func json(_ result: SearchResult) throws -> String {
        try AnswerJSON.object(result, movie: { self.movies[$0] }, scales: scales).text
    }

    func testJSONIsOneLineWithKeysInOrder() throws {
        let text = try json(SearchResult(query: "dark l", total: 1,
                                         years: [YearMatches(year: 2014, count: 1, movieIDs: [0])]))
        XCTAssertEqual(text, """
            {"query":"dark l","total":1,"mode":"exact","years":[{"year":2014,"count":1,"movies":[{"id":0,\
            "title":"The Dark Lighthouse","year":2014,"rating":4,"rating_scale":5,"genres":["Thriller"],"cast":["Maren Holt"],\
            "favorite":false,"typos":0,"match":[[4,8],[9,10]]}]}]}
            """)
    }

    /// A typo answer: its mode, each movie's typo count as the result gives it, and spans that cover the whole
    /// misspelt word (the smallest title prefix at the least distance: `ligthhouse` → `lighthouse`, one swap).
    func testJSONOfATypoAnswer() throws {
        let text = try json(SearchResult(query: "ligthhouse", total: 1, years: [
            YearMatches(year: 2014, count: 1, movieIDs: [0], typoCounts: [1]),
        ], mode: .typo))
        XCTAssertEqual(text, """
            {"query":"ligthhouse","total":1,"mode":"typo","years":[{"year":2014,"count":1,"movies":[{"id":0,\
            "title":"The Dark Lighthouse","year":2014,"rating":4,"rating_scale":5,"genres":["Thriller"],"cast":["Maren Holt"],\
            "favorite":false,"typos":1,"match":[[9,19]]}]}]}
            """)
    }

    func testJSONParsesBackWithEveryField() throws {
        let text = try json(result)
        XCTAssertFalse(text.contains("\n"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["query", "total", "mode", "years"])
        XCTAssertEqual(object["query"] as? String, "dark")
        XCTAssertEqual(object["total"] as? Int, 5)
        XCTAssertEqual(object["mode"] as? String, "exact")
        let years = try XCTUnwrap(object["years"] as? [[String: Any]])
        XCTAssertEqual(years.map { $0["year"] as? Int }, [2016, 2014])
        XCTAssertEqual(years.map { $0["count"] as? Int }, [4, 1])
        for year in years { XCTAssertEqual(Set(year.keys), ["year", "count", "movies"]) }

        let listed = try XCTUnwrap(years[0]["movies"] as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["id"] as? Int }, [3, 1, 2])
        for movie in listed {
            XCTAssertEqual(Set(movie.keys), ["id", "title", "year", "rating", "rating_scale", "genres", "cast", "favorite", "typos", "match"])
            XCTAssertEqual(movie["typos"] as? Int, 0)
        }
        XCTAssertEqual(listed.map { $0["match"] as? [[Int]] }, [[[0, 4]], [[0, 4]], [[19, 23]]])
        XCTAssertEqual(listed[0]["rating"] as? Int, 5)
        XCTAssertEqual(listed[0]["genres"] as? [String], ["Comedy", "Science Fiction"])
        XCTAssertEqual(listed[1]["title"] as? String, "Darker \"Than\" Amber")
        XCTAssertEqual(listed[1]["rating"] as? Double, 3.5)
        XCTAssertEqual(listed[1]["cast"] as? [String], [])
        XCTAssertTrue(listed[2]["rating"] is NSNull, "an unrated movie has a null rating")
        XCTAssertEqual(listed[2]["cast"] as? [String], ["Silas Vane", "Ada"])
        // Integral ratings print without a fraction.
        XCTAssertTrue(text.contains("\"rating\":5,"))
        XCTAssertTrue(text.contains("\"rating\":3.5,"))
        XCTAssertTrue(text.contains("\"rating\":null,"))
        XCTAssertEqual(listed.map { $0["rating_scale"] as? Int }, [5, 5, 5], "every movie says what it is out of")
    }

    func testJSONOfNoMatchAndOfOddQueries() throws {
        XCTAssertEqual(try json(SearchResult(query: "zzz", total: 0, years: [])),
                       #"{"query":"zzz","total":0,"mode":"exact","years":[]}"#)
        XCTAssertEqual(try json(SearchResult(query: "zzzzzz", total: 0, years: [], mode: .typo)),
                       #"{"query":"zzzzzz","total":0,"mode":"typo","years":[]}"#)
        for query in ["", "?!…", "😀 日本", "tab\there \"quoted\" back\\slash", String(repeating: "a", count: 10_000)] {
            let text = try json(SearchResult(query: query, total: 0, years: []))
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            XCTAssertEqual(object["query"] as? String, query)
        }
    }

    func testHumanOutputAlignsRatingsAndCountsYears() throws {
        let out = TextOutput(.memory)
        try AnswerText.write(result, movie: { MovieListing(self.movies[$0]) }, scale: .five, to: out)
        out.flush()
        XCTAssertEqual(out.capturedText, """
            "dark": 5 matches in 2 years

            2016 · 4 matches, 3 shown
                  5/5  Dark Matter Sundays
                3.5/5  Darker "Than" Amber
              unrated  Whispers Under the Dark Pier

            2014 · 1 match
                  4/5  The Dark Lighthouse

            """)
    }

    func testHumanOutputOfNoMatchAndOfBrowseMode() throws {
        let none = TextOutput(.memory)
        try AnswerText.write(SearchResult(query: "zzz", total: 0, years: []), movie: { MovieListing(self.movies[$0]) }, scale: .five, to: none)
        none.flush()
        XCTAssertEqual(none.capturedText, "No movie matches \"zzz\".\n")
        let noTypo = TextOutput(.memory)
        try AnswerText.write(SearchResult(query: "zzzzzz", total: 0, years: [], mode: .typo),
                                    movie: { MovieListing(self.movies[$0]) }, scale: .five, to: noTypo, bold: true)
        noTypo.flush()
        XCTAssertEqual(noTypo.capturedText, "No movie matches \"zzzzzz\", even with typos.\n")

        let browse = TextOutput(.memory)
        let all = SearchResult(query: "?!", total: 1, years: [YearMatches(year: 2014, count: 1, movieIDs: [0])])
        try AnswerText.write(all, movie: { MovieListing(self.movies[$0]) }, scale: .five, to: browse)
        browse.flush()
        XCTAssertEqual(browse.capturedText, """
            "?!": 1 match in 1 year (no words in the query: every movie matches)

            2014 · 1 match
              4/5  The Dark Lighthouse

            """)
    }

    /// With `bold`, each title's spans are between SGR 1 and SGR 22, and nothing else changes.
    func testHumanOutputInBold() throws {
        let out = TextOutput(.memory)
        try AnswerText.write(result, movie: { MovieListing(self.movies[$0]) }, scale: .five, to: out, bold: true)
        out.flush()
        let on = Highlight.boldOn, off = Highlight.boldOff
        XCTAssertEqual(out.capturedText, """
            "dark": 5 matches in 2 years

            2016 · 4 matches, 3 shown
                  5/5  \(on)Dark\(off) Matter Sundays
                3.5/5  \(on)Dark\(off)er "Than" Amber
              unrated  Whispers Under the \(on)Dark\(off) Pier

            2014 · 1 match
                  4/5  The \(on)Dark\(off) Lighthouse

            """)
    }

    func testSummaryLineSaysWhenAnAnswerAllowedTypos() {
        func years(_ count: Int) -> [YearMatches] {
            (0..<count).map { YearMatches(year: 2000 + $0, count: 1, movieIDs: [0]) }
        }
        XCTAssertEqual(AnswerText.summary(SearchResult(query: "godfahter", total: 5, years: years(4), mode: .typo)),
                       #""godfahter": no exact match; 5 matches with typos in 4 years"#)
        XCTAssertEqual(AnswerText.summary(SearchResult(query: "casablanka", total: 1, years: years(1), mode: .typo)),
                       #""casablanka": no exact match; 1 match with typos in 1 year"#)
        XCTAssertEqual(AnswerText.summary(SearchResult(query: "dark", total: 1_234, years: years(2), mode: .exact)),
                       #""dark": 1,234 matches in 2 years"#)
        // The query is quoted and escaped as in every other line.
        XCTAssertEqual(AnswerText.summary(SearchResult(query: "a\u{1B}\"b", total: 2, years: years(1), mode: .typo)),
                       #""a\e\"b": no exact match; 2 matches with typos in 1 year"#)
    }

    func testHumanOutputOfATypoAnswer() throws {
        let out = TextOutput(.memory)
        let typo = SearchResult(query: "ligthhouse", total: 1, years: [
            YearMatches(year: 2014, count: 1, movieIDs: [0], typoCounts: [1]),
        ], mode: .typo)
        try AnswerText.write(typo, movie: { MovieListing(self.movies[$0]) }, scale: .five, to: out, bold: true)
        out.flush()
        XCTAssertEqual(out.capturedText, """
            "ligthhouse": no exact match; 1 match with typos in 1 year

            2014 · 1 match
              4/5  The Dark \(Highlight.boldOn)Lighthouse\(Highlight.boldOff)

            """)
    }
}
