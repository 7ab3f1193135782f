import MovieSearchPlatform

/// One client connection, owned by one event loop: its parser, the answers waiting to be written, its clocks, its
/// state, and the one request it may have at the workers.
///
/// It decides everything about the connection but the system calls. The loop hands it the bytes it read
/// (`received`, `receivedEnd`), lets it take its requests and write (`advance`, given a function that writes to the
/// socket), hands it the answers of the workers (`answered`), asks its clocks at each sweep (`checkClocks`), and does
/// what it says: hand a request to the workers, watch the socket as `wanted` says, or close it. It answers by itself
/// what needs no worker: parse errors, `RequestPolicy`'s refusals, CORS preflights, `100 Continue`, a 408. So it runs
/// without a socket in the tests, on a clock they choose.
///
/// A client that pipelines has one request at the workers at a time, the next waiting in the parser; one that does
/// not read its answers is not read from once `outputHighWater` bytes are queued, so that its requests cannot pile
/// up.
final class Connection {
    /// Past this many bytes of unwritten answers, the connection is not read from, and its further pipelined
    /// requests wait in its parser.
    static let outputHighWater = 256 * 1024
    /// The most bytes written per `advance`: a client that reads as fast as the loop writes gets a turn, then the
    /// others theirs (nginx's `sendfile_max_chunk` does the same).
    static let writeTurn = 512 * 1024

    /// What the loop does next with the connection, after `advance`.
    enum Step: Equatable {
        /// Hand this request to the workers (or keep it until the queued answers are under the budget: `wait(_:)`),
        /// then watch the socket as `wanted` says. A `HEAD` is as it came (the workers answer its `GET`).
        case dispatch(HTTPRequest)
        /// Watch the socket as `wanted` says.
        case watch
        /// Close it.
        case close
    }

    /// What the connection's clocks say at a sweep.
    enum Verdict: Equatable {
        /// Nothing to do.
        case keep
        /// An answer was queued (a 408, then a close): `advance`.
        case advance
        /// The server stops and nothing is being read or answered: read once more (a request whose bytes came
        /// since the last wait is answered, with `Connection: close`), then close it if it is still `isIdle`.
        case drain
        /// A clock ran out (an idle keep-alive, a client that does not read): close it.
        case close
    }

    /// What the connection waits for from its socket.
    struct Interest: Equatable {
        /// Bytes to read (or the client's close).
        var reads: Bool
        /// Room to write.
        var writes: Bool
    }

    /// The socket.
    let descriptor: Int32
    /// Tells this connection apart from a later one on the same descriptor (answers come back by descriptor).
    let serial: UInt64
    /// The peer's address, for the access log.
    let peer: String
    /// The address the client reached (only asked for when the server listens on a wildcard address).
    let localAddress: SocketAddress?
    /// What the loop's poller was last told to wait for on this connection (the loop keeps it, to tell it only
    /// changes).
    var watched = Interest(reads: true, writes: false)
    /// The request bytes read so far, parsed as they come; pipelined requests wait here, in order.
    private var parser: HTTPRequestParser
    /// Answers not yet written, in order; the buffers are shared (a large body is never copied per connection).
    private var output: [AnswerBytes] = []
    /// The first byte of `output[0]` not yet written.
    private var outputStart = 0
    /// Bytes of `output` not yet written.
    private(set) var pendingOutput = 0
    /// Whether a request of this connection is at the workers (at most one: the next waits in the parser).
    private var isAnswering = false
    /// A parsed `.heavy` request waiting for the queued answers to fall under the budget.
    private var waitingRequest: HTTPRequest?
    /// Whether the client closed its side: its requests already read are answered, then the connection closes.
    private var peerClosed = false
    /// Whether to close once `output` is written: the client asked, an error ended framing, or the server stops.
    private var closesAfterWrite = false
    /// When the request being read began (its first byte), nil between requests.
    private var requestStarted: ContinuousClock.Instant?
    /// When the connection last became idle (accepted, or its last answer written with nothing more to read).
    private var idleSince: ContinuousClock.Instant
    /// When a write last made progress (while `output` is pending).
    private var lastWrite: ContinuousClock.Instant

    /// A connection accepted at `now`, whose requests `limits` bound.
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

    /// Whether nothing is being read, answered or written: the connection may close without cutting a request.
    var isIdle: Bool { !parser.isMidRequest && !hasRequestInFlight && pendingOutput == 0 }

    /// What to wait for: room to write while answers are queued; requests only while none is being answered, the
    /// client has not closed its side, and the queued answers are small. A client that pipelines, or does not read
    /// its answers, is not read from, so that its requests cannot pile up in the parser's buffer.
    var wanted: Interest {
        Interest(reads: !hasRequestInFlight && !peerClosed && pendingOutput < Self.outputHighWater,
                 writes: pendingOutput > 0)
    }

    // MARK: - Reading

    /// Takes bytes read from the socket at `now` (a request's clock starts at its first byte); `advance` parses
    /// them.
    func received(_ bytes: some Collection<UInt8>, at now: ContinuousClock.Instant) {
        if requestStarted == nil { requestStarted = now }
        parser.append(bytes)
    }

    /// The client closed its side: the requests read are answered, then the connection closes.
    func receivedEnd() {
        peerClosed = true
    }

    // MARK: - Answering

    /// Takes the complete requests buffered and writes a turn of the queued answers with `write` (given queued buffers
    /// in order, it returns the bytes the socket took, 0 when it is full, nil when the connection failed). Requests the
    /// server answers itself are answered at once; the first other one is returned to be handed to the workers, and the
    /// connection waits for its answer (`answered`) before it takes the next. `trim` is set when memory should be given
    /// back.
    func advance(
        _ now: ContinuousClock.Instant, _ context: inout ConnectionContext, trim: inout Bool,
        write: ([UnsafeRawBufferPointer]) -> Int?
    ) -> Step {
        let taken = takeRequests(now, &context)
        let step = flush(now, &context, trim: &trim, write: write)
        // With a request taken, `flush` neither takes another nor closes but for a failed write.
        guard let taken, step != .close else { return step }
        return .dispatch(taken)
    }

    /// The workers' answer to the request handed to them: queued (its buffers already held in `context.memory`,
    /// counted from the moment the worker made them) and logged. `advance` then writes it and takes the next.
    func answered(
        _ encoded: ResponseEncoder.Encoded, requestLine: String, closes: Bool, _ context: inout ConnectionContext
    ) {
        isAnswering = false
        enqueue(encoded.chunks, in: context.memory, alreadyHeld: true)
        if closes { closesAfterWrite = true }
        context.logLine(peer: peer, requestLine: requestLine, status: encoded.status, bytes: encoded.bodyBytes)
    }

    /// `request` (a `.heavy` one) waits for the queued answers to fall under the budget; `resume()` takes it back.
    func wait(_ request: HTTPRequest) {
        isAnswering = false
        waitingRequest = request
    }

    /// The request that waited for the budget, to hand to the workers now; nil when none waits.
    func resume() -> HTTPRequest? {
        guard let request = waitingRequest else { return nil }
        waitingRequest = nil
        isAnswering = true
        return request
    }

    /// Takes the complete requests buffered, in order, while nothing is in flight and the queued answers are small:
    /// answers at once those the server answers itself (errors, refusals, preflights), and returns the next other
    /// one, now in flight.
    private func takeRequests(_ now: ContinuousClock.Instant, _ context: inout ConnectionContext) -> HTTPRequest? {
        while !hasRequestInFlight, !closesAfterWrite, pendingOutput < Self.outputHighWater {
            let request: HTTPRequest
            do {
                guard let next = try parser.next() else {
                    if let head = parser.takeContinueExpectation() { answerExpectation(head, &context) }
                    return nil
                }
                request = next
            } catch {
                let response = context.responder.errorResponse(status: error.status, message: error.description)
                answerNow(response, to: nil, keepAlive: false, &context)
                return nil
            }
            requestStarted = parser.isMidRequest ? now : nil
            let keepAlive = request.keepsAlive && !context.isStopping
            if let refusal = context.policy.refusal(of: request, local: localAddress) {
                let response = context.responder.errorResponse(status: refusal.status, message: refusal.message)
                answerNow(response, to: request, keepAlive: keepAlive, &context)
            } else if context.policy.isPreflight(request) {
                answerNow(HTTPResponse(status: 204, contentType: "", body: []), to: request, keepAlive: keepAlive,
                          extra: RequestPolicy.preflightFields, &context)
            } else {
                isAnswering = true
                return request
            }
        }
        return nil
    }

    /// A request waits for its body with `Expect: 100-continue`: `100 Continue` if its head passes the checks, or
    /// the refusal at once (and a close: the body is never read).
    private func answerExpectation(_ head: HTTPRequest, _ context: inout ConnectionContext) {
        if let refusal = context.policy.refusal(of: head, local: localAddress) {
            let response = context.responder.errorResponse(status: refusal.status, message: refusal.message)
            answerNow(response, to: head, keepAlive: false, &context)
        } else {
            enqueue([AnswerBytes(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))], in: context.memory)
        }
    }

    /// Queues an answer the server makes itself (small: an error, a refusal, a preflight), and logs it.
    private func answerNow(
        _ response: HTTPResponse, to request: HTTPRequest?, keepAlive: Bool, extra: [(String, String)] = [],
        _ context: inout ConnectionContext
    ) {
        let isHead = request?.method == "HEAD"
        let fields = extra + (request.map { context.policy.corsFields(for: $0) } ?? [])
        let encoded = context.encoder.encode(response, for: request, keepAlive: keepAlive, omitsBody: isHead,
                                             extra: fields, date: context.dateHeader)
        enqueue(encoded.chunks, in: context.memory)
        if !keepAlive { closesAfterWrite = true }
        context.logLine(peer: peer, requestLine: request.map(ConnectionContext.requestLine) ?? "-",
                        status: encoded.status, bytes: encoded.bodyBytes)
    }

    // MARK: - Writing

    /// Writes a turn of the queued answers; once they are written, closes or takes the next request.
    private func flush(
        _ now: ContinuousClock.Instant, _ context: inout ConnectionContext, trim: inout Bool,
        write: ([UnsafeRawBufferPointer]) -> Int?
    ) -> Step {
        if pendingOutput > 0 {
            guard let written = writeQueued(memory: context.memory, trim: &trim, write: write) else { return .close }
            if written > 0 { lastWrite = now }
            // The rest at the next wake (the socket is full, or this connection's turn is over).
            if pendingOutput > 0 { return .watch }
        }
        if hasRequestInFlight { return .watch }
        if closesAfterWrite { return .close }
        // Requests held back while an answer was at the workers, or while the output was large, are taken now.
        if parser.isMidRequest {
            if let request = takeRequests(now, &context) { return .dispatch(request) }
            if pendingOutput > 0 { return .watch }
            if closesAfterWrite { return .close }
        }
        if peerClosed { return .close }
        if !parser.isMidRequest { idleSince = now }
        return .watch
    }

    /// Queues `chunks` after the answers already queued, held in `memory` (`alreadyHeld`: by the worker that made
    /// them, so that they counted from the moment they existed).
    private func enqueue(_ chunks: [AnswerBytes], in memory: AnswerMemory, alreadyHeld: Bool = false) {
        for chunk in chunks where chunk.count > 0 {
            if !alreadyHeld { memory.hold(chunk) }
            output.append(chunk)
            pendingOutput += chunk.count
        }
    }

    /// Writes queued bytes with `write` until the socket takes no more or `writeTurn` bytes are written; buffers
    /// fully written are released from `memory`. Returns the bytes written, or nil when the connection failed.
    ///
    /// Each call of `write` is given several queued buffers at once (an answer's head and body, the answers to
    /// pipelined requests), so that they go out in one system call and an answer never leaves half-sent between two.
    private func writeQueued(
        memory: AnswerMemory, trim: inout Bool, write: ([UnsafeRawBufferPointer]) -> Int?
    ) -> Int? {
        var written = 0
        while !output.isEmpty, written < Self.writeTurn {
            var gathered = 0
            var gatheredBytes = -outputStart
            while gathered < output.count, gathered < Socket.maximumGathered, gatheredBytes < Self.writeTurn - written {
                gatheredBytes += output[gathered].count
                gathered += 1
            }
            guard let count = Self.withBuffers(output[..<gathered], from: outputStart, write) else { return nil }
            guard count > 0 else { return written }
            written += count
            pendingOutput -= count
            var unaccounted = count
            while unaccounted > 0, let first = output.first {
                let rest = first.count - outputStart
                guard unaccounted >= rest else {
                    outputStart += unaccounted
                    break
                }
                unaccounted -= rest
                output.removeFirst()
                outputStart = 0
                if memory.release(first) { trim = true }
            }
        }
        return written
    }

    /// Calls `body` with the bytes of `chunks`, the first from `start` on (each buffer is valid only inside the
    /// `withUnsafeBytes` of its array, hence one nested call per chunk).
    private static func withBuffers<Result>(
        _ chunks: ArraySlice<AnswerBytes>, from start: Int, collected: [UnsafeRawBufferPointer] = [],
        _ body: ([UnsafeRawBufferPointer]) -> Result
    ) -> Result {
        guard let first = chunks.first else { return body(collected) }
        return first.bytes.withUnsafeBytes { raw in
            var buffers = collected
            buffers.append(UnsafeRawBufferPointer(rebasing: raw[(collected.isEmpty ? start : 0)...]))
            return withBuffers(chunks.dropFirst(), from: start, collected: buffers, body)
        }
    }

    /// Lets go of every queued buffer (the connection closes); `trim` is set when memory should be given back.
    func releaseOutput(in memory: AnswerMemory, trim: inout Bool) {
        for chunk in output where memory.release(chunk) { trim = true }
        output = []
        outputStart = 0
        pendingOutput = 0
    }

    // MARK: - Clocks

    /// What the clocks say at `now`: a request that takes longer than `context.timeouts.request` to arrive is
    /// answered 408 (then the connection closes); an idle keep-alive past `idle`, or a client whose queued answers
    /// made no progress for `write`, is closed; while an answer is being made no clock runs (when the server stops,
    /// its grace period bounds it). When the server stops, an idle connection is drained.
    func checkClocks(_ now: ContinuousClock.Instant, _ context: inout ConnectionContext) -> Verdict {
        if pendingOutput > 0 { return now - lastWrite > context.timeouts.write ? .close : .keep }
        if hasRequestInFlight { return .keep }
        if let started = requestStarted, parser.isMidRequest {
            guard now - started > context.timeouts.request else { return .keep }
            let response = context.responder.errorResponse(
                status: 408, message: "the request took longer than \(context.timeouts.request) to arrive")
            answerNow(response, to: nil, keepAlive: false, &context)
            return .advance
        }
        if context.isStopping { return .drain }
        return now - idleSince > context.timeouts.idle ? .close : .keep
    }
}
