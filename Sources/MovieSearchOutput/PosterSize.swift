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
    /// empty path, which names no image. A path without its leading `/` gets one; whatever it holds, the URL
    /// stays on TMDb's image host, as the path follows `/t/p/<size>`. A path that is already a URL (some CSV
    /// exports hold full URLs) is kept only when it names TMDb's image host (`allowedHosts`), over https or
    /// http; a URL of any other host is no poster, so that a catalog cannot make the web page (or whoever
    /// follows `show`'s links) fetch from a host of its choosing: a loopback address, a router's page, a tracker.
    package func url(posterPath: String) -> String? {
        if posterPath.isEmpty { return nil }
        if Self.isURL(posterPath) {
            return Self.allowedHosts.contains(where: { host in
                ["https://", "http://"].contains { posterPath.hasPrefix($0 + host + "/") }
            }) ? posterPath : nil
        }
        return Self.imageBaseURL + rawValue + (posterPath.hasPrefix("/") ? "" : "/") + posterPath
    }

    /// The hosts a poster URL given whole may name: TMDb's image host, the one the catalog formats document.
    package static let allowedHosts = ["image.tmdb.org"]

    /// Whether `path` starts as a URL with a scheme (`https:`, `HTTP:`, `javascript:`): letters, digits, `+`, `-`
    /// or `.` after a letter, then a colon, before any `/`. Such a path is no TMDb path.
    private static func isURL(_ path: String) -> Bool {
        guard let colon = path.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = path.utf8[..<colon]
        guard let first = scheme.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) else {
            return false
        }
        return scheme.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
