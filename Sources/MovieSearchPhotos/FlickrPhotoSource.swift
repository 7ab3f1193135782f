import MovieSearchPlatform

/// The one reader of Flickr answers, for `serve`, `photos` and `browse`: a movie's photo list from its saved answer
/// (`--photos-dir`), else from the cache (memory, then disk), else fetched from Flickr and cached.
///
///     let source = FlickrPhotoSource(settings: settings, fetcher: ProgramFetcher(program: path))
///     let answer = try source.photos(movieID: 7, title: "Heat")
///     answer.list?.urls    // nil: no key (or --offline) and nothing cached
///
/// The rules (COMMANDS.md, "Photos from Flickr"):
/// - A saved `<id>.json` in the saved folder comes first, as it is (a regular file only, opened without waiting).
/// - An answer belongs to its title: cached by title in memory (an LRU of `memoryCapacity` titles) and on disk
///   (`FlickrAnswerCache`), fresh for `freshSeconds` (7 days), then asked again; a stale answer is served when
///   Flickr cannot be reached, is too slow, or the hourly limit is used up.
/// - Only with a key and not offline is Flickr asked. Threads asking for one title at once make one request
///   (the others wait for its answer); at most `maximumInFlight` requests run at once (a caller waits for a turn
///   at most the request's own time limit); at most `callsPerHour` requests are made in any hour.
/// - Nothing failed is cached: a refusal, an error, garbage are asked again next time.
///
/// `Sendable`: one source serves every thread of a server.
package final class FlickrPhotoSource: Sendable {
    /// Where answers come from, and the limits.
    package struct Settings: Sendable {
        /// The API key; `nil`: Flickr is never asked.
        package var apiKey: String?
        /// Where requests go (`--flickr-endpoint`).
        package var endpoint = FlickrPhotos.defaultEndpoint
        /// Never ask Flickr (`--offline`): saved and cached answers only.
        package var offline = false
        /// The folder of saved answers, `<id>.json` each (`--photos-dir`).
        package var savedFolder: FilePath?
        /// The disk cache's folder; `nil`: memory only.
        package var cacheFolder: FilePath?
        /// How long an answer is fresh: 7 days.
        package var freshSeconds: Double = 7 * 24 * 3600
        /// How many titles' answers memory keeps.
        package var memoryCapacity = 512
        /// How many requests may run at once.
        package var maximumInFlight = 4
        /// How many requests may be made in any hour: Flickr's limit per key.
        package var callsPerHour = 3600
        /// The request's limits: 3 s to connect, 10 s in all, 1 MiB.
        package var limits = FetchLimits.flickr

        /// Settings with this key and the defaults.
        package init(apiKey: String?) {
            self.apiKey = apiKey
        }
    }

    /// A photo list and where it came from.
    package struct Answer: Sendable, Equatable {
        /// Where an answer came from.
        package enum Origin: String, Sendable {
            /// `--photos-dir`.
            case saved
            /// The cache, fresh.
            case cached
            /// Flickr, just now.
            case fetched
            /// The cache, past its 7 days, as Flickr could not give a new one (or was not asked: offline, no key).
            case stale
            /// Nowhere: no key or offline, and nothing cached.
            case none
        }

        /// The photos; `nil` for `.none`.
        package var list: PhotoList?
        package var origin: Origin
        /// What went wrong on the side, for a warning: the disk cache could not be written, or why a stale answer
        /// was served.
        package var note: String?
    }

    package let settings: Settings
    /// The fetcher and cache shared with TMDb's posters: coalescing, turns, the hourly limit, memory and disk.
    private let answers: CachedFetcher<PhotoList>

    /// A source with these settings, asking through `fetcher` (`nil`: never asks), its time from `clock` (seconds
    /// since 1970; the wall clock unless a test gives another).
    package init(settings: Settings, fetcher: (any HTTPFetching)?,
                 clock: @escaping @Sendable () -> Double = {
                     Double(Syscalls.wallClockNanoseconds()) / 1_000_000_000 })
    {
        self.settings = settings
        var shared = CachedFetcher<PhotoList>.Settings(
            service: "Flickr", cacheFolder: settings.cacheFolder, folderName: "flickr",
            rateLimit: .init(calls: settings.callsPerHour, seconds: 3600, waits: false), limits: settings.limits)
        shared.what = "photos"
        shared.memoryCapacity = settings.memoryCapacity
        shared.maximumInFlight = settings.maximumInFlight
        answers = CachedFetcher(settings: shared, fetcher: fetcher,
                                decode: { try? FlickrPhotos.decodePhotos($0, source: "cache") }, clock: clock)
    }

    /// Whether this source may ask Flickr: a key, a fetcher, and not offline.
    package var asksFlickr: Bool { settings.apiKey != nil && answers.canFetch && !settings.offline }

    /// The photos.search request for `title`, as printed (with the key, or the placeholder without one).
    package func request(title: String) -> String {
        FlickrPhotos.searchURL(title: title, apiKey: settings.apiKey ?? FlickrPhotos.placeholderAPIKey,
                               endpoint: settings.endpoint)
    }

    /// The photos of movie `movieID`, titled `title`: saved, cached or fetched (see the type's rules).
    /// `refresh` skips the cache and asks Flickr (`photos --refresh`); its failure is then an error, never the
    /// stale answer. `fetching: false` never asks (as offline): `browse` asks in the background instead.
    ///
    /// Cost: O(1) plus hashing the title when cached in memory; a file read when cached on disk; a request
    /// (at most the limits' total time, plus a wait for a turn as long) when fetched.
    package func photos(movieID: Int, title: String, refresh: Bool = false, fetching: Bool = true)
        throws(PhotoSourceError) -> Answer
    {
        if let saved = try savedPhotos(movieID: movieID) { return Answer(list: saved, origin: .saved) }
        let now = answers.now()
        var stale: Remembered?
        if !refresh, let remembered = cached(title: title) {
            if now - remembered.fetchedAt < settings.freshSeconds {
                return Answer(list: remembered.list, origin: .cached)
            }
            stale = remembered
        }
        guard asksFlickr, fetching else {
            return stale.map { Answer(list: $0.list, origin: .stale) } ?? Answer(list: nil, origin: .none)
        }
        do {
            let (fetched, note) = try fetchShared(title: title)
            return Answer(list: fetched.list, origin: .fetched, note: note)
        } catch {
            switch error {
            case .badGateway, .timedOut, .busy:
                if let stale { return Answer(list: stale.list, origin: .stale, note: error.description) }
            case .refused, .savedUnreadable:
                break
            }
            throw error
        }
    }

    /// The list saved for `movieID` or cached for `title` (in memory or on disk, fresh or stale), never asking
    /// Flickr: what a card without a poster shows.
    ///
    /// Cost: O(1) when in memory; a file read otherwise.
    package func cachedPhotos(movieID: Int? = nil, title: String) -> PhotoList? {
        // A saved answer that cannot be read is no answer here: the card shows its grey box, the details page the
        // error.
        if let movieID, let saved = try? savedPhotos(movieID: movieID) { return saved }
        return cached(title: title)?.list
    }

    // MARK: - Saved answers

    /// The saved answer `<savedFolder>/<id>.json`, or `nil` when there is no folder or no such file.
    private func savedPhotos(movieID: Int) throws(PhotoSourceError) -> PhotoList? {
        guard let folder = settings.savedFolder else { return nil }
        let separator = folder.bytes.last == UInt8(ascii: "/") ? "" : "/"
        let path = folder + "\(separator)\(movieID).json"
        let source = "\(movieID).json"
        let bytes: [UInt8]
        do {
            // Only a regular file, opened without waiting (a FIFO there would hold the caller until a writer came);
            // a link is followed, to a regular file only.
            bytes = try FileReader.readRegularFile(path: path, maximumBytes: FlickrPhotos.maximumResponseBytes)
        } catch {
            if case let .system(cause) = error, cause.code == Syscalls.Errno.noSuchFile { return nil }
            throw .savedUnreadable("cannot read the saved Flickr answer \(source): \(error)")
        }
        do {
            return try FlickrPhotos.decodePhotos(bytes, source: source)
        } catch {
            switch error {
            case .apiFailure:
                // Flickr refused the request the answer was saved for: the upstream's fault (502), named by file.
                throw .badGateway(error.description)
            case let .malformedJSON(_, line, column, offset, _):
                // The parser's reason quotes the bytes it met, and the file may be a link to any file this process
                // can read (/etc/passwd): where, never what.
                throw .savedUnreadable("\(source): not a Flickr response: malformed JSON at line \(line), "
                    + "column \(column) (byte \(offset))")
            case .unexpectedShape:
                throw .savedUnreadable(error.description)
            }
        }
    }

    // MARK: - The cache and fetching

    /// `title`'s cached list, from memory, else from disk.
    private func cached(title: String) -> Remembered? {
        answers.cached(key: title).map { Remembered(list: $0.value, fetchedAt: $0.fetchedAt) }
    }

    /// Fetches `title`'s answer (or waits for the request another thread is making for it), through the shared
    /// fetcher; the answer is kept as it came when it reads as a photo list.
    private func fetchShared(title: String) throws(PhotoSourceError) -> (Remembered, String?) {
        guard let key = settings.apiKey else { throw .badGateway("no Flickr API key") }
        let url = FlickrPhotos.searchURL(title: title, apiKey: key, endpoint: settings.endpoint)
        let (kept, note) = try answers.fetchShared(key: title, url: url) { (_, bytes) throws(PhotoSourceError) in
            (try Self.interpret(bytes), bytes)
        }
        return (Remembered(list: kept.value, fetchedAt: kept.fetchedAt), note)
    }

    /// Flickr's answer read as a photo list, or the error the caller sees.
    private static func interpret(_ bytes: [UInt8]) throws(PhotoSourceError) -> PhotoList {
        do {
            return try FlickrPhotos.decodePhotos(bytes, source: "Flickr")
        } catch {
            switch error {
            case let .apiFailure(_, code, message):
                throw .refused(code: code, message: message)
            case let .malformedJSON(_, line, column, offset, _):
                throw .badGateway("Flickr's answer is not JSON (line \(line), column \(column), byte \(offset))")
            case let .unexpectedShape(_, reason):
                throw .badGateway("Flickr's answer is not a photos.search answer: \(reason)")
            }
        }
    }

    /// A cached list and when it was fetched.
    private struct Remembered: Sendable {
        var list: PhotoList
        var fetchedAt: Double
    }
}
