import MovieSearchCatalog
import MovieSearchPlatform
import MovieSearchQuery

/// The favorites of one command, `browse` session or server request: opened once with a policy for a file that
/// cannot be read, then changed one movie at a time, each change read, applied and saved under the file's lock.
/// The one way favorites change: `favorites add` and `remove`, browse's Tab and the server's `PUT` and `DELETE`
/// all go through it.
///
///     var session = try FavoritesSession.open(.file(path, createsFolder: true), index: index, ifUnreadable: .fail)
///     let change = try session.add(movie)         // change.changed: false when it was a favorite already
///     session.store.isFavorite(movie.id)          // true
///
/// Each change of a file session takes the lock of the file's folder (`FavoritesFile.withLock`), reads the file
/// again, resolves it against the cache, applies the one change and saves the file (only when the change changed
/// something), so that a change made meanwhile by another process (`favorites add` while `browse` toggles) is
/// kept rather than saved over; `store` is then what the file holds. A change that cannot be saved (the lock
/// busy, the file unwritable, or become unreadable) still holds in `store`, so that a screen shows what the
/// person did, and throws why it was not saved; the file is then as it was.
///
/// A file that cannot be read or understood is never written: with `.fail` opening throws; with `.readOnly` the
/// session starts empty, keeps the error in `unreadable` and changes only `store`.
package struct FavoritesSession: Sendable {
    /// Where the favorites are kept.
    package enum Storage: Sendable, Equatable {
        /// A file, and whether a save may create its missing folders (mode 0700: the default location).
        case file(FilePath, createsFolder: Bool)
        /// In memory only, starting from this list (`--no-save`, or no place for a file).
        case memory(FavoriteList)
    }

    /// What opening does with a favorites file that cannot be read or understood (`FavoritesError`).
    package enum UnreadablePolicy: Sendable, Equatable {
        /// Throw the error: the user named the file, or asked for a change of it.
        case fail
        /// Open an empty session that never writes and keeps the error (`unreadable`), for a command that only
        /// shows favorites (it warns) or a default file (a session that says it is read-only).
        case readOnly
    }

    /// What the session changes: where it was opened, or `.memory` for a `.readOnly` session of an unreadable
    /// file.
    package private(set) var storage: Storage
    /// The cache the favorites are resolved against.
    package let index: MovieIndex
    /// The favorites as the session knows them: as the file held them at the last read, with the session's
    /// changes since (those that could not be saved too).
    package private(set) var store: FavoriteStore
    /// Why the file could not be read, when `.readOnly` opened an empty session in its place.
    package private(set) var unreadable: FavoritesError?
    /// How long a change waits for another process's change to the same favorites (`FavoritesFile.withLock`);
    /// tests shorten it.
    package var lockWaitMilliseconds = FavoritesFile.lockWaitMilliseconds

    /// Opens the favorites kept in `storage`, resolved against `index`; an unreadable file is handled as `policy`
    /// says. No file is an empty list.
    ///
    /// - Throws: `FavoritesError` with `.fail`; `CacheError` when the cache is damaged where resolving reads it.
    package static func open(_ storage: Storage, index: MovieIndex, ifUnreadable policy: UnreadablePolicy) throws
        -> FavoritesSession
    {
        switch storage {
        case let .memory(list):
            return FavoritesSession(storage: storage, index: index, store: try FavoriteStore(list: list, index: index))
        case let .file(path, _):
            let list: FavoriteList
            switch read(path) {
            case let .success(read):
                list = read
            case let .failure(error):
                guard policy == .readOnly else { throw error }
                var session = FavoritesSession(storage: .memory(FavoriteList()), index: index,
                                               store: try FavoriteStore(list: FavoriteList(), index: index))
                session.unreadable = error
                return session
            }
            return FavoritesSession(storage: storage, index: index, store: try FavoriteStore(list: list, index: index))
        }
    }

    /// The list in the file at `path`, or why it cannot be read.
    private static func read(_ path: FilePath) -> Result<FavoriteList, FavoritesError> {
        do {
            return .success(try FavoritesFile.read(path))
        } catch {
            return .failure(error)
        }
    }

    private init(storage: Storage, index: MovieIndex, store: FavoriteStore) {
        self.storage = storage
        self.index = index
        self.store = store
    }

    /// Whether changes are written to a file: false for a session in memory, and for a `.readOnly` one of a file
    /// that could not be read.
    package var savesChanges: Bool {
        if case .file = storage { return true }
        return false
    }

    /// The same favorites, from now on changed in memory only (`browse --no-save`): the file is never written.
    package func inMemory() -> FavoritesSession {
        var session = self
        session.storage = .memory(store.list)
        return session
    }

    // MARK: Changes

    /// Makes `movie` a favorite, added at the end; `changed` false when it was one already.
    @discardableResult
    package mutating func add(_ movie: Movie) throws -> FavoriteChange {
        let entry = try change { $0.add(movie) ? Favorite(movie) : nil }
        return FavoriteChange(action: .add, id: movie.id, movie: movie, entry: entry)
    }

    /// Removes the favorite that is the movie of this cache with id `id` (`FavoriteStore.remove(id:)`); `changed`
    /// false when that movie is no favorite. The change's `movie` is the cache's movie with that id, nil when the
    /// cache holds none.
    ///
    /// - Throws: `CacheError` when the cache is damaged where the removed movie is read.
    @discardableResult
    package mutating func remove(id: Int) throws -> FavoriteChange {
        let entry = try change { $0.remove(id: id) }
        // A movie removed is in the cache (it was resolved there): a failure to read it is a damaged cache.
        let movie: Movie?
        if entry == nil { movie = try? index.movie(id: id) } else { movie = try index.movie(id: id) }
        return FavoriteChange(action: .remove, id: id, movie: movie, entry: entry)
    }

    /// Makes `movie` a favorite if it was not, or not one if it was (as the file holds it now).
    @discardableResult
    package mutating func toggle(_ movie: Movie) throws -> FavoriteChange {
        let toggled = try change { store -> (FavoriteChange.Action, Favorite?)? in
            if store.isFavorite(movie.id) { return (.remove, store.remove(id: movie.id)) }
            return (.add, store.add(movie) ? Favorite(movie) : nil)
        }
        return FavoriteChange(action: toggled?.0 ?? .add, id: movie.id, movie: movie, entry: toggled?.1)
    }

    /// Removes every favorite the cache does not hold (`FavoriteStore.removeMissing()`); returns them, with the
    /// reason each was not found, in the order they were added (none: nothing saved).
    @discardableResult
    package mutating func removeMissing() throws -> [FavoriteStore.Missing] {
        try change { store -> [FavoriteStore.Missing]? in
            let missing = store.missingWithReasons
            store.removeMissing()
            return missing.isEmpty ? nil : missing
        } ?? []
    }

    /// Applies `body` (which returns nil when it changed nothing) to the favorites: for a file, under its lock, to
    /// what it holds now, saved when something changed; otherwise to `store`. A change that could not be read or
    /// saved is applied to `store` before the error is thrown.
    private mutating func change<Changed>(_ body: (inout FavoriteStore) -> Changed?) throws -> Changed? {
        guard case let .file(path, createsFolder) = storage else {
            let changed = body(&store)
            storage = .memory(store.list)
            return changed
        }
        do {
            // Read, change and save under the lock: another process's change made meanwhile is read, not saved
            // over.
            let (current, changed) = try FavoritesFile.withLock(
                path, creatingFolder: createsFolder, waitMilliseconds: lockWaitMilliseconds
            ) { [index] in
                // A file that cannot be read or understood stops the change here: it is never overwritten.
                var current = try FavoriteStore(list: FavoritesFile.read(path), index: index)
                let changed = body(&current)
                if changed != nil { try FavoritesFile.write(current.list, to: path, creatingFolder: createsFolder) }
                return (current, changed)
            }
            store = current
            return changed
        } catch {
            _ = body(&store)
            throw error
        }
    }
}
