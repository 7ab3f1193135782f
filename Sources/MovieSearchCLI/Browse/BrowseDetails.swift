import MovieSearchCatalog
import MovieSearchOutput
import MovieSearchPhotos

/// The lines of a movie's details page in `browse`: the title, then one labelled field after another, each value
/// escaped (`TerminalSafeText`) and wrapped under itself to the width, so that a long cast list, an overview or the
/// Flickr request URL can be read in full by scrolling; nothing is wider than `columns`. The critics' rating has its
/// line under the users' rating only when the movie has one; each is out of its catalog's scale, with stars for a
/// five-point one (`TextLayout.detailedRating(_:on:)`).
///
/// ```
/// The Dark Knight Rises ♥
///   year      2012
///   rating    ★★☆☆☆ 2/5
///   critics   7.8/10
///   genres    Action, Crime
///   cast      Christian Bale, Tom Hardy
///   favorite  yes ♥ (Tab removes it)
///   flickr    https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key=…
///   photos    none saved (--photos-dir <dir> with <id>.json)
/// ```
enum BrowseDetails {
    /// The labels are this wide, plus two spaces before and after.
    private static let labelWidth = 8

    /// The page's lines for `movie`, of a catalog whose ratings are on `scales`, at `columns` columns.
    static func lines(_ movie: Movie, scales: RatingScales, isFavorite: Bool, photos: SavedPhotos, flickrKey: String, columns: Int,
                      color: Bool) -> [ScreenLine] {
        var lines: [ScreenLine] = []
        var titleStyle = TextStyle()
        titleStyle.bold = true
        let heart = isFavorite ? " ♥" : ""
        let titleLines = DisplayWidth.wrapped(TerminalSafeText.escaped(movie.title) + heart, toColumns: columns)
        for (number, piece) in titleLines.enumerated() {
            var line = ScreenLine(piece, titleStyle)
            if number == titleLines.count - 1, color, isFavorite, piece.hasSuffix("♥") {
                line = ScreenLine(String(piece.dropLast()), titleStyle)
                line.append("♥", BrowseRenderer.heartStyle(color: true))
            }
            lines.append(line)
        }
        var fields: [(String, String)] = [
            ("year", String(movie.year)),
            ("rating", TextLayout.detailedRating(movie.rating, on: scales.rating) ?? "unrated"),
        ]
        if let critics = TextLayout.detailedRating(movie.criticRating, on: scales.critic) {
            fields.append(("critics", critics))
        }
        fields += [
            ("genres", movie.genres.isEmpty ? "none listed" : list(movie.genres)),
            ("cast", movie.cast.isEmpty ? "none listed" : list(movie.cast)),
        ]
        if let original = movie.originalTitle, !original.isEmpty {
            fields.append(("original", TerminalSafeText.escaped(original)))
        }
        if let overview = movie.overview, !overview.isEmpty {
            fields.append(("overview", TerminalSafeText.escaped(overview)))
        }
        if let poster = movie.posterPath.flatMap(PosterSize.defaultSize.url(posterPath:)) {
            fields.append(("poster", TerminalSafeText.escaped(poster)))
        }
        if let tmdbID = movie.tmdbID { fields.append(("tmdb", "\(tmdbID)  \(MovieLinks.tmdb(id: tmdbID))")) }
        if let imdbID = movie.imdbID, !imdbID.isEmpty {
            fields.append(("imdb", TerminalSafeText.escaped(imdbID) + "  "
                + TerminalSafeText.escaped(MovieLinks.imdb(id: imdbID))))
        }
        fields.append(("favorite", isFavorite ? "yes ♥ (Tab removes it)" : "no (Tab adds it)"))
        fields.append(("flickr", TerminalSafeText.escaped(FlickrPhotos.searchURL(title: movie.title, apiKey: flickrKey))))
        for (label, value) in fields { lines += field(label, value, columns: columns) }
        switch photos {
        case .none:
            lines += field("photos", "none saved (--photos-dir <dir> with <id>.json)", columns: columns)
        case .fetching:
            lines += field("photos", "asking Flickr…", columns: columns)
        case let .failed(reason):
            lines += field("photos", TerminalSafeText.escaped(reason), columns: columns)
        case let .unreadable(reason):
            lines += field("photos", "cannot read " + TerminalSafeText.escaped(reason), columns: columns)
        case let .urls(urls) where urls.isEmpty:
            lines += field("photos", "none in the saved response", columns: columns)
        case let .urls(urls):
            for (number, url) in urls.enumerated() {
                lines += field(number == 0 ? "photos" : "", TerminalSafeText.escaped(url), columns: columns)
            }
        }
        return lines
    }

    /// `  label     value`, the value wrapped under itself; below 20 columns the value goes under its label.
    private static func field(_ label: String, _ value: String, columns: Int) -> [ScreenLine] {
        let indent = 2 + labelWidth + 2
        let valueColumns = columns - indent
        if valueColumns < 8 {
            var lines = label.isEmpty ? [] : [ScreenLine(DisplayWidth.truncated(label, toColumns: columns))]
            lines += DisplayWidth.wrapped(value, toColumns: columns).map { ScreenLine($0) }
            return lines
        }
        let padding = String(repeating: " ", count: indent)
        return DisplayWidth.wrapped(value, toColumns: valueColumns).enumerated().map { number, piece in
            let prefix = number == 0 ? "  " + TextLayout.padRight(label, labelWidth) + "  " : padding
            return ScreenLine(prefix + piece)
        }
    }

    /// Names joined by commas, each escaped.
    private static func list(_ names: [String]) -> String {
        names.map(TerminalSafeText.escaped).joined(separator: ", ")
    }
}
