/// What a server asks of its application: an answer to each request, and an answer for each error the server finds
/// itself (a malformed request, a bad `Host`, too many connections), in the application's format.
///
/// `respond(to:)` is called on the server's worker threads, several at once, never on an event loop: an
/// implementation is thread-safe, and may take its time (a long render holds one worker of its lane, not the
/// other connections). `errorResponse` and `lane(for:)` are called on the event loops: they must be quick and never
/// block.
package protocol HTTPResponder: Sendable {
    /// The answer to a parsed request that passed the server's checks. A `HEAD` arrives as its `GET` (the server
    /// leaves the body out).
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// The answer to an error found before or instead of `respond(to:)`: `message` is one line for a person.
    func errorResponse(status: Int, message: String) -> HTTPResponse

    /// Which workers answer `request` (`.quick` by default): the lane of a request that may block on a file or a
    /// lock is `.blocking`, so that such requests never take the workers the others need.
    func lane(for request: HTTPRequest) -> HTTPLane
}

extension HTTPResponder {
    /// Every request is `.quick` unless the responder says otherwise.
    package func lane(for request: HTTPRequest) -> HTTPLane { .quick }
}
