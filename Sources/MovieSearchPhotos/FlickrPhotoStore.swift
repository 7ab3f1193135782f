import MovieSearchLRU

/// The photo lists of saved Flickr responses, per movie title: each response is loaded and parsed once, then
/// kept in an LRU cache, so opening the same movie again neither re-reads nor re-parses it.
///
///     let store = FlickrPhotoStore(capacity: 16) { title in
///         let path = "responses/\(fileName(for: title)).json"
///         return (bytes: try readFile(path), source: path)
///     }
///     let list = try store.photos(forTitle: movie.title)    // loads and parses
///     let again = try store.photos(forTitle: movie.title)   // from the cache
///
/// The store is `Sendable`: threads share it, and `load` may run on any of them. Two threads opening the same
/// uncached title at once may both load it (see ``SynchronizedLRUCache/value(forKey:orInsert:)``); a loader
/// is expected to be a read, which is safe to repeat.
///
/// Titles are compared as Swift strings (canonical equivalence): `"Amélie"` precomposed and decomposed share
/// one entry, as they are the same title on screen.
///
/// Costs: `photos(forTitle:)` is O(1) for a cached title, plus hashing the title; a miss adds the loader and
/// O(n) parsing of the response. Memory is bounded by `capacity` photo lists.
public final class FlickrPhotoStore: Sendable {
    /// Reads the saved response for a title: its bytes, and a name for them in errors (a path, say). It throws
    /// when there is no response to read; the error reaches the caller of `photos(forTitle:)` unchanged.
    public typealias Loader = @Sendable (_ title: String) throws -> (bytes: [UInt8], source: String)

    private let cache: SynchronizedLRUCache<String, PhotoList>
    private let load: Loader

    /// Creates an empty store.
    ///
    ///     let store = FlickrPhotoStore(capacity: 16, timeToLive: 300) { title in try savedResponse(title) }
    ///
    /// - Parameters:
    ///   - capacity: How many titles' photo lists to keep (0 keeps none, so every call loads). Defaults to 5.
    ///   - timeToLive: Seconds a list stays cached before its response is read again, for responses that can be
    ///     replaced on disk; `nil` (the default) keeps a list until it is evicted.
    ///   - load: Reads the saved response of a title.
    ///
    /// Cost: O(1).
    public init(capacity: Int = 5, timeToLive: Double? = nil, load: @escaping Loader) {
        cache = SynchronizedLRUCache(capacity: capacity, timeToLive: timeToLive)
        self.load = load
    }

    /// Creates an empty store whose cache reads time from `clock` (seconds, never going backwards).
    ///
    ///     let store = FlickrPhotoStore(capacity: 4, timeToLive: 60, clock: { testNow }, load: loader)
    ///
    /// Cost: O(1).
    public init(
        capacity: Int, timeToLive: Double?, clock: @escaping @Sendable () -> Double, load: @escaping Loader
    ) {
        cache = SynchronizedLRUCache(capacity: capacity, timeToLive: timeToLive, clock: clock)
        self.load = load
    }

    /// The photo list of `title`'s saved response: from the cache, or loaded, parsed and cached.
    ///
    ///     let list = try store.photos(forTitle: "Heat")
    ///
    /// A failure (the loader's error, or a `FlickrError` from parsing) is not cached: the next call tries again,
    /// so a response saved or fixed later is picked up.
    ///
    /// Cost: O(1) for a cached title; otherwise the loader plus O(n) in the response's size.
    public func photos(forTitle title: String) throws -> PhotoList {
        try cache.value(forKey: title) {
            let response = try load(title)
            return try FlickrPhotos.photos(fromResponse: response.bytes, source: response.source)
        }
    }

    /// Whether `title`'s photo list is cached and not expired, without loading it or changing recency.
    ///
    ///     if !store.isCached("Heat") { showSpinner() }
    ///
    /// Cost: O(1).
    public func isCached(_ title: String) -> Bool {
        cache.isValid(title)
    }

    /// Forgets `title`'s photo list, so that the next `photos(forTitle:)` reads its response again.
    ///
    ///     store.forget("Heat")    // its response file was replaced
    ///
    /// Cost: O(1).
    public func forget(_ title: String) {
        cache.remove(title)
    }
}
