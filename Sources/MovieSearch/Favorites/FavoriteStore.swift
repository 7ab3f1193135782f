/// The favorites resolved against an open cache: which movies of this cache they are, which are missing from it,
/// and how to change them. What every list of the command line and of `browse` asks ("is this a favorite?"), and
/// what they save (`list`).
///
///     var store = try FavoriteStore(list: FavoritesFile.read(path: path), index: index)
///     store.isFavorite(745)                        // true: ♥
///     let nowFavorite = store.toggle(movie)        // the new state
///     try FavoritesFile.write(store.list, to: path, creatingFolder: true)
///
/// An entry of the file is resolved to a movie of the cache in this order:
/// 1. The movie at the entry's id, when it has the entry's title and year (`Favorite.names`): the usual case.
/// 2. Else, the cache was rebuilt from a changed catalog and ids moved: the movie found again by a search for the
///    title (exact mode), in the entry's year, with exactly that title; the first such movie not already taken by
///    another entry, among the best `candidateLimit` matches of that year.
/// 3. Else the movie is no longer in the catalog: the entry is `missing`. It stays in `list`, so that saving
///    never drops it (a later catalog may hold the movie again), and it marks no movie.
///
/// Entries keep the order they were added; an entry equal to an earlier one is dropped, and two entries never
/// resolve to the same movie (the later one is looked for again, or missing).
/// `list` holds the resolved entries with their current ids and the missing ones as they were.
///
/// Costs: `init` is O(n) look-ups by id for n entries, plus, for each entry whose id moved, one search and at
/// most `candidateLimit` look-ups; `isFavorite` is O(1); `toggle`, `add` and `remove` are O(n).
public struct FavoriteStore: Equatable, Sendable {
    /// The most matches of an entry's year that are compared with its title when it is looked for again: a short
    /// or common title ("Love") can match thousands of movies of a year, and opening a cache must stay fast.
    /// An entry whose movie ranks below that many same-year matches of its title's words is reported missing.
    public static let candidateLimit = 1_000

    /// One entry of the file and the movie of this cache it is, if any.
    private struct Entry: Equatable, Sendable {
        var favorite: Favorite
        /// The id in this cache, or `nil` when the movie is missing from it.
        var resolvedID: Int?
    }

    private var entries: [Entry]
    /// The ids of the resolved entries.
    public private(set) var ids: Set<Int>

    /// The store of `list`'s entries, resolved against `index` (see the type's discussion).
    ///
    /// - Throws: `CacheError` when a part of the cache it reads is damaged (a missing id is not an error: the
    ///   entry is looked for again, or missing).
    public init(list: FavoriteList, index: MovieIndex) throws {
        var entries: [Entry] = []
        var ids: Set<Int> = []
        var seen: Set<Favorite> = []
        for favorite in list.entries where seen.insert(favorite).inserted {
            entries.append(Entry(favorite: favorite, resolvedID: nil))
        }
        // Pass 1: every entry whose id still holds its movie, so that a moved entry never takes a movie that an
        // unmoved one names.
        for position in entries.indices {
            let favorite = entries[position].favorite
            guard let movie = try Self.movie(id: favorite.id, in: index), favorite.names(movie),
                  ids.insert(movie.id).inserted else { continue }
            entries[position].resolvedID = movie.id
        }
        // Pass 2: the others, by title and year.
        for position in entries.indices where entries[position].resolvedID == nil {
            let favorite = entries[position].favorite
            guard let id = try Self.find(favorite, in: index, excluding: ids) else { continue }
            ids.insert(id)
            entries[position].resolvedID = id
            entries[position].favorite.id = id
        }
        self.entries = entries
        self.ids = ids
    }

    /// Whether the movie with this id (of the cache the store was resolved against) is a favorite.
    public func isFavorite(_ id: Int) -> Bool {
        ids.contains(id)
    }

    /// The favorites that are movies of this cache, with their ids in it, in the order they were added.
    public var favorites: [Favorite] {
        entries.compactMap { $0.resolvedID == nil ? nil : $0.favorite }
    }

    /// The favorites whose movie this cache does not hold (by id, title and year), in the order they were added.
    /// They stay in `list`.
    public var missing: [Favorite] {
        entries.compactMap { $0.resolvedID == nil ? $0.favorite : nil }
    }

    /// What to save: every entry in the order added, resolved ones with their ids in this cache, missing ones as
    /// the file had them.
    public var list: FavoriteList {
        FavoriteList(entries: entries.map(\.favorite))
    }

    /// Makes `movie` a favorite if it was not, or not one if it was; returns the new state (`true`: a favorite).
    @discardableResult
    public mutating func toggle(_ movie: Movie) -> Bool {
        if isFavorite(movie.id) {
            remove(id: movie.id)
            return false
        }
        add(movie)
        return true
    }

    /// Makes `movie` a favorite, added at the end; returns whether it changed anything (`false`: it was one).
    @discardableResult
    public mutating func add(_ movie: Movie) -> Bool {
        guard ids.insert(movie.id).inserted else { return false }
        entries.append(Entry(favorite: Favorite(movie), resolvedID: movie.id))
        return true
    }

    /// Removes the favorite with this id: the movie of this cache with it, else a missing entry saved with that
    /// id (so that `favorites remove` can clear one). Returns the entry removed, `nil` when there was none.
    @discardableResult
    public mutating func remove(id: Int) -> Favorite? {
        if let position = entries.firstIndex(where: { $0.resolvedID == id }) {
            ids.remove(id)
            return entries.remove(at: position).favorite
        }
        guard let position = entries.firstIndex(where: { $0.resolvedID == nil && $0.favorite.id == id }) else {
            return nil
        }
        return entries.remove(at: position).favorite
    }

    // MARK: Resolving

    /// The movie at `id`, or `nil` when the cache has no movie with that id.
    private static func movie(id: Int, in index: MovieIndex) throws -> Movie? {
        do {
            return try index.movie(id: id)
        } catch let error as CacheError {
            if case .noSuchMovie = error { return nil }
            throw error
        }
    }

    /// The id of the first movie of `favorite`'s year titled exactly `favorite.title`, not in `taken`, among the
    /// best `candidateLimit` exact matches of the title's words in that year.
    private static func find(_ favorite: Favorite, in index: MovieIndex, excluding taken: Set<Int>) throws -> Int? {
        let result = try index.search(favorite.title, perYear: candidateLimit, typos: .off)
        guard let year = result.years.first(where: { $0.year == favorite.year }) else { return nil }
        for id in year.movieIDs where !taken.contains(id) {
            if favorite.names(try index.movie(id: id)) { return id }
        }
        return nil
    }
}
