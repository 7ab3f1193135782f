import MovieSearchOutput
import MovieSearchQuery
import Synchronization

/// The JSON of the movies answers list, rendered once per movie and kept for the next answer that lists it
/// (`AnswerJSON.RenderedMovie`): a one-letter query lists 500 movies, and rendering them anew for every keystroke
/// was nine tenths of a search's time. The bytes are the same the CLI writes (`MovieJSON.leadingMembers`).
///
/// Bounded: past `byteBudget` bytes of renderings it starts again empty (the catalogs it serves are small enough
/// that this does not happen, and a large one's answers still come, at the cost of rendering). Emptied when the
/// cache is replaced. Looked up once per answer, for all its movies, so that the lock is taken twice per answer,
/// not twice per movie.
package final class RenderedMovies: Sendable {
    private struct State: Sendable {
        var generation = 0
        /// By id, for a catalog of up to `slotLimit` movies (a load, no hashing); empty above.
        var slots: [AnswerJSON.RenderedMovie?] = []
        /// By id, for a larger catalog.
        var movies: [Int: AnswerJSON.RenderedMovie] = [:]
        var bytes = 0

        init(generation: Int = 0, movieCount: Int = 0) {
            self.generation = generation
            if movieCount <= slotLimit { slots = Array(repeating: nil, count: movieCount) }
        }

        subscript(id: Int) -> AnswerJSON.RenderedMovie? {
            get { slots.isEmpty ? movies[id] : slots.indices.contains(id) ? slots[id] : nil }
            set {
                if slots.isEmpty { movies[id] = newValue } else if slots.indices.contains(id) { slots[id] = newValue }
            }
        }

        mutating func removeAll() {
            if slots.isEmpty { movies.removeAll() } else { slots = Array(repeating: nil, count: slots.count) }
            bytes = 0
        }
    }

    /// Up to this many movies, renderings are kept in an array by id (8 bytes a movie, 16 MiB at most).
    private static let slotLimit = 1 << 21

    /// The most bytes of renderings kept.
    package let byteBudget: Int
    private let state = Mutex(State())

    /// An empty store that keeps up to `byteBudget` bytes.
    package init(byteBudget: Int = 64 << 20) {
        self.byteBudget = byteBudget
    }

    /// The renderings of `ids` in this cache, in their order: those kept, and the others rendered now and kept.
    package func renderings(of ids: [Int], in snapshot: ServedCache.Snapshot) throws -> [AnswerJSON.RenderedMovie] {
        var found: [AnswerJSON.RenderedMovie?] = []
        found.reserveCapacity(ids.count)
        var missing = 0
        state.withLock { state in
            if state.generation != snapshot.generation || (state.slots.isEmpty && state.movies.isEmpty) {
                state = State(generation: snapshot.generation, movieCount: snapshot.index.movieCount)
            }
            for id in ids {
                let movie = state[id]
                if movie == nil { missing += 1 }
                found.append(movie)
            }
        }
        guard missing > 0 else { return found.compactMap { $0 } }
        var rendered: [AnswerJSON.RenderedMovie] = []
        rendered.reserveCapacity(missing)
        for (slot, id) in ids.enumerated() where found[slot] == nil {
            let movie = AnswerJSON.RenderedMovie(try snapshot.index.movie(id: id), scales: snapshot.index.ratingScales,
                                                 posterSize: PosterSize.defaultSize)
            rendered.append(movie)
            found[slot] = movie
        }
        state.withLock { state in
            guard state.generation == snapshot.generation else { return }
            for movie in rendered {
                if state.bytes + movie.byteCount > byteBudget { state.removeAll() }
                if state[movie.id] == nil { state.bytes += movie.byteCount }
                state[movie.id] = movie
            }
        }
        return found.compactMap { $0 }
    }
}
