import MovieSearchPlatform
import Synchronization

/// One event loop: a poller, the connections it accepted, and their clocks. It only moves bytes: it reads and
/// parses requests, checks them (`RequestPolicy`), hands each to the workers of its lane, and writes the answers
/// the workers post back to its `LoopMailbox`; nothing on it waits for a file, a lock or a long render. Runs on its
/// own thread; shares only the listening socket, the workers, the answer memory, the connection count and the stop
/// flag with the other loops. `@unchecked Sendable`: it is made on the thread that starts the server and handed to
/// its own thread, which alone uses it from then on.
final class EventLoop: @unchecked Sendable {
    /// The longest a wait lasts, so that timeouts and `stop()` are noticed within it.
    private static let tick: Int32 = 100
    /// Bytes read per call.
    private static let readSize = 64 * 1024
    /// Past this many bytes of unwritten answers, a connection is not read from, and its further pipelined requests
    /// wait in its parser.
    private static let outputHighWater = 256 * 1024
    /// The most bytes written to one connection per wake: a client that reads as fast as the loop writes gets a
    /// turn, then the others theirs (nginx's `sendfile_max_chunk` does the same).
    private static let writeTurn = 512 * 1024

    private let server: HTTPServer
    private let configuration: HTTPServer.Configuration
    private let poller: EventPoller
    private let mailbox: LoopMailbox
    private let policy: RequestPolicy
    private var connections: [Int32: Connection] = [:]
    private var nextSerial: UInt64 = 0
    /// Connections whose `.heavy` request waits for the queued answers to fall under the budget, first come first.
    private var waiting: [Connection] = []
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var date = HTTPDate()
    /// The access log's lines of this wake, and their number.
    private var log: [UInt8] = []
    private var logLines = 0
    private var isAccepting = true
    private var isStopping = false
    /// Whether accepting waits for the next sweep (the process ran out of descriptors).
    private var acceptPaused = false
    private var lastSweep = ContinuousClock.now
    /// Whether the listener sits on a wildcard address (then a connection's own local address is also its host).
    private let listensOnWildcard: Bool

    init(server: HTTPServer) throws(HTTPServerError) {
        self.server = server
        configuration = server.configuration
        do {
            poller = try EventPoller(backend: configuration.backend)
        } catch {
            throw .eventLoop(error)
        }
        mailbox = try LoopMailbox()
        policy = server.policy
        readBuffer = .allocate(byteCount: Self.readSize, alignment: 16)
        switch server.boundAddress.host {
        case let .ipv4(a, b, c, d): listensOnWildcard = a == 0 && b == 0 && c == 0 && d == 0
        case let .ipv6(bytes): listensOnWildcard = bytes.allSatisfy { $0 == 0 }
        }
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Serves until `stop()`, then until the requests in flight are done or the grace period ends.
    func run() {
        poller.add(server.listener, .readable, exclusive: true)
        poller.add(mailbox.readDescriptor, .readable)
        var stopDeadline: ContinuousClock.Instant?
        while true {
            let events = poller.wait(milliseconds: Self.tick)
            let now = ContinuousClock.now
            date.update()
            for event in events {
                if event.descriptor == server.listener {
                    if isAccepting { acceptConnections(now) }
                } else if event.descriptor == mailbox.readDescriptor {
                    deliverAnswers(now)
                } else if let connection = connections[event.descriptor] {
                    if event.isReadable { readAndAnswer(connection, now) }
                    if event.isWritable, connections[event.descriptor] === connection { flush(connection, now) }
                }
            }
            if stopDeadline == nil, server.isStopping.load(ordering: .acquiring) {
                stopDeadline = now + configuration.shutdownGrace
                beginStopping()
            }
            if now - lastSweep >= .milliseconds(Int(Self.tick)) || stopDeadline != nil {
                lastSweep = now
                // A wake-up lost to a full pipe (it cannot fill) would be made up for here.
                deliverAnswers(now)
                sweep(now, stopping: stopDeadline != nil)
            }
            resumeWaiting(now)
            writeLog()
            if let stopDeadline, connections.isEmpty || now >= stopDeadline { break }
        }
        for connection in Array(connections.values) { close(connection) }
        writeLog()
    }

    // MARK: - Accepting

    private func acceptConnections(_ now: ContinuousClock.Instant) {
        // A few at a time, so that a flood of connections cannot starve the requests of those already open.
        for _ in 0..<64 {
            let descriptor: Int32, peer: String
            switch Socket.accept(server.listener) {
            case let .connection(accepted, address):
                (descriptor, peer) = (accepted, address)
            case .none:
                return
            case .exhausted:
                // Out of descriptors: the listener stays readable, so waiting on it would spin. Pause accepting
                // until the next sweep; connections closing meanwhile make room.
                poller.remove(server.listener)
                acceptPaused = true
                return
            }
            let open = server.openConnections.add(1, ordering: .relaxed).newValue
            if open > configuration.maxConnections {
                server.openConnections.subtract(1, ordering: .relaxed)
                refuse(descriptor, peer: peer)
                continue
            }
            let local = listensOnWildcard ? Socket.localAddress(descriptor) : nil
            nextSerial += 1
            let connection = Connection(descriptor: descriptor, serial: nextSerial, peer: peer, localAddress: local,
                                        limits: configuration.limits, now: now)
            connections[descriptor] = connection
            poller.add(descriptor, .readable)
        }
    }

    /// Answers a connection over the limit with a 503 (as far as one write takes it) and closes it.
    private func refuse(_ descriptor: Int32, peer: String) {
        let message = "too many connections: the server takes \(configuration.maxConnections) at once; try again"
        let response = server.responder.errorResponse(status: 503, message: message)
        let encoded = server.encoder.encode(response, for: nil, keepAlive: false, omitsBody: false,
                                            extra: [("Retry-After", "1")], date: date.header)
        let bytes = encoded.chunks.flatMap(\.bytes)
        _ = bytes.withUnsafeBytes { Socket.write(descriptor, $0) }
        Socket.close(descriptor)
        logLine(peer: peer, requestLine: "-", status: 503, bytes: encoded.bodyBytes)
    }

    // MARK: - Reading and answering

    private func readAndAnswer(_ connection: Connection, _ now: ContinuousClock.Instant) {
        // Read what is there, a bounded amount per wake so that one fast client cannot hold the loop.
        reading: for _ in 0..<4 {
            switch Socket.read(connection.descriptor, into: readBuffer) {
            case let .bytes(count):
                if connection.requestStarted == nil { connection.requestStarted = now }
                connection.parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
                if count < readBuffer.count { break reading }
            case .wouldBlock:
                break reading
            case .closed:
                connection.peerClosed = true
                break reading
            case .failed:
                return close(connection)
            }
        }
        answerParsedRequests(connection, now)
        flush(connection, now)
    }

    /// Takes the complete requests buffered, in order: answers at once those the server answers itself (errors,
    /// refusals, preflights), and hands the next other one to the workers, then stops until its answer is back.
    private func answerParsedRequests(_ connection: Connection, _ now: ContinuousClock.Instant) {
        while !connection.hasRequestInFlight, !connection.closesAfterWrite,
              connection.pendingOutput < Self.outputHighWater {
            let request: HTTPRequest
            do {
                guard let next = try connection.parser.next() else {
                    if let head = connection.parser.takeContinueExpectation() { answerExpectation(head, connection) }
                    break
                }
                request = next
            } catch {
                let response = server.responder.errorResponse(status: error.status, message: error.description)
                answerNow(response, to: nil, on: connection, keepAlive: false)
                connection.closesAfterWrite = true
                break
            }
            connection.requestStarted = connection.parser.isMidRequest ? now : nil
            answer(request, on: connection)
        }
    }

    /// A request waits for its body with `Expect: 100-continue`: `100 Continue` if its head passes the checks, or
    /// the refusal at once (and a close: the body is never read).
    private func answerExpectation(_ head: HTTPRequest, _ connection: Connection) {
        if let refusal = policy.refusal(of: head, local: connection.localAddress) {
            let response = server.responder.errorResponse(status: refusal.status, message: refusal.message)
            answerNow(response, to: head, on: connection, keepAlive: false)
            connection.closesAfterWrite = true
        } else {
            connection.enqueue([AnswerBytes(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))], in: server.memory)
        }
    }

    private func answer(_ request: HTTPRequest, on connection: Connection) {
        let keepAlive = request.keepsAlive && !isStopping
        if let refusal = policy.refusal(of: request, local: connection.localAddress) {
            let response = server.responder.errorResponse(status: refusal.status, message: refusal.message)
            return answerNow(response, to: request, on: connection, keepAlive: keepAlive)
        }
        if policy.isPreflight(request) {
            return answerNow(HTTPResponse(status: 204, contentType: "", body: []), to: request, on: connection,
                             keepAlive: keepAlive, extra: RequestPolicy.preflightFields)
        }
        dispatch(request, on: connection)
    }

    /// Queues an answer the loop makes itself (small: an error, a refusal, a preflight).
    private func answerNow(
        _ response: HTTPResponse, to request: HTTPRequest?, on connection: Connection, keepAlive: Bool,
        extra: [(String, String)] = []
    ) {
        let isHead = request?.method == "HEAD"
        let fields = extra + (request.map { policy.corsFields(for: $0) } ?? [])
        let encoded = server.encoder.encode(response, for: request, keepAlive: keepAlive, omitsBody: isHead,
                                            extra: fields, date: date.header)
        connection.enqueue(encoded.chunks, in: server.memory)
        if !keepAlive { connection.closesAfterWrite = true }
        logLine(peer: connection.peer, requestLine: request.map(Self.requestLine) ?? "-", status: encoded.status,
                bytes: encoded.bodyBytes)
    }

    /// Hands `request` to the workers of its lane; a `.heavy` one waits while the queued answers are over the
    /// budget (the worker checks again when it starts).
    private func dispatch(_ request: HTTPRequest, on connection: Connection) {
        var headAsGet = request
        if headAsGet.method == "HEAD" { headAsGet.method = "GET" }
        let asked = headAsGet
        let lane = server.responder.lane(for: asked)
        if lane == .heavy, !isStopping, server.memory.isOverBudget {
            connection.waitingRequest = request
            waiting.append(connection)
            return
        }
        connection.isAnswering = true
        let keepAlive = request.keepsAlive && !isStopping
        let extra = policy.corsFields(for: request)
        let (dateHeader, mailbox, responder, encoder, memory) = (date.header, mailbox, server.responder,
                                                                 server.encoder, server.memory)
        let (descriptor, serial, checksBudget) = (connection.descriptor, connection.serial, lane == .heavy
            && !isStopping)
        server.workers(lane).submit {
            if checksBudget, memory.isOverBudget {
                mailbox.post(.init(descriptor: descriptor, serial: serial, outcome: .deferred(request)))
                return
            }
            let response = responder.respond(to: asked)
            let encoded = encoder.encode(response, for: request, keepAlive: keepAlive,
                                         omitsBody: request.method == "HEAD", extra: extra, date: dateHeader)
            // Counted from now, so that the next heavy job sees it against the budget before the loop queues it.
            for chunk in encoded.chunks where chunk.count > 0 { memory.hold(chunk) }
            mailbox.post(.init(descriptor: descriptor, serial: serial,
                               outcome: .answered(encoded, requestLine: Self.requestLine(request),
                                                  closes: !keepAlive)))
        }
    }

    /// Queues the answers the workers posted, and takes each connection's next request.
    private func deliverAnswers(_ now: ContinuousClock.Instant) {
        for delivery in mailbox.take() {
            // The connection may have closed meanwhile (and its descriptor been reused): then the answer is dropped.
            guard let connection = connections[delivery.descriptor], connection.serial == delivery.serial else {
                if case let .answered(encoded, _, _) = delivery.outcome {
                    var trims = false
                    for chunk in encoded.chunks where chunk.count > 0 && server.memory.release(chunk) { trims = true }
                    if trims { giveMemoryBack() }
                }
                continue
            }
            connection.isAnswering = false
            switch delivery.outcome {
            case let .deferred(request):
                connection.waitingRequest = request
                waiting.append(connection)
            case let .answered(encoded, requestLine, closes):
                connection.enqueue(encoded.chunks, in: server.memory, alreadyHeld: true)
                if closes { connection.closesAfterWrite = true }
                logLine(peer: connection.peer, requestLine: requestLine, status: encoded.status,
                        bytes: encoded.bodyBytes)
                answerParsedRequests(connection, now)
                flush(connection, now)
            }
        }
    }

    /// Hands the waiting `.heavy` requests to the workers once the queued answers are under the budget (or the
    /// server stops: then nothing waits).
    private func resumeWaiting(_ now: ContinuousClock.Instant) {
        guard !waiting.isEmpty, isStopping || !server.memory.isOverBudget else { return }
        let resumed = waiting
        waiting = []
        for connection in resumed {
            guard connections[connection.descriptor] === connection, let request = connection.waitingRequest else {
                continue
            }
            connection.waitingRequest = nil
            dispatch(request, on: connection)
        }
    }

    private static func requestLine(_ request: HTTPRequest) -> String {
        "\(request.method) \(request.target) \(request.versionText)"
    }

    // MARK: - Writing

    /// Writes a turn of the connection's queued answers; once they are written, closes it or takes its next
    /// request.
    private func flush(_ connection: Connection, _ now: ContinuousClock.Instant) {
        if connection.pendingOutput > 0 {
            var trims = false
            let written = connection.writeQueued(limit: Self.writeTurn, memory: server.memory, trim: &trims) {
                Socket.write(connection.descriptor, $0)
            }
            if trims { giveMemoryBack() }
            guard let written else { return close(connection) }
            if written > 0 { connection.lastWrite = now }
            // The rest at the next wake (the socket is full, or this connection's turn is over).
            if connection.pendingOutput > 0 { return updateInterest(connection) }
        }
        if connection.hasRequestInFlight { return updateInterest(connection) }
        if connection.closesAfterWrite { return close(connection) }
        // Requests held back while an answer was at the workers, or while the output was large, are taken now.
        if connection.parser.isMidRequest {
            answerParsedRequests(connection, now)
            if connection.pendingOutput > 0 || connection.hasRequestInFlight { return updateInterest(connection) }
            if connection.closesAfterWrite { return close(connection) }
        }
        if connection.peerClosed { return close(connection) }
        if !connection.parser.isMidRequest { connection.idleSince = now }
        updateInterest(connection)
    }

    /// Waits for room to write while answers are queued, and for requests only while none is being answered and
    /// the queued answers are small: a client that pipelines, or does not read its answers, is not read from, so
    /// that its requests cannot pile up in the parser's buffer.
    private func updateInterest(_ connection: Connection) {
        var interest: EventPoller.Interest = []
        if connection.pendingOutput > 0 { interest.insert(.writable) }
        if !connection.hasRequestInFlight, !connection.peerClosed,
           connection.pendingOutput < Self.outputHighWater { interest.insert(.readable) }
        guard connection.interest != interest else { return }
        connection.interest = interest
        poller.modify(connection.descriptor, interest)
    }

    private func close(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
        poller.remove(connection.descriptor)
        Socket.close(connection.descriptor)
        var trims = false
        connection.releaseOutput(in: server.memory, trim: &trims)
        if trims { giveMemoryBack() }
        server.openConnections.subtract(1, ordering: .relaxed)
    }

    /// Gives freed memory back to the system, on a worker (it takes milliseconds on a large heap).
    private func giveMemoryBack() {
        let memory = server.memory
        server.workers(.quick).submit { memory.giveBack() }
    }

    // MARK: - Clocks and stopping

    /// Drops connections past their clocks: a request that takes too long (408), an idle keep-alive, a client that
    /// does not read; when stopping, every connection with nothing in flight.
    private func sweep(_ now: ContinuousClock.Instant, stopping: Bool) {
        if acceptPaused, isAccepting {
            acceptPaused = false
            poller.add(server.listener, .readable, exclusive: true)
        }
        for connection in Array(connections.values) {
            if connection.pendingOutput > 0 {
                if now - connection.lastWrite > configuration.writeTimeout { close(connection) }
            } else if connection.hasRequestInFlight {
                continue  // its answer is being made: no clock runs (the grace period bounds it when stopping)
            } else if let started = connection.requestStarted, connection.parser.isMidRequest {
                if now - started > configuration.requestTimeout {
                    let response = server.responder.errorResponse(
                        status: 408, message: "the request took longer than \(configuration.requestTimeout) to arrive")
                    answerNow(response, to: nil, on: connection, keepAlive: false)
                    flush(connection, now)
                }
            } else if stopping {
                // A request that arrived since the last wait is read and answered (with `Connection: close`), not
                // dropped with the idle connection it came on.
                readAndAnswer(connection, now)
                if connections[connection.descriptor] === connection, !connection.parser.isMidRequest,
                   !connection.hasRequestInFlight, connection.pendingOutput == 0 {
                    close(connection)
                }
            } else if now - connection.idleSince > configuration.idleTimeout {
                close(connection)
            }
        }
    }

    private func beginStopping() {
        isStopping = true
        isAccepting = false
        if !acceptPaused { poller.remove(server.listener) }
    }

    // MARK: - Access log

    private func logLine(peer: String, requestLine: String, status: Int, bytes: Int) {
        guard configuration.accessLog != nil else { return }
        let size = bytes > 0 ? String(bytes) : "-"
        log.append(contentsOf: "\(peer) - - [\(date.logTime)] \"\(requestLine)\" \(status) \(size)\n".utf8)
        logLines += 1
    }

    /// Hands the lines of this wake to the access log in one piece (its thread writes them; never this one).
    private func writeLog() {
        guard !log.isEmpty, let accessLog = configuration.accessLog else { return }
        accessLog.add(log, count: logLines)
        log.removeAll(keepingCapacity: true)
        logLines = 0
    }
}
