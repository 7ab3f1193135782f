import MovieSearchOutput

/// One row of a list in `browse`: a year header, a movie, the second line of a top list's movie, a `… N more in YEAR`
/// row, or a favorite no longer in the catalog.
enum BrowseRow: Hashable, Sendable {
    /// What a year's header counts.
    enum Counted: Hashable, Sendable {
        case matches, typoMatches, favorites, missingFavorites
    }

    /// A group's heading (`2012 · 2 matches`, `not in this catalog · 1`); not selectable. Its text is made only
    /// when it is drawn: an answer has a header per year, and only a few are on screen.
    case header(year: Int, count: Int, Counted)
    /// A movie; `rank` is its place in a top list (Top 15, Critics' 15), `nil` elsewhere.
    case movie(id: Int, rank: Int?)
    /// The second line of a top list's movie row, right after it: the start of the movie's overview (its short
    /// description), dimmed. Not selectable: it is shown, selected and scrolled with the movie row above it.
    case overview(movieID: Int)
    /// The rest of a year's matches, not listed: Enter opens the year.
    case more(year: Int, remaining: Int)
    /// A favorite whose movie this catalog no longer holds; not selectable.
    case missing(title: String, year: Int)

    /// The text of a header row.
    static func headerText(year: Int, count: Int, _ counted: Counted) -> String {
        switch counted {
        case .matches: return "\(year) · \(TextLayout.count(count, "match", "matches"))"
        case .typoMatches: return "\(year) · \(TextLayout.count(count, "match with typos", "matches with typos"))"
        case .favorites: return "\(year) · \(TextLayout.count(count, "favorite", "favorites"))"
        case .missingFavorites: return "not in this catalog · \(TextLayout.grouped(count))"
        }
    }

    /// Whether the selection can stand on this row (movies and `… more` rows).
    var isSelectable: Bool {
        switch self {
        case .movie, .more: return true
        case .header, .overview, .missing: return false
        }
    }

    /// Whether this row is a further line of the row above it (an overview line), not a row of its own.
    var continuesRowAbove: Bool {
        if case .overview = self { return true }
        return false
    }
}

/// The rows of one list with its selection and scroll position: the Search answer, Top 15, Critics' 15, Favorites,
/// a year.
///
/// The selection always stands on a selectable row when the list has one (`nil` otherwise). `top` is the first row
/// shown; it moves only as far as needed to keep the selection in view (as in fzf and `less`), and shows a year's
/// header when its first movie is selected. A row of two lines (a top list's movie and its overview line, which
/// `continuesRowAbove`) is kept whole in view when selected, and a window never starts on such a second line while
/// it can start on its first. Every operation is O(rows moved over), never O(rows) but `replaceRows`.
struct BrowseList: Equatable {
    private(set) var rows: [BrowseRow] = []
    /// The index in `rows` of the selected row.
    private(set) var selection: Int?
    /// The first row shown.
    private(set) var top = 0

    init(rows: [BrowseRow] = []) {
        replaceRows(rows, keepingSelection: false)
    }

    /// The movie the selection stands on, if it stands on a movie.
    var selectedMovieID: Int? {
        guard let selection, case let .movie(id, _) = rows[selection] else { return nil }
        return id
    }

    /// The selected row.
    var selectedRow: BrowseRow? { selection.map { rows[$0] } }

    /// How many movies the list holds (its `.movie` rows). O(rows).
    var movieCount: Int {
        rows.reduce(0) { count, row in if case .movie = row { count + 1 } else { count } }
    }

    /// New rows: the selection goes to the first selectable row and the list to its top; with
    /// `keepingSelection`, the selection keeps its index (the row after it takes its place when it went, the one
    /// before when it was the last) and `top` is kept.
    mutating func replaceRows(_ newRows: [BrowseRow], keepingSelection: Bool) {
        let previous = keepingSelection ? selection : nil
        rows = newRows
        if let previous {
            let start = min(previous, rows.count - 1)
            selection = start < 0 ? nil : (nextSelectable(from: start, step: 1) ?? nextSelectable(from: start, step: -1))
            top = min(top, max(0, rows.count - 1))
        } else {
            selection = nextSelectable(from: 0, step: 1)
            top = 0
        }
    }

    /// Where the selection stands, in terms that outlive a new layout of the same rows (`replaceRows(_:keeping:
    /// height:)`): the movie, the group (year) it is in and its place in the group, and its row on screen.
    struct Anchor: Equatable {
        /// The selected movie, when the selection is on a movie.
        var movieID: Int?
        /// The year of the header above the selection, when there is one.
        var year: Int?
        /// The selection's row counted from the first row after that header (from the first row without one).
        var offset: Int
        /// The selection's row on screen, counted from the first row shown.
        var screenRow: Int
    }

    /// The selection's anchor in a window of `height` rows; `nil` when nothing is selected.
    func anchor(height: Int) -> Anchor? {
        guard let selection else { return nil }
        var header = selection - 1
        while header >= 0 { if case .header = rows[header] { break }; header -= 1 }
        var year: Int?
        if header >= 0, case let .header(headerYear, _, _) = rows[header] { year = headerYear }
        return Anchor(movieID: selectedMovieID, year: year, offset: selection - header - 1,
                      screenRow: selection - window(height: height).lowerBound)
    }

    /// New rows laid out from the same answer (another per-year count after a resize): the selection stays on
    /// `anchor`'s movie; when that movie is no longer listed, on its year's `… N more` row; when the year has
    /// none (it now lists every movie), on the row at the same place in the year (after a `… more` row, the first
    /// movie it did not list), or the year's last. The selection keeps its row on screen as far as the list
    /// allows, and is in view in a window of `height` rows. Without the anchor's year, as
    /// `replaceRows(_:keepingSelection: true)`.
    mutating func replaceRows(_ newRows: [BrowseRow], keeping anchor: Anchor, height: Int) {
        let movieRow = anchor.movieID.flatMap { id in
            newRows.firstIndex { if case .movie(id, _) = $0 { return true } else { return false } }
        }
        var place = movieRow
        if place == nil, let year = anchor.year,
           let header = newRows.firstIndex(where: { if case .header(year, _, _) = $0 { return true } else { return false } }) {
            let end = newRows[(header + 1)...].firstIndex { if case .header = $0 { return true } else { return false } }
                ?? newRows.count
            let group = (header + 1)..<end
            if let more = group.first(where: { if case .more = newRows[$0] { return true } else { return false } }) {
                place = more
            } else if !group.isEmpty {
                let start = min(group.lowerBound + anchor.offset, group.upperBound - 1)
                place = stride(from: start, through: group.lowerBound, by: -1).first { newRows[$0].isSelectable }
                    ?? group.first { newRows[$0].isSelectable }
            }
        }
        guard let place else {
            replaceRows(newRows, keepingSelection: true)
            top = window(height: height).lowerBound
            return
        }
        rows = newRows
        selection = place
        top = max(0, place - min(anchor.screenRow, max(0, height - 1)))
        top = window(height: height).lowerBound
    }

    /// Scrolls as little as needed for the selection to be in view in a window of `height` rows (after a resize).
    mutating func scrollToSelection(height: Int) {
        top = window(height: height).lowerBound
    }

    /// Moves the selection `count` selectable rows down (negative: up), stopping at the ends, then scrolls so that
    /// it is in a window of `height` rows.
    mutating func move(by count: Int, height: Int) {
        guard var current = selection else { return }
        let step = count < 0 ? -1 : 1
        for _ in 0..<count.magnitude {
            guard let next = nextSelectable(from: current + step, step: step) else { break }
            current = next
        }
        selection = current
        top = window(height: height).lowerBound
    }

    /// PgDn (`direction` 1) or PgUp (-1): moves the selection down or up over as many selectable rows as take
    /// `height` less one lines of the screen (a row of two lines counts two; headers, passed over, count none), at
    /// least one, stopping at the ends; then scrolls so that it is in a window of `height` rows. With rows of one
    /// line each, as `move(by: ±(height - 1), height:)`.
    mutating func movePage(_ direction: Int, height: Int) {
        guard var current = selection else { return }
        let step = direction < 0 ? -1 : 1
        let budget = max(1, height - 1)
        var lines = 0
        while let next = nextSelectable(from: current + step, step: step) {
            let cost = lineCount(ofRowAt: next)
            if lines > 0, lines + cost > budget { break }
            current = next
            lines += cost
            if lines >= budget { break }
        }
        selection = current
        top = window(height: height).lowerBound
    }

    /// The row whose line `index` is: `index` itself, or for a further line (`continuesRowAbove`) the row above
    /// that it continues.
    func rowStart(_ index: Int) -> Int {
        var start = index
        while start > 0, rows[start].continuesRowAbove { start -= 1 }
        return start
    }

    /// The lines the row at `index` takes: its own and the further lines after it.
    func lineCount(ofRowAt index: Int) -> Int {
        var end = index + 1
        while end < rows.count, rows[end].continuesRowAbove { end += 1 }
        return end - index
    }

    /// Home: the first selectable row, the list at its top.
    mutating func moveToFirst(height: Int) {
        selection = nextSelectable(from: 0, step: 1)
        top = 0
        top = window(height: height).lowerBound
    }

    /// End: the last selectable row.
    mutating func moveToLast(height: Int) {
        selection = nextSelectable(from: rows.count - 1, step: -1)
        top = window(height: height).lowerBound
    }

    /// The rows to show in a window of `height` rows: from `top`, moved as little as needed to hold the selection
    /// with its further lines (as many as fit; and the header right above it, when there is room; and the rows
    /// after it, when it is the last selectable one), no further down than needed to fill the window, and never
    /// from a further line whose row is above the window (one row later instead, leaving the last line empty at
    /// the end of the list).
    func window(height: Int) -> Range<Int> {
        guard height > 0, !rows.isEmpty else { return 0..<0 }
        var start = min(top, max(0, rows.count - height))
        if let selection {
            // The end of the selected row's lines, as many as the window holds.
            let end = selection + min(lineCount(ofRowAt: selection), height)
            if selection < start { start = selection }
            if end > start + height { start = end - height }
            if start == selection, start > 0, height > end - selection, case .header = rows[start - 1] { start -= 1 }
            // On the last selectable row, the rows after it (the missing favorites) come into view too.
            if nextSelectable(from: selection + 1, step: 1) == nil {
                start = max(start, min(selection, rows.count - height))
            }
            while start < selection, rows[start].continuesRowAbove { start += 1 }
        }
        return start..<min(rows.count, start + height)
    }

    /// The first selectable row at `index` or beyond it in the direction of `step`, if any.
    private func nextSelectable(from index: Int, step: Int) -> Int? {
        var index = index
        while index >= 0, index < rows.count {
            if rows[index].isSelectable { return index }
            index += step
        }
        return nil
    }
}
