import MovieSearchCatalog
import MovieSearchFavorites
import MovieSearchOutput
import MovieSearchPhotos
import MovieSearchQuery

/// The whole of `browse` but the terminal: its state, what each key does to it (`handle(_:)`), and the screen it
/// shows at a size (`screen(columns:rows:)`). Pure: no I/O but reading the `MovieIndex` (and the `photos` closure
/// the driver passes, called once when a details page opens), so that every key and every screen is unit-tested
/// in-process and `bench --browse` times exactly what a keystroke costs.
///
///     var model = BrowseModel(index: index, favorites: store.ids, columns: 80, rows: 24)
///     _ = model.handle(.text("dark kni"))
///     let screen = model.screen(columns: 80, rows: 24)     // tab bar, prompt, summary, 2012 · 1 match, …
///     switch model.handle(.tab) { case .favoriteChanged(let id, let on): … save … default: break }
///
/// The driver creates the model with the terminal's size (`init(…columns:rows:)`), calls `resize(columns:rows:)`
/// on every SIGWINCH, feeds it keys, draws `screen(columns:rows:)` after each, acts on the returned
/// `BrowseAction`, and may set `favorites`, `missingFavorites` and `statusMessage` at any time.
///
/// How the answer fits the screen: the search runs with `perYear` = the list's height minus two (a year's header
/// and its `… N more` row), at least 1, so that the first year of an answer fills the screen and no more movies
/// are fetched than a year can show at once (the per-year count a query costs grows with it). Each year lists that
/// many movies and, when it has more, a `… N more in YEAR` row; Enter on it opens every match of the year, fetched
/// a screenful ahead of the selection (the per-year count doubled, or as far as the selection needs) as it moves.
/// Only the rows on screen are decoded and measured when drawing.
struct BrowseModel {
    /// The cache being browsed.
    let index: MovieIndex
    /// The ids of the favorite movies. The driver sets it from its store; Tab changes it and says so
    /// (`BrowseAction.favoriteChanged`).
    var favorites: Set<Int> {
        didSet { rebuildFavorites() }
    }
    /// Favorites this catalog no longer holds (`FavoriteStore.missing`), listed at the end of the Favorites tab
    /// by title and year, and counted in it.
    var missingFavorites: [Favorite] {
        didSet { rebuildFavorites() }
    }
    /// A line from the driver (e.g. `favorites are read-only: …`), shown first on the summary line until set to
    /// `nil`.
    var statusMessage: String?
    /// Whether the screen may use colour (`--color`, `NO_COLOR`); bold and reverse video are used either way.
    let color: Bool
    /// `--typos`.
    let typos: TypoTolerance
    /// `--print`: Enter on a movie returns `.print(movieID:)` instead of opening its details.
    let printsChoice: Bool
    /// The Flickr API key the details page puts in the request URL.
    let flickrKey: String
    /// The last details page laid out (`detailLines`).
    private let detailsCache = BrowseDetailsCache()
    /// A movie's saved Flickr response (`--photos-dir`): its photo URLs, none, or why it cannot be read.
    let photos: (Movie) -> SavedPhotos
    /// The poster kept for a movie whose catalog gives none (TMDb's, found by `serve` or `show --fetch`), which
    /// the details page names; browse never asks TMDb itself.
    var keptPoster: (Movie) -> String? = { _ in nil }

    /// The size the driver last gave (`init`, then `resize`): what the per-year count and paging are computed for.
    private(set) var columns: Int
    private(set) var rows: Int

    /// The tabs this catalog shows, in the order of the tab bar and of Ctrl-T: Critics' 15 only when some movie has
    /// a critic rating (`BrowseTab.tabs(hasCriticRatings:)`).
    let tabs: [BrowseTab]
    /// The tab shown under any open page.
    private(set) var tab: BrowseTab = .search
    /// Pages opened over the tab with Enter, last on top.
    private(set) var pages: [BrowsePage] = []
    /// The query line.
    private(set) var editor = QueryEditor()
    /// The filters in force (SEARCH-SPEC, "Filters and facets"): the search, its year pages and the top lists keep
    /// only the movies that pass them.
    private(set) var filters: SearchFilters
    /// The filter line (Ctrl-G, `BrowseFilterLine`) while it is open.
    private(set) var filterEditor: QueryEditor?
    /// Why the filter line's text could not be applied, shown until it is edited.
    private(set) var filterError: String?
    /// The genres and cast names of `filters` that no movie has, with the closest the catalog has (as `query` notes
    /// them): a filter that lets nothing pass is no error, but the summary line says why the lists are empty.
    private(set) var filterNote: String?
    /// The answer to the query as shown: rows and selection.
    private(set) var searchList = BrowseList()
    /// The answer the rows come from (`nil` when the search failed).
    private(set) var result: SearchResult?
    /// Folds the answer's query once for all the titles drawn.
    private(set) var highlighter = MatchHighlighter(query: "", mode: .exact)
    /// The per-year count the answer was fetched with.
    private(set) var perYear = 1
    /// Why the last search failed (a damaged cache), shown on the summary line.
    private(set) var searchError: String?
    /// Top 15: the list (a movie's overview on a second line), or why it could not be read.
    private(set) var topList = BrowseList()
    private(set) var topError: String?
    /// Critics' 15, as Top 15; empty when the catalog shows no such tab.
    private(set) var criticsList = BrowseList()
    private(set) var criticsError: String?
    /// Favorites: the list, rebuilt whenever `favorites` or `missingFavorites` change.
    private(set) var favoritesList = BrowseList()
    private(set) var favoritesError: String?

    /// How many movies the Top 15 and Critics' 15 tabs list.
    static let topLimit = SearchLimits.topListLength

    /// Opens the Search tab on an empty query (every movie, newest year first), sized `columns` × `rows`.
    ///
    /// - Parameters:
    ///   - index: The cache to browse.
    ///   - favorites: The ids of the favorite movies.
    ///   - missingFavorites: Favorites no longer in the catalog (`FavoriteStore.missing`).
    ///   - typos: `--typos`.
    ///   - filters: The filters given on the command line.
    ///   - color: Whether colour may be used.
    ///   - printsChoice: `--print` mode.
    ///   - flickrKey: The key for the Flickr request URL on the details page.
    ///   - photos: Reads a movie's saved Flickr response (`--photos-dir`); called once per details page opened.
    ///   - columns: The terminal's width.
    ///   - rows: The terminal's height.
    init(index: MovieIndex, favorites: Set<Int> = [], missingFavorites: [Favorite] = [],
         typos: TypoTolerance = .auto, filters: SearchFilters = SearchFilters(), color: Bool = false,
         printsChoice: Bool = false,
         flickrKey: String = FlickrPhotos.placeholderAPIKey, photos: @escaping (Movie) -> SavedPhotos = { _ in .none },
         columns: Int = 80, rows: Int = 24) {
        self.index = index
        self.favorites = favorites
        self.missingFavorites = missingFavorites
        self.typos = typos
        self.filters = filters
        filterNote = Self.unknownNameNote(filters, index)
        self.color = color
        self.printsChoice = printsChoice
        self.flickrKey = flickrKey
        self.photos = photos
        self.columns = columns
        self.rows = rows
        perYear = Self.perYear(rows: rows)
        tabs = BrowseTab.tabs(hasCriticRatings: index.hasCriticRatings)
        rebuildTopLists()
        rebuildFavorites()
        runSearch()
    }

    /// The top lists under the filters in force.
    private mutating func rebuildTopLists() {
        (topList, topError) = Self.topList(index, by: .rating, filters: filters)
        if tabs.contains(.critics) { (criticsList, criticsError) = Self.topList(index, by: .critic, filters: filters) }
    }

    // MARK: What the driver reads

    /// The page on top, if any.
    var page: BrowsePage? { pages.last }
    /// The query as typed.
    var query: String { editor.text }
    /// How many favorites the Favorites tab counts: those found in the catalog and those missing from it.
    var favoriteCount: Int { favorites.count + missingFavorites.count }

    /// The rows a list shows at the current size: the screen's rows less the tab bar, prompt and summary.
    var listHeight: Int { Self.listHeight(rows: rows) }

    static func listHeight(rows: Int) -> Int { rows >= 4 ? rows - 3 : max(rows - 1, 1) }

    /// The per-year count for a screen of `rows` rows: the list's height less a header and a `… more` row.
    static func perYear(rows: Int) -> Int { max(1, listHeight(rows: rows) - 2) }

    // MARK: Size

    /// The terminal's new size. Searches again when the per-year count changes, the selection staying on its
    /// movie (on its year's `… N more` row when the year now lists fewer; see `BrowseList.replaceRows(_:keeping:
    /// height:)`); every list scrolls to keep its selection in view; a year page fetches what a taller screen
    /// shows; a details page stays within its lines.
    mutating func resize(columns: Int, rows: Int) {
        let anchor = searchList.anchor(height: listHeight)
        self.columns = columns
        self.rows = rows
        let height = listHeight
        let newPerYear = Self.perYear(rows: rows)
        if newPerYear != perYear {
            perYear = newPerYear
            runSearch(keeping: anchor)
        }
        searchList.scrollToSelection(height: height)
        topList.scrollToSelection(height: height)
        criticsList.scrollToSelection(height: height)
        favoritesList.scrollToSelection(height: height)
        for number in pages.indices {
            switch pages[number] {
            case .year(var year):
                loadAhead(&year)
                year.list.scrollToSelection(height: height)
                pages[number] = .year(year)
            case .details(var details):
                details.scroll = clampedScroll(details, details.scroll)
                pages[number] = .details(details)
            }
        }
    }

    // MARK: Keys

    /// Applies one key and says what the driver must do beyond redrawing.
    ///
    /// - Query (readline and fzf keys): text inserts at the cursor; Backspace and Ctrl-H delete back, Delete
    ///   forward; Ctrl-U deletes to the start of the line, Ctrl-W the word before the cursor; ←/→ (Ctrl-B/F) move
    ///   the cursor, Ctrl-A/Ctrl-E to the start/end of the line. A key that changes the query shows the Search tab
    ///   (closing any page) and searches again at once.
    /// - Selection: ↑/↓, Ctrl-P/N and Ctrl-K/J move it one movie (headers are passed over); PgUp/PgDn a screenful
    ///   less one (of lines: a top list's movie with its overview line counts two); Home/End to the first/last
    ///   row. On a details page they scroll it.
    /// - Enter: a movie's details (`.print` in `--print` mode, also on a details page); on a `… more` row, the
    ///   year's page. Esc: closes the page on top; else from Top 15, Critics' 15 or Favorites back to Search; else
    ///   clears a query; else `.quit(status: 0)`. Ctrl-C: `.quit(status: 130)` from anywhere.
    /// - Tab: toggles the favorite of the selected movie (of the page's movie on a details page, which stays) and
    ///   moves down; Shift-Tab toggles and moves up. Ctrl-T: the next of `tabs`, closing any page: Search → Top 15
    ///   → Critics' 15 (when the catalog has critic ratings) → Favorites → Search.
    /// - Ctrl-G: opens the filter line with the filters in force (`handleFilterLine(_:)` takes the keys then).
    /// - Anything else: nothing.
    mutating func handle(_ key: Key) -> BrowseAction {
        if filterEditor != nil { return handleFilterLine(key) }
        switch key {
        case .text(let text): edit { $0.insert(text) }
        case .backspace, .control("h"): edit { $0.deleteBackward() }
        case .delete: edit { $0.deleteForward() }
        case .control("u"): edit { $0.deleteToStart() }
        case .control("w"): edit { $0.deleteWordBackward() }
        case .left, .control("b"): editor.moveLeft()
        case .right, .control("f"): editor.moveRight()
        case .control("a"): editor.moveToStart()
        case .control("e"): editor.moveToEnd()
        case .up, .control("p"), .control("k"): moveSelection(by: -1)
        case .down, .control("n"), .control("j"): moveSelection(by: 1)
        case .pageUp: movePage(-1)
        case .pageDown: movePage(1)
        case .home: moveToEnd(last: false)
        case .end: moveToEnd(last: true)
        case .enter: return enter()
        case .escape: return escape()
        case .tab: return toggleFavorite(thenMoveBy: 1)
        case .backTab: return toggleFavorite(thenMoveBy: -1)
        case .control("t"):
            pages = []
            tab = tab.next(among: tabs)
        case .control("g"):
            var line = QueryEditor()
            line.insert(BrowseFilterLine.text(filters))
            filterEditor = line
            filterError = nil
        case .control("c"): return .quit(status: 130)
        default: break
        }
        return .none
    }

    /// A key while the filter line is open: it edits the line as the query is edited; Tab completes a `genre:`
    /// from the catalog's genres; Enter applies the line (or shows why it cannot), Esc closes it unchanged.
    private mutating func handleFilterLine(_ key: Key) -> BrowseAction {
        guard var line = filterEditor else { return .none }
        var changed = false
        switch key {
        case .text(let text): changed = line.insert(text)
        case .backspace, .control("h"): changed = line.deleteBackward()
        case .delete: changed = line.deleteForward()
        case .control("u"): changed = line.deleteToStart()
        case .control("w"): changed = line.deleteWordBackward()
        case .left, .control("b"): line.moveLeft()
        case .right, .control("f"): line.moveRight()
        case .control("a"): line.moveToStart()
        case .control("e"): line.moveToEnd()
        case .tab:
            if let genres = try? index.genreNames(),
               let completed = BrowseFilterLine.completingGenre(line.text, among: genres) {
                line = QueryEditor()
                changed = line.insert(completed)
            }
        case .enter:
            do {
                applyFilters(try BrowseFilterLine.parse(line.text))
                filterEditor = nil
            } catch {
                filterError = error.message
            }
            return .none
        case .escape:
            filterEditor = nil
            filterError = nil
            return .none
        case .control("c"): return .quit(status: 130)
        default: break
        }
        if changed { filterError = nil }
        filterEditor = line
        return .none
    }

    /// Puts `newFilters` in force: the search, the top lists, and the Search tab's first row selected.
    mutating func applyFilters(_ newFilters: SearchFilters) {
        guard newFilters != filters else { return }
        filters = newFilters
        filterNote = Self.unknownNameNote(newFilters, index)
        pages = []
        rebuildTopLists()
        runSearch()
    }

    /// `FilterOptions.unknownNameNotes` as one line, `nil` when every name is known (or the cache cannot say).
    private static func unknownNameNote(_ filters: SearchFilters, _ index: MovieIndex) -> String? {
        guard !filters.genres.isEmpty || !filters.cast.isEmpty,
              let notes = try? FilterOptions.unknownNameNotes(filters, index), !notes.isEmpty else { return nil }
        return notes.joined(separator: "; ")
    }

    /// Edits the query; when the text changed, shows the Search tab and searches again.
    private mutating func edit(_ change: (inout QueryEditor) -> Bool) {
        guard change(&editor) else { return }
        pages = []
        tab = .search
        runSearch()
    }

    private mutating func moveSelection(by count: Int) {
        let height = listHeight
        switch pages.last {
        case .details(var details)?:
            details.scroll = clampedScroll(details, details.scroll + count)
            pages[pages.count - 1] = .details(details)
        case .year(var year)?:
            year.list.move(by: count, height: height)
            loadAhead(&year)
            pages[pages.count - 1] = .year(year)
        case nil:
            withCurrentList { $0.move(by: count, height: height) }
        }
    }

    /// PgDn (`direction` 1) or PgUp (-1): a details page scrolls a screenful less one; a list moves its selection
    /// as far (`BrowseList.movePage(_:height:)`).
    private mutating func movePage(_ direction: Int) {
        let height = listHeight
        switch pages.last {
        case .details?:
            moveSelection(by: direction * max(1, height - 1))
        case .year(var year)?:
            year.list.movePage(direction, height: height)
            loadAhead(&year)
            pages[pages.count - 1] = .year(year)
        case nil:
            withCurrentList { $0.movePage(direction, height: height) }
        }
    }

    private mutating func moveToEnd(last: Bool) {
        let height = listHeight
        switch pages.last {
        case .details(var details)?:
            details.scroll = last ? clampedScroll(details, Int.max / 2) : 0
            pages[pages.count - 1] = .details(details)
        case .year(var year)?:
            if last { load(&year, count: year.count) }
            if last { year.list.moveToLast(height: height) } else { year.list.moveToFirst(height: height) }
            pages[pages.count - 1] = .year(year)
        case nil:
            withCurrentList { last ? $0.moveToLast(height: height) : $0.moveToFirst(height: height) }
        }
    }

    private mutating func enter() -> BrowseAction {
        switch pages.last {
        case .details(let details)?:
            return printsChoice ? .print(movieID: details.movieID) : .none
        case .year(let year)?:
            return open(year.list.selectedRow)
        case nil:
            return open(currentList.selectedRow)
        }
    }

    /// Puts the photos fetched in the background on the details pages of their movies (open or under others).
    mutating func updatePhotos(_ updates: [Int: SavedPhotos]) {
        for (position, page) in pages.enumerated() {
            guard case .details(var details) = page, let photos = updates[details.movieID] else { continue }
            details.photos = photos
            pages[position] = .details(details)
        }
    }

    /// Opens movie `id`'s details page over the current list, as Enter on its row does (for `bench --details`).
    mutating func openDetails(movieID id: Int) {
        let movie = try? index.movie(id: id)
        pages.append(.details(.init(movieID: id, photos: movie.map(photos) ?? .none)))
    }

    /// Enter on a row: a movie's details (or `.print` in `--print` mode), or a year's page.
    private mutating func open(_ row: BrowseRow?) -> BrowseAction {
        switch row {
        case .movie(let id, _)?:
            if printsChoice { return .print(movieID: id) }
            openDetails(movieID: id)
        case .more(let year, _)?:
            guard let result, let matches = result.years.first(where: { $0.year == year }) else { break }
            var page = BrowsePage.Year(query: result.query, typos: typos, filters: filters, year: year, count: matches.count,
                                       mode: result.mode, highlighter: highlighter)
            load(&page, count: min(matches.count, max(2 * listHeight, matches.movieIDs.count + listHeight)))
            // The selection goes to the first movie the Search tab did not list: the one the person was after.
            page.list.move(by: matches.movieIDs.count, height: listHeight)
            pages.append(.year(page))
        default: break
        }
        return .none
    }

    private mutating func escape() -> BrowseAction {
        if !pages.isEmpty {
            pages.removeLast()
        } else if tab != .search {
            tab = .search
        } else if editor.clear() {
            runSearch()
        } else {
            return .quit(status: 0)
        }
        return .none
    }

    /// Tab (`step` 1) or Shift-Tab (-1): toggles the favorite of the selected movie, or of the details page's,
    /// then moves the selection, like fzf's toggle+down. On the Favorites tab the movie leaves the list, and the
    /// next one takes its place under the selection: that is the move.
    private mutating func toggleFavorite(thenMoveBy step: Int) -> BrowseAction {
        let id: Int?
        switch pages.last {
        case .details(let details)?: id = details.movieID
        case .year(let year)?: id = year.list.selectedMovieID
        case nil: id = currentList.selectedMovieID
        }
        guard let id else { return .none }
        let isFavorite = !favorites.contains(id)
        if isFavorite { favorites.insert(id) } else { favorites.remove(id) }
        let onFavoritesList = pages.isEmpty && tab == .favorites
        if case .details? = pages.last {} else if !onFavoritesList || isFavorite { moveSelection(by: step) }
        return .favoriteChanged(movieID: id, isFavorite: isFavorite)
    }

    // MARK: Lists

    /// The list of the tab shown (when no page is open).
    var currentList: BrowseList {
        switch tab {
        case .search: return searchList
        case .top: return topList
        case .critics: return criticsList
        case .favorites: return favoritesList
        }
    }

    private mutating func withCurrentList(_ change: (inout BrowseList) -> Void) {
        switch tab {
        case .search: change(&searchList)
        case .top: change(&topList)
        case .critics: change(&criticsList)
        case .favorites: change(&favoritesList)
        }
    }

    /// A top list (`BrowseTab.top` by the users' rating, `.critics` by the critics'): the first `topLimit` movies
    /// of `order`, each a ranked row followed by its overview line when it has an overview
    /// (`ShortDescription.hasText`); or an empty list and why it could not be read.
    private static func topList(_ index: MovieIndex, by order: TopListOrder,
                                filters: SearchFilters) -> (BrowseList, String?) {
        do {
            var rows: [BrowseRow] = []
            for (rank, movie) in try index.topRated(by: order, limit: topLimit, filters: filters).enumerated() {
                rows.append(.movie(id: movie.id, rank: rank + 1))
                if ShortDescription.hasText(movie.overview) { rows.append(.overview(movieID: movie.id)) }
            }
            return (BrowseList(rows: rows), nil)
        } catch {
            return (BrowseList(), message(error))
        }
    }

    /// Searches for the query with the per-year count of the current size and lays out the rows: per year a
    /// header, its listed movies, and a `… N more` row when it has more.
    /// With `anchor` (a resize), the selection stays where the anchor says; without, it goes to the first row.
    private mutating func runSearch(keeping anchor: BrowseList.Anchor? = nil) {
        do {
            let answer = try index.search(editor.text, perYear: perYear, typos: typos, filters: filters)
            var rows: [BrowseRow] = []
            rows.reserveCapacity(answer.years.count * (perYear + 2))
            let counted: BrowseRow.Counted = answer.mode == .typo ? .typoMatches : .matches
            for year in answer.years {
                rows.append(.header(year: year.year, count: year.count, counted))
                for id in year.movieIDs { rows.append(.movie(id: id, rank: nil)) }
                if year.movieIDs.count < year.count {
                    rows.append(.more(year: year.year, remaining: year.count - year.movieIDs.count))
                }
            }
            result = answer
            highlighter = answer.highlighter
            searchError = nil
            if let anchor {
                searchList.replaceRows(rows, keeping: anchor, height: listHeight)
            } else {
                searchList.replaceRows(rows, keepingSelection: false)
            }
        } catch {
            result = nil
            searchError = Self.message(error)
            searchList.replaceRows([], keepingSelection: false)
        }
    }

    /// Fetches the year's movies up to `count` (at most its match count) into the page's list.
    private func load(_ page: inout BrowsePage.Year, count: Int) {
        let target = min(count, page.count)
        guard target > page.loaded else { return }
        do {
            let answer = try index.search(page.query, perYear: target, typos: page.typos, filters: page.filters)
            guard let matches = answer.years.first(where: { $0.year == page.year }) else { return }
            let rows = matches.movieIDs.map { BrowseRow.movie(id: $0, rank: nil) }
            page.list.replaceRows(rows, keepingSelection: page.loaded > 0)
            page.count = matches.count
        } catch {
            page.error = Self.message(error)
        }
    }

    /// Keeps a screenful of the year's movies loaded past the selection (the loaded count at least doubles, so
    /// that going down the whole year costs O(log) searches).
    private func loadAhead(_ page: inout BrowsePage.Year) {
        let selection = page.list.selection ?? 0
        guard selection + listHeight >= page.loaded, page.loaded < page.count else { return }
        load(&page, count: max(2 * page.loaded, selection + 2 * listHeight))
    }

    /// Favorites newest year first, then rating descending (unrated last), then id; a header per year; the missing
    /// ones last, under their own header. The selection keeps its place.
    private mutating func rebuildFavorites() {
        var movies: [Movie] = []
        favoritesError = nil
        for id in favorites {
            do {
                movies.append(try index.movie(id: id))
            } catch {
                favoritesError = Self.message(error)
            }
        }
        movies.sort(by: AnswerOrder.precedes)
        var rows: [BrowseRow] = []
        var index = 0
        while index < movies.count {
            let year = movies[index].year
            var end = index
            while end < movies.count, movies[end].year == year { end += 1 }
            rows.append(.header(year: year, count: end - index, .favorites))
            rows += movies[index..<end].map { .movie(id: $0.id, rank: nil) }
            index = end
        }
        if !missingFavorites.isEmpty {
            rows.append(.header(year: 0, count: missingFavorites.count, .missingFavorites))
            rows += missingFavorites.map { .missing(title: $0.title, year: $0.year) }
        }
        favoritesList.replaceRows(rows, keepingSelection: true)
    }

    // MARK: Details

    /// The details page's scroll position kept between the top and the last screenful of its lines.
    private func clampedScroll(_ details: BrowsePage.Details, _ scroll: Int) -> Int {
        let lineCount = detailLines(details, columns: columns).count
        return max(0, min(scroll, lineCount - listHeight))
    }

    /// The lines of a details page at `columns` (see `BrowseDetails`), laid out once for each movie, width and
    /// state (`BrowseDetailsCache`): the keys that scroll the page only slice them.
    func detailLines(_ details: BrowsePage.Details, columns: Int) -> [ScreenLine] {
        let key = BrowseDetailsCache.Key(movieID: details.movieID, columns: columns,
                                         isFavorite: favorites.contains(details.movieID), photos: details.photos,
                                         color: color)
        return detailsCache.lines(for: key) {
            guard var movie = try? index.movie(id: details.movieID) else {
                return [ScreenLine("movie \(details.movieID) could not be read from the cache")]
            }
            if movie.posterPath?.isEmpty ?? true, let kept = keptPoster(movie) { movie.posterPath = kept }
            return BrowseDetails.lines(movie, scales: index.ratingScales, isFavorite: key.isFavorite,
                                       photos: details.photos,
                                       flickrKey: flickrKey, columns: columns, color: color)
        }
    }

    /// An error's one-line message, safe to draw.
    static func message(_ error: any Error) -> String {
        TerminalSafeText.escapedMessage(String(describing: error))
    }
}
