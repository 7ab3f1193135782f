/// `--poster-size w92|w154|w185|w342|w500|w780|original`: which of TMDb's renditions of a poster the printed URL
/// names (`show`, `show --json`, `query --json`). TMDb serves each poster at these widths in pixels, and as
/// uploaded (`original`); the size is the path segment between the image base URL and the poster path.
///
///     PosterSize.w500.url(posterPath: "/abc.jpg")    // https://image.tmdb.org/t/p/w500/abc.jpg
package enum PosterSize: String, CaseIterable, Sendable {
    case w92, w154, w185, w342, w500, w780, original

    /// The size used without `--poster-size`: large enough for a detail page, as TMDb's own examples use.
    package static let defaultSize = PosterSize.w500

    /// TMDb's image base URL (their configuration's `secure_base_url`), before the size.
    static let imageBaseURL = "https://image.tmdb.org/t/p/"

    /// The URL of the poster at `posterPath` (TMDb's `poster_path`, `/abc.jpg`) at this size, or `nil` for an
    /// empty path, which names no image. A path without its leading `/` gets one; a path that is already an
    /// `http://` or `https://` URL (some CSV exports hold full URLs) is returned as it is.
    package func url(posterPath: String) -> String? {
        if posterPath.isEmpty { return nil }
        if posterPath.hasPrefix("https://") || posterPath.hasPrefix("http://") { return posterPath }
        return Self.imageBaseURL + rawValue + (posterPath.hasPrefix("/") ? "" : "/") + posterPath
    }
}
