/// What a server asks of its application: an answer to each request, and an answer for each error the server finds
/// itself (a malformed request, a bad `Host`, too many connections), in the application's format.
///
/// Called on the server's event-loop threads, several at once: an implementation is thread-safe, and quick (an
/// answer that blocks holds up the other connections of its loop).
package protocol HTTPResponder: Sendable {
    /// The answer to a parsed request that passed the server's checks. A `HEAD` arrives as its `GET` (the server
    /// leaves the body out).
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// The answer to an error found before or instead of `respond(to:)`: `message` is one line for a person.
    func errorResponse(status: Int, message: String) -> HTTPResponse
}
