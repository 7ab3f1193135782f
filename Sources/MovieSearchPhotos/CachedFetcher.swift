import Dispatch
import MovieSearchLRU
import MovieSearchPlatform
import Synchronization

/// The one fetcher and cache of answers from another service, keyed by a string, shared by the Flickr photos
/// (`FlickrPhotoSource`, keyed by title) and the TMDb posters (`TMDbPosterSource`, keyed by folded title and year):
/// the same HTTP client (`HTTPFetching`, `moviesearch-fetch`), the same limits, the same two caches.
///
///     let fetcher = CachedFetcher<PhotoList>(settings: settings, fetcher: client, decode: { try? … })
///     if let kept = fetcher.cached(key: "Heat") { … }
///     let (kept, note) = try fetcher.fetchShared(key: "Heat", url: url) { status, body in (list, body) }
///
/// The rules:
/// - An answer is kept by key in memory (an LRU of `memoryCapacity` keys) and on disk (`FlickrAnswerCache`, in
///   the service's own folder), with the time it was fetched; the caller decides what is fresh.
/// - Threads asking for one key at once make one request (the others wait for its answer); at most
///   `maximumInFlight` requests run at once (a caller waits for a turn at most the request's own time limit).
/// - At most `rateLimit.calls` requests are made in any `rateLimit.seconds`: over it, a request either waits for
///   a free slot (`waits`, TMDb's way: about 40 in 10 s), or is refused at once as `.busy` with the seconds until
///   one is free (Flickr's: 3,600 an hour, where waiting makes no sense).
/// - Nothing failed is kept: only what `interpret` accepts is cached.
/// - Never on an event loop: the callers are the server's `.network` workers, a command, or `browse`'s
///   background thread.
///
/// `Sendable`: one fetcher serves every thread of a server.
package final class CachedFetcher<Value: Sendable>: Sendable {
    /// How many requests a service takes in how long, and what to do over it.
    package struct RateLimit: Sendable, Equatable {
        /// The most requests in any `seconds`.
        package var calls: Int
        /// The window.
        package var seconds: Double
        /// Over the limit, wait for a free slot (when it comes within the request's time limit) rather than
        /// refuse at once.
        package var waits: Bool

        /// A limit from its parts.
        package init(calls: Int, seconds: Double, waits: Bool) {
            self.calls = calls
            self.seconds = seconds
            self.waits = waits
        }

        /// `an hour`, `10 s`: the window as the refusal names it.
        var windowDescription: String { seconds == 3600 ? "an hour" : "in \(Int(seconds)) s" }
    }

    /// The service and the limits.
    package struct Settings: Sendable {
        /// The service's name in messages: `Flickr`, `TMDb`.
        package var service: String
        /// The disk cache's folder (`…/moviesearch`); `nil`: memory only.
        package var cacheFolder: FilePath?
        /// The service's folder in it: `flickr`, `tmdb`.
        package var folderName: String
        /// What is asked for, as an error names it: `cannot get photos from Flickr`.
        package var what = "an answer"
        /// How many keys' answers memory keeps.
        package var memoryCapacity = 512
        /// How many requests may run at once.
        package var maximumInFlight = 4
        /// The service's rate limit.
        package var rateLimit: RateLimit
        /// The request's limits.
        package var limits: FetchLimits

        /// Settings from their parts, with the defaults for memory and requests in flight.
        package init(service: String, cacheFolder: FilePath?, folderName: String, rateLimit: RateLimit,
                     limits: FetchLimits)
        {
            self.service = service
            self.cacheFolder = cacheFolder
            self.folderName = folderName
            self.rateLimit = rateLimit
            self.limits = limits
        }
    }

    /// A kept value and when it was fetched (seconds since 1970).
    package struct Kept: Sendable {
        package var value: Value
        package var fetchedAt: Double
    }

    /// One request, which the threads asking for its key at once share.
    private final class Flight: Sendable {
        let done = DispatchSemaphore(value: 0)
        let state = Mutex<(result: Result<Kept, PhotoSourceError>?, waiting: Int)>((nil, 0))
    }

    package let settings: Settings
    private let fetcher: (any HTTPFetching)?
    private let clock: @Sendable () -> Double
    private let decode: @Sendable ([UInt8]) -> Value?
    private let disk: FlickrAnswerCache?
    private let memory: SynchronizedLRUCache<String, Kept>
    private let flights = Mutex<[String: Flight]>([:])
    private let turns: DispatchSemaphore
    private let calls = Mutex<[Double]>([])

    /// A fetcher with these settings, asking through `fetcher` (`nil`: never asks), reading kept answers back
    /// from disk with `decode` (`nil`: not an answer, as if none were kept), its time from `clock`.
    package init(settings: Settings, fetcher: (any HTTPFetching)?,
                 decode: @escaping @Sendable ([UInt8]) -> Value?,
                 clock: @escaping @Sendable () -> Double)
    {
        self.settings = settings
        self.fetcher = fetcher
        self.decode = decode
        self.clock = clock
        disk = settings.cacheFolder.map { FlickrAnswerCache(folder: $0, service: settings.folderName) }
        memory = SynchronizedLRUCache(capacity: max(0, settings.memoryCapacity))
        turns = DispatchSemaphore(value: max(1, settings.maximumInFlight))
    }

    /// Whether there is a client to ask through.
    package var canFetch: Bool { fetcher != nil }

    /// The disk cache, when there is one.
    package var diskCache: FlickrAnswerCache? { disk }

    /// The time now, by the fetcher's clock.
    package func now() -> Double { clock() }

    /// `key`'s kept value, from memory, else from disk (then remembered in memory); fresh or not.
    ///
    /// Cost: O(1) plus hashing the key when in memory; a file read otherwise.
    package func cached(key: String) -> Kept? {
        if let kept = memory.get(key) { return kept }
        guard let entry = disk?.read(title: key), let value = decode(entry.response) else { return nil }
        let kept = Kept(value: value, fetchedAt: entry.fetchedAt)
        memory.add(kept, forKey: key)
        return kept
    }

    /// Fetches `url` for `key`, or waits for the request another thread is making for it. `interpret` reads the
    /// answer (its HTTP status, when `anyStatus`, else always a 2xx; and its body) into the value and the bytes
    /// to keep on disk, or throws what the caller sees; only what it accepts is kept. `headers` are sent with the
    /// request (`Authorization: Bearer …`). Returns the value and a note when the disk cache could not be written.
    package func fetchShared(key: String, url: String, headers: [String] = [], anyStatus: Bool = false,
                             interpret: (Int, [UInt8]) throws(PhotoSourceError) -> (Value, [UInt8]))
        throws(PhotoSourceError) -> (Kept, String?)
    {
        let (flight, isLeader) = flights.withLock { flights in
            if let flight = flights[key] { return (flight, false) }
            let flight = Flight()
            flights[key] = flight
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
        let result: Result<Kept, PhotoSourceError>
        do {
            let (kept, writeNote) = try fetch(key: key, url: url, headers: headers, anyStatus: anyStatus,
                                              interpret: interpret)
            note = writeNote
            result = .success(kept)
        } catch {
            result = .failure(error)
        }
        // Forgotten before the waiters are woken: a thread that comes after this asks the cache, not this flight.
        flights.withLock { _ = $0.removeValue(forKey: key) }
        let waiting = flight.state.withLock { state in
            state.result = result
            return state.waiting
        }
        for _ in 0..<waiting { flight.done.signal() }
        return (try result.get(), note)
    }

    /// One request, within the limits; its value kept when `interpret` accepts it.
    private func fetch(key: String, url: String, headers: [String], anyStatus: Bool,
                       interpret: (Int, [UInt8]) throws(PhotoSourceError) -> (Value, [UInt8]))
        throws(PhotoSourceError) -> (Kept, String?)
    {
        let service = settings.service
        guard let fetcher else { throw .badGateway("no way to ask \(service)") }
        let wait = DispatchTime.now() + .milliseconds(settings.limits.totalMilliseconds)
        guard turns.wait(timeout: wait) == .success else {
            throw .busy("\(settings.maximumInFlight) requests to \(service) are already running; try again",
                        retryAfter: 5)
        }
        defer { turns.signal() }
        try countCall()
        let answer: (status: Int, body: [UInt8])
        do {
            if anyStatus {
                answer = try fetcher.fetchAnyStatus(url, headers: headers, limits: settings.limits)
            } else {
                answer = (200, try fetcher.fetch(url, limits: settings.limits))
            }
        } catch {
            switch error {
            case .timedOut:
                throw .timedOut("\(service) did not answer within \(settings.limits.totalDescription)")
            case .unreachable, .tooLarge, .status, .failed:
                throw .badGateway("cannot get \(settings.what) from \(service): \(error)")
            }
        }
        let (value, keep) = try interpret(answer.status, answer.body)
        let kept = Kept(value: value, fetchedAt: clock())
        memory.add(kept, forKey: key)
        var note: String?
        if let disk {
            do {
                try disk.write(title: key, response: keep, fetchedAt: kept.fetchedAt)
            } catch {
                note = "cannot keep \(service)'s answer in \(disk.folder): \(error)"
            }
        }
        return (kept, note)
    }

    /// Counts one call against the rate limit: over it, waits for a free slot when the limit waits and one comes
    /// within the request's time limit, else throws `.busy` with the seconds until one is free.
    private func countCall() throws(PhotoSourceError) {
        let limit = settings.rateLimit
        var waited = 0
        while true {
            let now = clock()
            let wait: Double? = calls.withLock { calls in
                calls.removeAll { now - $0 >= limit.seconds }
                guard calls.count < limit.calls else {
                    return calls.first.map { limit.seconds - (now - $0) } ?? limit.seconds
                }
                calls.append(now)
                return nil
            }
            guard let wait else { return }
            let milliseconds = max(1, Int((wait * 1000).rounded(.up)))
            if limit.waits, waited + milliseconds <= settings.limits.totalMilliseconds {
                Syscalls.sleep(milliseconds: milliseconds)
                waited += milliseconds
                continue
            }
            let seconds = max(1, Int(wait.rounded(.up)))
            throw .busy("over \(settings.service)'s limit of \(limit.calls) requests \(limit.windowDescription); "
                + "try again in \(seconds) s", retryAfter: seconds)
        }
    }
}
