import MovieSearchPlatform
import Synchronization

/// One event loop: a poller, the connections it accepted, and their clocks. Runs on its own thread; shares only the
/// listening socket, the connection count and the stop flag with the other loops. `@unchecked Sendable`: it is made
/// on the thread that starts the server and handed to its own thread, which alone uses it from then on.
final class EventLoop: @unchecked Sendable {
    /// The longest a wait lasts, so that timeouts and `stop()` are noticed within it.
    private static let tick: Int32 = 100
    /// Bytes read per call.
    private static let readSize = 64 * 1024
    /// Past this many bytes of unwritten answers, a connection's further pipelined requests wait.
    private static let outputHighWater = 256 * 1024

    private let server: HTTPServer
    private let configuration: HTTPServer.Configuration
    private let poller: EventPoller
    private var connections: [Int32: Connection] = [:]
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var date = HTTPDate()
    private var log: [UInt8] = []
    private var isAccepting = true
    /// Whether accepting waits for the next sweep (the process ran out of descriptors).
    private var acceptPaused = false
    private var lastSweep = ContinuousClock.now
    /// Whether the listener sits on a wildcard address (then a connection's own local address is also its host).
    private let listensOnWildcard: Bool
    /// `Host` values known good without parsing them (`HostCheck.commonValues`).
    private let commonHosts: Set<String>
    /// `commonHeaders` as the bytes of their lines.
    private let commonHeaderBytes: [UInt8]

    init(server: HTTPServer) throws(HTTPServerError) {
        self.server = server
        configuration = server.configuration
        poller = try EventPoller(backend: configuration.backend)
        readBuffer = .allocate(byteCount: Self.readSize, alignment: 16)
        commonHosts = HostCheck.commonValues(server: server.boundAddress)
        commonHeaderBytes = Array(configuration.commonHeaders.map { "\($0.name): \($0.value)\r\n" }.joined().utf8)
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
        var stopDeadline: ContinuousClock.Instant?
        while true {
            let events = poller.wait(milliseconds: Self.tick)
            let now = ContinuousClock.now
            date.update()
            for event in events {
                if event.descriptor == server.listener {
                    if isAccepting { acceptConnections(now) }
                } else if let connection = connections[event.descriptor] {
                    if event.isReadable { readAndAnswer(connection, now) }
                    if event.isWritable, connections[event.descriptor] != nil { flush(connection, now) }
                }
            }
            if stopDeadline == nil, server.isStopping.load(ordering: .acquiring) {
                stopDeadline = now + configuration.shutdownGrace
                beginStopping()
            }
            if now - lastSweep >= .milliseconds(Int(Self.tick)) || stopDeadline != nil {
                lastSweep = now
                sweep(now, stopping: stopDeadline != nil)
            }
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
            let connection = Connection(descriptor: descriptor, peer: peer, localAddress: local,
                                        limits: configuration.limits, now: now)
            connections[descriptor] = connection
            poller.add(descriptor, .readable)
        }
    }

    /// Answers a connection over the limit with a 503 (as far as one write takes it) and closes it.
    private func refuse(_ descriptor: Int32, peer: String) {
        let message = "too many connections: the server takes \(configuration.maxConnections) at once; try again"
        let response = server.responder.errorResponse(status: 503, message: message)
        var bytes: [UInt8] = []
        append(response, to: &bytes, keepAlive: false, omitsBody: false, extra: [("Retry-After", "1")])
        _ = bytes.withUnsafeBytes { Socket.write(descriptor, $0) }
        Socket.close(descriptor)
        logLine(peer: peer, requestLine: "-", status: 503, bytes: response.body.count)
    }

    // MARK: - Reading and answering

    private func readAndAnswer(_ connection: Connection, _ now: ContinuousClock.Instant) {
        var peerClosed = false
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
                peerClosed = true
                break reading
            case .failed:
                return close(connection)
            }
        }
        answerParsedRequests(connection, now)
        if peerClosed { connection.closesAfterWrite = true }
        flush(connection, now)
    }

    /// Answers the complete requests buffered, in order, while the unwritten answers stay small.
    private func answerParsedRequests(_ connection: Connection, _ now: ContinuousClock.Instant) {
        while !connection.closesAfterWrite, connection.pendingOutput < Self.outputHighWater {
            let request: HTTPRequest
            do {
                guard let next = try connection.parser.next() else { break }
                request = next
            } catch {
                let response = server.responder.errorResponse(status: error.status, message: error.description)
                append(response, to: &connection.output, keepAlive: false, omitsBody: false, extra: [])
                logLine(peer: connection.peer, requestLine: "-", status: error.status, bytes: response.body.count)
                connection.closesAfterWrite = true
                break
            }
            connection.requestStarted = connection.parser.isMidRequest ? now : nil
            answer(request, on: connection)
        }
    }

    private func answer(_ request: HTTPRequest, on connection: Connection) {
        let keepAlive = request.keepsAlive && !server.isStopping.load(ordering: .relaxed)
        let isHead = request.method == "HEAD"
        var extra: [(String, String)] = []
        let origin = request.header("origin")
        let response: HTTPResponse
        if let refusal = checkHost(request, connection) ?? checkOrigin(request, origin: origin) {
            response = refusal
        } else if let cors = configuration.corsOrigin, origin == cors, request.method == "OPTIONS",
                  request.header("access-control-request-method") != nil {
            response = HTTPResponse(status: 204, contentType: "", body: [])
            extra = [("Access-Control-Allow-Methods", "GET, HEAD, PUT, DELETE"),
                     ("Access-Control-Allow-Headers", "Content-Type"), ("Access-Control-Max-Age", "600")]
        } else {
            var asked = request
            if isHead { asked.method = "GET" }
            response = server.responder.respond(to: asked)
        }
        if let cors = configuration.corsOrigin, origin == cors {
            extra += [("Access-Control-Allow-Origin", cors), ("Vary", "Origin")]
        }
        let (sent, bodyBytes) = encode(response, for: request, keepAlive: keepAlive, omitsBody: isHead, extra: extra,
                                       into: &connection.output)
        if !keepAlive { connection.closesAfterWrite = true }
        logLine(peer: connection.peer, requestLine: "\(request.method) \(request.target) \(request.versionText)",
                status: sent, bytes: bodyBytes)
    }

    /// 421 when the `Host` names neither this server nor an allowed name (DNS rebinding: a page of another site
    /// whose name now resolves to 127.0.0.1 still sends its own name).
    private func checkHost(_ request: HTTPRequest, _ connection: Connection) -> HTTPResponse? {
        guard let host = request.header("host") else { return nil }  // HTTP/1.0 without one: nothing to check
        if commonHosts.contains(host)
            || HostCheck.allows(host, server: server.boundAddress, local: connection.localAddress,
                                allowedNames: configuration.allowedHosts) { return nil }
        return server.responder.errorResponse(
            status: 421, message: "this server does not answer for host '\(HTTPRequest.excerpt(host))'")
    }

    /// 403 for a write whose `Origin` is another site's: a page elsewhere must not change favorites.
    private func checkOrigin(_ request: HTTPRequest, origin: String?) -> HTTPResponse? {
        guard let origin, !["GET", "HEAD", "OPTIONS"].contains(request.method) else { return nil }
        // The server's own origin: http on this host (checked above). Behind a proxy that ends TLS, the https origin
        // is named with --cors-origin, as any other.
        if let host = request.header("host"), origin == "http://" + host { return nil }
        if let cors = configuration.corsOrigin, origin == cors { return nil }
        return server.responder.errorResponse(
            status: 403, message: "a \(request.method) from origin '\(HTTPRequest.excerpt(origin))' is refused: "
                + "only this server's own pages may change data")
    }

    /// Adds the answer to `output`, with an `ETag`, a 304, or gzip where they apply; returns the status sent and
    /// the body's bytes sent.
    private func encode(
        _ response: HTTPResponse, for request: HTTPRequest, keepAlive: Bool, omitsBody: Bool,
        extra: [(String, String)], into output: inout [UInt8]
    ) -> (status: Int, bytes: Int) {
        guard response.isRevalidatable, response.status == 200 else {
            append(response, to: &output, keepAlive: keepAlive, omitsBody: omitsBody, extra: extra)
            return (response.status, omitsBody ? 0 : response.body.count)
        }
        var answer = response
        var fields = extra
        let tag = EntityTag.of(response.body)
        let gzipped = response.isCompressible && response.body.count >= GzipEncoder.minimumBytes
            && AcceptEncoding.allowsGzip(request.header("accept-encoding"))
        if response.isCompressible { fields.append(("Vary", "Accept-Encoding")) }
        fields.append(("Cache-Control", "no-cache"))
        if let asked = request.header("if-none-match"), EntityTag.matches(asked, tag) {
            fields.append(("ETag", gzipped ? tag.gzipVariant : tag.value))
            answer.status = 304
            answer.body = []
            append(answer, to: &output, keepAlive: keepAlive, omitsBody: true, extra: fields)
            return (304, 0)
        }
        if gzipped, let compressed = GzipEncoder.compress(response.body), compressed.count < response.body.count {
            answer.body = compressed
            fields.append(("Content-Encoding", "gzip"))
            fields.append(("ETag", tag.gzipVariant))
        } else {
            fields.append(("ETag", tag.value))
        }
        append(answer, to: &output, keepAlive: keepAlive, omitsBody: omitsBody, extra: fields)
        return (200, omitsBody ? 0 : answer.body.count)
    }

    /// The status line, the fields and (unless `omitsBody`) the body.
    private func append(
        _ response: HTTPResponse, to output: inout [UInt8], keepAlive: Bool, omitsBody: Bool,
        extra: [(String, String)]
    ) {
        // Appended piece by piece, without building the head as one string first: this runs for every answer.
        output.append(contentsOf: "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\nDate: ".utf8)
        output.append(contentsOf: date.header.utf8)
        if response.status != 304 && response.status != 204 {
            if !response.contentType.isEmpty {
                output.append(contentsOf: "\r\nContent-Type: ".utf8)
                output.append(contentsOf: response.contentType.utf8)
            }
            output.append(contentsOf: "\r\nContent-Length: \(response.body.count)".utf8)
        }
        output.append(contentsOf: "\r\n".utf8)
        output.append(contentsOf: commonHeaderBytes)
        for field in response.headers { output.append(contentsOf: "\(field.name): \(field.value)\r\n".utf8) }
        for (name, value) in extra { output.append(contentsOf: "\(name): \(value)\r\n".utf8) }
        output.append(contentsOf: (keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n").utf8)
        if !omitsBody { output.append(contentsOf: response.body) }
    }

    // MARK: - Writing

    private func flush(_ connection: Connection, _ now: ContinuousClock.Instant) {
        while connection.pendingOutput > 0 {
            let result = connection.output.withUnsafeBytes {
                Socket.write(connection.descriptor, UnsafeRawBufferPointer(rebasing: $0[connection.outputStart...]))
            }
            switch result {
            case let .bytes(count):
                connection.outputStart += count
                connection.lastWrite = now
            case .wouldBlock:
                // A client that does not read its answers is not read from either, past the high-water mark:
                // otherwise its pipelined requests would pile up in the parser's buffer without bound.
                let reads = connection.pendingOutput < Self.outputHighWater
                return setInterest(connection, reads ? [.readable, .writable] : .writable)
            case .closed, .failed:
                return close(connection)
            }
        }
        connection.output.removeAll(keepingCapacity: connection.output.capacity <= 64 * 1024)
        connection.outputStart = 0
        if connection.closesAfterWrite { return close(connection) }
        if !connection.parser.isMidRequest { connection.idleSince = now }
        setInterest(connection, .readable)
        // Requests held back while the output was large are answered now.
        if connection.parser.isMidRequest {
            answerParsedRequests(connection, now)
            if connection.pendingOutput > 0 || connection.closesAfterWrite { flush(connection, now) }
        }
    }

    private func setInterest(_ connection: Connection, _ interest: EventPoller.Interest) {
        guard connection.interest != interest else { return }
        connection.interest = interest
        poller.modify(connection.descriptor, interest)
    }

    private func close(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
        poller.remove(connection.descriptor)
        Socket.close(connection.descriptor)
        server.openConnections.subtract(1, ordering: .relaxed)
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
            } else if let started = connection.requestStarted, connection.parser.isMidRequest {
                if now - started > configuration.requestTimeout {
                    let response = server.responder.errorResponse(
                        status: 408, message: "the request took longer than \(configuration.requestTimeout) to arrive")
                    append(response, to: &connection.output, keepAlive: false, omitsBody: false, extra: [])
                    logLine(peer: connection.peer, requestLine: "-", status: 408, bytes: response.body.count)
                    connection.closesAfterWrite = true
                    flush(connection, now)
                }
            } else if stopping {
                // A request that arrived since the last wait is read and answered (with `Connection: close`), not
                // dropped with the idle connection it came on.
                readAndAnswer(connection, now)
                if connections[connection.descriptor] === connection, !connection.parser.isMidRequest,
                   connection.pendingOutput == 0 {
                    close(connection)
                }
            } else if now - connection.idleSince > configuration.idleTimeout {
                close(connection)
            }
        }
    }

    private func beginStopping() {
        isAccepting = false
        if !acceptPaused { poller.remove(server.listener) }
    }

    // MARK: - Access log

    private func logLine(peer: String, requestLine: String, status: Int, bytes: Int) {
        guard configuration.logsRequests else { return }
        let size = bytes > 0 ? String(bytes) : "-"
        log.append(contentsOf: "\(peer) - - [\(date.logTime)] \"\(requestLine)\" \(status) \(size)\n".utf8)
    }

    /// Writes the lines of this wake in one call, so that lines of several loops never interleave mid-line.
    private func writeLog() {
        guard !log.isEmpty else { return }
        _ = log.withUnsafeBytes { Syscalls.writeAll(2, $0) }
        log.removeAll(keepingCapacity: true)
    }
}
