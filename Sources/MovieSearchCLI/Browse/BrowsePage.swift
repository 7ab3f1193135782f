import MovieSearchQuery

/// A page opened over a tab's list with Enter, closed with Esc: a movie's details, or every match of one year.
/// Pages stack (a year, then a movie of it); the tab's list under them keeps its query, cursor and selection.
enum BrowsePage {
    case details(Details)
    case year(Year)

    /// A movie's details, scrolled by `scroll` lines.
    struct Details {
        var movieID: Int
        /// The saved Flickr response (`--photos-dir`), read once when the page opened.
        var photos: SavedPhotos
        /// The first content line shown.
        var scroll = 0
    }

    /// Every match of one year of an answer, loaded as the selection goes down (see `BrowseModel`).
    struct Year {
        var query: String
        var typos: TypoTolerance
        /// The filters in force when the page was opened.
        var filters: SearchFilters
        var year: Int
        /// The year's match count in the answer the page came from.
        var count: Int
        var mode: SearchMode
        var highlighter: MatchHighlighter
        var list = BrowseList()
        /// Why loading failed (a damaged cache), shown in the summary line.
        var error: String?

        /// How many of the year's movies are in `list`.
        var loaded: Int { list.rows.count }
    }
}
