import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

final class MovieIndexTests: XCTestCase {
    func testSpecExamples() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        let titles = { (query: String) throws -> Set<String> in
            Set(try index.search(query, perYear: 100).years.flatMap(\.movieIDs).map { try index.movie(id: $0).title })
        }
        // Every title with a word starting with "dark" (Darkest, Darkness, Darker too), and only those.
        XCTAssertEqual(try titles("dark"), ["The Dark Knight", "Dark Shadows", "Darkest Hour", "Star Trek Into Darkness",
                                            "Fifty Shades Darker", "The Dark Tower", "Dark Places", "The Dark",
                                            "Dark Matter", "Dark Skies"])
        XCTAssertEqual(try titles("the"), ["The Dark Knight", "The Dark Tower", "The Dark"])
        XCTAssertEqual(try titles("knight"), ["The Dark Knight", "Knight and Day", "Knight of Cups"])
        XCTAssertEqual(try titles("dark kni"), ["The Dark Knight"])
        XCTAssertEqual(try titles("kni dark"), ["The Dark Knight"])
        XCTAssertEqual(try titles("ark"), [])
        XCTAssertEqual(try titles("BRUNO"), ["Brüno"])
        XCTAssertEqual(try titles("dont"), ["Don't Breathe"])
        XCTAssertEqual(try titles("don't"), ["Don't Breathe"])
        XCTAssertEqual(try titles("500 days"), ["(500) Days of Summer"])
    }

    func testGroupingRankingAndCounts() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        let result = try index.search("dark")
        XCTAssertEqual(result.years.map(\.year), [2017, 2013, 2012])
        // 2012: Dark Knight (5), then the 3s in id order (1, 10, 12, 13, 14), Knight of Cups is not a match.
        XCTAssertEqual(result.years[2].count, 6)
        XCTAssertEqual(result.years[2].movieIDs, [0, 1, 10, 12, 13])
        // 2017: 4.5, then 1, then unrated last.
        XCTAssertEqual(result.years[0].movieIDs, [5, 4, 2])
        XCTAssertEqual(result.total, 10)
        XCTAssertEqual(try index.search("dark", perYear: 0).years.map(\.movieIDs), [[], [], []])
        XCTAssertEqual(try index.search("dark", perYear: -3).years.map(\.count), [3, 1, 6])
    }

    func testQueriesWithoutTokensBrowseEverything() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        let reference = ReferenceSearch(Fixtures.small)
        for query in ["", "   ", "!!!", "–", "🎈", "'''"] {
            let result = try index.search(query, typos: .off)
            XCTAssertEqual(result, reference.search(query), "query \(query.debugDescription)")
            XCTAssertEqual(result.total, Fixtures.small.movies.count)
        }
    }

    func testEngineEqualsReferenceOnSmallCatalog() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        let reference = ReferenceSearch(Fixtures.small)
        let queries = ["d", "da", "dar", "dark", "dark ", "the d", "the dark t", "k", "kn kn", "dark dark", "dar dark",
                       "of", "o", "s", "sh", "zzz", "t d", "2", "5", "500", "b", "br", "bru", "brü", "x dark"]
        for query in queries {
            for perYear in [0, 1, 2, 5, 50] {
                XCTAssertEqual(try index.search(query, perYear: perYear, typos: .off), reference.search(query, perYear: perYear),
                               "query \(query.debugDescription), perYear \(perYear)")
            }
        }
    }

    func testMovieDetailsRoundTrip() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        for movie in Fixtures.small.movies {
            XCTAssertEqual(try index.movie(id: movie.id), movie)
        }
        XCTAssertThrowsError(try index.movie(id: Fixtures.small.movies.count)) { error in
            XCTAssertEqual(error as? CacheError, .noSuchMovie(id: 16, movieCount: 16, ids: 0...15))
        }
        XCTAssertThrowsError(try index.movie(id: -1))
        XCTAssertEqual(index.movieCount, 16)
    }

    /// Typing a query a letter at a time repeats its words: each word's typo walk runs once, and the kept walks give
    /// the answers a fresh index gives.
    func testTypingATypoQueryWalksEachWordOnce() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        let typed = ["darkenss", "darkenss t", "darkenss tr", "darkenss tre", "darkenss trek"]
        let answers = try typed.map { try index.search($0) }
        XCTAssertEqual(answers.map(\.mode), [.typo, .typo, .typo, .typo, .typo])
        XCTAssertEqual(answers[0].years.flatMap(\.typoCounts), [1])
        XCTAssertEqual(index.typoWalkCount, 1, "one walk, for darkenss; the other words have no budget")
        for (query, answer) in zip(typed, answers) {
            XCTAssertEqual(try Fixtures.index(Fixtures.small, self).search(query), answer, query)
        }
        _ = try index.search("darkenss trekk")
        XCTAssertEqual(index.typoWalkCount, 2, "trekk is a new word with a budget")
    }

    /// A listing (what `query` prints of a movie) holds what the whole movie holds, rated and unrated, and an id
    /// the cache lacks is the same error.
    func testListingsAgreeWithTheDecodedMovies() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        for movie in Fixtures.small.movies {
            XCTAssertEqual(try index.decodedListing(id: movie.id),
                           MovieListing(id: movie.id, title: movie.title, rating: movie.rating), movie.title)
            XCTAssertEqual(try index.decodedListing(id: movie.id), MovieListing(try index.decodedMovie(id: movie.id)))
        }
        XCTAssertTrue(Fixtures.small.movies.contains { $0.rating == nil }, "the fixture has an unrated movie")
        XCTAssertThrowsError(try index.decodedListing(id: 99)) { error in
            guard case CacheError.noSuchMovie(id: 99, _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(index.decodedMovieCount, Fixtures.small.movies.count, "listings are not counted as movies")
    }

    func testReopenedMoviesAreDecodedOnce() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        XCTAssertEqual(try index.movie(id: 3).title, "Star Trek Into Darkness")
        XCTAssertEqual(try index.movie(id: 3).title, "Star Trek Into Darkness")
        XCTAssertEqual(index.decodedMovieCount, 1)
        XCTAssertThrowsError(try index.movie(id: 99))
        XCTAssertThrowsError(try index.movie(id: 99))
        XCTAssertEqual(index.decodedMovieCount, 1, "failures are not cached as movies")
        for id in 0..<Fixtures.small.movies.count { _ = try index.movie(id: id) }
        XCTAssertEqual(index.decodedMovieCount, Fixtures.small.movies.count, "16 movies fit in the cache: only the 15 new ones decoded")
        _ = try index.movie(id: 3)
        XCTAssertEqual(index.decodedMovieCount, Fixtures.small.movies.count)
    }

    /// More distinct movies than the detail cache holds: the least recently opened are evicted and decoded again
    /// when reopened, the answers stay right, and a reopened movie counts as recent (LRU, not first in first out).
    func testOpeningMoreMoviesThanTheCacheHoldsEvictsTheLeastRecentlyOpened() throws {
        let capacity = MovieIndex.detailCacheCapacity
        let catalog = Catalog(movies: (0..<(capacity + 36)).map { id in
            Movie(id: id, title: "Movie \(id)", year: 1950 + id % 70, rating: id % 7 == 0 ? nil : Double(id % 5),
                  cast: ["Actor \(id)"], genres: id % 2 == 0 ? ["Drama"] : [])
        })
        let index = try Fixtures.index(catalog, self)
        for movie in catalog.movies { XCTAssertEqual(try index.movie(id: movie.id), movie) }
        let count = catalog.movies.count
        XCTAssertEqual(index.decodedMovieCount, count)
        // The cache now holds the last `capacity` ids, the oldest of them least recently opened.
        let oldest = count - capacity
        XCTAssertEqual(try index.movie(id: oldest), catalog.movies[oldest])
        XCTAssertEqual(try index.movie(id: count - 1), catalog.movies[count - 1])
        XCTAssertEqual(index.decodedMovieCount, count, "the last \(capacity) movies opened are still decoded")
        // Id 0 was evicted long ago: decoded again, which evicts the least recently opened, `oldest + 1` (`oldest`
        // was just reopened).
        XCTAssertEqual(try index.movie(id: 0), catalog.movies[0])
        XCTAssertEqual(index.decodedMovieCount, count + 1)
        XCTAssertEqual(try index.movie(id: oldest), catalog.movies[oldest])
        XCTAssertEqual(index.decodedMovieCount, count + 1, "reopened, so recent: not evicted")
        XCTAssertEqual(try index.movie(id: oldest + 1), catalog.movies[oldest + 1])
        XCTAssertEqual(index.decodedMovieCount, count + 2, "the least recently opened was evicted")
    }

    func testIdsWithGapsAfterSkippedMovies() throws {
        let catalog = Catalog(movies: [
            Movie(id: 1, title: "One", year: 2001, rating: 2),
            Movie(id: 4, title: "Four", year: 2001, rating: 2),
            Movie(id: 5, title: "Five", year: 2000, rating: nil),
        ])
        let index = try Fixtures.index(catalog, self)
        XCTAssertEqual(try index.movie(id: 4).title, "Four")
        XCTAssertEqual(try index.movie(id: 5).title, "Five")
        XCTAssertEqual(try index.movie(id: 1).title, "One")
        for missing in [0, 2, 3, 6, 1000] {
            XCTAssertThrowsError(try index.movie(id: missing), "id \(missing)")
        }
        XCTAssertEqual(try index.search("f", typos: .off), ReferenceSearch(catalog).search("f"))
    }

    func testTopRated() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        // Rating descending, unrated last, lower id first on ties.
        let expected = Fixtures.small.movies.sorted { a, b in
            switch (a.rating, b.rating) {
            case let (x?, y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.id < b.id
            }
        }.map(\.id)
        XCTAssertEqual(try index.topRated(limit: 100).map(\.id), expected)
        XCTAssertEqual(try index.topRated(limit: 3).map(\.id), [0, 5, 3])
        XCTAssertEqual(try index.topRated(limit: 0), [])
        XCTAssertEqual(try index.topRated(limit: -1), [])
    }

    func testCatalogsBuiltInMemoryAreChecked() throws {
        for rating in [Double.nan, .infinity, -.infinity] {
            XCTAssertThrowsError(try CacheWriter.encode(Catalog(movies: [Movie(id: 0, title: "x", year: 1, rating: rating)]))) { error in
                XCTAssertEqual(error as? CacheError, .invalidMovieField(id: 0, field: "rating", reason: "\(rating) is not a finite number (an unrated movie has nil)"))
            }
        }
        let duplicate = Catalog(movies: [Movie(id: 3, title: "a", year: 1, rating: nil), Movie(id: 3, title: "b", year: 1, rating: nil)])
        XCTAssertThrowsError(try CacheWriter.encode(duplicate))
        XCTAssertThrowsError(try CacheWriter.encode(Catalog(movies: [Movie(id: -1, title: "a", year: 1, rating: nil)])))
        XCTAssertThrowsError(try CacheWriter.encode(Catalog(movies: [Movie(id: 0, title: "a", year: 1 << 40, rating: nil)]))) { error in
            XCTAssertEqual((error as? CacheError)?.description,
                           "cannot store movie 0: its year 1099511627776 is outside -2147483648...2147483647, the years a cache can store")
        }
    }

    func testEmptyCatalog() throws {
        let index = try Fixtures.index(Catalog(movies: []), self)
        XCTAssertEqual(try index.search("dark"), SearchResult(query: "dark", total: 0, years: []))
        XCTAssertEqual(try index.search(""), SearchResult(query: "", total: 0, years: []))
        XCTAssertEqual(try index.topRated(limit: 5), [])
        XCTAssertEqual(index.tokenCount, 0)
    }

    func testOddQueries() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        let reference = ReferenceSearch(Fixtures.small)
        let long = String(repeating: "dark ", count: 2_000)
        let noise = String((0..<10_000).map { i in Character(UnicodeScalar(UInt8(32 + (i * 7919) % 95))) })
        for query in [long, noise, "dark\u{0}", "\u{FEFF}dark", "ＤＡＲＫ", "Dark🎈Knight"] {
            XCTAssertEqual(try index.search(query, typos: .off), reference.search(query))
        }
    }

    func testRandomCatalogsAgainstReference() throws {
        var generator = SplitMix64(seed: 42)
        let words = ["a", "ab", "abc", "b", "ba", "the", "then", "them", "dark", "darker", "x", "xy", "école", "ecole"]
        for round in 0..<20 {
            let movies = (0..<Int(generator.next() % 60)).map { id in
                Movie(id: id, title: (0..<(1 + Int(generator.next() % 4))).map { _ in words[Int(generator.next() % UInt64(words.count))] }
                        .joined(separator: " "),
                      year: 2000 + Int(generator.next() % 4),
                      rating: generator.next() % 4 == 0 ? nil : Double(generator.next() % 3))
            }
            let catalog = Catalog(movies: movies)
            let index = try Fixtures.index(catalog, self)
            let reference = ReferenceSearch(catalog)
            for query in ["", "a", "ab", "the", "th", "t d", "dark darker", "e", "x a b", "xyz", "ecole", "é"] {
                XCTAssertEqual(try index.search(query, perYear: 3, typos: .off), reference.search(query, perYear: 3), "round \(round) query \(query)")
                XCTAssertEqual(reference.search(query, perYear: 3), reference.bruteForce(query, perYear: 3),
                               "the reference's index, round \(round) query \(query)")
            }
        }
    }

    /// The answer order at the edges of what a cache stores: years from `Int32.min` to `Int32.max` (a span of 32
    /// bits), ratings of many distinct values, -0.0 beside 0.0, and the unrated; and a catalog with one year and no
    /// ratings at all. The indexer sorts ranks on keys packed into 64 bits where they fit, else on pairs: every
    /// shape must give the reference's order, and the users' top list its order.
    func testTheAnswerOrderHoldsAtTheEdgesOfYearsAndRatings() throws {
        var generator = SplitMix64(seed: 4242)
        let years = [Int(Int32.min), Int(Int32.min) + 1, -1, 0, 1999, 2000, Int(Int32.max) - 1, Int(Int32.max)]
        for round in 0..<6 {
            let count = [0, 1, 2, 50, 300, 1_000][round]
            let movies = (0..<count).map { id -> Movie in
                let rating: Double? = switch generator.next() % 5 {
                case 0: nil
                case 1: [0.0, -0.0][Int(generator.next() % 2)]
                default: Double(generator.next() % 10_000) / 100 - 20
                }
                let year = round == 1 ? 1_950 : years[Int(generator.next() % UInt64(years.count))]
                return Movie(id: id * 7 + 3, title: "w\(generator.next() % 3)", year: year, rating: round == 1 ? nil : rating)
            }
            let catalog = Catalog(movies: movies)
            let index = try Fixtures.index(catalog, self)
            let reference = ReferenceSearch(catalog)
            for query in ["", "w", "w1"] {
                XCTAssertEqual(try index.search(query, perYear: 1_000, typos: .off), reference.search(query, perYear: 1_000),
                               "round \(round) query \(query)")
            }
            let rated: [Movie] = catalog.movies.filter { $0.rating != nil }.sorted { (a: Movie, b: Movie) -> Bool in
                a.rating! != b.rating! ? a.rating! > b.rating! : a.id < b.id
            }
            let unrated: [Movie] = catalog.movies.filter { $0.rating == nil }.sorted { $0.id < $1.id }
            let top: [Int] = try index.topRated(by: TopListOrder.rating, limit: count).map(\.id)
            XCTAssertEqual(top, (rated + unrated).map(\.id), "round \(round)")
        }
    }

    /// The indexer's sort of slots by key, ties in slot order, on both of its paths: keys packed with the slot into
    /// one `UInt64` (few key bits) and pairs (keys too wide to share 64 bits with the slot).
    func testSlotsSortByKeyThenSlotWhetherPackedOrNot() {
        var generator = SplitMix64(seed: 77)
        for (count, keyBits) in [(0, 8), (1, 0), (300, 3), (300, 20), (300, 57), (300, 64), (5_000, 40), (5_000, 52)] {
            let mask: UInt64 = keyBits == 64 ? ~0 : (1 << UInt64(keyBits)) - 1
            let keys = (0..<count).map { _ in generator.next() & mask & (generator.next() % 2 == 0 ? 0xFF : ~0) }
            let expected = (0..<count).sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }.map(UInt32.init)
            XCTAssertEqual(CacheSections.slotsSorted(count: count, keyBits: keyBits) { keys[$0] }, expected,
                           "\(count) slots, \(keyBits)-bit keys")
        }
    }

    /// A few thousand movies over a Zipf-like vocabulary, so that prefix sets come as lists and as bitmaps, and
    /// queries mix both (the small fixtures make nearly every set a bitmap).
    func testListAndBitmapSetsAgainstReference() throws {
        var generator = SplitMix64(seed: 7)
        let stems = ["the", "th", "a", "an", "and", "dark", "darkness", "star", "stars", "war", "wars", "love", "lost",
                     "l", "night", "knight", "man", "men", "woman", "x", "zed", "über", "uber", "007", "2"]
        let vocabulary = stems + (0..<400).map { "w\($0 * 7919 % 1000)" }
        func word() -> String {
            // Zipf-like: small indexes far more often than large ones.
            let r = Double(generator.next() % 1_000_000) / 1_000_000
            return vocabulary[min(vocabulary.count - 1, Int(pow(Double(vocabulary.count), r * r)) - 1)]
        }
        let movies = (0..<3_000).map { id in
            Movie(id: id, title: (0..<(1 + Int(generator.next() % 5))).map { _ in word() }.joined(separator: " "),
                  year: 1990 + Int(generator.next() % 30),
                  rating: generator.next() % 5 == 0 ? nil : Double(1 + generator.next() % 5))
        }
        let catalog = Catalog(movies: movies)
        let index = try Fixtures.index(catalog, self)
        let reference = ReferenceSearch(catalog)
        var queries = ["t", "th", "the", "the d", "a", "an", "the a", "l", "lo", "w", "w1", "w12", "w1 w2", "x th", "u",
                       "ub", "über", "0", "00", "2", "st w", "dark the", "th th", "night kn", "man the a w"]
        for _ in 0..<150 { queries.append((0..<(1 + Int(generator.next() % 3))).map { _ in String(word().prefix(1 + Int(generator.next() % 4))) }.joined(separator: " ")) }
        for (number, query) in queries.enumerated() {
            XCTAssertEqual(try index.search(query, typos: .off), reference.search(query), "query \(query)")
            XCTAssertEqual(try index.search(query, perYear: 1, typos: .off), reference.search(query, perYear: 1), "query \(query)")
            if number % 8 == 0 {
                XCTAssertEqual(reference.search(query), reference.bruteForce(query), "the reference's index, query \(query)")
            }
        }
    }

    /// Two lists of like size, long enough (1,024 candidates or more) to be intersected through a bitmap built for
    /// the query, and both below the size of a stored bitmap (2⌈N / 64⌉ = 1,250 ranks here), against the reference.
    func testLongListsIntersectedThroughABitmapAgainstReference() throws {
        try TestScale.requireFullRun("long lists met with each other against the reference")
        var generator = SplitMix64(seed: 11)
        func chance(_ perMillion: UInt64) -> Bool { generator.next() % 1_000_000 < perMillion }
        let movies = (0..<40_000).map { id -> Movie in
            var words = ["w\(generator.next() % 5_000)"]
            if chance(28_000) { words.append("alpha") }  // about 1,120 titles
            if chance(30_000) { words.append("alphabet") }
            if chance(29_000) { words.append("beta") }
            if chance(500_000) { words.append("gamma") }  // a bitmap
            return Movie(id: id, title: words.shuffled(using: &generator).joined(separator: " "),
                         year: 1950 + Int(generator.next() % 70), rating: chance(200_000) ? nil : Double(generator.next() % 5))
        }
        let catalog = Catalog(movies: movies)
        let index = try Fixtures.index(catalog, self)
        let reference = ReferenceSearch(catalog)
        for query in ["alpha beta", "beta alpha", "alphab beta", "beta gamma", "alpha beta gamma", "alpha w1", "w2 beta", "b"] {
            XCTAssertEqual(try index.search(query, typos: .off), reference.search(query), "query \(query)")
            XCTAssertEqual(try index.search(query, perYear: 0, typos: .off), reference.search(query, perYear: 0), "query \(query)")
        }
        // The shape the test is about: `alphab` (alphabet) and `beta` are both lists of 1,024 to 1,250 ranks.
        for word in ["alphab", "beta"] {
            XCTAssertTrue((1_024...1_250).contains(try index.search(word).total), word)
        }
    }

    /// The intersection kernels on their own: every way of meeting a list (galloping, a block at a time through a
    /// small bitmap, scanning, a bit test per candidate) gives the ascending ranks of both, and a rank past the
    /// movies is an error.
    func testIntersectionKernels() throws {
        var generator = SplitMix64(seed: 5)
        let movieCount = 300_000  // 5 blocks of 2^16 ranks, the last one cut short
        func sortedSample(_ count: Int) -> [UInt32] {
            Array(Set((0..<count).map { _ in UInt32(generator.next() % UInt64(movieCount)) })).sorted()
        }
        // Galloped (few candidates), by blocks (ratio up to 16), scanned (up to 64), galloped (beyond).
        let pairs = [(10, 50_000), (2_000, 3_000), (5_000, 5_000), (20_000, 200_000), (1_500, 20_000), (1_500, 40_000),
                     (1_100, 60_000), (1_030, 90_000)]
        for (small, large) in pairs {
            let candidates = sortedSample(small), list = sortedSample(large)
            let expected = candidates.filter(Set(list).contains)
            let set = RankSet(cardinality: list.count, storage: .merged(list), yearCounts: nil)
            XCTAssertEqual(try QueryExecutor.filter(candidates, by: set, movieCount: movieCount, path: "p"),
                           expected, "\(small) in \(large)")
            XCTAssertEqual(BitKernels.intersection(candidates, list, below: movieCount), expected, "\(small) in \(large)")
            // The list as a file holds it at 10 million movies: 24-bit entries, read through a `BytePackedView`.
            try ByteWriter.packed(list, width: 24).withUnsafeBytes { raw in
                let packed = PackedView(base: try XCTUnwrap(raw.baseAddress), firstBit: 0, width: 24, count: list.count)
                XCTAssertNotNil(packed.bytePacked)
                let stored = RankSet(cardinality: list.count, storage: .list(packed), yearCounts: nil)
                XCTAssertEqual(try QueryExecutor.filter(candidates, by: stored, movieCount: movieCount, path: "p"),
                               expected, "\(small) in \(large), packed")
            }
            var bits = [UInt64](repeating: 0, count: CacheFormat.bitmapWordCount(movieCount: movieCount))
            for rank in list { bits[Int(rank) / 64] |= 1 << UInt64(rank % 64) }
            XCTAssertEqual(BitKernels.filter(candidates, below: movieCount) { bits[$0] }, expected)
            // The same bitmap as the file holds it (little-endian words), read without a check per word.
            let bytes = bits.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
            bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return XCTFail("no bitmap words for \(movieCount) movies") }
                let view = U64View(base: base, count: bits.count)
                XCTAssertEqual(BitKernels.filter(candidates, in: view, below: movieCount), expected)
                XCTAssertNil(BitKernels.filter(candidates + [UInt32(movieCount)], in: view, below: movieCount))
            }
        }
        // A candidate past the movies is an error; a list's rank past them (or out of order) is only never found.
        let forged = RankSet(cardinality: 2_000, storage: .merged((0..<2_000).map(UInt32.init)), yearCounts: nil)
        XCTAssertThrowsError(try QueryExecutor.filter((0..<1_500).map { UInt32($0 * 100) }, by: forged, movieCount: 1_000,
                                                      path: "p"))
        XCTAssertNil(BitKernels.intersection([UInt32(5), 1_000], [5, 1_000], below: 1_000))
        // Out of order (a damaged file), either side: some of the candidates, without a trap.
        for (candidates, list) in [([UInt32(5), 70_000, 80_000], [UInt32(80_000), 5, 999_999, 70_000]),
                                   ([70_000, 5, 80_000], [5, 70_000, 80_000])] {
            let kept = try XCTUnwrap(BitKernels.intersection(candidates, list, below: 100_000))
            XCTAssertTrue(Set(kept).isSubset(of: candidates), "\(kept)")
        }
        XCTAssertNil(BitKernels.filter([UInt32(5), 1_000], below: 1_000) { _ in .max })
    }

    /// A catalog of fewer than 2^16 movies meets lists in one block of as many words as cover it, at fewer
    /// candidates than a larger one (`QueryExecutor.meetsByBlocks`): the same ranks as a set intersection, coded
    /// lists on either side, and a damaged list's ranks past the catalog never written outside the block.
    func testSmallCatalogsMeetListsInOneBlock() throws {
        XCTAssertEqual([1, 64, 65, 2_272, 36_273, 65_536, 65_537, 1_000_000].map(BitKernels.blockWordCount(below:)),
                       [1, 1, 2, 36, 567, 1_024, 1_024, 1_024])
        // Decade: 36 words, so 5 candidates are enough, in a list at most 4 times longer.
        XCTAssertTrue(QueryExecutor.meetsByBlocks(5, 20, movieCount: 2_272))
        XCTAssertFalse(QueryExecutor.meetsByBlocks(4, 16, movieCount: 2_272))
        XCTAssertFalse(QueryExecutor.meetsByBlocks(50, 250, movieCount: 2_272))
        // From 2^16 movies on, as before: 1,024 candidates, a list up to 16 times longer.
        XCTAssertFalse(QueryExecutor.meetsByBlocks(1_000, 1_000, movieCount: 1_000_000))
        XCTAssertTrue(QueryExecutor.meetsByBlocks(1_024, 16_384, movieCount: 1_000_000))
        var generator = SplitMix64(seed: 11)
        for movieCount in [70, 2_272, 36_273, 65_536] {
            func sortedSample(_ count: Int) -> [UInt32] {
                Array(Set((0..<count).map { _ in UInt32(generator.next() % UInt64(movieCount)) })).sorted()
            }
            for (small, large) in [(10, 30), (60, 200), (500, 1_900)] {
                let candidates = sortedSample(small), list = sortedSample(large)
                let expected = candidates.filter(Set(list).contains)
                XCTAssertEqual(BitKernels.intersection(candidates, list, below: movieCount), expected,
                               "\(small) in \(large) of \(movieCount)")
                var candidateBytes: [UInt8] = [], listBytes: [UInt8] = []
                EliasFanoList.encode(candidates[...], universe: movieCount, into: &candidateBytes)
                EliasFanoList.encode(list[...], universe: movieCount, into: &listBytes)
                try (candidateBytes + [UInt8](repeating: 0, count: 8)).withUnsafeBytes { a in
                    try (listBytes + [UInt8](repeating: 0, count: 8)).withUnsafeBytes { b in
                        let coded = EliasFanoList(base: try XCTUnwrap(a.baseAddress), count: candidates.count,
                                                  universe: movieCount)
                        let other = EliasFanoList(base: try XCTUnwrap(b.baseAddress), count: list.count,
                                                  universe: movieCount)
                        XCTAssertEqual(BitKernels.intersection(coded, other, below: movieCount), expected)
                        XCTAssertEqual(BitKernels.intersection(candidates, other, below: movieCount), expected)
                        XCTAssertEqual(BitKernels.intersection(coded, list, below: movieCount), expected)
                    }
                }
            }
            // A damaged list, out of order: some of the candidates, without a trap.
            let candidates = sortedSample(40)
            let damaged = [UInt32(movieCount - 1), 0] + candidates.reversed()
            let kept = try XCTUnwrap(BitKernels.intersection(candidates, damaged, below: movieCount))
            XCTAssertTrue(Set(kept).isSubset(of: candidates), "\(kept)")
        }
    }

    /// `U64View.intersectionCount` counts the common bits of two bitmaps in any bit range, edges included, as a
    /// bit-by-bit count does.
    func testIntersectionCount() throws {
        var generator = SplitMix64(seed: 11)
        let movieCount = 5_000
        let words = CacheFormat.bitmapWordCount(movieCount: movieCount)
        let a = (0..<words).map { _ in generator.next() }, b = (0..<words).map { _ in generator.next() }
        func bytes(_ words: [UInt64]) -> [UInt8] { words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word.littleEndian >> ($0 * 8)) } } }
        let left = bytes(a), right = bytes(b)
        try left.withUnsafeBytes { leftBytes in
            try right.withUnsafeBytes { rightBytes in
                let viewA = U64View(base: try XCTUnwrap(leftBytes.baseAddress), count: words)
                let viewB = U64View(base: try XCTUnwrap(rightBytes.baseAddress), count: words)
                for range in [0..<0, 0..<1, 3..<60, 63..<65, 0..<64, 64..<128, 10..<4_999, 1_000..<3_333, 0..<movieCount] {
                    let expected = range.filter { rank in (a[rank / 64] & b[rank / 64]) >> UInt64(rank % 64) & 1 == 1 }.count
                    XCTAssertEqual(U64View.intersectionCount(viewA, viewB, range), expected, "\(range)")
                }
            }
        }
    }

    /// 0.0 and -0.0 are equal ratings: their movies keep id order in answers and in the top list (SPEC.md),
    /// though each rating reads back with its own sign.
    func testZeroAndNegativeZeroAreEqualRatings() throws {
        let catalog = Catalog(movies: [
            Movie(id: 0, title: "Alpha one", year: 2000, rating: 0.0),
            Movie(id: 1, title: "Alpha two", year: 2000, rating: -0.0),
            Movie(id: 2, title: "Alpha three", year: 2000, rating: 0.0),
            Movie(id: 3, title: "Alpha four", year: 2000, rating: -1),
        ])
        let index = try Fixtures.index(catalog, self)
        XCTAssertEqual(try index.search("alpha").years.map(\.movieIDs), [[0, 1, 2, 3]])
        XCTAssertEqual(try index.topRated(limit: 4).map(\.id), [0, 1, 2, 3])
        XCTAssertEqual(try index.movie(id: 1).rating?.sign, .minus)
        XCTAssertEqual(try index.movie(id: 0).rating?.sign, .plus)
    }
}
