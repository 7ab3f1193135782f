import Foundation
import MovieSearch
import TestSupport
import XCTest

/// The critics' list through the built binary: a moviesearch JSON catalog with `critic_rating` indexed by `index`,
/// then `top --by critic` and `--by rating` (text and `--json`) against a brute-force ranking of the catalog, `show`
/// with both ratings, and a CSV catalog's Metascore column.
final class CriticsEndToEndTests: XCTestCase {
    /// A seeded catalog: about half the movies with a critics' rating (ties included), some unrated by users.
    private static let movies: [(id: Int, title: String, year: Int, rating: Double?, critic: Double?)] = {
        var random = SplitMix64(seed: 25)
        return (0..<120).map { id in
            let critic: Double? = random.next() % 2 == 0 ? nil : Double(random.next() % 21) / 2
            let rating: Double? = random.next() % 5 == 0 ? nil : Double(random.next() % 91) / 10
            return (id, "Film \(id)", 1950 + Int(random.next() % 70), rating, critic)
        }
    }()

    /// The scales `index` records, worked out here by the rule: the smallest of 5, 10 and 100 that no rating of its
    /// kind exceeds (the users' up to 9, the critics' up to 10: both 10).
    private static let scales = (rating: TextRating.scale(of: movies.compactMap(\.rating)),
                                 critic: TextRating.scale(of: movies.compactMap(\.critic)))

    private static var catalogJSON: String {
        "[" + movies.map { movie in
            var members = [#""title":"\#(movie.title)""#, #""year":\#(movie.year)"#]
            if let rating = movie.rating { members.append(#""rating":\#(rating)"#) }
            if let critic = movie.critic { members.append(#""critic_rating":\#(critic)"#) }
            if movie.id % 3 == 0 { members.append(#""overview":"Overview of \#(movie.title)""#) }
            return "{" + members.joined(separator: ",") + "}"
        }.joined(separator: ",") + "]"
    }

    private func ids(ofTopJSON output: String, by order: String) throws -> [Int] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertEqual(object["by"] as? String, order)
        let movies = try XCTUnwrap(object["movies"] as? [[String: Any]])
        for movie in movies {
            XCTAssertNotNil(movie["favorite"] as? Bool, "every movie is show --json's object, favorite included")
        }
        return try movies.map { try XCTUnwrap($0["id"] as? Int) }
    }

    func testTopByCriticAndByRatingMatchABruteForceRanking() throws {
        let cache = try indexedCache(try temporaryFile("critics.json", Self.catalogJSON))
        let byCritic = Self.movies.filter { $0.critic != nil }
            .sorted { $0.critic! != $1.critic! ? $0.critic! > $1.critic! : $0.id < $1.id }.map(\.id)
        let byRating = Self.movies.sorted { left, right in
            switch (left.rating, right.rating) {
            case let (l?, r?) where l != r: return l > r
            case (.some, nil): return true
            case (nil, .some): return false
            default: return left.id < right.id
            }
        }.map(\.id)

        let critic = try BinaryRun.run(["top", "--by", "critic", "--limit", "1000", "--json", "--cache", cache])
        XCTAssertEqual(critic.status, 0, critic.standardError)
        XCTAssertEqual(try ids(ofTopJSON: critic.standardOutput, by: "critic"), byCritic)
        let rating = try BinaryRun.run(["top", "--by", "rating", "--limit", "20", "--json", "--cache", cache])
        XCTAssertEqual(try ids(ofTopJSON: rating.standardOutput, by: "rating"), Array(byRating.prefix(20)))
        let plain = try BinaryRun.run(["top", "--json", "--cache", cache])
        XCTAssertEqual(try ids(ofTopJSON: plain.standardOutput, by: "rating"), Array(byRating.prefix(15)))

        // Text: both ratings on every line, the one ranked by first.
        let text = try BinaryRun.run(["top", "--by", "critic", "--limit", "3", "--cache", cache])
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "The 3 movies critics rate best, of 120 (critics' rating, then users'):")
        for (line, id) in zip(lines.dropFirst(), byCritic) {
            let movie = Self.movies[id]
            let users = movie.rating.map { TextRating.text($0, outOf: Self.scales.rating) } ?? "unrated"
            XCTAssertTrue(line.contains("  \(TextRating.text(movie.critic!, outOf: Self.scales.critic))  "), line)
            XCTAssertTrue(line.hasSuffix("  \(users)  \(movie.year)  \(movie.title)"), line)
        }
    }

    func testShowAndQueryCarryTheCriticsRatingOnlyWhenThereIsOne() throws {
        let cache = try indexedCache(try temporaryFile("critics.json", Self.catalogJSON))
        let rated = try XCTUnwrap(Self.movies.first { $0.critic != nil })
        let unrated = try XCTUnwrap(Self.movies.first { $0.critic == nil })
        let show = try BinaryRun.run(["show", String(rated.id), "--cache", cache, "--flickr-key", "k"])
        let criticsLine = "  critics  " + TextRating.text(rated.critic!, outOf: Self.scales.critic)
        XCTAssertTrue(show.standardOutput.split(separator: "\n").contains { line in
            line.hasPrefix("  critics ") && line.replacingOccurrences(of: "  +", with: "  ", options: .regularExpression)
                == criticsLine
        }, show.standardOutput)
        for (movie, has) in [(rated, true), (unrated, false)] {
            let json = try BinaryRun.run(["show", String(movie.id), "--cache", cache, "--json"])
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
                as? [String: Any])
            XCTAssertEqual(object["critic_rating"] != nil, has, json.standardOutput)
            XCTAssertEqual(object["critic_rating_scale"] as? Int, has ? Self.scales.critic : nil, json.standardOutput)
            XCTAssertEqual(object["rating_scale"] as? Int, Self.scales.rating, json.standardOutput)
        }
        let query = try BinaryRun.run(["query", "film \(rated.id)", "--cache", cache, "--json"])
        XCTAssertTrue(query.standardOutput.contains(#""critic_rating":"#), query.standardOutput)
    }

    func testACatalogWithoutCriticsHasAnEmptyCriticsList() throws {
        let cache = try indexedCache(try temporaryFile("plain.json", #"[{"title":"Alone","year":2000,"rating":5}]"#))
        let text = try BinaryRun.run(["top", "--by", "critic", "--cache", cache])
        XCTAssertEqual(text.status, 0, text.standardError)
        XCTAssertEqual(text.standardOutput, "No movie has a critics' rating.\n")
        let json = try BinaryRun.run(["top", "--by", "critic", "--json", "--cache", cache])
        XCTAssertEqual(json.standardOutput, #"{"by":"critic","movies":[]}"# + "\n")
        // Without critics' ratings, the users' list reads as it always did: one rating a line.
        let users = try BinaryRun.run(["top", "--cache", cache])
        XCTAssertEqual(users.standardOutput, "The 1 best-rated movie of 1:\n  1.  5/5  2000  Alone\n")
    }

    /// `index --rating-scale` gives the users' scale, which `show --json` and the text carry; a scale some rating
    /// exceeds, or one that is no scale, is a usage error (status 2) and writes nothing.
    func testIndexRatingScaleIsKeptOrRefused() throws {
        let catalog = try temporaryFile("scaled.json", #"[{"title":"Low","year":2000,"rating":3},"#
            + #"{"title":"High","year":2001,"rating":7.5}]"#)
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("scaled.mscache").path
        let detected = try BinaryRun.run(["index", catalog, "-o", cache])
        XCTAssertEqual(detected.status, 0, detected.standardError)
        XCTAssertTrue(try BinaryRun.run(["show", "1", "--cache", cache, "--json"]).standardOutput
            .contains(#""rating":7.5,"rating_scale":10,"#))
        let given = try BinaryRun.run(["index", catalog, "-o", cache, "--rating-scale", "100"])
        XCTAssertEqual(given.status, 0, given.standardError)
        XCTAssertTrue(try BinaryRun.run(["show", "1", "--cache", cache, "--json"]).standardOutput
            .contains(#""rating":7.5,"rating_scale":100,"#))
        XCTAssertTrue(try BinaryRun.run(["top", "--cache", cache]).standardOutput.contains("1.  7.5/100  2001  High"))

        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let tooSmall = try BinaryRun.run(["index", catalog, "-o", cache, "--rating-scale", "5"])
        XCTAssertEqual(tooSmall.status, 2)
        XCTAssertTrue(tooSmall.standardError.hasPrefix("moviesearch: --rating-scale 5 is less than the rating 7.5 of "
            + "movie 1: give 10 or 100, or leave it out\n"), tooSmall.standardError)
        let noScale = try BinaryRun.run(["index", catalog, "-o", cache, "--rating-scale", "7"])
        XCTAssertEqual(noScale.status, 2)
        XCTAssertTrue(noScale.standardError.hasPrefix("moviesearch: --rating-scale is 5, 10 or 100, not 7\n"),
                      noScale.standardError)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before, "a refused run writes nothing")
    }

    func testACSVMetascoreColumnIsTheCriticsList() throws {
        let csv = try temporaryFile("films.csv", "title,year,Metascore\nLow,2001,40\nHigh,2002,96\nNone,2003,\n")
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("films.mscache").path
        let indexed = try BinaryRun.run(["index", csv, "-o", cache, "--quiet"])
        XCTAssertEqual(indexed.status, 0, indexed.standardError)
        let top = try BinaryRun.run(["top", "--by", "critic", "--json", "--cache", cache])
        XCTAssertEqual(try ids(ofTopJSON: top.standardOutput, by: "critic"), [1, 0])
        XCTAssertTrue(top.standardOutput.contains(#""critic_rating":9.6"#), top.standardOutput)
        let refused = try BinaryRun.run(["index", try temporaryFile("json.json", "[]"), "--critic-scale", "100"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.standardError.hasPrefix("moviesearch: --critic-scale applies to CSV only"),
                      refused.standardError)
    }
}

/// A rating as the text output writes it: JSON's shortest form (`7`, `8.5`).
private enum TextRating {
    /// `rating` as the text outputs write it: the number as JSON writes it, out of `scale` (`7.5/10`).
    static func text(_ rating: Double, outOf scale: Int) -> String {
        (rating == rating.rounded() ? String(Int(rating)) : String(rating)) + "/\(scale)"
    }

    /// The smallest of 5, 10 and 100 that none of `ratings` exceeds (the catalogs here have none above 100).
    static func scale(of ratings: [Double]) -> Int {
        [5, 10, 100].first { scale in ratings.allSatisfy { $0 <= Double(scale) } } ?? 0
    }
}
