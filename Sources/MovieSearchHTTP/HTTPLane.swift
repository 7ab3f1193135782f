/// The pool of worker threads a request is answered on. Each lane has threads of its own, so that the requests of
/// one lane, however many or slow, never wait for the threads of another: a favorites write stuck on a lock held by
/// another process takes a `.blocking` worker, and `/healthz` is still answered at once on a `.quick` one.
package enum HTTPLane: Sendable, CaseIterable {
    /// Answers made from memory in about a millisecond: health, one movie, the page's files, errors.
    case quick
    /// Answers that may be large or take long to make (searches, top lists): they also wait while the answers
    /// queued for clients that do not read are over `HTTPServer.Configuration.queuedAnswerBudget`.
    case heavy
    /// Answers that may wait on a file or a lock (favorites, saved photos).
    case blocking
    /// Answers that may wait on another server (a Flickr fetch, up to its time limit): threads of their own, so that
    /// an upstream that hangs holds neither searches nor favorites.
    case network
}
