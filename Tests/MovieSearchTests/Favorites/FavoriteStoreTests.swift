import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchFavorites
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// `FavoriteStore`: favorites resolved against a cache, found again after a rebuild moved ids, kept when missing.
final class FavoriteStoreTests: XCTestCase {
    private func movie(_ id: Int, _ title: String, _ year: Int, _ rating: Double? = 3) -> Movie {
        Movie(id: id, title: title, year: year, rating: rating)
    }

    private var original: [Movie] {
        [movie(0, "The Dark Knight Rises", 2012, 5), movie(1, "Heat", 1995, 4), movie(2, "Gone Girl", 2014, 4),
         movie(3, "Heat", 2013, 2), movie(4, "Amélie", 2001, 4)]
    }

    private func index(_ movies: [Movie]) throws -> MovieIndex {
        try Fixtures.index(Catalog(movies: movies), self)
    }

    func testSameIDResolvesToItself() throws {
        let index = try index(original)
        let list = FavoriteList(entries: [Favorite(original[0]), Favorite(original[3])])
        let store = try FavoriteStore(list: list, index: index)
        XCTAssertEqual(store.ids, [0, 3])
        XCTAssertTrue(store.isFavorite(3))
        XCTAssertFalse(store.isFavorite(1), "the other Heat, of another year")
        XCTAssertEqual(store.missing, [])
        XCTAssertEqual(store.list, list)
    }

    /// A rebuilt cache where id 0 now holds another movie and the favorite moved to id 3: found by title and
    /// year; the saved list gets its new id.
    func testAMovedFavoriteIsFoundByTitleAndYear() throws {
        let list = FavoriteList(entries: [Favorite(original[0]), Favorite(original[4])])
        let rebuilt = [movie(0, "Dark Shadows", 2012), movie(1, "The Dark Knight", 2008), movie(2, "Heat", 1995),
                       movie(3, "The Dark Knight Rises", 2012, 5), movie(4, "Amélie", 2001, 4),
                       movie(5, "The Dark Knight Rises", 2013)]
        let store = try FavoriteStore(list: list, index: index(rebuilt))
        XCTAssertEqual(store.ids, [3, 4])
        XCTAssertEqual(store.list.entries, [Favorite(id: 3, title: "The Dark Knight Rises", year: 2012),
                                            Favorite(original[4])])
        XCTAssertEqual(store.missing, [])
    }

    /// A favorite whose movie is gone is missing, marks nothing (not even the movie now at its id), and stays in
    /// the list to save, where it was.
    func testAGoneFavoriteIsMissingAndKept() throws {
        let gone = Favorite(original[2])
        let list = FavoriteList(entries: [Favorite(original[0]), gone, Favorite(original[1])])
        let rebuilt = [movie(0, "The Dark Knight Rises", 2012, 5), movie(1, "Heat", 1995, 4),
                       movie(2, "Gone Baby Gone", 2007), movie(3, "Gone Girl", 2015)]
        var store = try FavoriteStore(list: list, index: index(rebuilt))
        XCTAssertEqual(store.missing, [gone])
        XCTAssertEqual(store.ids, [0, 1])
        XCTAssertFalse(store.isFavorite(2))
        XCTAssertFalse(store.isFavorite(3), "same title, another year")
        XCTAssertEqual(store.list, list)
        // Changing other favorites keeps it.
        XCTAssertFalse(store.toggle(rebuilt[0]))
        XCTAssertTrue(store.toggle(rebuilt[3]))
        XCTAssertEqual(store.list.entries, [gone, Favorite(original[1]), Favorite(rebuilt[3])])
        // `remove(id:)` never removes a missing entry that was saved with that id: id 2 is another movie now.
        XCTAssertNil(store.remove(id: 2))
        XCTAssertEqual(store.missing, [gone])
        XCTAssertEqual(store.missingWithReasons.map(\.reason), ["no movie of 2014 is titled so"])
        // `removeMissing()` drops it on purpose.
        XCTAssertEqual(store.removeMissing(), [gone])
        XCTAssertEqual(store.missing, [])
        XCTAssertEqual(store.list.entries, [Favorite(original[1]), Favorite(rebuilt[3])])
    }

    /// An id past the cache's movies (a smaller catalog) is no error: the favorite is looked for by title.
    func testAnIDOutOfRangeIsLookedForByTitle() throws {
        let list = FavoriteList(entries: [Favorite(id: 4_000_000, title: "Heat", year: 1995)])
        let store = try FavoriteStore(list: list, index: index(original))
        XCTAssertEqual(store.ids, [1])
    }

    func testToggleAddAndRemove() throws {
        let index = try index(original)
        var store = try FavoriteStore(list: FavoriteList(), index: index)
        XCTAssertTrue(store.toggle(original[2]))
        XCTAssertTrue(store.isFavorite(2))
        XCTAssertFalse(store.add(original[2]), "already one")
        XCTAssertTrue(store.add(original[0]))
        XCTAssertEqual(store.list.entries, [Favorite(original[2]), Favorite(original[0])])
        XCTAssertFalse(store.toggle(original[2]))
        XCTAssertEqual(store.ids, [0])
        XCTAssertNil(store.remove(id: 2))
        XCTAssertEqual(store.remove(id: 0), Favorite(original[0]))
        XCTAssertEqual(store.list, FavoriteList())
    }

    /// Duplicates in a file collapse to one entry. A moved favorite whose title and year two movies have is missing,
    /// never one of them at random; where its id still holds it, it is that movie.
    func testDuplicatesAndTwinTitles() throws {
        let twins = [movie(0, "Heat", 1995, 4), movie(1, "Heat", 1995, 3), movie(2, "Other", 1995)]
        let list = FavoriteList(entries: [Favorite(id: 7, title: "Heat", year: 1995), Favorite(id: 8, title: "Heat", year: 1995),
                                          Favorite(id: 2, title: "Other", year: 1995), Favorite(id: 2, title: "Other", year: 1995)])
        let store = try FavoriteStore(list: list, index: index(twins))
        XCTAssertEqual(store.ids, [2])
        XCTAssertEqual(store.list.entries.count, 3)
        XCTAssertEqual(store.missingWithReasons.map(\.reason),
                       Array(repeating: "2 movies of 1995 are titled so (ids 0, 1), and no IMDb or TMDb id tells which",
                             count: 2))
        let unmoved = try FavoriteStore(list: FavoriteList(entries: [Favorite(id: 1, title: "Heat", year: 1995)]),
                                        index: index(twins))
        XCTAssertEqual(unmoved.ids, [1])
    }

    /// After a rebuild that shifts every id (a new IMDb dump), favorites are found by IMDb id, else TMDb id, even
    /// among many movies alike in title and year, and even renamed; an id the cache does not hold is missing,
    /// never a movie of the same title with another id; the saved list has the movies as they are now.
    func testMovedFavoritesAreFoundByIMDbIDThenTMDbID() throws {
        func episode(_ id: Int, imdb: String?, tmdb: Int? = nil, title: String = "Episode #1.1") -> Movie {
            var movie = movie(id, title, 2005)
            movie.imdbID = imdb
            movie.tmdbID = tmdb
            return movie
        }
        let old = [episode(0, imdb: "tt0000010"), episode(1, imdb: "tt0000011"), episode(2, imdb: nil, tmdb: 70),
                   episode(3, imdb: "tt0000013"), episode(4, imdb: "tt0000014")]
        let list = FavoriteList(entries: old[1...].map(Favorite.init))
        XCTAssertEqual(list.entries[0].imdbID, "tt0000011")
        // Every id shifted by two; tt0000011 renamed; tt0000013 gone, and a new movie alike in title and year
        // (another IMDb id) must not take its place.
        let new = [episode(0, imdb: "tt0000099"), episode(1, imdb: "tt0000098"), episode(2, imdb: "tt0000010"),
                   episode(3, imdb: "tt0000011", title: "Episode #1.1 (renamed)"), episode(4, imdb: nil, tmdb: 70),
                   episode(5, imdb: "tt0000014"), episode(6, imdb: "tt0000077")]
        let store = try FavoriteStore(list: list, index: index(new))
        XCTAssertEqual(store.ids, [3, 4, 5])
        XCTAssertEqual(store.favorites, [Favorite(new[3]), Favorite(new[4]), Favorite(new[5])])
        // The one movie of that title without an IMDb id (so none that contradicts) is the TMDb favorite's.
        XCTAssertEqual(store.missingWithReasons, [FavoriteStore.Missing(
            favorite: Favorite(old[3]), reason: "the one movie of 2005 titled so, id 4, is another favorite")])
        XCTAssertEqual(store.list.entries, [Favorite(new[3]), Favorite(new[4]), Favorite(old[3]), Favorite(new[5])])
        // The same by the movie at the favorite's old id: the ids decide, not the title.
        XCTAssertFalse(Favorite(old[1]).names(new[1]))
        XCTAssertTrue(Favorite(old[1]).names(new[3]))
    }

    /// An old file (no external ids) still resolves by title and year, and saving it adds the ids the movies have.
    func testAnOldEntryGainsTheIDsOfItsMovie() throws {
        var heat = movie(5, "Heat", 1995, 4)
        heat.imdbID = "tt0113277"
        heat.tmdbID = 949
        let store = try FavoriteStore(list: FavoriteList(entries: [Favorite(id: 0, title: "Heat", year: 1995)]),
                                      index: index([movie(0, "Other", 1990), heat]))
        XCTAssertEqual(store.ids, [5])
        XCTAssertEqual(store.list.entries, [Favorite(id: 5, title: "Heat", year: 1995, imdbID: "tt0113277", tmdbID: 949)])
    }

    /// Many moved favorites are found in one pass over the cache, with the answers one at a time would give.
    func testManyMovedFavoritesResolveAsOneAtATime() throws {
        // 600 movies in a full run (`TestScale`), 240 in a sampled one: each favorite is also resolved alone, and
        // checked by brute force, which is quadratic.
        let count = TestScale.pick(sampled: 240, full: 600)
        var movies: [Movie] = []
        var random = SplitMix64(seed: 23)
        for id in 0..<count {
            var movie = movie(id, "Title \(random.next() % UInt64(count / 3))", 1990 + Int(random.next() % 5))
            if random.next() % 3 == 0 { movie.imdbID = "tt\(String(format: "%07d", id * 7))" }
            if random.next() % 4 == 0 { movie.tmdbID = id * 3 }
            movies.append(movie)
        }
        let index = try index(movies)
        // Saved with ids that all point elsewhere (shifted by half the catalog), and some that no movie has.
        var entries = movies.map { movie -> Favorite in
            var favorite = Favorite(movie)
            favorite.id = (movie.id + count / 2) % count
            return favorite
        }
        entries.append(Favorite(id: 1, title: "Not there", year: 1992, imdbID: "tt9999999"))
        let store = try FavoriteStore(list: FavoriteList(entries: entries), index: index)
        var together: [Int?] = []
        for favorite in FavoriteList(entries: entries).entries {
            let alone = try FavoriteStore(list: FavoriteList(entries: [favorite]), index: index)
            together.append(alone.ids.first)
            // The rule, checked by brute force: by IMDb id, else TMDb id, else the one movie of that title and year.
            let byIMDb = movies.filter { favorite.imdbID != nil && $0.imdbID == favorite.imdbID }
            let byTMDb = movies.filter { favorite.tmdbID != nil && $0.tmdbID == favorite.tmdbID }
            let byTitle = movies.filter { $0.title == favorite.title && $0.year == favorite.year
                && Favorite(id: 0, title: "", year: 0, imdbID: favorite.imdbID, tmdbID: favorite.tmdbID)
                    .sameByExternalID(imdbID: $0.imdbID, tmdbID: $0.tmdbID) != false }
            let expected = byIMDb.first?.id ?? byTMDb.first?.id ?? (byTitle.count == 1 ? byTitle[0].id : nil)
            XCTAssertEqual(alone.ids.first, expected, "\(favorite)")
        }
        // Together, each movie is taken once, by the first entry that finds it; here every found one is distinct.
        XCTAssertEqual(store.ids, Set(together.compactMap { $0 }))
        XCTAssertGreaterThan(store.ids.count, count / 2)
        XCTAssertGreaterThan(store.missing.count, 0)
    }
}
