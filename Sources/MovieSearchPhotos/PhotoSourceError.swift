/// Why `FlickrPhotoSource` has no photo list for a movie: each case is one line for the user, and the server's
/// status for it (`status`).
///
///     do { _ = try source.photos(movieID: 7, title: "Heat") } catch { print(error.status, error) }
public enum PhotoSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The saved answer in `--photos-dir` cannot be used: `reason` names the file and why (never its bytes).
    case savedUnreadable(String)
    /// Flickr refused the request (`"stat":"fail"`), with its code and message.
    case refused(code: Int, message: String)
    /// Flickr could not be reached, answered with an error status, or answered something that is not a
    /// photos.search answer.
    case badGateway(String)
    /// Flickr did not answer in time.
    case timedOut(String)
    /// The hourly number of calls to Flickr is used up (or four fetches are running): try again in `retryAfter`
    /// seconds.
    case busy(String, retryAfter: Int)

    /// The HTTP status the server answers with: 500 for a saved answer it cannot read, 502 for Flickr's refusal
    /// or a bad answer, 504 for no answer in time, 503 when over the hourly limit.
    public var status: Int {
        switch self {
        case .savedUnreadable: return 500
        case .refused, .badGateway: return 502
        case .timedOut: return 504
        case .busy: return 503
        }
    }

    /// One line: `"Flickr refused the request: error 100, Invalid API Key (check the Flickr API key)"`.
    public var description: String {
        switch self {
        case let .savedUnreadable(reason): return reason
        case let .refused(code, message):
            // FlickrError's wording: Flickr's message made one line, and the hint for a bad key.
            let line = FlickrError.apiFailure(source: "Flickr", code: code, message: message).description
            return String(line.dropFirst("Flickr: ".count))
        case let .badGateway(reason): return reason
        case let .timedOut(reason): return reason
        case let .busy(reason, _): return reason
        }
    }
}
