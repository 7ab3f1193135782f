/// One client connection, owned by one event loop: its parser, the bytes waiting to be written, and its clocks.
final class Connection {
    /// The socket.
    let descriptor: Int32
    /// The peer's address, for the access log.
    let peer: String
    /// The address the client reached (only asked for when the server listens on a wildcard address).
    let localAddress: SocketAddress?
    /// The request bytes read so far, parsed as they come.
    var parser: HTTPRequestParser
    /// Answers not yet written; bytes before `outputStart` are written.
    var output: [UInt8] = []
    /// The first byte of `output` not yet written.
    var outputStart = 0
    /// Whether to close once `output` is written: the client asked, an error ended framing, or the server stops.
    var closesAfterWrite = false
    /// When the request being read began (its first byte), nil between requests.
    var requestStarted: ContinuousClock.Instant?
    /// When the connection last became idle (accepted, or its last answer written with nothing more to read).
    var idleSince: ContinuousClock.Instant
    /// When a write last made progress (while `output` is pending).
    var lastWrite: ContinuousClock.Instant
    /// What the poller waits for on this connection now.
    var interest: EventPoller.Interest = .readable

    init(descriptor: Int32, peer: String, localAddress: SocketAddress?, limits: HTTPRequestParser.Limits,
         now: ContinuousClock.Instant) {
        self.descriptor = descriptor
        self.peer = peer
        self.localAddress = localAddress
        parser = HTTPRequestParser(limits: limits)
        idleSince = now
        lastWrite = now
    }

    /// Bytes waiting to be written.
    var pendingOutput: Int { output.count - outputStart }
}
