import Synchronization

/// The lines of the last details page laid out, and what they were laid out for, so that a key on the page (↓, a
/// scroll, a redraw) costs the slice of lines on screen, not a new layout of the whole page: an overview of 80,000
/// characters is measured once per width, not twice per key. A class, so that the value-typed `BrowseModel` and its
/// copies share it; a mutex, so that it stays `Sendable` as the model is.
final class BrowseDetailsCache: Sendable {
    /// What a layout depends on: the movie, the width, and what the page shows of its state.
    struct Key: Equatable, Sendable {
        var movieID: Int
        var columns: Int
        var isFavorite: Bool
        var photos: SavedPhotos
        var color: Bool
    }

    private let stored = Mutex<(key: Key, lines: [ScreenLine])?>(nil)

    /// The lines for `key`: those kept when they were laid out for the same key, else `layOut()`'s, kept.
    func lines(for key: Key, _ layOut: () -> [ScreenLine]) -> [ScreenLine] {
        if let kept = stored.withLock({ $0 }), kept.key == key { return kept.lines }
        let lines = layOut()
        stored.withLock { $0 = (key, lines) }
        return lines
    }
}
