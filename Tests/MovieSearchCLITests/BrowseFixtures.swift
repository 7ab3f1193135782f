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

    /// A catalog with critics' ratings, for Critics' 15 and the two-line rows of the top lists: more rated movies
    /// than a list shows (and than a small screen holds), a tie (ids ascending), a movie without a critic rating
    /// (not listed) and one with a critic rating but no users' rating; overviews in paragraphs, in wide letters,
    /// with control characters, of white space only (no second line) and none at all.
    static let criticsCatalog = Catalog(movies: [
        Movie(id: 0, title: "Parasite", year: 2019, rating: 8.5,
              overview: "Greed and class discrimination threaten the newly formed symbiotic relationship between "
                + "the wealthy Park family and the destitute Kim clan.", criticRating: 9.6),
        Movie(id: 1, title: "The Room", year: 2003, rating: 3.6,
              overview: "Johnny is a successful banker with great respect for and dedication to the people in his "
                + "life.", criticRating: nil),
        Movie(id: 2, title: "Citizen Kane", year: 1941, rating: 8.3,
              overview: "Newspaper magnate Charles Foster Kane is taken from his mother as a boy.\n\n\tHis "
                + "dying word, rosebud, starts a hunt.", criticRating: 10),
        Movie(id: 3, title: "Tenet", year: 2020, rating: 7.3, criticRating: 6.9),
        Movie(id: 4, title: "千と千尋の神隠し", year: 2001, rating: 8.6,
              overview: "十歳の少女千尋は、両親と共に引越し先の新しい家へ向かう途中で不思議な町に迷い込む。",
              criticRating: 9.6),
        Movie(id: 5, title: "Evil Overview", year: 1999, rating: 1,
              overview: "Bad\u{1B}]0;pwned\u{07} text\u{202E} here", criticRating: 5.5),
        Movie(id: 6, title: "Blank Overview", year: 2015, rating: 6, overview: " \n\t ", criticRating: 7.25),
        Movie(id: 7, title: "Only Critics", year: 2010, rating: nil, overview: "Nobody rated it but the critics.",
              criticRating: 8.8),
    ] + (8..<24).map { id in
        Movie(id: id, title: "Film \(id)", year: 2000 + id, rating: Double(id % 5),
              overview: "The story of film number \(id), told at length.", criticRating: Double(30 - id) / 4)
    })

    /// `criticsCatalog` written to a cache in the test's temporary folder, opened.
    static func criticsIndex(_ test: XCTestCase) throws -> MovieIndex {
        try Fixtures.index(criticsCatalog, test)
    }

    /// A model on `criticsCatalog`, `columns` × `rows`, with `keys` pressed.
    static func criticsModel(_ test: XCTestCase, columns: Int = 80, rows: Int = 24, favorites: Set<Int> = [],
                             printsChoice: Bool = false, keys: [Key] = []) throws -> BrowseModel {
        var model = BrowseModel(index: try criticsIndex(test), favorites: favorites, printsChoice: printsChoice,
                                flickrKey: "KEY", columns: columns, rows: rows)
        for key in keys { _ = model.handle(key) }
        return model
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

    /// `plainScreen` without the blanks at the end of its lines (a selected row's bar).
    var trimmedScreen: [String] { plainScreen.map { String($0.reversed().drop { $0 == " " }.reversed()) } }

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
