import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import Synchronization
import TestSupport
import XCTest

/// One `MovieIndex` shared by eight threads gives every thread the single-threaded answers.
///
/// CI also runs these tests under Thread Sanitizer (`MOVIESEARCH_ENGINE_ONLY=1 swift test --sanitize=thread
/// --filter ConcurrencyTests`, in `.ci/run`), which reports any data race they reach: in the lazy checksum
/// verification of the mapped file, the LRU cache of `movie(id:)`, the kept text blocks (`TextBlockCache`), or the
/// query path.
final class ConcurrencyTests: XCTestCase {
    static let threadCount = 8
    /// Each round opens the file afresh, so that the threads race to check its blocks and sections first. A sampled
    /// run (`TestScale`: plain `swift test`, and `.ci/run`'s Thread Sanitizer step, where each step costs some ten
    /// times more) has one round of an eighth of the steps: the threads still start together, and between them make
    /// about one pass over each query set and the catalog. A full run (`.ci/run`'s full step, unsanitized) has two
    /// rounds of half the steps: each thread goes through every item once.
    static let rounds = TestScale.pick(sampled: 1, full: 2)
    /// The steps of round `round` through `count` items, each thread from its own starting point: a full run's two
    /// rounds take the two halves (the second one the larger of an odd count).
    static func steps(_ count: Int, round: Int) -> Range<Int> {
        let each = TestScale.pick(sampled: count / 8, full: count / 2)
        return (round * each)..<(round == rounds - 1 && TestScale.isFull ? count : (round + 1) * each)
    }

    /// The decade query set from eight threads at once, each starting at a different query, with the details of
    /// the first movies of every eighth answer, as a results list would show them.
    func testEightThreadsRunningTheDecadeQuerySetGetTheSingleThreadedAnswers() throws {
        let decade = try Decade(self)
        let queries = decade.queries, movies = decade.catalog.movies
        let expected = try MovieIndex(path: decade.cache).searchAll(queries)
        XCTAssertEqual(expected.count, 3_847)

        for round in 0..<Self.rounds {
            let index = try MovieIndex(path: decade.cache)
            let failures = Self.onThreads { thread, fail in
                for step in Self.steps(queries.count, round: round) {
                    let position = (step + thread * queries.count / Self.threadCount) % queries.count
                    do {
                        let result = try index.search(queries[position])
                        if result != expected[position] { fail("query \(queries[position].debugDescription) differs") }
                        let shown = position % 8 == 0 ? result.years.first?.movieIDs ?? [] : []
                        for id in shown where try index.movie(id: id) != movies[id] {
                            fail("movie \(id) differs")
                        }
                    } catch {
                        fail("query \(queries[position].debugDescription) threw \(error)")
                    }
                }
            }
            XCTAssertEqual(failures, [], "round \(round)")
        }
    }

    /// Every movie's details from eight threads at once, each in its own order, through the shared LRU cache of
    /// `movie(id:)` (64 entries for 2,272 movies: constant eviction), plus the best-rated list.
    func testEightThreadsOpeningMoviesThroughTheSharedCacheGetTheCatalogsMovies() throws {
        try TestScale.requireFullRun("eight threads opening every movie of the decade")
        let decade = try Decade(self)
        let movies = decade.catalog.movies
        let topRated = try MovieIndex(path: decade.cache).topRated(limit: 100)

        for round in 0..<Self.rounds {
            let index = try MovieIndex(path: decade.cache)
            let failures = Self.onThreads { thread, fail in
                // Threads walk the ids with different strides (all odd, so each visits every id) and starts.
                let stride = 2 * thread + 1
                for step in Self.steps(movies.count, round: round) {
                    let id = (thread * 101 + step * stride) % movies.count
                    do {
                        if try index.movie(id: id) != movies[id] { fail("movie \(id) differs") }
                        // A few ids again, so that threads hit entries that others are adding and evicting.
                        if step % 16 == 0, try index.movie(id: step % 32) != movies[step % 32] { fail("movie \(step % 32) differs") }
                    } catch {
                        fail("movie \(id) threw \(error)")
                    }
                }
                if (try? index.topRated(limit: 100)) != topRated { fail("the best-rated list differs") }
            }
            XCTAssertEqual(failures, [], "round \(round)")
        }
    }

    /// Typo queries (none of the decade set needs the typo pass) from eight threads at once, with the spans of every
    /// title they list: the typo walk and the highlighter share nothing between queries.
    func testEightThreadsRunningTypoQueriesGetTheSingleThreadedAnswersAndSpans() throws {
        let decade = try Decade(self)
        let queries = TypoQueries.make(from: decade.catalog, count: 200, seed: 8)
        let titles = decade.catalog.movies.map(\.title)
        @Sendable func answer(_ index: MovieIndex, _ query: String) throws -> SpecAnswer {
            SpecAnswer(try index.search(query)) { titles[$0] }
        }
        let single = try MovieIndex(path: decade.cache)
        let expected = try queries.map { try answer(single, $0) }
        XCTAssertGreaterThan(expected.filter { $0.mode == .typo && $0.total > 0 }.count, 100)

        let index = try MovieIndex(path: decade.cache)
        let failures = Self.onThreads { thread, fail in
            for step in (0..<Self.rounds).flatMap({ Self.steps(queries.count, round: $0) }) {
                let position = (step + thread * queries.count / Self.threadCount) % queries.count
                do {
                    if try answer(index, queries[position]) != expected[position] {
                        fail("query \(queries[position].debugDescription) differs")
                    }
                } catch {
                    fail("query \(queries[position].debugDescription) threw \(error)")
                }
            }
        }
        XCTAssertEqual(failures, [])
    }

    // MARK: Support

    /// The decade catalog, its query set and its cache in a temporary folder.
    private struct Decade {
        let catalog: Catalog
        let queries: [String]
        let cache: String

        init(_ test: XCTestCase) throws {
            catalog = try CatalogDecoder.load(path: Requirement.sharedData("data/movies.json"))
            queries = try SharedData.queries("decade-typing.txt")
            cache = try TestPaths.temporaryFolder(test).appendingPathComponent("decade.mscache").path
            _ = try CacheWriter.write(catalog, to: cache)
            XCTAssertEqual(catalog.movies.map(\.id), Array(catalog.movies.indices))
        }
    }

    /// Runs `body(thread, fail)` on `threadCount` threads released at the same moment, and returns the first
    /// failures they reported (at most 20).
    private static func onThreads(_ body: @escaping @Sendable (Int, (String) -> Void) -> Void) -> [String] {
        let group = DispatchGroup()
        let shared = Shared()
        for thread in 0..<threadCount {
            group.enter()
            Thread {
                defer { group.leave() }
                shared.ready.add(1, ordering: .acquiringAndReleasing)
                while shared.ready.load(ordering: .acquiring) < threadCount { sched_yield() }
                body(thread) { message in
                    shared.failures.withLock { if $0.count < 20 { $0.append("thread \(thread): \(message)") } }
                }
            }.start()
        }
        group.wait()
        return shared.failures.withLock { $0 }
    }

    /// What the threads share (a `Mutex` or an `Atomic` cannot be captured by an escaping closure on its own).
    private final class Shared: Sendable {
        let failures = Mutex<[String]>([])
        let ready = Atomic<Int>(0)
    }
}

private extension MovieIndex {
    func searchAll(_ queries: [String]) throws -> [SearchResult] {
        try queries.map { try search($0) }
    }
}
