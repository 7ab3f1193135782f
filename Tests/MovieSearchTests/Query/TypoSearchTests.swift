import XCTest
import MovieSearch
import TestSupport

/// SPEC.md "Typos" on the spec's examples and on hand-worked rankings, in the engine and in the
/// reference (which must agree on every answer). Distances are worked out in the comments.
final class TypoSearchTests: XCTestCase {
    private var both: EngineAndReference!

    override func setUpWithError() throws {
        both = try EngineAndReference(SpecExampleCatalog.catalog, self)
    }

    /// `darkenss` (8 scalars, budget 1) is one swap from `darkness`; `dark` (pd 4) and `darkest` (pd 2) are too far.
    func testDarkenssFindsDarknessWithOneTypo() throws {
        let answer = try both.answer("darkenss")
        XCTAssertEqual(answer.mode, .typo)
        XCTAssertEqual(answer.total, 1)
        XCTAssertEqual(try both.titles(answer), ["Star Trek Into Darkness"])
        XCTAssertEqual(answer.years.map(\.typos), [[1]])
        XCTAssertEqual(answer.years.map(\.count), [1])
        // The whole token: no shorter prefix of "darkness" is one edit from "darkenss".
        XCTAssertEqual(answer.years.map(\.spans), [[[15..<23]]])
    }

    /// Budget 0 (4 scalars or fewer, or a digit): no typo pass, the empty exact answer.
    func testDrakXarkAnd2011FindNothing() throws {
        for query in ["drak", "xark", "2011", "drak xark"] {
            let answer = try both.answer(query)
            XCTAssertEqual(answer.mode, .exact, query)
            XCTAssertEqual(answer.total, 0, query)
            XCTAssertEqual(answer.years, [], query)
        }
        XCTAssertEqual(try both.titles(both.answer("2012")), ["2012"], "the title 2012 is there, 2011 must not find it")
    }

    /// The typo pass reuses what the exact pass looked up: a word before the one that begins no term keeps its
    /// range, and a word without a budget that begins no term leaves nothing to find, however the other words are
    /// typed. Each answer is checked against the reference.
    func testTheTypoPassAgreesWhereTheExactPassStopped() throws {
        // "xark" (budget 0) begins no term: nothing can match, whether it comes first or after a word that does.
        for query in ["xark darkenss", "star xark darkenss", "darkenss xark", "star xark"] {
            let answer = try both.answer(query)
            XCTAssertEqual(answer.total, 0, query)
            XCTAssertEqual(answer.mode, query == "star xark" ? .exact : .typo, query)
        }
        // "star" and "into" are looked up once, before "darkenss" stops the exact pass: each keeps its own range
        // (two other titles have one of the two words with Darkness, and must not match).
        let darkness = try EngineAndReference(Catalog(movies: [
            Movie(id: 0, title: "Star Trek Into Darkness", year: 2013, rating: 4),
            Movie(id: 1, title: "Star Darkness", year: 2000, rating: 3),
            Movie(id: 2, title: "Into Darkness", year: 2001, rating: 3),
            Movie(id: 3, title: "Into the Star Darkness", year: 2002, rating: 2),
        ]), self)
        for (query, titles) in [("star into darkenss", ["Into the Star Darkness", "Star Trek Into Darkness"]),
                                ("into star darkenss", ["Into the Star Darkness", "Star Trek Into Darkness"]),
                                ("star star darkenss", ["Into the Star Darkness", "Star Darkness", "Star Trek Into Darkness"]),
                                ("the star darkenss", ["Into the Star Darkness"]),
                                ("darkenss into", ["Into Darkness", "Into the Star Darkness", "Star Trek Into Darkness"])] {
            let answer = try darkness.answer(query)
            XCTAssertEqual(answer.mode, .typo, query)
            XCTAssertEqual(try darkness.titles(answer).sorted(), titles, query)
            XCTAssertEqual(Set(answer.years.flatMap(\.typos)), [1], query)
        }
    }

    /// A word whose range has no stored set (two terms, few postings) gives its postings unmerged, the lists of
    /// `star` and `stay` end to end, not in rank order; met with one candidate (the fuzzy word's single match) it is
    /// sorted before the candidate is looked for in it: `Darkness Stay` (2010) lies in `stay`'s list after
    /// `star`'s ranks of 2015 and 2000.
    func testUnmergedPostingsMetWithFewCandidatesAreSearchedInOrder() throws {
        var movies = [Movie(id: 0, title: "Darkness Stay", year: 2010, rating: 3),
                      Movie(id: 1, title: "Star One", year: 2015, rating: 3)]
        for id in 2..<9 { movies.append(Movie(id: id, title: "Star \(id)", year: 2000, rating: 3)) }
        let catalog = try EngineAndReference(Catalog(movies: movies), self)
        let answer = try catalog.answer("darkenss sta")
        XCTAssertEqual(answer.mode, .typo)
        XCTAssertEqual(try catalog.titles(answer), ["Darkness Stay"])
        XCTAssertEqual(answer.years.map(\.typos), [[1]])
    }

    /// A budget counts scalars, not UTF-8 bytes (Cyrillic letters fold to two bytes each): `дочx` (4 scalars,
    /// 7 bytes) has none, so it finds nothing and the answer is the empty exact one; `мылыко` (6 scalars, 12
    /// bytes) has one, too few for its two substitutions from `молоко`; `мылоко` (one) finds it.
    func testBudgetsCountScalarsNotBytes() throws {
        let catalog = try EngineAndReference(Catalog(movies: [
            Movie(id: 0, title: "Дочь", year: 2006, rating: 3),
            Movie(id: 1, title: "Молоко", year: 2001, rating: 3),
        ]), self)
        for query in ["дочx", "мылыко"] {
            let answer = try catalog.answer(query)
            XCTAssertEqual(answer.total, 0, query)
            XCTAssertEqual(answer.mode, query == "дочx" ? .exact : .typo, query)
        }
        let answer = try catalog.answer("мылоко")
        XCTAssertEqual(try catalog.titles(answer), ["Молоко"])
        XCTAssertEqual(answer.years.map(\.typos), [[1]])
    }

    func testOffNeverRunsTheTypoPass() throws {
        let answer = try both.answer("darkenss", typos: .off)
        XCTAssertEqual(answer, SpecAnswer(mode: .exact, total: 0, years: []))
    }

    /// A query that finds something exactly gets the exact answer, even where typos would find more.
    func testAnExactMatchWins() throws {
        // Exact: "darker", "darkest". With a typo, "dark" (insert e) and "darkness" (darkn: substitute) would match too.
        let answer = try both.answer("darke")
        XCTAssertEqual(answer.mode, .exact)
        XCTAssertEqual(try Set(both.titles(answer)), ["Fifty Shades Darker", "Darkest Hour"])
        XCTAssertEqual(answer.years.flatMap(\.typos), [0, 0])
    }

    private static let casablanca = Catalog(movies: [
        Movie(id: 0, title: "Casablanka", year: 1942, rating: 5),
        Movie(id: 1, title: "Casablanca", year: 1942, rating: 1),
        Movie(id: 2, title: "Casablanca Express", year: 1942, rating: nil),
        Movie(id: 3, title: "Casablanca", year: 1943, rating: 3),
        Movie(id: 4, title: "Casablanca Nights", year: 1942, rating: 1),
        Movie(id: 5, title: "The Godfather", year: 1972, rating: 5),
        Movie(id: 6, title: "Sherlock Holmes", year: 2009, rating: 3),
        Movie(id: 7, title: "Casa", year: 1942, rating: 5),
    ])

    /// In a typo answer: years newest first, then fewer typos, then rating descending, unrated last, lower id first.
    /// `casablancca` (11 scalars, budget 2): one deletion from `casablanca`, two edits from `casablanka` (c→k, drop
    /// c), and 6 from `casa`.
    func testTypoRanking() throws {
        let both = try EngineAndReference(Self.casablanca, self)
        let answer = try both.answer("casablancca")
        XCTAssertEqual(answer.mode, .typo)
        XCTAssertEqual(answer.years.map(\.year), [1943, 1942])
        XCTAssertEqual(answer.years.map(\.count), [1, 4])
        XCTAssertEqual(answer.years[1].ids, [1, 4, 2, 0])
        XCTAssertEqual(answer.years[1].typos, [1, 1, 1, 2])
        XCTAssertEqual(answer.total, 5)
        let two = try both.answer("casablancca", perYear: 2)
        XCTAssertEqual(two.years[1].ids, [1, 4])
        XCTAssertEqual(two.years[1].count, 4, "a year counts all its typo matches")
    }

    /// A movie's typo count is the sum over the query tokens; a token with budget 0 must match exactly.
    func testTypoCountsAddUp() throws {
        let both = try EngineAndReference(Self.casablanca, self)
        let expresss = try both.answer("casablancca expresss")  // 1 + 1 ("express": drop an s)
        XCTAssertEqual(try both.titles(expresss), ["Casablanca Express"])
        XCTAssertEqual(expresss.years.flatMap(\.typos), [2])
        let expr = try both.answer("casablancca expr")  // "expr" has budget 0, and is a prefix: 1 + 0
        XCTAssertEqual(expr.years.flatMap(\.typos), [1])
        XCTAssertEqual(try both.answer("casablancca exqr").total, 0, "budget 0: no typo allowed in exqr")
        let nights = try both.answer("casablanka nigths")  // no exact match for "nigths": a typo answer
        XCTAssertEqual(try both.titles(nights), ["Casablanca Nights"])
        XCTAssertEqual(nights.years.flatMap(\.typos), [2])  // casablanka → casablanca: 1; nigths → nights: 1
    }

    func testGodfahterAndSherlok() throws {
        let both = try EngineAndReference(Self.casablanca, self)
        let godfather = try both.answer("the godfahter")
        XCTAssertEqual(godfather.mode, .typo)
        XCTAssertEqual(try both.titles(godfather), ["The Godfather"])
        XCTAssertEqual(godfather.years.flatMap(\.typos), [1])
        XCTAssertEqual(godfather.years.flatMap(\.spans), [[0..<3, 4..<13]])
        let sherlock = try both.answer("sherlok holmes")
        XCTAssertEqual(try both.titles(sherlock), ["Sherlock Holmes"])
        XCTAssertEqual(sherlock.years.flatMap(\.typos), [1])
        // The matched part is the shortest prefix at distance pd = 1: "sherlo" (drop the k), not "sherlock".
        XCTAssertEqual(sherlock.years.flatMap(\.spans), [[0..<6, 9..<15]])
    }

    /// The typo count is a sum over the query's tokens, duplicates included: `darkenss darkenss` has two tokens at
    /// one edit each from `darkness`.
    func testARepeatedQueryTokenCountsItsTyposEachTime() throws {
        let expected = both.expected("darkenss darkenss")
        XCTAssertEqual(expected.years.flatMap(\.typos), [2], "the reference")
        XCTAssertEqual(try both.engine("darkenss darkenss"), expected)
    }
}
