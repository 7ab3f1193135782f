import MovieSearchPlatform
import MovieSearchQuery
import Synchronization

/// The cache the server answers from, replaced when its file is: `reloadIfChanged()` (called a few times a second)
/// sees a new file at the path by its identity (device, inode, size, modification and change times), opens it,
/// checks every block of it, and swaps it in. A request takes a `Snapshot` and answers from it to the end, so
/// requests in flight finish on the old mapping (it is unmapped when the last of them lets go).
///
/// Replacing the file by renaming a new one into place (`index -o`, `cp new tmp && mv tmp live`) leaves the old
/// mapping intact. Writing over it in place (`cp new live`, `truncate`, a shell redirect) does not: the old bytes
/// are gone, and reading a page past a shortened file raises SIGBUS. So the server maps caches `guarded`
/// (`MappedFile`: the SIGBUS maps zero pages and marks the mapping damaged instead of ending the process), and
/// `isIntact(_:)` tells a request whether its snapshot's file is still the one that was checked: the mapping not
/// damaged, and the file (its open descriptor, which follows renames) of the same size and modification time. A
/// request checks once it has computed its answer (a write before as well), and answers 503 instead when the check
/// fails, so that no answer computed from bytes that changed underneath is sent. Cost: an atomic load and one
/// `fstat` per request (see ROBUSTNESS.md, "Replacing the cache safely").
///
/// A replacement is verified whole (`MovieIndex.verify()`: every block's checksum, besides the header, directory
/// and year table that opening checks) before it is swapped in. One that fails is refused and the old cache kept
/// (`health` says so); one that changes while it is checked is still being written, and is tried again at the
/// next call.
package final class ServedCache: Sendable {
    /// One cache as requests see it.
    package struct Snapshot: Sendable {
        /// The open cache.
        package let index: MovieIndex
        /// 0 for the cache opened at start, one more for each reload: keys what is derived from the cache.
        package let generation: Int
        /// The file's identity when it was checked, which it keeps while it is intact.
        let identity: FileIdentity
    }

    /// What a reload check did.
    package enum Reload: Sendable, Equatable {
        /// A new cache is served.
        case reloaded(movies: Int)
        /// The file changed but cannot be served: the old cache stays. One line.
        case failed(String)
        /// The served file was rewritten or cut short in place, and what is there now cannot be served (yet): requests
        /// get 503 until a complete cache is there. Reported once, when it starts. One line.
        case unavailable(String)
    }

    /// What `/healthz` reports.
    package enum Health: Sendable, Equatable {
        /// The served cache is intact, and no replacement was refused.
        case ok
        /// Still serving an intact cache, but the file now at the path cannot be served (why: one line).
        case degraded(String)
        /// The served file was changed in place and nothing intact can be served: every request gets 503 (why).
        case unavailable(String)
    }

    private struct State: Sendable {
        var snapshot: Snapshot
        /// A replacement that failed, not tried again until the path changes once more, and why.
        var refused: (identity: FileIdentity, reason: String)?
        /// Whether `.unavailable` was reported for the current snapshot.
        var reportedUnavailable = false
    }

    /// The cache's path, as given.
    package let path: FilePath
    private let state: Mutex<State>

    /// Opens the cache at `path` and checks it whole (a damaged block throws its `CacheError`, and the server does
    /// not start: better than serving 500s).
    package init(path: FilePath) throws {
        self.path = path
        let (index, identity) = try Self.open(path)
        state = Mutex(State(snapshot: Snapshot(index: index, generation: 0, identity: identity)))
    }

    /// Opens the cache at `path` guarded and checks every block; its identity once checked. Throws `CacheError`
    /// for a damaged file, and `Changing` when it changed while it was checked (it is being written).
    private static func open(_ path: FilePath) throws -> (MovieIndex, FileIdentity) {
        let index = try MovieIndex(path: path, guarded: true)
        let before = index.currentFileStatus().map(FileIdentity.init)
        try index.verify()
        let after = index.currentFileStatus().map(FileIdentity.init)
        guard let before, let after, after.hasSameBytes(as: before), !index.isDamaged else { throw Changing() }
        return (index, after)
    }

    /// A file that changed while it was checked.
    private struct Changing: Error, CustomStringConvertible {
        var description: String { "the file changed while it was checked (it is being written)" }
    }

    /// The cache to answer one request from.
    package func snapshot() -> Snapshot {
        state.withLock { $0.snapshot }
    }

    /// Whether `snapshot`'s file is still the one checked: its mapping not damaged by a truncation, and the file
    /// (followed by its descriptor, wherever it was renamed) of the same size and modification time
    /// (`FileIdentity.hasSameBytes`). An atomic load and one `fstat`.
    package func isIntact(_ snapshot: Snapshot) -> Bool {
        guard !snapshot.index.isDamaged, let status = snapshot.index.currentFileStatus() else { return false }
        return FileIdentity(status).hasSameBytes(as: snapshot.identity)
    }

    /// What `/healthz` reports now.
    package func health() -> Health {
        let (snapshot, refused) = state.withLock { ($0.snapshot, $0.refused) }
        if !isIntact(snapshot) {
            var reason = "the cache \(path) was changed in place (cp, truncate or a redirect over it) and no "
                + "complete cache is there yet"
            if let refused { reason += ": \(refused.reason)" }
            return .unavailable(reason)
        }
        if let refused {
            return .degraded("the new cache at \(path) cannot be served, still serving the previous one: "
                + refused.reason)
        }
        return .ok
    }

    /// Opens, checks and swaps in the file at `path` if it is not the one served; nil when nothing changed (or the
    /// path is gone for now: `index` renames a new file into place, so a missing path is a moment between two
    /// files; or the file is still being written).
    package func reloadIfChanged() -> Reload? {
        guard let identity = FileIdentity.of(path) else { return nil }
        let (current, refused) = state.withLock { ($0.snapshot, $0.refused) }
        guard identity != current.identity, identity != refused?.identity else { return nil }
        do {
            let (index, checked) = try Self.open(path)
            state.withLock {
                $0.snapshot = Snapshot(index: index, generation: current.generation + 1, identity: checked)
                $0.refused = nil
                $0.reportedUnavailable = false
            }
            return .reloaded(movies: index.movieCount)
        } catch is Changing {
            return nil  // being written: looked at again at the next call
        } catch {
            let reason = "\(error)"
            let intact = isIntact(current)
            let report = state.withLock { state -> Bool in
                state.refused = (identity, reason)
                guard !intact else { return true }
                defer { state.reportedUnavailable = true }
                return !state.reportedUnavailable
            }
            if intact { return .failed(reason) }
            return report ? .unavailable(reason) : nil
        }
    }
}
