import Dispatch
import MovieSearchLRU
import MovieSearchPlatform
import Synchronization

/// The one reader of Flickr answers, for `serve`, `photos` and `browse`: a movie's photo list from its saved answer
/// (`--photos-dir`), else from the cache (memory, then disk), else fetched from Flickr and cached.
///
///     let source = FlickrPhotoSource(settings: settings, fetcher: ProgramFetcher(program: path))
///     let answer = try source.photos(movieID: 7, title: "Heat")
///     answer.list?.urls    // nil: no key (or --offline) and nothing cached
///
/// The rules (README, "Photos"):
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
    private let fetcher: (any HTTPFetching)?
    private let clock: @Sendable () -> Double
    private let disk: FlickrAnswerCache?
    private let memory: SynchronizedLRUCache<String, Remembered>
    private let flights = Mutex<[String: Flight]>([:])
    private let turns: DispatchSemaphore
    private let calls = Mutex<[Double]>([])

    /// A cached list and when it was fetched.
    private struct Remembered: Sendable {
        var list: PhotoList
        var fetchedAt: Double
    }

    /// One request to Flickr, which the threads asking for its title at once share.
    private final class Flight: Sendable {
        let done = DispatchSemaphore(value: 0)
        let state = Mutex<(result: Result<Remembered, PhotoSourceError>?, waiting: Int)>((nil, 0))
    }

    /// A source with these settings, asking through `fetcher` (`nil`: never asks), its time from `clock` (seconds
    /// since 1970; the wall clock unless a test gives another).
    package init(settings: Settings, fetcher: (any HTTPFetching)?,
                 clock: @escaping @Sendable () -> Double = {
                     Double(Syscalls.wallClockNanoseconds()) / 1_000_000_000 })
    {
        self.settings = settings
        self.fetcher = fetcher
        self.clock = clock
        disk = settings.cacheFolder.map(FlickrAnswerCache.init(folder:))
        memory = SynchronizedLRUCache(capacity: max(0, settings.memoryCapacity))
        turns = DispatchSemaphore(value: max(1, settings.maximumInFlight))
    }

    /// Whether this source may ask Flickr: a key, a fetcher, and not offline.
    package var asksFlickr: Bool { settings.apiKey != nil && fetcher != nil && !settings.offline }

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
        let now = clock()
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

    // MARK: - The cache

    /// `title`'s cached list, from memory, else from disk (then remembered in memory).
    private func cached(title: String) -> Remembered? {
        if let remembered = memory.get(title) { return remembered }
        guard let entry = disk?.read(title: title),
              let list = try? FlickrPhotos.decodePhotos(entry.response, source: "cache")
        else { return nil }
        let remembered = Remembered(list: list, fetchedAt: entry.fetchedAt)
        memory.add(remembered, forKey: title)
        return remembered
    }

    // MARK: - Fetching

    /// Fetches `title`'s answer, or waits for the request another thread is making for it.
    private func fetchShared(title: String) throws(PhotoSourceError) -> (Remembered, String?) {
        let (flight, isLeader) = flights.withLock { flights in
            if let flight = flights[title] { return (flight, false) }
            let flight = Flight()
            flights[title] = flight
            return (flight, true)
        }
        guard isLeader else {
            let finished = flight.state.withLock { state in
                if state.result == nil { state.waiting += 1 }
                return state.result
            }
            if let finished { return (try finished.get(), nil) }
            flight.done.wait()
            return (try flight.state.withLock { $0.result! }.get(), nil)
        }
        var note: String?
        let result: Result<Remembered, PhotoSourceError>
        do {
            let (remembered, writeNote) = try fetch(title: title)
            note = writeNote
            result = .success(remembered)
        } catch {
            result = .failure(error)
        }
        // Forgotten before the waiters are woken: a thread that comes after this asks the cache, not this flight.
        flights.withLock { _ = $0.removeValue(forKey: title) }
        let waiting = flight.state.withLock { state in
            state.result = result
            return state.waiting
        }
        for _ in 0..<waiting { flight.done.signal() }
        return (try result.get(), note)
    }

    /// One request to Flickr for `title`, within the limits; the answer cached when it is a photo list.
    private func fetch(title: String) throws(PhotoSourceError) -> (Remembered, String?) {
        guard let fetcher, let key = settings.apiKey else { throw .badGateway("no Flickr API key") }
        let wait = DispatchTime.now() + .milliseconds(settings.limits.totalMilliseconds)
        guard turns.wait(timeout: wait) == .success else {
            throw .busy("\(settings.maximumInFlight) requests to Flickr are already running; try again", retryAfter: 5)
        }
        defer { turns.signal() }
        try countCall()
        let bytes: [UInt8]
        do {
            bytes = try fetcher.fetch(FlickrPhotos.searchURL(title: title, apiKey: key, endpoint: settings.endpoint),
                                      limits: settings.limits)
        } catch {
            switch error {
            case .timedOut:
                throw .timedOut("Flickr did not answer within \(settings.limits.totalDescription)")
            case .unreachable, .tooLarge, .status, .failed:
                throw .badGateway("cannot get photos from Flickr: \(error)")
            }
        }
        let list: PhotoList
        do {
            list = try FlickrPhotos.decodePhotos(bytes, source: "Flickr")
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
        let remembered = Remembered(list: list, fetchedAt: clock())
        memory.add(remembered, forKey: title)
        var note: String?
        if let disk {
            do {
                try disk.write(title: title, response: bytes, fetchedAt: remembered.fetchedAt)
            } catch {
                note = "cannot keep Flickr's answer in \(disk.folder): \(error)"
            }
        }
        return (remembered, note)
    }

    /// Counts one call against the hourly limit, or throws `.busy` with the seconds until one is free.
    private func countCall() throws(PhotoSourceError) {
        let now = clock()
        let limit = settings.callsPerHour
        let wait: Double? = calls.withLock { calls in
            calls.removeAll { now - $0 >= 3600 }
            guard calls.count < limit else { return calls.first.map { 3600 - (now - $0) } ?? 3600 }
            calls.append(now)
            return nil
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw .busy("over Flickr's limit of \(limit) requests an hour; try again in \(seconds) s",
                        retryAfter: seconds)
        }
    }
}
