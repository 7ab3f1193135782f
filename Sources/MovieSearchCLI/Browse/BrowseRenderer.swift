import MovieSearchCatalog
import MovieSearchOutput
import MovieSearchQuery
import MovieSearchText

/// Draws a `BrowseModel` at a size: the `Screen` the driver hands to `FrameWriter`.
///
/// ```
/// Search · Top 15 · Critics' 15 · Favorites (1)   ← tab bar, the current tab bold and underlined
/// > dark kni                                      ← prompt, the cursor after the query
/// 1 match in 1 year                               ← summary (after the driver's status message, if any)
/// 2012 · 1 match                                  ← a year's header
/// >    2/5  The Dark Knight Rises ♥               ← the selected row, in reverse video; spans in bold
/// ```
///
/// A row's rating is out of its catalog's scale (`2/5`, `7.8/10`). A top list's row (Top 15, Critics' 15) shows the
/// rank, the rating the list ranks by (the users' or the critics'), the year and the title, and under them, dimmed, the
/// start of the overview when the movie has one; both lines are in reverse video when it is selected:
///
/// ```
/// >  5.    5/5  2012  The Dark Knight Rises
///                     Eight years after the Joker's reign of anarchy, Batman is for…
/// ```
///
/// Top down: the tab bar, the prompt, the summary line, then the list of the tab or of the open page (details are
/// scrolled lines). Every line is escaped data cut to the width in columns with `…` (`ScreenLine.fitted`), so
/// nothing wraps at any size; below 4 rows the tab bar and summary give way, so that even 20 × 2 shows the prompt
/// and one row. Only the rows in view are read from the cache, highlighted and measured.
struct BrowseRenderer {
    let model: BrowseModel
    let columns: Int
    let rows: Int

    /// The screen: exactly `rows` lines (none for 0 rows), each at most `columns` columns wide.
    func screen() -> Screen {
        guard rows > 0 else { return Screen(lines: []) }
        var lines: [ScreenLine] = []
        let showsHeader = rows >= 4
        if showsHeader { lines.append(tabBar()) }
        let (prompt, cursorColumn) = promptLine()
        let promptRow = lines.count
        lines.append(prompt)
        if showsHeader { lines.append(summaryLine()) }
        lines = lines.map { $0.fitted(toColumns: columns) }
        // The body's lines are cut as they are made (only the rows in view are).
        lines += body(height: rows - lines.count)
        while lines.count < rows { lines.append(ScreenLine()) }
        let cursor = columns > 0 ? Screen.Position(row: promptRow, column: min(cursorColumn, columns - 1)) : nil
        return Screen(lines: Array(lines.prefix(rows)), cursor: cursor)
    }

    // MARK: Styles

    private var color: Bool { model.color }

    static func heartStyle(color: Bool) -> TextStyle {
        var style = TextStyle()
        if color { style.foreground = .red }
        return style
    }

    private var matchStyle: TextStyle {
        var style = TextStyle()
        style.bold = true
        if color { style.foreground = .green }
        return style
    }

    private var headerStyle: TextStyle {
        var style = TextStyle()
        if color { style.foreground = .yellow }
        return style
    }

    private var dimStyle: TextStyle {
        var style = TextStyle()
        style.dim = true
        return style
    }

    // MARK: Top lines

    /// `Search · Top 15 · Critics' 15 · Favorites (n)` (the tabs the model shows), the current tab bold and
    /// underlined (and cyan with colour); on a screen too narrow for it, `Search · Top · Critics · ♥ n`.
    private func tabBar() -> ScreenLine {
        var names = model.tabs.map { ($0, Self.tabName($0, favorites: model.favoriteCount, short: false)) }
        if DisplayWidth.columns(of: names.map(\.1).joined(separator: " · ")) > columns {
            names = model.tabs.map { ($0, Self.tabName($0, favorites: model.favoriteCount, short: true)) }
        }
        var line = ScreenLine()
        for (number, (tab, name)) in names.enumerated() {
            if number > 0 { line.append(" · ", dimStyle) }
            var style = TextStyle()
            if tab == model.tab {
                style.bold = true
                style.underline = true
                if color { style.foreground = .cyan }
            }
            line.append(name, style)
        }
        return line
    }

    /// A tab's name in the tab bar, `short` for a narrow screen.
    static func tabName(_ tab: BrowseTab, favorites: Int, short: Bool) -> String {
        switch tab {
        case .search: return "Search"
        case .top: return short ? "Top" : "Top \(BrowseModel.topLimit)"
        case .critics: return short ? "Critics" : "Critics' \(BrowseModel.topLimit)"
        case .favorites:
            return short ? "♥ \(TextLayout.grouped(favorites))" : "Favorites (\(TextLayout.grouped(favorites)))"
        }
    }

    /// `> query`, scrolled sideways so that the cursor stays in view (a `…` first when the start is hidden), and the
    /// cursor's column.
    private func promptLine() -> (ScreenLine, Int) {
        var promptStyle = TextStyle()
        promptStyle.bold = true
        if color { promptStyle.foreground = .blue }
        // The filter line, while open, takes the query's place.
        let prompt = model.filterEditor == nil ? "> " : "Filter: "
        let editor = model.filterEditor ?? model.editor
        var line = ScreenLine(prompt, promptStyle)
        let characters = editor.characters
        let cursor = editor.cursor
        // Room for the text and the cursor's own cell after it.
        let room = max(1, columns - prompt.count - 1)
        var start = 0
        var beforeCursor = DisplayWidth.columns(of: String(characters[..<cursor]))
        while start < cursor, beforeCursor + (start > 0 ? 1 : 0) > room {
            beforeCursor -= DisplayWidth.columns(of: characters[start])
            start += 1
        }
        if start > 0 { line.append(DisplayWidth.ellipsis, dimStyle) }
        line.append(String(characters[start...]))
        return (line, prompt.count + (start > 0 ? 1 : 0) + beforeCursor)
    }

    /// The driver's status message, the filters in force, then what the view shows; while the filter line is open,
    /// why it cannot be applied or how to write it.
    private func summaryLine() -> ScreenLine {
        var line = ScreenLine()
        var style = TextStyle()
        style.bold = true
        if color { style.foreground = .yellow }
        if model.filterEditor != nil {
            if let error = model.filterError {
                line.append(TerminalSafeText.escapedMessage(error), style)
            } else {
                line.append(Self.filterLineHelp, dimStyle)
            }
            return line
        }
        if let status = model.statusMessage {
            line.append(TerminalSafeText.escapedMessage(status), style)
            line.append(" · ", dimStyle)
        }
        if !model.filters.isEmpty {
            var filterStyle = TextStyle()
            filterStyle.bold = true
            if color { filterStyle.foreground = .cyan }
            line.append("[" + FilterSummary.text(model.filters) + "]", filterStyle)
            line.append(" ")
            if let note = model.filterNote {
                line.append(TerminalSafeText.escapedMessage(note), style)
                line.append(" · ", dimStyle)
            }
        }
        line.append(summaryText())
        return line
    }

    /// The summary line while the filter line is open.
    static let filterLineHelp = "genre: year:A..B cast: rating: critic: · Tab: genre · Enter: apply · Esc: cancel"

    /// How many movies pass the filters in force (the catalog's count without filters).
    private var filteredCount: Int {
        (try? model.index.passingCount(model.filters)) ?? model.index.movieCount
    }

    private func summaryText() -> String {
        switch model.page {
        case .details?:
            return "Esc: back · Tab: favorite · ↑/↓: scroll"
        case .year(let year)?:
            return year.error ?? "all \(TextLayout.count(year.count, "match", "matches")) in \(year.year) · Esc: back"
        case nil:
            switch model.tab {
            case .search:
                if let error = model.searchError { return error }
                guard let result = model.result else { return "" }
                return Self.summary(result)
            case .top:
                return model.topError
                    ?? "The \(TextLayout.count(model.topList.movieCount, "best-rated movie", "best-rated movies")) of "
                    + TextLayout.grouped(filteredCount)
            case .critics:
                let count = TextLayout.count(model.criticsList.movieCount, "best-rated movie", "best-rated movies")
                return model.criticsError
                    ?? "The \(count) by the critics, of \(TextLayout.grouped(filteredCount))"
            case .favorites:
                if let error = model.favoritesError { return error }
                if model.favoriteCount == 0 { return "No favorites yet: Tab marks the selected movie" }
                var text = "\(TextLayout.count(model.favorites.count, "favorite", "favorites")), newest first"
                if !model.missingFavorites.isEmpty {
                    text += ", \(TextLayout.grouped(model.missingFavorites.count)) not in this catalog"
                }
                return text
            }
        }
    }

    /// `30 matches in 9 years`; a typo answer `no exact match; 5 matches with typos in 4 years` (as `query` says
    /// it, without the query, which the prompt shows); a query without words `every movie: 2,272 in 10 years`.
    static func summary(_ result: SearchResult) -> String {
        let years = TextLayout.count(result.years.count, "year", "years")
        if result.total == 0 {
            return result.mode == .typo ? "No movie matches, even with typos" : "No movie matches"
        }
        if Tokenizer.tokens(in: result.query).isEmpty {
            return "Every movie: \(TextLayout.grouped(result.total)) in \(years) · type to search"
        }
        return AnswerText.counts(result)
    }

    // MARK: The list or page

    private func body(height: Int) -> [ScreenLine] {
        guard height > 0 else { return [] }
        switch model.page {
        case .details(let details)?:
            let lines = model.detailLines(details, columns: columns)
            let start = max(0, min(details.scroll, lines.count - height))
            return lines[start..<min(lines.count, start + height)].map { $0.fitted(toColumns: columns) }
        case .year(let year)?:
            return listLines(year.list, height: height, highlighter: year.highlighter, rating: .rating)
        case nil:
            return listLines(model.currentList, height: height,
                             highlighter: model.tab == .search ? model.highlighter : nil,
                             rating: model.tab == .critics ? .critic : .rating)
        }
    }

    /// The lines of the rows in view; `rating` says which rating a movie row shows (the critics' in Critics' 15).
    /// A further line of the selected row (its overview) is drawn selected too, without the `>`.
    private func listLines(_ list: BrowseList, height: Int, highlighter: MatchHighlighter?,
                           rating: TopListOrder) -> [ScreenLine] {
        list.window(height: height).map { number in
            let isSelected = list.selection.map { list.rowStart(number) == $0 } ?? false
            let line = rowLine(list.rows[number], isSelected: number == list.selection, highlighter: highlighter,
                               rating: rating)
                .fitted(toColumns: columns)
            return isSelected ? line.selected(toColumns: columns) : line
        }
    }

    /// The column where a top list's titles start: after the gutter, the rank (`15. `), the rating and the year
    /// (shown from 40 columns up); the overview line under a title starts there too.
    private var rankedTitleColumn: Int {
        2 + 4 + ratingWidth(model.tab == .critics ? .critic : .rating) + 2 + (columns >= 40 ? 6 : 0)
    }

    /// The columns a row's rating is padded to, by the scale of the rating shown: `4.5/5`, `7.25/10`, `100/100`
    /// (4 for ratings on no scale, as `8.25`); a longer one (`7.845/10`) pushes its title right.
    private func ratingWidth(_ shown: TopListOrder) -> Int {
        let scales = model.index.ratingScales
        switch shown == .critic ? scales.critic : scales.rating {
        case nil: return 4
        case .five: return 5
        case .ten, .hundred: return 7
        }
    }

    private func rowLine(_ row: BrowseRow, isSelected: Bool, highlighter: MatchHighlighter?,
                         rating: TopListOrder) -> ScreenLine {
        var marker = TextStyle()
        marker.bold = true
        let gutter = isSelected ? "> " : "  "
        switch row {
        case let .header(year, count, counted):
            return ScreenLine(BrowseRow.headerText(year: year, count: count, counted), headerStyle)
        case let .more(year, remaining):
            var line = ScreenLine(gutter, marker)
            line.append("… \(TextLayout.grouped(remaining)) more in \(year)", dimStyle)
            return line
        case let .overview(movieID):
            let indent = rankedTitleColumn
            var line = ScreenLine(String(repeating: " ", count: indent))
            guard let overview = (try? model.index.movie(id: movieID))?.overview else { return line }
            line.append(ShortDescription.line(overview, columns: columns - indent), dimStyle)
            return line
        case let .missing(title, year):
            var line = ScreenLine("  " + TextLayout.padLeft("–", ratingWidth(.rating)) + "  ", dimStyle)
            line.append("\(TerminalSafeText.escaped(title)) (\(year))", dimStyle)
            return line
        case let .movie(id, rank):
            var line = ScreenLine(gutter, marker)
            guard let movie = try? model.index.movie(id: id) else {
                line.append("movie \(id) could not be read from the cache")
                return line
            }
            if let rank { line.append(TextLayout.padLeft("\(rank).", 3) + " ") }
            let shown = rating == .critic ? movie.criticRating : movie.rating
            let scale = rating == .critic ? model.index.ratingScales.critic : model.index.ratingScales.rating
            line.append(TextLayout.padLeft(TextLayout.rating(shown, on: scale) ?? "–", ratingWidth(rating)) + "  ")
            if rank != nil, columns >= 40 { line.append("\(movie.year)  ") }
            let isFavorite = model.favorites.contains(id)
            let room = columns - line.columns - (isFavorite ? 2 : 0)
            line.runs += titleRuns(movie.title, highlighter: highlighter).fitted(toColumns: room).runs
            if isFavorite { line.append(" ♥", Self.heartStyle(color: color)) }
            return line
        }
    }

    /// The title escaped, the spans the highlighter finds in bold; each run escaped on its own, one scalar at a
    /// time as `Highlight` does, so that the text is exactly `TerminalSafeText.escaped(title)`.
    private func titleRuns(_ title: String, highlighter: MatchHighlighter?) -> ScreenLine {
        let spans = MatchHighlighter.merged(highlighter?.utf16Ranges(in: title) ?? [])
        let escaped = TerminalSafeText.escaped(title)
        guard !spans.isEmpty else { return ScreenLine(escaped) }
        var line = ScreenLine()
        // Escaping only ever lengthens a text: the same length means nothing to escape, so the spans cut the title
        // itself (the common case, and the fast one).
        if escaped.utf8.count == title.utf8.count {
            let utf16 = title.utf16
            var done = 0
            func piece(_ from: Int, _ to: Int) -> String {
                let start = utf16.index(utf16.startIndex, offsetBy: from)
                return String(title[start..<utf16.index(start, offsetBy: to - from)])
            }
            for span in spans where span.lowerBound < utf16.count {
                let upper = min(span.upperBound, utf16.count)
                line.append(piece(done, span.lowerBound))
                line.append(piece(span.lowerBound, upper), matchStyle)
                done = upper
            }
            line.append(piece(done, utf16.count))
            return line
        }
        for run in Highlight.runs(title, bold: spans) {
            line.append(run.text, run.isBold ? matchStyle : .plain)
        }
        return line
    }
}

extension BrowseModel {
    /// The screen at `columns` × `rows` (see `BrowseRenderer`): pure, it reads only the model and the rows in view
    /// from the cache. The driver draws it after every key and on resize (after `resize(columns:rows:)`).
    func screen(columns: Int, rows: Int) -> Screen {
        BrowseRenderer(model: self, columns: columns, rows: rows).screen()
    }
}
