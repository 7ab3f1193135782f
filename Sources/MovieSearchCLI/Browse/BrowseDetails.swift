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
        // The fields of `show`, labelled to fit the page's label column ("original", not "original title").
        var fields = MovieDetailsLines.fieldRows(movie, scales: scales, posterSize: PosterSize.defaultSize,
                                                 originalTitleLabel: "original").map { ($0.label, $0.value) }
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

    /// `  label     value`, the value wrapped under itself so that nothing is wider than the screen
    /// (`MovieDetailsLines.Fit.screen`); below 20 columns the value goes under its label.
    private static func field(_ label: String, _ value: String, columns: Int) -> [ScreenLine] {
        MovieDetailsLines.lines(MovieDetailsLines.Row(label, value, wraps: true), labelWidth: labelWidth,
                                fit: .screen(columns: columns)).map { ScreenLine($0) }
    }
}
