import Foundation
import XCTest
@testable import MovieSearch
import TestSupport

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
        // `remove(id:)` clears a missing entry by the id it was saved with.
        XCTAssertEqual(store.remove(id: 2), gone)
        XCTAssertEqual(store.missing, [])
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

    /// Duplicates in a file collapse to one entry; two favorites of the same title and year get two movies.
    func testDuplicatesAndTwinTitles() throws {
        let twins = [movie(0, "Heat", 1995, 4), movie(1, "Heat", 1995, 3), movie(2, "Other", 1995)]
        let list = FavoriteList(entries: [Favorite(id: 7, title: "Heat", year: 1995), Favorite(id: 8, title: "Heat", year: 1995),
                                          Favorite(id: 2, title: "Other", year: 1995), Favorite(id: 2, title: "Other", year: 1995)])
        let store = try FavoriteStore(list: list, index: index(twins))
        XCTAssertEqual(store.ids, [0, 1, 2])
        XCTAssertEqual(store.list.entries.count, 3)
    }
}
