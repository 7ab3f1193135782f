import MovieSearchPlatform
import Synchronization

/// One event loop: a poller, the connections it accepted, and the workers' answers to them. It only moves bytes:
/// it accepts (up to the connection cap), reads what the sockets have and hands it to each `Connection`, which parses,
/// checks and answers what it can itself; it hands the requests a connection gives it to the workers of their lane,
/// and writes the answers the workers post back to its `LoopMailbox`; it closes what a connection or its clocks say
/// to close. Nothing on it waits for a file, a lock or a long render. Runs on its own thread; shares only the
/// listening socket, the workers, the answer memory, the connection count and the stop flag with the other loops.
/// `@unchecked Sendable`: it is made on the thread that starts the server and handed to its own thread, which alone
/// uses it from then on.
final class EventLoop: @unchecked Sendable {
    /// The longest a wait lasts, so that timeouts and `stop()` are noticed within it.
    private static let tick: Int32 = 100
    /// Bytes read per call.
    private static let readSize = 64 * 1024

    private let server: HTTPServer
    private let configuration: HTTPServer.Configuration
    private let poller: EventPoller
    private let mailbox: LoopMailbox
    /// What the connections share: the checks, the encoder, the clocks' limits, this wake's date and log lines.
    private var context: ConnectionContext
    private var connections: [Int32: Connection] = [:]
    private var nextSerial: UInt64 = 0
    /// Connections whose `.heavy` request waits for the queued answers to fall under the budget, first come first.
    private var waiting: [Connection] = []
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var date = HTTPDate()
    private var isAccepting = true
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
        context = ConnectionContext(
            policy: server.policy, responder: server.responder, encoder: server.encoder, memory: server.memory,
            timeouts: .init(request: configuration.requestTimeout, idle: configuration.idleTimeout,
                            write: configuration.writeTimeout),
            logsRequests: configuration.accessLog != nil)
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
            context.dateHeader = date.header
            context.logTime = date.logTime
            for event in events {
                if event.descriptor == server.listener {
                    if isAccepting { acceptConnections(now) }
                } else if event.descriptor == mailbox.readDescriptor {
                    deliverAnswers(now)
                } else if let connection = connections[event.descriptor] {
                    if event.isReadable { read(connection, now) }
                    if event.isWritable, connections[event.descriptor] === connection { advance(connection, now) }
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
                sweep(now)
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
                                            extra: [("Retry-After", "1")], date: context.dateHeader)
        let bytes = encoded.chunks.flatMap(\.bytes)
        _ = bytes.withUnsafeBytes { Socket.write(descriptor, $0) }
        Socket.close(descriptor)
        context.logLine(peer: peer, requestLine: "-", status: 503, bytes: encoded.bodyBytes)
    }

    // MARK: - Moving bytes

    /// Reads what the socket has, a bounded amount per wake so that one fast client cannot hold the loop, and lets
    /// the connection answer it.
    private func read(_ connection: Connection, _ now: ContinuousClock.Instant) {
        reading: for _ in 0..<4 {
            switch Socket.read(connection.descriptor, into: readBuffer) {
            case let .bytes(count):
                connection.received(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]), at: now)
                if count < readBuffer.count { break reading }
            case .wouldBlock:
                break reading
            case .closed:
                connection.receivedEnd()
                break reading
            case .failed:
                return close(connection)
            }
        }
        advance(connection, now)
    }

    /// Lets the connection take its requests and write a turn of its answers to its socket, and does what it says.
    private func advance(_ connection: Connection, _ now: ContinuousClock.Instant) {
        var trims = false
        let descriptor = connection.descriptor
        let step = connection.advance(now, &context, trim: &trims) { buffers in
            switch Socket.write(descriptor, gathering: buffers) {
            case let .bytes(count): count
            case .wouldBlock: 0
            case .closed, .failed: nil
            }
        }
        if trims { giveMemoryBack() }
        switch step {
        case let .dispatch(request):
            dispatch(request, on: connection)
            watch(connection)
        case .watch:
            watch(connection)
        case .close:
            close(connection)
        }
    }

    /// Tells the poller what the connection waits for now, when that changed.
    private func watch(_ connection: Connection) {
        let wanted = connection.wanted
        guard connection.watched != wanted else { return }
        connection.watched = wanted
        var interest: EventPoller.Interest = []
        if wanted.writes { interest.insert(.writable) }
        if wanted.reads { interest.insert(.readable) }
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

    // MARK: - The workers

    /// Hands `request` to the workers of its lane; a `.heavy` one waits while the queued answers are over the
    /// budget (the worker checks again when it starts).
    private func dispatch(_ request: HTTPRequest, on connection: Connection) {
        var headAsGet = request
        if headAsGet.method == "HEAD" { headAsGet.method = "GET" }
        let asked = headAsGet
        let isStopping = context.isStopping
        let lane = server.responder.lane(for: asked)
        if lane == .heavy, !isStopping, server.memory.isOverBudget {
            connection.wait(request)
            waiting.append(connection)
            return
        }
        let keepAlive = request.keepsAlive && !isStopping
        let extra = context.policy.corsFields(for: request)
        let (dateHeader, mailbox, responder, encoder, memory) = (context.dateHeader, mailbox, server.responder,
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
                               outcome: .answered(encoded, requestLine: ConnectionContext.requestLine(request),
                                                  closes: !keepAlive)))
        }
    }

    /// Hands the workers' answers to their connections, which write them and take their next requests.
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
            switch delivery.outcome {
            case let .deferred(request):
                connection.wait(request)
                waiting.append(connection)
            case let .answered(encoded, requestLine, closes):
                connection.answered(encoded, requestLine: requestLine, closes: closes, &context)
                advance(connection, now)
            }
        }
    }

    /// Hands the waiting `.heavy` requests to the workers once the queued answers are under the budget (or the
    /// server stops: then nothing waits).
    private func resumeWaiting(_ now: ContinuousClock.Instant) {
        guard !waiting.isEmpty, context.isStopping || !server.memory.isOverBudget else { return }
        let resumed = waiting
        waiting = []
        for connection in resumed {
            guard connections[connection.descriptor] === connection, let request = connection.resume() else {
                continue
            }
            dispatch(request, on: connection)
        }
    }

    // MARK: - Clocks and stopping

    /// Does what each connection's clocks say: drops those past them (after a 408 for a request that took too
    /// long); when stopping, reads each idle one once more and closes it.
    private func sweep(_ now: ContinuousClock.Instant) {
        if acceptPaused, isAccepting {
            acceptPaused = false
            poller.add(server.listener, .readable, exclusive: true)
        }
        for connection in Array(connections.values) {
            switch connection.checkClocks(now, &context) {
            case .keep:
                continue
            case .advance:
                advance(connection, now)
            case .drain:
                read(connection, now)
                if connections[connection.descriptor] === connection, connection.isIdle { close(connection) }
            case .close:
                close(connection)
            }
        }
    }

    private func beginStopping() {
        context.isStopping = true
        isAccepting = false
        if !acceptPaused { poller.remove(server.listener) }
    }

    /// Hands the access log's lines of this wake to the log in one piece (its thread writes them; never this one).
    private func writeLog() {
        guard let accessLog = configuration.accessLog else { return }
        context.handLog(to: accessLog)
    }
}
