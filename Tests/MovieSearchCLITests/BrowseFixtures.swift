import MovieSearch
@testable import MovieSearchCLI
import TestSupport
import XCTest

/// A small catalog for the browse model's tests: several years, a year with more matches than a small screen
/// lists, wide (CJK, emoji), combining and control characters in titles, a long title, a movie with every field.
enum BrowseFixtures {
    static let catalog = Catalog(movies: [
        Movie(id: 0, title: "The Dark Knight Rises", year: 2012, rating: 5, cast: ["Christian Bale", "Tom Hardy"],
              genres: ["Action", "Crime"], overview: "Eight years after the Joker's reign of anarchy, Batman is "
                + "forced out of his exile.", tmdbID: 49026, imdbID: "tt1345836"),
        Movie(id: 1, title: "Dark Shadows", year: 2012, rating: 3),
        Movie(id: 2, title: "Darkest Hour", year: 2017, rating: nil, genres: ["Drama", "History"]),
        Movie(id: 3, title: "Star Trek Into Darkness", year: 2013, rating: 4, cast: ["Chris Pine"]),
        Movie(id: 4, title: "Fifty Shades Darker", year: 2017, rating: 1),
        Movie(id: 5, title: "The Dark Tower", year: 2017, rating: 4.5),
        Movie(id: 6, title: "Knight and Day", year: 2010, rating: 3),
        Movie(id: 7, title: "Dark Places", year: 2012, rating: 3),
        Movie(id: 8, title: "Knight of Cups", year: 2012, rating: nil),
        Movie(id: 9, title: "The Dark", year: 2012, rating: 3),
        Movie(id: 10, title: "Dark Matter", year: 2012, rating: 3),
        Movie(id: 11, title: "Dark Skies", year: 2012, rating: 3.5),
        Movie(id: 12, title: "千と千尋の神隠し", year: 2001, rating: 8.6, genres: ["Animation"]),
        Movie(id: 13, title: "Ame\u{301}lie", year: 2001, rating: 8.3),
        Movie(id: 14, title: "기생충", year: 2019, rating: 8.5),
        Movie(id: 15, title: "🎬 Movie Night 🍿", year: 2020, rating: 2),
        Movie(id: 16, title: "Evil\u{1B}]0;pwned\u{07} Title", year: 1999, rating: 1),
        Movie(id: 17, title: "The Assassination of Jesse James by the Coward Robert Ford and Other Long Stories",
              year: 2007, rating: 7),
    ])

    /// The catalog written to a cache in the test's temporary folder, opened.
    static func index(_ test: XCTestCase) throws -> MovieIndex {
        try Fixtures.index(catalog, test)
    }

    /// A model on the fixture cache, `columns` × `rows`, after typing `typed` one character at a time.
    static func model(_ test: XCTestCase, typed: String = "", columns: Int = 80, rows: Int = 24,
                      favorites: Set<Int> = [], printsChoice: Bool = false,
                      photos: @escaping (Movie) -> SavedPhotos = { _ in .none }) throws -> BrowseModel {
        var model = BrowseModel(index: try index(test), favorites: favorites, printsChoice: printsChoice,
                                flickrKey: "KEY", photos: photos, columns: columns, rows: rows)
        for character in typed { _ = model.handle(.text(String(character))) }
        return model
    }
}

extension BrowseModel {
    /// Applies keys in order; the last action.
    @discardableResult
    mutating func press(_ keys: Key...) -> BrowseAction {
        var action = BrowseAction.none
        for key in keys { action = handle(key) }
        return action
    }

    /// The screen at the model's own size, as plain text.
    var plainScreen: [String] { screen(columns: columns, rows: rows).plainText }

    /// The title of the selected movie (of the tab's list or the open year page).
    var selectedTitle: String? {
        let list: BrowseList
        switch page {
        case .year(let year)?: list = year.list
        case .details?: return nil
        case nil: list = currentList
        }
        return list.selectedMovieID.flatMap { try? index.movie(id: $0).title }
    }
}
