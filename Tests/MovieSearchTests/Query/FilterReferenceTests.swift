import Foundation
import XCTest
import MovieSearch
import TestSupport

/// Filters and the genre facet (SEARCH-SPEC, "Filters and facets") against brute force: the reference keeps the
/// movies that pass every filter, checked movie by movie, and answers on that smaller catalog with `SpecReference`;
/// the facet counts the genres of all its matches. Seeded random filter combinations over the decade and century
/// catalogs, each with queries from the shared keystroke files.
final class FilterReferenceTests: XCTestCase {
    /// Random filters from `catalog`'s own years, genres, cast and ratings, sometimes a name no movie has.
    private func randomFilters(_ random: inout SplitMix64, _ catalog: Catalog, genres: [String], cast: [String],
                               years: [Int]) -> SearchFilters {
        var filters = SearchFilters()
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        switch random.next() % 4 {
        case 0: break
        case 1: let year = pick(years); filters.lowestYear = year; filters.highestYear = year
        case 2: let a = pick(years), b = pick(years); filters.lowestYear = min(a, b); filters.highestYear = max(a, b)
        default: if random.next() % 2 == 0 { filters.lowestYear = pick(years) } else { filters.highestYear = pick(years) }
        }
        for _ in 0..<Int(random.next() % 3) {
            // Spelled otherwise now and then: folding must find it.
            let genre = pick(genres)
            filters.genres.append(random.next() % 3 == 0 ? "  " + genre.uppercased() + " " : genre)
        }
        if random.next() % 8 == 0 { filters.genres.append("Dramma") }
        if random.next() % 5 == 0, !cast.isEmpty { filters.cast.append(pick(cast)) }
        if random.next() % 3 == 0 { filters.minimumRating = Double(random.next() % 6) }
        if random.next() % 4 == 0 { filters.minimumCriticRating = Double(random.next() % 21) / 2 }
        return filters
    }

    private func check(_ name: String, queryFile: String, rounds: Int) throws {
        try check(try EngineAndReference.shared(name), name: name, queries: try SharedData.queries(queryFile),
                  rounds: rounds)
    }

    private func check(_ both: EngineAndReference, name: String, queries: [String], rounds: Int) throws {
        let catalog = both.catalog
        let bruteForce = FilterBruteForce(catalog)
        let genres = Array(Set(catalog.movies.flatMap(\.genres))).sorted()
        let cast = Array(Set(catalog.movies.prefix(300).flatMap(\.cast))).sorted()
        let years = Array(Set(catalog.movies.map(\.year))).sorted()
        var random = SplitMix64(seed: 37)
        var mismatches = 0, nonEmpty = 0
        for round in 0..<rounds {
            let filters = randomFilters(&random, catalog, genres: genres, cast: cast, years: years)
            let reference = SpecReference(Catalog(movies: bruteForce.passing(filters)))
            for _ in 0..<4 {
                let query = random.next() % 4 == 0 ? "" : queries[Int(random.next() % UInt64(queries.count))]
                let typos: TypoTolerance = random.next() % 4 == 0 ? .off : .auto
                let result = try both.index.search(query, perYear: 5, typos: typos, filters: filters, genreFacet: true)
                let actual = try SpecAnswer(result) { try both.title($0) }
                let expected = reference.search(query, perYear: 5, typos: typos)
                let all = reference.search(query, perYear: 1_000_000, typos: typos)
                let expectedFacet = bruteForce.facet(all.years.flatMap(\.ids))
                if expected.total > 0 { nonEmpty += 1 }
                if actual != expected || result.genreFacet != expectedFacet {
                    mismatches += 1
                    if mismatches <= 3 {
                        XCTFail("\(name) round \(round) query \(query.debugDescription) filters \(filters): "
                            + (actual != expected ? "engine \(actual.firstDifference(from: expected))"
                                : "facet \(String(describing: result.genreFacet)) vs \(expectedFacet)"))
                    }
                }
            }
        }
        XCTAssertEqual(mismatches, 0)
        XCTAssertGreaterThan(nonEmpty, 0, "some checks should find something, or they check little")
    }

    /// A generated catalog with what the shared ones lack: critics' ratings, genres spelled several ways (case,
    /// spacing, accents), a genre listed twice, names shared by cast and genres.
    func testGeneratedFiltersMatchBruteForce() throws {
        var random = SplitMix64(seed: 3737)
        let genres = ["Drama", "drama", "  DRAMA ", "Comedy", "Sci-Fi", "Sci Fi", "Café", "cafe", "Film-Noir"]
        let cast = ["Ann Lee", "ann  lee", "Bo Wu", "Drama", "Zoë Ray", "Zoe Ray"]
        let words = ["dark", "night", "star", "love", "storm", "darker", "knight"]
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let movies = (0..<400).map { id in
            Movie(id: id, title: "\(pick(words)) \(pick(words))", year: 1990 + Int(random.next() % 12),
                  rating: random.next() % 4 == 0 ? nil : Double(random.next() % 11) / 2,
                  cast: (0..<Int(random.next() % 3)).map { _ in pick(cast) },
                  genres: (0..<Int(random.next() % 4)).map { _ in pick(genres) },
                  criticRating: random.next() % 3 == 0 ? nil : Double(random.next() % 21) / 2)
        }
        let both = try EngineAndReference(Catalog(movies: movies), self)
        try check(both, name: "generated", queries: ["", "d", "dar", "dark n", "nigth", "knihgt st", "zzz", "sto"],
                  rounds: TestScale.pick(sampled: 20, full: 300))
    }

    /// A catalog of more than 64 genres, whose sets of genres the writer looks up by their genres, not by the bits
    /// of a word: filters and facets as brute force has them, and the counts of every genre.
    func testMoreGenresThanAWordHasBitsMatchBruteForce() throws {
        var random = SplitMix64(seed: 6565)
        let genres = (0..<70).map { "Genre \($0)" } + ["genre 3", " GENRE 69 "]
        let words = ["dark", "night", "star", "love"]
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let movies = (0..<600).map { id in
            Movie(id: id, title: "\(pick(words)) \(pick(words))", year: 1990 + Int(random.next() % 8),
                  rating: random.next() % 4 == 0 ? nil : Double(random.next() % 11) / 2,
                  genres: (0..<Int(random.next() % 5)).map { _ in pick(genres) })
        }
        let both = try EngineAndReference(Catalog(movies: movies), self)
        XCTAssertEqual(try both.index.genreNames().count, 70)
        let everyMovie = both.catalog.movies.map(\.id)
        XCTAssertEqual(try both.index.genreCounts(), FilterBruteForce(both.catalog).facet(everyMovie))
        try check(both, name: "70 genres", queries: ["", "d", "dark n", "nigth", "zzz"],
                  rounds: TestScale.pick(sampled: 20, full: 300))
    }

    /// `genreCounts()` (the page's chips before a query, `/api/genres`) is the facet of every movie of the catalog:
    /// genres spelled several ways counted once per movie under the lowest id's spelling, on a generated catalog
    /// and the decade one.
    func testGenreCountsAreTheFacetOfEveryMovie() throws {
        let spellings = ["Drama", "drama", "  DRAMA ", "Comedy", "Café", "cafe", "Film-Noir"]
        var random = SplitMix64(seed: 371)
        let movies = (0..<200).map { id in
            Movie(id: id, title: "night \(id)", year: 2000, rating: 3, cast: [],
                  genres: (0..<Int(random.next() % 4)).map { _ in spellings[Int(random.next() % UInt64(spellings.count))] })
        }
        let generated = try EngineAndReference(Catalog(movies: movies), self)
        let decade = try EngineAndReference.shared("movies.json")
        for both in [generated, decade] {
            let expected = FilterBruteForce(both.catalog).facet(both.catalog.movies.map(\.id))
            XCTAssertGreaterThan(expected.count, 2)
            XCTAssertEqual(try both.index.genreCounts(), expected)
        }
    }

    /// `topRated(by:limit:filters:)` is the unfiltered list with the movies that fail the filters left out, cut to
    /// the limit: both lists, limits from none to more than pass, on the generated catalog (unrated movies and
    /// critics' ratings, few years) and the decade one (many movies a year, so a year's first passing ranks matter).
    func testTopListsUnderFiltersAreTheWholeListsFiltered() throws {
        var random = SplitMix64(seed: 3738)
        let genres = ["Drama", "drama", "Comedy", "Sci-Fi", "Café"]
        let movies = (0..<300).map { id in
            Movie(id: id * 3 + 1, title: "night \(id)", year: 1995 + Int(random.next() % 6),
                  rating: random.next() % 4 == 0 ? nil : Double(random.next() % 11) / 2,
                  cast: random.next() % 3 == 0 ? ["Ann Lee"] : [],
                  genres: (0..<Int(random.next() % 3)).map { _ in genres[Int(random.next() % UInt64(genres.count))] },
                  criticRating: random.next() % 3 == 0 ? nil : Double(random.next() % 21) / 2)
        }
        let generated = try EngineAndReference(Catalog(movies: movies), self)
        let decade = try EngineAndReference.shared("movies.json")
        var checked = 0
        for both in [generated, decade] {
            let catalog = both.catalog
            let bruteForce = FilterBruteForce(catalog)
            let years = Array(Set(catalog.movies.map(\.year))).sorted()
            let allGenres = Array(Set(catalog.movies.flatMap(\.genres))).sorted()
            let cast = Array(Set(catalog.movies.prefix(300).flatMap(\.cast))).sorted()
            for order in [TopListOrder.rating, .critic] {
                let whole = try both.index.topRated(by: order, limit: catalog.movies.count).map(\.id)
                for round in 0..<TestScale.pick(sampled: 4, full: 200) {
                    let filters = randomFilters(&random, catalog, genres: allGenres, cast: cast, years: years)
                    let passing = whole.filter { bruteForce.passes(id: $0, filters) }
                    // Past everything that passes once a catalog: each movie made costs in a debug build.
                    for limit in [0, 1, 15] + (round == 0 ? [passing.count + 3] : []) {
                        let actual = try both.index.topRated(by: order, limit: limit, filters: filters).map(\.id)
                        XCTAssertEqual(actual, Array(passing.prefix(limit)),
                                       "\(order) round \(round) limit \(limit) filters \(filters)")
                        if !actual.isEmpty { checked += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 8, "most filters should leave a list to compare")
    }

    func testDecadeFiltersMatchBruteForce() throws {
        try check("movies.json", queryFile: "decade-typing.txt", rounds: TestScale.pick(sampled: 8, full: 300))
    }

    /// A third of a second a round in a debug build (the reference is rebuilt on each round's passing movies), and
    /// century indexed first: a full run's check (`.ci/run`'s full step runs it).
    func testCenturyFiltersMatchBruteForce() throws {
        try TestScale.requireFullRun("century's filters against the brute force")
        try check("century-movies.json", queryFile: "century-typing.txt", rounds: 24)
    }
}
