import MovieSearch

/// Why the API refused or failed a request, with the status it answers: the body is `{"error": "<one line>"}`.
package struct APIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The HTTP status.
    package var status: Int
    /// One line for a person.
    package var description: String
    /// Extra header fields (`Allow` on a 405).
    package var allow: String?
    /// `Retry-After`, in seconds (a 503 that passes soon).
    package var retryAfter: Int?

    /// An error of this status and message.
    package init(_ status: Int, _ description: String, allow: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.description = description
        self.allow = allow
        self.retryAfter = retryAfter
    }

    /// The error a failure of the engine maps to: a movie id the cache does not hold is 404, a favorites file that
    /// is busy is 503, anything else (a damaged cache or favorites file, a disk error) is 500.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as CacheError:
            if case .noSuchMovie = error { return APIError(404, error.description) }
            return APIError(500, error.description)
        case let error as FavoritesError:
            if case .busy = error { return APIError(503, error.description) }
            return APIError(500, error.description)
        default:
            return APIError(500, "\(error)")
        }
    }
}
