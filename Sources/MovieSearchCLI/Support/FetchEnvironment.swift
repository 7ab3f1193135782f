import MovieSearchPhotos
import MovieSearchPlatform

/// What every source of pictures (Flickr's photos, TMDb's posters) takes from the environment the same way: the disk
/// cache's folder, a shorter time limit for tests of a service that hangs, and the program that fetches.
enum FetchEnvironment {
    /// The environment variable naming the cache's base folder (then `…/moviesearch`).
    static let cacheHomeVariable = "XDG_CACHE_HOME"

    /// `$XDG_CACHE_HOME/moviesearch`, else `~/.cache/moviesearch`; nil when neither variable is set.
    static func cacheFolder(_ environment: Environment) -> FilePath? {
        FlickrAnswerCache.defaultFolder(cacheHome: environment[cacheHomeVariable], home: environment["HOME"])
    }

    /// `limits` with the total (and at most as long a connect) time limit from `variable` when it is set
    /// (milliseconds, clamped to 100 to 10,000).
    static func limits(_ limits: FetchLimits, shortenedBy variable: String, _ environment: Environment)
        -> FetchLimits
    {
        var limits = limits
        if let shorter = environment.positiveNumber(variable, clampedTo: 100...10_000) {
            limits.totalMilliseconds = shorter
            limits.connectMilliseconds = min(limits.connectMilliseconds, shorter)
        }
        return limits
    }

    /// `moviesearch-fetch` beside the executable, or the program `MOVIESEARCH_FETCH` names; nil when neither is known.
    static func fetcher(_ environment: Environment) -> ProgramFetcher? {
        ProgramFetcher.located(environmentValue: environment[ProgramFetcher.environmentVariable])
            .map(ProgramFetcher.init(program:))
    }
}
