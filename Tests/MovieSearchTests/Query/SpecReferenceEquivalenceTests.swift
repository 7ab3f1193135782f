import XCTest
import MovieSearch
import TestSupport

/// The engine equals the brute-force reference of SEARCH-SPEC (`SpecReference`) on mode, total, per-year counts,
/// ids, typo counts and the spans of every listed movie: on every decade keystroke query, a seeded sample of the
/// century ones, and generated typo queries on both catalogs, with typos `auto` and `off`.
final class SpecReferenceEquivalenceTests: XCTestCase {
    /// Checks every query of `queries`, reporting the first few mismatches; returns how many answers were in typo mode.
    @discardableResult
    private func check(_ both: EngineAndReference, _ queries: [String], name: String, perYear: [Int] = [5],
                       typos: [TypoTolerance] = [.auto]) throws -> Int {
        var mismatches = 0, checked = 0, typoAnswers = 0
        for (line, query) in queries.enumerated() {
            for k in perYear {
                for tolerance in typos {
                    let expected = both.expected(query, perYear: k, typos: tolerance)
                    let actual = try both.engine(query, perYear: k, typos: tolerance)
                    if actual != expected {
                        mismatches += 1
                        if mismatches <= 5 {
                            XCTFail("\(name) query \(line + 1) \(query.debugDescription) perYear \(k) typos \(tolerance.rawValue): engine \(actual.firstDifference(from: expected)) (engine vs reference)\n  engine:    \(actual)\n  reference: \(expected)")
                        }
                    }
                    if expected.mode == .typo { typoAnswers += 1 }
                    checked += 1
                }
            }
        }
        XCTAssertEqual(mismatches, 0, "\(name): \(mismatches) of \(checked) answers differ")
        XCTAssertGreaterThan(checked, 0)
        return typoAnswers
    }

    /// Every query of the decade keystroke set, K = 5; every 10th also with K = 0, 1 and 100 and with typos off.
    func testDecadeKeystrokeQueries() throws {
        let both = try EngineAndReference.shared("movies.json")
        let queries = try SharedData.queries("decade-typing.txt")
        try check(both, queries, name: "decade-typing.txt")
        let sample = queries.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        try check(both, sample, name: "decade-typing.txt every 10th", perYear: [0, 1, 100], typos: [.auto, .off])
    }

    /// A seeded sample of 300 century keystroke queries (of 13,489), K = 5.
    func testCenturyKeystrokeSample() throws {
        let both = try EngineAndReference.shared("century-movies.json")
        let queries = try SharedData.queries("century-typing.txt")
        var random = SplitMix64(seed: 0x5EA2C4)
        let sample = (0..<300).map { _ in queries[random.below(queries.count)] }
        try check(both, sample, name: "century-typing.txt sample")
    }

    /// 400 typo queries made from decade titles (`TypoQueries`), typos auto and off.
    func testDecadeTypoQueries() throws {
        let both = try EngineAndReference.shared("movies.json")
        let queries = TypoQueries.make(from: both.catalog, count: 400, seed: 9)
        let typoAnswers = try check(both, queries, name: "decade typo queries", typos: [.auto, .off])
        XCTAssertGreaterThan(typoAnswers, queries.count / 2, "most generated queries find nothing exactly")
    }

    /// 200 typo queries made from century titles, typos auto and off.
    func testCenturyTypoQueries() throws {
        let both = try EngineAndReference.shared("century-movies.json")
        let queries = TypoQueries.make(from: both.catalog, count: 200, seed: 1900)
        let typoAnswers = try check(both, queries, name: "century typo queries", typos: [.auto, .off])
        XCTAssertGreaterThan(typoAnswers, queries.count / 2, "most generated queries find nothing exactly")
    }

    /// The small catalogs of the named tests, with every prefix of a few spec queries and their typos.
    func testSpecExampleCatalogQueries() throws {
        let both = try EngineAndReference(SpecExampleCatalog.catalog, self)
        var queries: [String] = ["", "!!!", "the", "2", "40", "e t", "x men", "wall e", "dr", "brüno", "bru\u{308}n"]
        for query in ["spiderman 2", "darkenss", "the dark knigth rises", "straße", "😀 dark", "extraterestrial",
                      "misssion impossible", "brunno", "strasse"] {
            queries += (1...query.count).map { String(query.prefix($0)) }
        }
        try check(both, queries, name: "spec examples", perYear: [0, 1, 5], typos: [.auto, .off])
    }
}
