import MovieSearchFavorites
import MovieSearchPlatform
import Synchronization

/// The favorites the server marks in its answers and changes on `PUT` and `DELETE`: a favorites file shared with the
/// command line (read again whenever it changes, changed under the same lock as `favorites add`), or a list kept in
/// memory (`--no-save`: read from the file once, never written).
package final class ServedFavorites: Sendable {
    /// Where favorites live.
    package enum Storage: Sendable, Equatable {
        /// A file; `isDefault` when the user did not name it (its folder is then created on the first save).
        case file(FilePath, isDefault: Bool)
        /// In memory only, starting from this list.
        case memory(FavoriteList)
    }

    /// The ids of the favorites, with what they were derived from.
    private struct Marked: Sendable {
        var key: Key
        var ids: Set<Int>
    }

    /// What the marked ids depend on: the cache, and the file (nil while there is none) or the in-memory list's
    /// version.
    private struct Key: Equatable, Sendable {
        var generation: Int
        var file: FileIdentity?
        var memoryVersion = 0
    }

    private struct State: Sendable {
        var marked: Marked?
        var memory: FavoriteList
        var memoryVersion = 0
    }

    private let storage: Storage
    private let state: Mutex<State>
    /// Reports a favorites file that cannot be read when answers are marked (once per change of the file).
    private let warn: @Sendable (String) -> Void

    /// Favorites kept in `storage`; `warn` receives one line when the file cannot be read for marking answers.
    package init(_ storage: Storage, warn: @escaping @Sendable (String) -> Void) {
        self.storage = storage
        var list = FavoriteList()
        if case let .memory(start) = storage { list = start }
        state = Mutex(State(memory: list))
        self.warn = warn
    }

    /// The ids of the favorites in this cache, for marking answers; empty (with a warning) when the file cannot be
    /// read. Cached until the file or the cache changes, so a search costs one `stat`.
    package func ids(in snapshot: ServedCache.Snapshot) -> Set<Int> {
        let key: Key
        switch storage {
        case let .file(path, _):
            key = Key(generation: snapshot.generation, file: FileIdentity.of(path))
        case .memory:
            key = Key(generation: snapshot.generation, memoryVersion: state.withLock { $0.memoryVersion })
        }
        if let marked = state.withLock({ $0.marked }), marked.key == key { return marked.ids }
        var ids: Set<Int> = []
        do {
            ids = try FavoriteStore(list: currentList(), index: snapshot.index).ids
        } catch {
            warn("\(error); favorites are not marked")
        }
        state.withLock { $0.marked = Marked(key: key, ids: ids) }
        return ids
    }

    /// The store of the favorites as they are now, resolved against this cache.
    package func store(in snapshot: ServedCache.Snapshot) throws -> FavoriteStore {
        try FavoriteStore(list: currentList(), index: snapshot.index)
    }

    /// Runs `change` on the favorites and saves them if it says so: for a file, read, changed and written under the
    /// file's lock (the lock `favorites add` takes), so that no change of another process is lost.
    package func update<Value>(
        in snapshot: ServedCache.Snapshot, _ change: (inout FavoriteStore) throws -> (Value, changed: Bool)
    ) throws -> Value {
        switch storage {
        case let .file(path, isDefault):
            return try FavoritesFile.withLock(path, creatingFolder: isDefault) {
                var store = try FavoriteStore(list: FavoritesFile.read(path), index: snapshot.index)
                let (value, changed) = try change(&store)
                if changed { try FavoritesFile.write(store.list, to: path, creatingFolder: isDefault) }
                return value
            }
        case .memory:
            return try state.withLock { state in
                var store = try FavoriteStore(list: state.memory, index: snapshot.index)
                let (value, changed) = try change(&store)
                if changed {
                    state.memory = store.list
                    state.memoryVersion += 1
                }
                return value
            }
        }
    }

    private func currentList() throws -> FavoriteList {
        switch storage {
        case let .file(path, _): try FavoritesFile.read(path)
        case .memory: state.withLock { $0.memory }
        }
    }
}
