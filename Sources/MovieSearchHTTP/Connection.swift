import MovieSearchPlatform

/// One client connection, owned by one event loop: its parser, the answers waiting to be written, its clocks, and
/// the one request it may have at the workers.
final class Connection {
    /// The socket.
    let descriptor: Int32
    /// Tells this connection apart from a later one on the same descriptor (answers come back by descriptor).
    let serial: UInt64
    /// The peer's address, for the access log.
    let peer: String
    /// The address the client reached (only asked for when the server listens on a wildcard address).
    let localAddress: SocketAddress?
    /// The request bytes read so far, parsed as they come; pipelined requests wait here, in order.
    var parser: HTTPRequestParser
    /// Answers not yet written, in order; the buffers are shared (a large body is never copied per connection).
    private(set) var output: [AnswerBytes] = []
    /// The first byte of `output[0]` not yet written.
    private var outputStart = 0
    /// Bytes of `output` not yet written.
    private(set) var pendingOutput = 0
    /// Whether a request of this connection is at the workers (at most one: the next waits in the parser).
    var isAnswering = false
    /// A parsed `.heavy` request waiting for the queued answers to fall under the budget.
    var waitingRequest: HTTPRequest?
    /// Whether the client closed its side: its requests already read are answered, then the connection closes.
    var peerClosed = false
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

    init(descriptor: Int32, serial: UInt64, peer: String, localAddress: SocketAddress?,
         limits: HTTPRequestParser.Limits, now: ContinuousClock.Instant) {
        self.descriptor = descriptor
        self.serial = serial
        self.peer = peer
        self.localAddress = localAddress
        parser = HTTPRequestParser(limits: limits)
        idleSince = now
        lastWrite = now
    }

    /// Whether a request of this connection is being answered or waits to be: its answer is still to come.
    var hasRequestInFlight: Bool { isAnswering || waitingRequest != nil }

    /// Queues `chunks` after the answers already queued, held in `memory` (`alreadyHeld`: by the worker that made
    /// them, so that they counted from the moment they existed).
    func enqueue(_ chunks: [AnswerBytes], in memory: AnswerMemory, alreadyHeld: Bool = false) {
        for chunk in chunks where chunk.count > 0 {
            if !alreadyHeld { memory.hold(chunk) }
            output.append(chunk)
            pendingOutput += chunk.count
        }
    }

    /// Writes queued bytes with `write` (which returns what the socket took) until it takes no more or `limit`
    /// bytes are written; buffers fully written are released from `memory`. Returns the bytes written, or nil when
    /// the connection failed; `trim` is set when memory should be given back.
    func writeQueued(
        limit: Int, memory: AnswerMemory, trim: inout Bool, _ write: (UnsafeRawBufferPointer) -> Socket.Transfer
    ) -> Int? {
        var written = 0
        while let first = output.first, written < limit {
            let result = first.bytes.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
            switch result {
            case let .bytes(count):
                written += count
                outputStart += count
                pendingOutput -= count
                if outputStart == first.count {
                    output.removeFirst()
                    outputStart = 0
                    if memory.release(first) { trim = true }
                }
            case .wouldBlock:
                return written
            case .closed, .failed:
                return nil
            }
        }
        return written
    }

    /// Lets go of every queued buffer (the connection closes); `trim` is set when memory should be given back.
    func releaseOutput(in memory: AnswerMemory, trim: inout Bool) {
        for chunk in output where memory.release(chunk) { trim = true }
        output = []
        outputStart = 0
        pendingOutput = 0
    }
}
