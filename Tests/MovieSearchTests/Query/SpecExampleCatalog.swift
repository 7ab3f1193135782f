import XCTest
import MovieSearch
import TestSupport

/// A catalog holding the titles of SPEC.md's examples (joined words, typos, spans), each once, with a few
/// neighbours that a wrong engine would find instead.
enum SpecExampleCatalog {
    static let titles: [(title: String, year: Int, rating: Double?)] = [
        ("Spider-Man", 2002, 4),
        ("Spider-Man 2", 2004, 4),
        ("X-Men", 2000, 3),
        ("WALL·E", 2008, 5),
        ("E.T. the Extra-Terrestrial", 1982, 5),
        ("S.W.A.T.", 2003, 2),
        ("Dr. No", 1962, 4),
        ("Mission: Impossible", 1996, 3),
        ("$40,000", 1996, nil),
        ("AC/DC: Let There Be Rock", 1980, 3),
        ("The Dark Knight Rises", 2012, 5),
        ("Star Trek Into Darkness", 2013, 4),
        ("Fifty Shades Darker", 2017, 1),
        ("Darkest Hour", 2017, nil),
        ("2012", 2009, 2),
        ("Brüno", 2009, 3),
        ("Bru\u{308}no Returns", 2010, 3),
        ("Straße", 2001, nil),
        ("😀 Dark", 2020, 2),
        ("Knight and Day", 2010, 3),
        ("Mary Poppins: Supercalifragilisticexpialidocious", 1964, 5),
    ]

    static let catalog = Catalog(movies: titles.enumerated().map { id, entry in
        Movie(id: id, title: entry.title, year: entry.year, rating: entry.rating)
    })

    /// The id of the movie with this title.
    static func id(_ title: String) -> Int {
        titles.firstIndex { $0.title == title }!
    }
}
