import MovieSearchCatalog
@_spi(Engine) import MovieSearchIndex
import MovieSearchQuery

/// The favorites resolved against an open cache: which movies of this cache they are, which are missing from it
/// and why, and how to change them. What every list of the command line and of `browse` asks ("is this a
/// favorite?"), and what they save (`list`).
///
///     var store = try FavoriteStore(list: FavoritesFile.read(path: path), index: index)
///     store.isFavorite(745)                        // true: ♥
///     let nowFavorite = store.toggle(movie)        // the new state
///     try FavoritesFile.write(store.list, to: path, creatingFolder: true)
///
/// An entry of the file is resolved to a movie of the cache in this order:
/// 1. The movie at the entry's id, when it is the entry's movie (`Favorite.names`: the same IMDb id, else the same
///    TMDb id, when both sides have one; else the same title and year): the usual case.
/// 2. Else the cache was rebuilt from a changed catalog and ids moved (a new IMDb dump shifts every one). The
///    movie is found again by the entry's IMDb id, else by its TMDb id, else by its title (byte for byte as it was
///    saved from the catalog) and year, and by those only when exactly one movie of the cache has them (and no id
///    of that movie contradicts the entry's): IMDb has many titles alike in one year ("Episode #1.1"), and a
///    favorite must never silently become another movie. A movie already taken by another entry is not taken
///    twice.
/// 3. Else the entry is `missing`, with the reason (`Missing.reason`). It stays in `list`, so that saving never
///    drops it (a later catalog may hold the movie again), and it marks no movie.
///
/// Entries keep the order they were added; an entry equal to an earlier one is dropped. `list` holds the
/// resolved entries as the movies of this cache now are (id, title, year, external ids: an old entry without ids
/// gains them) and the missing ones as they were.
///
/// Costs: `init` reads the year and external ids of each entry's movie by id, and its title when they leave it to
/// the title (O(n) for n entries); when some entry's movie moved or is gone, one pass over the cache's columns finds
/// them all at once (O(N) in the cache's movies, whatever n is): ids compared as numbers, titles by the digest of
/// their bytes and decoded only when a digest and a year match an entry's. `isFavorite` is O(1); `toggle`, `add`
/// and `remove` are O(n).
public struct FavoriteStore: Equatable, Sendable {
    /// A favorite this cache does not hold, and why it is not found.
    public struct Missing: Equatable, Sendable {
        /// The entry as the file has it.
        public var favorite: Favorite
        /// Why no movie of the cache is it, one phrase a list can print: "no movie has IMDb id tt0000001",
        /// "3 movies of 2001 are titled so".
        public var reason: String
    }

    /// One entry of the file and the movie of this cache it is, if any.
    private struct Entry: Equatable, Sendable {
        var favorite: Favorite
        /// The id in this cache, or `nil` when the movie is missing from it.
        var resolvedID: Int?
        /// Why it is missing, when it is.
        var missingReason: String?
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
        entries.reserveCapacity(list.entries.count)
        seen.reserveCapacity(list.entries.count)
        ids.reserveCapacity(list.entries.count)
        for favorite in list.entries where seen.insert(favorite).inserted {
            entries.append(Entry(favorite: favorite, resolvedID: nil, missingReason: nil))
        }
        // Pass 1: every entry whose id still holds its movie, so that a moved entry never takes a movie that an
        // unmoved one names.
        let years = try index.yearTable()
        for position in entries.indices {
            let favorite = entries[position].favorite
            guard let (identity, slot) = try index.identity(id: favorite.id, years: years),
                  try Self.isMovieAtItsID(favorite, identity, title: { () throws(CacheError) in
                      try index.title(slot: slot)
                  }), ids.insert(identity.id).inserted
            else { continue }
            entries[position].resolvedID = identity.id
            // Decided by its title, the entry has the movie's title already; by an id, the title is read anew.
            let now = Self.favorite(identity, title: favorite.title)
            entries[position].favorite = now.imdbID == nil && now.tmdbID == nil ? now
                : Self.favorite(identity, title: try index.title(slot: slot))
        }
        // Pass 2: the others, all in one pass over the cache.
        let unresolved = entries.indices.filter { entries[$0].resolvedID == nil }
        if !unresolved.isEmpty {
            let (candidates, titled) = try Self.candidates(of: unresolved.map { entries[$0].favorite }, in: index)
            for (number, position) in unresolved.enumerated() {
                switch candidates[number].choice(for: entries[position].favorite, excluding: ids) {
                case let .movie(id):
                    ids.insert(id)
                    entries[position].resolvedID = id
                    // Saved as the movie now is: its title as the pass read it, else read now (found by an id).
                    if let (identity, title) = titled[id] {
                        entries[position].favorite = Self.favorite(identity, title: title)
                    } else if let (identity, slot) = try index.identity(id: id, years: years) {
                        entries[position].favorite = Self.favorite(identity, title: try index.title(slot: slot))
                    }
                case let .missing(reason):
                    entries[position].missingReason = reason
                }
            }
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

    /// The favorites whose movie this cache does not hold, in the order they were added. They stay in `list`.
    public var missing: [Favorite] {
        entries.compactMap { $0.resolvedID == nil ? $0.favorite : nil }
    }

    /// `missing` with the reason each is not found.
    public var missingWithReasons: [Missing] {
        entries.compactMap { entry in
            entry.resolvedID == nil ? Missing(favorite: entry.favorite, reason: entry.missingReason ?? "not found")
                : nil
        }
    }

    /// What to save: every entry in the order added, resolved ones as the movies of this cache are, missing ones
    /// as the file had them.
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
        entries.append(Entry(favorite: Favorite(movie), resolvedID: movie.id, missingReason: nil))
        return true
    }

    /// Removes the favorite that is the movie of this cache with this id. Returns the entry removed, `nil` when
    /// that movie is no favorite. A missing entry saved with the same id is never removed by it: that id now
    /// names another movie, or none (`removeMissing()` drops missing entries on purpose).
    @discardableResult
    public mutating func remove(id: Int) -> Favorite? {
        guard let position = entries.firstIndex(where: { $0.resolvedID == id }) else { return nil }
        ids.remove(id)
        return entries.remove(at: position).favorite
    }

    /// Removes every missing entry; returns them, in the order they were added.
    @discardableResult
    public mutating func removeMissing() -> [Favorite] {
        let removed = missing
        entries.removeAll { $0.resolvedID == nil }
        return removed
    }

    // MARK: Resolving

    /// Whether the movie of `identity`, titled `title`, at the id `favorite` was saved with, is `favorite`'s movie:
    /// an external id both have decides; else the same title and year, for a favorite without external ids (an
    /// old file, a catalog without them). A favorite with an id of its own that this movie lacks is looked for by
    /// that id instead (pass 2): in a catalog of many alike titles, its old id may hold another "Episode #1.1".
    private static func isMovieAtItsID(_ favorite: Favorite, _ identity: MovieIdentity,
                                       title: () throws(CacheError) -> String) throws(CacheError) -> Bool {
        // The movie's IMDb id is made a string only for a favorite that has ids to compare it with.
        if favorite.imdbID != nil || favorite.tmdbID != nil {
            return favorite.sameByExternalID(imdbID: identity.imdbID, tmdbID: identity.tmdbID) ?? false
        }
        guard identity.year == favorite.year else { return false }
        return try title() == favorite.title
    }

    /// The favorite of the movie of `identity`, titled `title`, as it is in this cache.
    private static func favorite(_ identity: MovieIdentity, title: String) -> Favorite {
        Favorite(id: identity.id, title: title, year: identity.year, imdbID: identity.imdbID,
                 tmdbID: identity.tmdbID)
    }

    /// The movies of the cache that could be each favorite's, in one pass over the cache, and the identity and
    /// title of each movie the pass found by its title (decoded then, so not again to save the favorite).
    ///
    /// Thousands of moved favorites cost no allocation each: the favorites of one title and year are chained
    /// through `nextOfTitle` from the first in `firstOfTitle`, and a favorite's matches are counted, only a second
    /// match and later ones kept in an array.
    private static func candidates(of favorites: [Favorite], in index: MovieIndex) throws
        -> (candidates: [Candidates], titled: [Int: (MovieIdentity, String)])
    {
        var found = [Candidates](repeating: Candidates(), count: favorites.count)
        var titled: [Int: (MovieIdentity, String)] = [:]
        titled.reserveCapacity(favorites.count)
        var byIMDbNumber: [UInt32: [Int]] = [:], byIMDbText: [String: [Int]] = [:], byTMDb: [Int: [Int]] = [:]
        // Titles by the digest of their bytes and their year: a movie's title is decoded only when both match.
        var firstOfTitle: [TitleKey: Int] = [:]
        firstOfTitle.reserveCapacity(favorites.count)
        var nextOfTitle = [Int](repeating: -1, count: favorites.count)
        // The order of the favorites of one key makes no difference: each gets its matches in the cache's order.
        for (position, favorite) in favorites.enumerated() {
            if let imdbID = favorite.imdbID {
                if let number = CacheFormat.imdbNumber(imdbID) {
                    byIMDbNumber[number, default: []].append(position)
                } else {
                    byIMDbText[imdbID, default: []].append(position)
                }
            }
            if let tmdbID = favorite.tmdbID { byTMDb[tmdbID, default: []].append(position) }
            let key = TitleKey(digest: FNV1a.digest(of: favorite.title.utf8), year: favorite.year)
            nextOfTitle[position] = firstOfTitle[key] ?? -1
            firstOfTitle[key] = position
        }
        try index.forEachIdentity(withTitleDigests: true) { identity, digest, title in
            if let number = identity.imdbNumber, let positions = byIMDbNumber[number] {
                for position in positions { found[position].byIMDb.add(identity.id) }
            }
            if let text = identity.imdbText, let positions = byIMDbText[text] {
                for position in positions { found[position].byIMDb.add(identity.id) }
            }
            if let tmdbID = identity.tmdbID, let positions = byTMDb[tmdbID] {
                for position in positions { found[position].byTMDb.add(identity.id) }
            }
            guard let digest, var position = firstOfTitle[TitleKey(digest: digest, year: identity.year)] else {
                return
            }
            let title = try title()
            while position >= 0 {
                if favorites[position].title == title {
                    titled[identity.id] = (identity, title)
                    let favorite = favorites[position]
                    let hasIDs = favorite.imdbID != nil || favorite.tmdbID != nil
                    if hasIDs, favorite.sameByExternalID(imdbID: identity.imdbID, tmdbID: identity.tmdbID) == false {
                        found[position].otherIDsByTitle += 1
                    } else {
                        found[position].byTitle.add(identity.id)
                    }
                }
                position = nextOfTitle[position]
            }
        }
        return (found, titled)
    }

    /// A title's digest and a year: what a pass over the cache looks titles up by.
    private struct TitleKey: Hashable {
        var digest: UInt64
        var year: Int
    }

    /// Movie ids in the order a pass finds them: the first held apart, so that the usual one costs no array.
    private struct Matches {
        private(set) var first: Int?
        private var rest: [Int] = []

        var count: Int { first == nil ? 0 : 1 + rest.count }
        var all: [Int] { first.map { [$0] + rest } ?? [] }

        mutating func add(_ id: Int) {
            if first == nil { first = id } else { rest.append(id) }
        }

        /// The first not in `taken`.
        func first(notIn taken: Set<Int>) -> Int? {
            guard let first else { return nil }
            return taken.contains(first) ? rest.first { !taken.contains($0) } : first
        }
    }

    /// The movies that could be one favorite's: by its IMDb id, its TMDb id, and its title and year.
    private struct Candidates {
        var byIMDb = Matches()
        var byTMDb = Matches()
        var byTitle = Matches()
        /// How many movies have its title and year but an IMDb or TMDb id that is not its.
        var otherIDsByTitle = 0

        enum Choice { case movie(Int), missing(String) }

        /// The movie `favorite` is, unless `taken` (by an earlier entry); else why it is missing.
        func choice(for favorite: Favorite, excluding taken: Set<Int>) -> Choice {
            if let first = byIMDb.first {
                return byIMDb.first(notIn: taken).map(Choice.movie)
                    ?? .missing("the movie with its IMDb id, id \(first), is another favorite")
            }
            if let first = byTMDb.first {
                return byTMDb.first(notIn: taken).map(Choice.movie)
                    ?? .missing("the movie with its TMDb id, id \(first), is another favorite")
            }
            switch byTitle.count {
            case 1:
                let id = byTitle.first!
                return taken.contains(id)
                    ? .missing("the one movie of \(favorite.year) titled so, id \(id), is another favorite")
                    : .movie(id)
            case 0:
                var ids: [String] = []
                if let imdbID = favorite.imdbID { ids.append("IMDb id \(imdbID)") }
                if let tmdbID = favorite.tmdbID { ids.append("TMDb id \(tmdbID)") }
                guard !ids.isEmpty else { return .missing("no movie of \(favorite.year) is titled so") }
                let others = otherIDsByTitle == 0 ? "" : "; "
                    + (otherIDsByTitle == 1 ? "the movie" : "the \(otherIDsByTitle) movies")
                    + " of \(favorite.year) titled so \(otherIDsByTitle == 1 ? "has" : "have") other ids"
                return .missing("no movie has \(ids.joined(separator: " or "))\(others)")
            default:
                let ids = byTitle.all
                return .missing("\(ids.count) movies of \(favorite.year) are titled so (ids "
                    + "\(ids.prefix(3).map(String.init).joined(separator: ", "))\(ids.count > 3 ? ", …" : "")"
                    + "), and no IMDb or TMDb id tells which")
            }
        }
    }
}
