import MovieSearchCatalog
import MovieSearchFavorites

/// The answer of `favorites add`, `remove` and `remove --missing` as text for a person: one line saying what
/// changed in the file at `path` (or that nothing did), and for `remove --missing` the favorites removed.
///
///     Added 745 The Dark Knight Rises (2012) to the favorites (/home/ana/.local/share/moviesearch/favorites.json).
///     Removed 2 missing favorites (favorites.json):
///       2014  Gone Girl
package enum FavoriteChangeText {
    /// Writes the line of an `add` or `remove`; `path` is the favorites file as the user would name it.
    package static func write(_ change: FavoriteChange, path: String, to out: TextOutput) {
        let path = TerminalSafeText.escaped(path)
        switch (change.action, change.movie, change.entry) {
        case let (.add, movie?, entry):
            out.line(entry != nil ? "Added \(describe(movie.id, movie.title, movie.year)) to the favorites (\(path))."
                : "\(describe(movie.id, movie.title, movie.year)) is a favorite already (\(path)).")
        case let (_, _, removed?) where change.action == .remove:
            out.line("Removed \(describe(change.id, removed.title, removed.year)) from the favorites (\(path)).")
        default:
            out.line("No favorite has id \(change.id) (\(path)): nothing to remove.")
        }
    }

    /// Writes what `remove --missing` removed: the count, then each favorite's year and title as the file kept
    /// them; a line saying nothing was removed when none was missing.
    package static func writeRemoved(_ missing: [FavoriteStore.Missing], path: String, to out: TextOutput) {
        let path = TerminalSafeText.escaped(path)
        if missing.isEmpty {
            return out.line("No favorite is missing from this cache (\(path)): nothing to remove.")
        }
        out.line("Removed \(TextLayout.count(missing.count, "missing favorite", "missing favorites")) (\(path)):")
        for entry in missing {
            out.line("  \(entry.favorite.year)  \(TerminalSafeText.escaped(entry.favorite.title))")
        }
    }

    /// `745 The Dark Knight Rises (2012)`, the title escaped.
    private static func describe(_ id: Int, _ title: String, _ year: Int) -> String {
        "\(id) \(TerminalSafeText.escaped(title)) (\(year))"
    }
}
