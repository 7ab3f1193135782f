import MovieSearchCommandLine
import MovieSearchPhotos
import MovieSearchPlatform

/// `--tmdb-key <key>` and `--tmdb-endpoint <url>`, shared by `serve` and `show`, and the one `TMDbPosterSource`
/// each of them finds posters through (kept, or asked of TMDb by title and year). `--offline` (`FlickrOptions`)
/// stops it asking as it stops the photos.
enum TMDbOptions {
    static let key = Option<String>(
        "tmdb-key", valueName: "key",
        help: "TMDb's v3 API key, to find posters by title and year for movies whose catalog gives none. "
            + "Default: TMDB_API_KEY, else TMDB_READ_ACCESS_TOKEN (sent as a Bearer token).")
    static let endpoint = Option<String>(
        "tmdb-endpoint", valueName: "url", rule: FlickrOptions.endpointRule,
        help: "Where TMDb requests go: a mirror, a proxy, a test's stand-in (http or https). "
            + "Default: \(TMDbPosterSource.defaultEndpoint).")

    static let keyVariable = "TMDB_API_KEY"
    static let tokenVariable = "TMDB_READ_ACCESS_TOKEN"
    /// The environment variable that shortens the request's time limit (milliseconds, 100 to 10,000): for tests
    /// of a TMDb that hangs.
    static let timeoutVariable = "MOVIESEARCH_TMDB_TIMEOUT_MS"

    /// The source of a command's posters: the key given (else `TMDB_API_KEY`, else the token in
    /// `TMDB_READ_ACCESS_TOKEN`), these options, the disk cache beside the photos', and `moviesearch-fetch`.
    static func source(key given: String?, endpoint: String?, offline: Bool, environment: Environment)
        -> TMDbPosterSource
    {
        let key = [given, environment[keyVariable]].compactMap { $0 }.first { !$0.isEmpty }
        let token = environment[tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        var settings = TMDbPosterSource.Settings(apiKey: key, bearerToken: token)
        settings.endpoint = endpoint ?? TMDbPosterSource.defaultEndpoint
        settings.offline = offline
        settings.cacheFolder = FetchEnvironment.cacheFolder(environment)
        settings.limits = FetchEnvironment.limits(settings.limits, shortenedBy: timeoutVariable, environment)
        return TMDbPosterSource(settings: settings, fetcher: FetchEnvironment.fetcher(environment))
    }
}
