import Dispatch
import MovieSearchCatalog
import MovieSearchPhotos
import MovieSearchPlatform
import Synchronization

/// `browse`'s photos: a movie's saved or cached answer at once, else `.fetching` while Flickr is asked on another
/// thread, which writes a byte to a wake pipe when the answer is in (`TerminalSession.wakeDescriptor`), so that the
/// details page shows it without waiting for a key, and a key is never delayed by a fetch.
final class BrowsePhotoFetches: Sendable {
    private let source: FlickrPhotoSource
    private let wakeWriteDescriptor: Int32
    /// Answers come in but not yet shown, and the movies being fetched.
    private let state = Mutex<(done: [Int: SavedPhotos], running: Set<Int>)>(([:], []))

    /// Fetches through `source`, waking the session through `wakeWriteDescriptor` (a non-blocking pipe's write end).
    init(source: FlickrPhotoSource, wakeWriteDescriptor: Int32) {
        self.source = source
        self.wakeWriteDescriptor = wakeWriteDescriptor
    }

    /// What `movie`'s details page shows now: saved, cached (a stale answer too, while a new one is asked for), or
    /// `.fetching` with a fetch started; `.none` when Flickr is not asked (no key, `--offline`).
    func photos(of movie: Movie) -> SavedPhotos {
        let answer: FlickrPhotoSource.Answer
        do {
            answer = try source.photos(movieID: movie.id, title: movie.title, fetching: false)
        } catch {
            // The photos line says "cannot read " itself: "cannot read 745.json: it is a FIFO …".
            let prefix = "cannot read the saved Flickr answer "
            let reason = error.description
            return .unreadable(reason.hasPrefix(prefix) ? String(reason.dropFirst(prefix.count)) : reason)
        }
        switch answer.origin {
        case .saved, .cached, .fetched:
            return .urls(answer.list?.urls ?? [])
        case .stale, .none:
            guard source.asksFlickr else { return answer.list.map { .urls($0.urls) } ?? .none }
            start(movie)
            return answer.list.map { .urls($0.urls) } ?? .fetching
        }
    }

    /// The answers that came in since the last call, by movie id.
    func takeFinished() -> [Int: SavedPhotos] {
        state.withLock { state in
            defer { state.done = [:] }
            return state.done
        }
    }

    private func start(_ movie: Movie) {
        let isNew = state.withLock { $0.running.insert(movie.id).inserted }
        guard isNew else { return }
        let (id, title) = (movie.id, movie.title)
        DispatchQueue.global().async { [self] in
            let shown: SavedPhotos
            do {
                shown = .urls(try source.photos(movieID: id, title: title).list?.urls ?? [])
            } catch {
                shown = .failed(String(describing: error))
            }
            state.withLock { state in
                state.running.remove(id)
                state.done[id] = shown
            }
            let byte: [UInt8] = [1]
            _ = byte.withUnsafeBytes { Syscalls.writeAll(wakeWriteDescriptor, $0) }
        }
    }
}
