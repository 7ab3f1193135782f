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
        /// The identity of the file the bytes of `key` were read from, and whether that identity alone vouches
        /// for the bytes (`isSettled`): a file that has not changed for `settledTime` cannot change again without a
        /// new change time (the clock has moved past every tick it could share), so the same identity means the
        /// same bytes; a younger file is read again on each request until it settles.
        var identity: FileIdentity?
        var isSettled = false
    }

    /// What the marked ids depend on: the cache, and the file's bytes (or why it cannot be read) or the in-memory
    /// list's version.
    private struct Key: Equatable, Sendable {
        var generation: Int
        var file: FileContents?
        var memoryVersion = 0
    }

    /// What the favorites file held when it was last read: its bytes (nil for no file) or why it cannot be read.
    /// The bytes are the truth a change is seen by: a file removed and written again with an entry of the same
    /// length (Amelia for Avatar, both 2009) has the same size, often the same inode, and on a file system with
    /// coarse timestamps the same times too.
    private enum FileContents: Equatable, Sendable {
        case bytes([UInt8]?)
        case unreadable(String)
    }

    /// How long a file must have stood unchanged before its status alone is trusted, by default: well past the
    /// coarsest timestamps of the file systems in use (ext4 and XFS stamp by the kernel tick, FAT by 2 s).
    package static let defaultSettledTime = Duration.seconds(3)

    private struct State: Sendable {
        var marked: Marked?
        var memory: FavoriteList
        var memoryVersion = 0
    }

    private let storage: Storage
    /// `settledTime` in nanoseconds.
    private let settledNanoseconds: Int64
    private let state: Mutex<State>
    /// Reports a favorites file that cannot be read when answers are marked (once per change of the file).
    private let warn: @Sendable (String) -> Void

    /// Favorites kept in `storage`; `warn` receives one line when the file cannot be read for marking answers.
    /// `settledTime`: how long the file must have stood unchanged before one `stat` vouches for its bytes (tests
    /// shorten it).
    package init(_ storage: Storage, settledTime: Duration = defaultSettledTime,
                 warn: @escaping @Sendable (String) -> Void) {
        self.storage = storage
        let (seconds, attoseconds) = settledTime.components
        settledNanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        var list = FavoriteList()
        if case let .memory(start) = storage { list = start }
        state = Mutex(State(memory: list))
        self.warn = warn
    }

    /// The ids of the favorites in this cache, for marking answers; empty (with a warning, once per change of the
    /// file) when the file cannot be read. Cached until the file or the cache changes: a search costs one `stat`
    /// of a file that has stood unchanged for a few seconds, and one read of it (a few microseconds for a small
    /// file) while it is younger, so that a change is seen by the next request whatever its timestamps say.
    package func ids(in snapshot: ServedCache.Snapshot) -> Set<Int> {
        var marked = Marked(key: Key(generation: snapshot.generation), ids: [])
        switch storage {
        case let .file(path, _):
            let identity = FileIdentity.of(path)
            if let identity, let kept = state.withLock({ $0.marked }), kept.isSettled, kept.identity == identity,
               kept.key.generation == snapshot.generation {
                return kept.ids
            }
            do {
                let file = try FavoritesFile.contents(path)
                marked.key.file = .bytes(file?.bytes)
                marked.identity = file.map { FileIdentity($0.status) }
            } catch {
                marked.key.file = .unreadable("\(error)")
            }
            // Settled when the file read is the one the path showed and its last change is well in the past; the
            // identity kept is the read file's, so that any later change (a new inode, a new change time) differs.
            let now = Syscalls.wallClockNanoseconds()
            marked.isSettled = marked.identity.map {
                $0 == identity && now - max($0.changed, $0.modified) > settledNanoseconds
            } ?? false
        case .memory:
            marked.key.memoryVersion = state.withLock { $0.memoryVersion }
        }
        if let kept = state.withLock({ $0.marked }), kept.key == marked.key {
            marked.ids = kept.ids
        } else {
            do {
                let list: FavoriteList
                switch (storage, marked.key.file) {
                case let (.file(path, _), .bytes(bytes)?): list = try FavoritesFile.list(bytes, path: path)
                case let (_, .unreadable(reason)?): throw Unreadable(description: reason)
                default: list = try currentList()
                }
                marked.ids = try FavoriteStore(list: list, index: snapshot.index).ids
            } catch {
                warn("\(error); favorites are not marked")
            }
        }
        // The key, the ids and the status stored together: a request that read an older file stores an older
        // status with them, which the next request's `stat` tells from the file's.
        state.withLock { [marked] in $0.marked = marked }
        return marked.ids
    }

    /// A favorites file that could not be read, by the words of its error.
    private struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    /// Drops the marks kept, so that the next request reads the file again whatever its status says (`serve` on
    /// SIGHUP).
    package func forgetMarks() {
        state.withLock { $0.marked = nil }
    }

    /// The favorites as they are now, resolved against this cache.
    package func store(in snapshot: ServedCache.Snapshot) throws -> FavoriteStore {
        try FavoritesSession.open(sessionStorage, index: snapshot.index, ifUnreadable: .fail).store
    }

    /// Runs `change` on a session of the favorites (`FavoritesSession`: for a file, each change read, applied and
    /// saved under the file's lock, the lock `favorites add` takes, so that no change of another process is lost;
    /// in memory, one change at a time). A file that cannot be read or understood is an error, never written.
    package func change<Value>(in snapshot: ServedCache.Snapshot,
                               _ change: (inout FavoritesSession) throws -> Value) throws -> Value {
        switch storage {
        case .file:
            var session = try FavoritesSession.open(sessionStorage, index: snapshot.index, ifUnreadable: .fail)
            return try change(&session)
        case .memory:
            return try state.withLock { state in
                var session = try FavoritesSession.open(.memory(state.memory), index: snapshot.index,
                                                        ifUnreadable: .fail)
                let value = try change(&session)
                let list = session.store.list
                if list != state.memory {
                    state.memory = list
                    state.memoryVersion += 1
                }
                return value
            }
        }
    }

    /// Where a session of these favorites keeps them.
    private var sessionStorage: FavoritesSession.Storage {
        switch storage {
        case let .file(path, isDefault): .file(path, createsFolder: isDefault)
        case .memory: .memory(state.withLock { $0.memory })
        }
    }

    private func currentList() throws -> FavoriteList {
        switch storage {
        case let .file(path, _): try FavoritesFile.read(path)
        case .memory: state.withLock { $0.memory }
        }
    }
}
