import MovieSearchPlatform
import MovieSearchQuery
import Synchronization

/// The cache the server answers from, replaced when `index` replaces the file: `reloadIfChanged()` (called a few
/// times a second) sees a new file at the path by its device, inode and size, opens it, and swaps it in. A request
/// takes a `Snapshot` and answers from it to the end, so requests in flight finish on the old mapping (it is
/// unmapped when the last of them lets go). A replacement that cannot be opened is reported and the old cache kept.
package final class ServedCache: Sendable {
    /// One cache as requests see it.
    package struct Snapshot: Sendable {
        /// The open cache.
        package let index: MovieIndex
        /// 0 for the cache opened at start, one more for each reload: keys what is derived from the cache.
        package let generation: Int
    }

    /// What a reload check did.
    package enum Reload: Sendable, Equatable {
        /// A new cache is served.
        case reloaded(movies: Int)
        /// The file changed but cannot be served: the old cache stays. One line.
        case failed(String)
    }

    private struct State: Sendable {
        var snapshot: Snapshot
        var loaded: FileIdentity?
        /// A replacement that failed, not tried again until the path changes once more.
        var refused: FileIdentity?
    }

    /// The cache's path, as given.
    package let path: FilePath
    private let state: Mutex<State>

    /// Opens the cache at `path`.
    package init(path: FilePath) throws {
        self.path = path
        let identity = FileIdentity.of(path)
        let index = try MovieIndex(path: path)
        state = Mutex(State(snapshot: Snapshot(index: index, generation: 0), loaded: identity))
    }

    /// The cache to answer one request from.
    package func snapshot() -> Snapshot {
        state.withLock { $0.snapshot }
    }

    /// Opens and swaps in the file at `path` if it is not the one served; nil when nothing changed (or the path is
    /// gone for now: `index` renames a new file into place, so a missing path is a moment between two files).
    package func reloadIfChanged() -> Reload? {
        guard let identity = FileIdentity.of(path) else { return nil }
        let (loaded, refused, generation) = state.withLock { ($0.loaded, $0.refused, $0.snapshot.generation) }
        guard identity != loaded, identity != refused else { return nil }
        do {
            let index = try MovieIndex(path: path)
            state.withLock {
                $0.snapshot = Snapshot(index: index, generation: generation + 1)
                $0.loaded = identity
                $0.refused = nil
            }
            return .reloaded(movies: index.movieCount)
        } catch {
            state.withLock { $0.refused = identity }
            return .failed("\(error)")
        }
    }
}
