import MovieSearchCommandLine
import MovieSearchPhotos
import MovieSearchPlatform

/// `--flickr-endpoint <url>` and `--offline`, shared by `photos`, `browse` and `serve`, and the one
/// `FlickrPhotoSource` each of them reads Flickr answers through (saved, cached, fetched).
enum FlickrOptions {
    /// What an endpoint option accepts (`--flickr-endpoint`, `--tmdb-endpoint`).
    static let endpointRule = ValueRule<String>(expectation: "an http:// or https:// URL without spaces",
                                                accepts: { url in
        (url.hasPrefix("http://") || url.hasPrefix("https://")) && url.count > 8
            && !url.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
    })
    static let endpoint = Option<String>(
        "flickr-endpoint", valueName: "url", rule: endpointRule,
        help: "Where Flickr requests go: a mirror, a proxy, a test's stand-in (http or https). "
            + "Default: \(FlickrPhotos.defaultEndpoint).")
    static let offline = Flag(
        "offline", help: "Never ask Flickr or TMDb: photos come from --photos-dir and the cache only, posters from "
            + "the catalog and the cache only.")

    /// The environment variable that shortens the request's time limit (milliseconds, 100 to 10,000): for tests
    /// of a Flickr that hangs, which would otherwise wait the full 10 s.
    static let timeoutVariable = "MOVIESEARCH_FLICKR_TIMEOUT_MS"

    /// The source of a command's photos: the key given (`--flickr-key`, else `FLICKR_API_KEY`), these options,
    /// the saved answers' folder, the disk cache in `$XDG_CACHE_HOME/moviesearch` (else `~/.cache/moviesearch`),
    /// and `moviesearch-fetch` beside the executable (or `MOVIESEARCH_FETCH`).
    static func source(key given: String?, endpoint: String?, offline: Bool, savedFolder: FilePath?,
                       environment: Environment) -> FlickrPhotoSource {
        var settings = FlickrPhotoSource.Settings(apiKey: FlickrKey.given(given, environment))
        settings.endpoint = endpoint ?? FlickrPhotos.defaultEndpoint
        settings.offline = offline
        settings.savedFolder = savedFolder
        settings.cacheFolder = FetchEnvironment.cacheFolder(environment)
        settings.limits = FetchEnvironment.limits(settings.limits, shortenedBy: timeoutVariable, environment)
        return FlickrPhotoSource(settings: settings, fetcher: FetchEnvironment.fetcher(environment))
    }
}
