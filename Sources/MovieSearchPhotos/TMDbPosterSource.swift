import MovieSearchJSON
import MovieSearchPlatform
import MovieSearchText

/// Posters for movies whose catalog gives none, found on TMDb by title and year, through the fetcher and cache the
/// Flickr photos use (`CachedFetcher`): for `serve`'s `/api/movies/<id>/poster` and `show --fetch`.
///
///     let source = TMDbPosterSource(settings: .init(apiKey: key), fetcher: ProgramFetcher(program: path))
///     let answer = try source.poster(title: "Heat", year: 1995)
///     answer.posterPath    // "/obpPQskaVpSksYHLz1Dq4IuHdTq.jpg", or nil: none found (or not asked)
///
/// The rules (COMMANDS.md, "Posters from TMDb"):
/// - The request: TMDb's `search/movie` with `query` = the title, `year`, `include_adult=false`; the v3 key as
///   `api_key`, or a read access token as `Authorization: Bearer …`.
/// - The poster is that of the first result whose title equals the movie's, folded (SPEC.md's tokens: equal
///   token sequences, so `Don't Look Up` equals `Dont Look Up`), and whose `release_date` year is the movie's;
///   none otherwise: a wrong poster is worse than a grey box.
/// - Kept by folded title and year (so a rebuild that renumbers movies keeps them), "no poster" too, in memory and
///   in `$XDG_CACHE_HOME/moviesearch/tmdb`, fresh for 7 days; a stale answer is served when TMDb cannot be reached.
/// - Over TMDb's rate (40 requests in 10 s) a request waits for its turn.
/// - TMDb's refusal (401 with its `status_message`) is a 502 quoting it; 429 a 503 with Retry-After; garbage a
///   502; no answer in time a 504. Nothing failed is kept.
package final class TMDbPosterSource: Sendable {
    /// TMDb's API address (v3).
    package static let defaultEndpoint = "https://api.themoviedb.org/3"

    /// Where answers come from, and the limits.
    package struct Settings: Sendable {
        /// TMDb's v3 API key (`--tmdb-key`, `TMDB_API_KEY`), sent as `api_key`.
        package var apiKey: String?
        /// A read access token (`TMDB_READ_ACCESS_TOKEN`), sent as a Bearer token when there is no key.
        package var bearerToken: String?
        /// Where requests go (`--tmdb-endpoint`).
        package var endpoint = TMDbPosterSource.defaultEndpoint
        /// Never ask TMDb (`--offline`).
        package var offline = false
        /// The disk cache's folder (`…/moviesearch`); `nil`: memory only.
        package var cacheFolder: FilePath?
        /// How long an answer (a poster or none) is fresh: 7 days.
        package var freshSeconds: Double = 7 * 24 * 3600
        /// TMDb's rate: about 40 requests in 10 s; over it, wait.
        package var rateLimit = CachedFetcher<TMDbPoster>.RateLimit(calls: 40, seconds: 10, waits: true)
        /// The request's limits: 3 s to connect, 10 s in all, 1 MiB.
        package var limits = FetchLimits.flickr

        /// Settings with this key (or token) and the defaults.
        package init(apiKey: String?, bearerToken: String? = nil) {
            self.apiKey = apiKey
            self.bearerToken = bearerToken
        }
    }

    /// A poster (or none) and where it came from.
    package struct Answer: Sendable, Equatable {
        /// TMDb's `poster_path` (`/abc.jpg`); `nil`: none found, or not known.
        package var posterPath: String?
        /// `.cached`, `.fetched`, `.stale`, `.none` (not asked, nothing kept), as for photos.
        package var origin: FlickrPhotoSource.Answer.Origin
        /// What went wrong on the side: the disk cache could not be written, or why a stale answer was served.
        package var note: String?
    }

    package let settings: Settings
    private let answers: CachedFetcher<TMDbPoster>

    /// A source with these settings, asking through `fetcher` (`nil`: never asks), its time from `clock`.
    package init(settings: Settings, fetcher: (any HTTPFetching)?,
                 clock: @escaping @Sendable () -> Double = {
                     Double(Syscalls.wallClockNanoseconds()) / 1_000_000_000 })
    {
        self.settings = settings
        var shared = CachedFetcher<TMDbPoster>.Settings(
            service: "TMDb", cacheFolder: settings.cacheFolder, folderName: "tmdb", rateLimit: settings.rateLimit,
            limits: settings.limits)
        shared.what = "a poster"
        shared.memoryCapacity = 4096
        answers = CachedFetcher(settings: shared, fetcher: fetcher, decode: TMDbPoster.init(kept:), clock: clock)
    }

    /// Whether this source may ask TMDb: a key or token, a fetcher, and not offline.
    package var asksTMDb: Bool {
        (settings.apiKey != nil || settings.bearerToken != nil) && answers.canFetch && !settings.offline
    }

    /// The key an answer is kept by: the title's folded tokens and the year, `heat 1995`.
    package static func key(title: String, year: Int) -> String {
        Tokenizer.tokens(in: title).joined(separator: " ") + " \(year)"
    }

    /// The search/movie request for `title` and `year` (with the key when there is one).
    package func request(title: String, year: Int) -> String {
        var url = settings.endpoint
        while url.hasSuffix("/") { url.removeLast() }
        url += "/search/movie?query=\(PercentEncoding.queryValue(title))&year=\(year)&include_adult=false"
        if let key = settings.apiKey { url += "&api_key=\(PercentEncoding.queryValue(key))" }
        return url
    }

    /// The poster kept for `title` and `year` (fresh or stale), never asking TMDb; `nil` when nothing is kept.
    package func cachedPoster(title: String, year: Int) -> TMDbPoster? {
        answers.cached(key: Self.key(title: title, year: year))?.value
    }

    /// The poster of `title` from `year`: kept, or asked of TMDb (see the type's rules). `fetching: false` never
    /// asks.
    package func poster(title: String, year: Int, fetching: Bool = true) throws(PhotoSourceError) -> Answer {
        let key = Self.key(title: title, year: year)
        var stale: CachedFetcher<TMDbPoster>.Kept?
        if let kept = answers.cached(key: key) {
            if answers.now() - kept.fetchedAt < settings.freshSeconds {
                return Answer(posterPath: kept.value.path, origin: .cached)
            }
            stale = kept
        }
        guard asksTMDb, fetching else {
            return stale.map { Answer(posterPath: $0.value.path, origin: .stale) }
                ?? Answer(posterPath: nil, origin: .none)
        }
        var headers: [String] = []
        if settings.apiKey == nil, let token = settings.bearerToken { headers.append("Authorization: Bearer \(token)") }
        do {
            let (kept, note) = try answers.fetchShared(key: key, url: request(title: title, year: year),
                                                       headers: headers, anyStatus: true)
            { (status, body) throws(PhotoSourceError) in
                let poster = try Self.interpret(status: status, body: body, title: title, year: year)
                return (poster, poster.keptBytes)
            }
            return Answer(posterPath: kept.value.path, origin: .fetched, note: note)
        } catch {
            switch error {
            case .badGateway, .timedOut, .busy:
                if let stale { return Answer(posterPath: stale.value.path, origin: .stale, note: error.description) }
            case .refused, .savedUnreadable:
                break
            }
            throw error
        }
    }

    /// TMDb's answer read: the poster of the first result of this title and year, or none; an error for a refusal,
    /// the rate limit, another status, or an answer that is not a search answer.
    package static func interpret(status: Int, body: [UInt8], title: String, year: Int)
        throws(PhotoSourceError) -> TMDbPoster
    {
        let json = try? JSONParser.parse(body)
        guard (200..<300).contains(status) else {
            // TMDb's words when it gives them (`"status_message":"Invalid API key: You must be granted a valid key."`),
            // made one line and bounded.
            let message = json?["status_message"]?.stringValue.map(Self.oneLine)
            if status == 429 {
                throw .busy("TMDb's rate limit is reached (HTTP status 429); try again in 10 s", retryAfter: 10)
            }
            if let message {
                let hint = status == 401 ? " (check the TMDb API key or read access token)" : ""
                throw .badGateway("TMDb refused the request: HTTP status \(status), \(message)\(hint)")
            }
            throw .badGateway("cannot get a poster from TMDb: HTTP status \(status)")
        }
        guard let json else { throw .badGateway("TMDb's answer is not JSON") }
        guard case .array(let results)? = json["results"] else {
            throw .badGateway("TMDb's answer is not a search/movie answer: no results array")
        }
        let wanted = Tokenizer.tokens(in: title)
        for result in results {
            guard let name = result["title"]?.stringValue, Tokenizer.tokens(in: name) == wanted,
                  let date = result["release_date"]?.stringValue, date.utf8.count >= 4,
                  Int(date.prefix(4)) == year
            else { continue }
            // The first result of this title and year decides, with its poster or without one.
            guard let path = result["poster_path"]?.stringValue, path.hasPrefix("/"), path.utf8.count <= 200,
                  !path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0 == "?" || $0 == "#" || $0 == "\\" })
            else { return TMDbPoster(path: nil) }
            return TMDbPoster(path: path)
        }
        return TMDbPoster(path: nil)
    }

    /// `text` without control characters, at most 300 scalars.
    private static func oneLine(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(300)
        return String(String.UnicodeScalarView(kept))
    }
}

/// What TMDb gave for a title and year: a poster path, or none. Kept on disk as `{"poster_path":"/abc.jpg"}` or
/// `{"poster_path":null}`.
package struct TMDbPoster: Sendable, Equatable {
    /// TMDb's `poster_path`; `nil`: no poster found.
    package var path: String?

    /// A poster from its path.
    package init(path: String?) {
        self.path = path
    }

    /// The poster kept in `bytes`, or `nil` when they are not one.
    init?(kept bytes: [UInt8]) {
        guard case .object(let object)? = try? JSONParser.parse(bytes), let value = object["poster_path"] else {
            return nil
        }
        switch value {
        case .null: path = nil
        case .string(let text) where text.hasPrefix("/"): path = text
        default: return nil
        }
    }

    /// The bytes kept on disk.
    var keptBytes: [UInt8] {
        var json = JSONWriter()
        json.object { object in
            if let path {
                object.member("poster_path", path)
            } else {
                object.key("poster_path")
                object.null()
            }
        }
        return json.bytes
    }
}
