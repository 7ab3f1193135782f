#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@testable import MovieSearchHTTP
import TestSupport
import XCTest

/// `HTTPServer` on real sockets, each test on every backend (`epoll` and `poll` on Linux): framing, keep-alive,
/// pipelining, HEAD, closing, errors, the Host and Origin checks, CORS, ETags, gzip, the clocks, the connection
/// limit, slow clients and stopping.
final class HTTPServerTests: XCTestCase {
    // MARK: - Framing and connections

    func testGetIsAnsweredWithItsFraming() throws {
        for backend in testedBackends {
            try withServer(backend) { server, responder in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/echo?q=1", server))
                let response = try client.readResponse()
                XCTAssertEqual(response.status, 200, "\(backend)")
                XCTAssertEqual(response.text, "GET /echo?q=1\n", "\(backend)")
                XCTAssertEqual(response.header("Content-Length"), String(response.body.count), "\(backend)")
                XCTAssertEqual(response.header("Content-Type"), "text/plain", "\(backend)")
                XCTAssertEqual(response.header("Connection"), "keep-alive", "\(backend)")
                XCTAssertTrue(response.header("Date")?.hasSuffix(" GMT") ?? false, "\(backend)")
                XCTAssertNil(response.header("ETag"), "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 1, "\(backend)")
            }
        }
    }

    func testCommonHeadersAndABodyAreSent() throws {
        for backend in testedBackends {
            try withServer(backend, configure: {
                $0.commonHeaders = [.init(name: "X-Content-Type-Options", value: "nosniff")]
            }) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/echo", server, "Content-Length: 5\r\n", method: "POST") + "hello")
                let response = try client.readResponse()
                XCTAssertEqual(response.text, "POST /echo\nhello", "\(backend)")
                XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff", "\(backend)")
            }
        }
    }

    func testKeepAliveAnswersTwoRequestsOnOneConnection() throws {
        for backend in testedBackends {
            try withServer(backend) { server, responder in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/first", server))
                XCTAssertEqual(try client.readResponse().text, "GET /first\n", "\(backend)")
                try client.send(get("/second", server))
                let second = try client.readResponse()
                XCTAssertEqual(second.text, "GET /second\n", "\(backend)")
                XCTAssertEqual(second.header("Connection"), "keep-alive", "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 2, "\(backend)")
            }
        }
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        for backend in testedBackends {
            try withServer(backend) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/1", server) + get("/2", server, "Content-Length: 3\r\n", method: "PUT") + "abc"
                                + get("/3", server))
                XCTAssertEqual(try client.readResponse().text, "GET /1\n", "\(backend)")
                XCTAssertEqual(try client.readResponse().text, "PUT /2\nabc", "\(backend)")
                XCTAssertEqual(try client.readResponse().text, "GET /3\n", "\(backend)")
            }
        }
    }

    func testHeadHasTheHeadersOfGetButNoBody() throws {
        for backend in testedBackends {
            try withServer(backend) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/echo", server, method: "HEAD"))
                let head = try client.readResponse(omitsBody: true)
                XCTAssertEqual(head.status, 200, "\(backend)")
                // The responder saw a GET: the length is that of "GET /echo\n".
                XCTAssertEqual(head.header("Content-Length"), "10", "\(backend)")
                // The next answer starts right after the head: no body was sent.
                try client.send(get("/after", server, "Connection: close\r\n"))
                XCTAssertEqual(try client.readResponse().text, "GET /after\n", "\(backend)")
                XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)")
            }
        }
    }

    func testConnectionCloseClosesAfterTheAnswer() throws {
        for backend in testedBackends {
            try withServer(backend) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                // A request pipelined after the one that closes is not answered.
                try client.send(get("/echo", server, "Connection: close\r\n") + get("/never", server))
                let response = try client.readResponse()
                XCTAssertEqual(response.text, "GET /echo\n", "\(backend)")
                XCTAssertEqual(response.header("Connection"), "close", "\(backend)")
                XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)")
            }
        }
    }

    func testHTTP10ClosesUnlessAskedToKeepAlive() throws {
        for backend in testedBackends {
            try withServer(backend) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send("GET /old HTTP/1.0\r\n\r\n")
                let response = try client.readResponse()
                XCTAssertEqual(response.text, "GET /old\n", "\(backend)")
                XCTAssertEqual(response.header("Connection"), "close", "\(backend)")
                XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)")

                let keeping = try TestClient(port: server.boundAddress.port)
                try keeping.send("GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                XCTAssertEqual(try keeping.readResponse().header("Connection"), "keep-alive", "\(backend)")
                try keeping.send("GET /again HTTP/1.0\r\n\r\n")
                XCTAssertEqual(try keeping.readResponse().text, "GET /again\n", "\(backend)")
                XCTAssertEqual(try keeping.readUntilClosed(), [], "\(backend)")
            }
        }
    }

    func testAClientThatHalfClosesAfterItsRequestIsStillAnswered() throws {
        for backend in testedBackends {
            try withServer(backend) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/1", server) + get("/2", server))
                XCTAssertEqual(shutdown(client.descriptor, Int32(SHUT_WR)), 0)
                XCTAssertEqual(try client.readResponse().text, "GET /1\n", "\(backend)")
                XCTAssertEqual(try client.readResponse().text, "GET /2\n", "\(backend)")
                XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)")
            }
        }
    }

    func testAParseErrorIsAnsweredAndCloses() throws {
        for backend in testedBackends {
            try withServer(backend) { server, responder in
                let folded = try TestClient(port: server.boundAddress.port)
                try folded.send("GET /a HTTP/1.1\r\nHost: \(server.hostHeader)\r\nX-A: 1\r\n continued\r\n\r\n")
                let response = try folded.readResponse()
                XCTAssertEqual(response.status, 400, "\(backend)")
                XCTAssertEqual(response.header("Connection"), "close", "\(backend)")
                XCTAssertTrue(response.text.contains("obsolete line folding"), "\(backend): \(response.text)")
                XCTAssertEqual(try folded.readUntilClosed(), [], "\(backend)")

                let long = try TestClient(port: server.boundAddress.port)
                try long.send("GET /" + String(repeating: "a", count: 9 * 1024) + " HTTP/1.1\r\n")
                let tooLong = try long.readResponse()
                XCTAssertEqual(tooLong.status, 414, "\(backend)")
                XCTAssertEqual(tooLong.header("Connection"), "close", "\(backend)")
                XCTAssertEqual(try long.readUntilClosed(), [], "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 0, "\(backend)")
            }
        }
    }

    // MARK: - Host, Origin, CORS

    func testAnotherHostIsMisdirected() throws {
        for backend in testedBackends {
            try withServer(backend) { server, responder in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send("GET /echo HTTP/1.1\r\nHost: evil.example:\(server.boundAddress.port)\r\n\r\n")
                let response = try client.readResponse()
                XCTAssertEqual(response.status, 421, "\(backend)")
                XCTAssertTrue(response.text.contains("evil.example"), "\(backend)")
                try client.send("GET /echo HTTP/1.1\r\nHost: localhost:\(server.boundAddress.port)\r\n\r\n")
                XCTAssertEqual(try client.readResponse().status, 200, "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 1, "\(backend)")
            }
        }
    }

    func testAWriteFromAnotherOriginIsRefusedBeforeTheResponder() throws {
        for backend in testedBackends {
            try withServer(backend) { server, responder in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/favorites", server, "Origin: https://evil.example\r\nContent-Length: 0\r\n",
                                    method: "PUT"))
                let refused = try client.readResponse()
                XCTAssertEqual(refused.status, 403, "\(backend)")
                XCTAssertNil(refused.header("Access-Control-Allow-Origin"), "\(backend)")
                try client.send(get("/favorites", server, "Origin: https://evil.example\r\n", method: "DELETE"))
                XCTAssertEqual(try client.readResponse().status, 403, "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 0, "\(backend)")

                // The server's own pages, and a GET from anywhere, pass.
                let ownOrigin = "Origin: http://\(server.hostHeader)\r\n"
                try client.send(get("/favorites", server, ownOrigin + "Content-Length: 2\r\n", method: "PUT") + "{}")
                let own = try client.readResponse()
                XCTAssertEqual(own.status, 200, "\(backend)")
                XCTAssertEqual(own.text, "PUT /favorites\n{}", "\(backend)")
                try client.send(get("/echo", server, "Origin: https://evil.example\r\n"))
                XCTAssertEqual(try client.readResponse().status, 200, "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 2, "\(backend)")
            }
        }
    }

    func testCORSOriginIsAllowedAndPreflighted() throws {
        let app = "https://app.example"
        for backend in testedBackends {
            try withServer(backend, configure: { $0.corsOrigin = app }) { server, responder in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/echo", server, "Origin: \(app)\r\n"))
                let allowed = try client.readResponse()
                XCTAssertEqual(allowed.header("Access-Control-Allow-Origin"), app, "\(backend)")
                XCTAssertEqual(allowed.header("Vary"), "Origin", "\(backend)")

                try client.send(get("/echo", server, "Origin: https://evil.example\r\n"))
                XCTAssertNil(try client.readResponse().header("Access-Control-Allow-Origin"), "\(backend)")
                try client.send(get("/echo", server))
                XCTAssertNil(try client.readResponse().header("Access-Control-Allow-Origin"), "\(backend)")

                try client.send(get("/favorites", server,
                                    "Origin: \(app)\r\nAccess-Control-Request-Method: PUT\r\n", method: "OPTIONS"))
                let preflight = try client.readResponse()
                XCTAssertEqual(preflight.status, 204, "\(backend)")
                XCTAssertNil(preflight.header("Content-Length"), "\(backend)")
                XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), app, "\(backend)")
                XCTAssertTrue(preflight.header("Access-Control-Allow-Methods")?.contains("PUT") ?? false, "\(backend)")
                XCTAssertNotNil(preflight.header("Access-Control-Max-Age"), "\(backend)")
                let callsBeforeWrite = responder.calls.load(ordering: .relaxed)
                XCTAssertEqual(callsBeforeWrite, 3, "the preflight is the server's: \(backend)")

                try client.send(get("/favorites", server, "Origin: \(app)\r\nContent-Length: 0\r\n", method: "PUT"))
                let write = try client.readResponse()
                XCTAssertEqual(write.status, 200, "\(backend)")
                XCTAssertEqual(write.header("Access-Control-Allow-Origin"), app, "\(backend)")
                // A preflight from another origin is no preflight: the responder answers it, without CORS fields.
                try client.send(get("/favorites", server,
                                    "Origin: https://evil.example\r\nAccess-Control-Request-Method: PUT\r\n",
                                    method: "OPTIONS"))
                let foreign = try client.readResponse()
                XCTAssertEqual(foreign.status, 200, "\(backend)")
                XCTAssertNil(foreign.header("Access-Control-Allow-Origin"), "\(backend)")
                XCTAssertNil(foreign.header("Access-Control-Allow-Methods"), "\(backend)")
            }
        }
    }

    // MARK: - ETag and gzip

    func testARevalidatableAnswerHasAnETagAndIsNotModifiedWhenNamed() throws {
        for backend in testedBackends {
            try withServer(backend) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/tagged", server))
                let first = try client.readResponse()
                XCTAssertEqual(first.status, 200, "\(backend)")
                XCTAssertEqual(first.header("Cache-Control"), "no-cache", "\(backend)")
                let tag = try XCTUnwrap(first.header("ETag"), "\(backend)")
                XCTAssertEqual(tag, EntityTag.of(first.body).value, "\(backend)")

                for asked in [tag, "W/\(tag)", "\"x\", \(tag)", "*"] {
                    try client.send(get("/tagged", server, "If-None-Match: \(asked)\r\n"))
                    let notModified = try client.readResponse()
                    XCTAssertEqual(notModified.status, 304, "\(backend): \(asked)")
                    XCTAssertNil(notModified.header("Content-Length"), "\(backend)")
                    XCTAssertEqual(notModified.header("ETag"), tag, "\(backend)")
                    XCTAssertEqual(notModified.header("Cache-Control"), "no-cache", "\(backend)")
                }
                try client.send(get("/tagged", server, "If-None-Match: \"0000000000000000\"\r\n"))
                let changed = try client.readResponse()
                XCTAssertEqual(changed.status, 200, "\(backend)")
                XCTAssertEqual(changed.text, "tagged body", "\(backend)")
                // After the 304s (no bodies), the framing still holds: this answer is the last request's.
                try client.send(get("/echo", server, "Connection: close\r\n"))
                XCTAssertEqual(try client.readResponse().text, "GET /echo\n", "\(backend)")
                XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)")
            }
        }
    }

    func testGzipWhenAcceptedAndWorthIt() throws {
        for backend in testedBackends {
            try withServer(backend) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/large", server, "Accept-Encoding: deflate, gzip\r\n"))
                let gzipped = try client.readResponse()
                XCTAssertEqual(gzipped.status, 200, "\(backend)")
                XCTAssertEqual(gzipped.header("Content-Encoding"), "gzip", "\(backend)")
                XCTAssertEqual(gzipped.header("Vary"), "Accept-Encoding", "\(backend)")
                XCTAssertLessThan(gzipped.body.count, TestResponder.largeBody.count, "\(backend)")
                XCTAssertEqual(Gzip.decompress(gzipped.body), TestResponder.largeBody, "\(backend)")
                let plainTag = EntityTag.of(TestResponder.largeBody)
                XCTAssertEqual(gzipped.header("ETag"), plainTag.gzipVariant, "\(backend)")

                // Revalidating the gzipped representation gives a 304 naming it.
                try client.send(get("/large", server,
                                    "Accept-Encoding: gzip\r\nIf-None-Match: \(plainTag.gzipVariant)\r\n"))
                let notModified = try client.readResponse()
                XCTAssertEqual(notModified.status, 304, "\(backend)")
                XCTAssertEqual(notModified.header("ETag"), plainTag.gzipVariant, "\(backend)")

                for refusing in ["Accept-Encoding: gzip;q=0\r\n", "Accept-Encoding: br\r\n", ""] {
                    try client.send(get("/large", server, refusing))
                    let plain = try client.readResponse()
                    XCTAssertNil(plain.header("Content-Encoding"), "\(backend): \(refusing)")
                    XCTAssertEqual(plain.body, TestResponder.largeBody, "\(backend): \(refusing)")
                    XCTAssertEqual(plain.header("ETag"), plainTag.value, "\(backend)")
                }

                // Under 1 KiB: not worth it. Not compressible: never.
                try client.send(get("/small", server, "Accept-Encoding: gzip\r\n"))
                let small = try client.readResponse()
                XCTAssertNil(small.header("Content-Encoding"), "\(backend)")
                XCTAssertEqual(small.body.count, 100, "\(backend)")
                try client.send(get("/tagged", server, "Accept-Encoding: gzip\r\n"))
                let tagged = try client.readResponse()
                XCTAssertNil(tagged.header("Content-Encoding"), "\(backend)")
                XCTAssertNil(tagged.header("Vary"), "\(backend)")

                // HEAD: the gzipped length, no body.
                try client.send(get("/large", server, "Accept-Encoding: gzip\r\nConnection: close\r\n", method: "HEAD"))
                let head = try client.readResponse(omitsBody: true)
                XCTAssertEqual(head.header("Content-Encoding"), "gzip", "\(backend)")
                XCTAssertEqual(head.header("Content-Length"), String(gzipped.body.count), "\(backend)")
                XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)")
            }
        }
    }

    // MARK: - Clocks

    func testASlowRequestGets408AndACloseAfterTheRequestTimeout() throws {
        for backend in testedBackends {
            try withServer(backend, configure: { $0.requestTimeout = .milliseconds(100) }) { server, responder in
                let client = try TestClient(port: server.boundAddress.port)
                var response: TestResponse?
                let time = try elapsed {
                    try client.send("GET /ha")
                    response = try client.readResponse()
                }
                XCTAssertEqual(response?.status, 408, "\(backend)")
                XCTAssertEqual(response?.header("Connection"), "close", "\(backend)")
                XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)")
                XCTAssertGreaterThanOrEqual(time, .milliseconds(100), "\(backend)")
                XCTAssertLessThan(time, .milliseconds(1000), "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 0, "\(backend)")
            }
        }
    }

    func testAnIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws {
        for backend in testedBackends {
            try withServer(backend, configure: { $0.idleTimeout = .milliseconds(100) }) { server, _ in
                // A connection that never sends a byte is closed the same way.
                let silent = try TestClient(port: server.boundAddress.port)
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/echo", server))
                XCTAssertEqual(try client.readResponse().status, 200, "\(backend)")
                var rest: [UInt8]?
                let time = try elapsed { rest = try client.readUntilClosed() }
                XCTAssertEqual(rest, [], "\(backend)")
                XCTAssertGreaterThanOrEqual(time, .milliseconds(70), "\(backend)")
                XCTAssertLessThan(time, .milliseconds(1000), "\(backend)")
                XCTAssertEqual(try silent.readUntilClosed(), [], "\(backend)")
            }
        }
    }

    func testConnectionsOverTheLimitGet503WithRetryAfter() throws {
        for backend in testedBackends {
            try withServer(backend, configure: {
                $0.maxConnections = 2
                $0.idleTimeout = .seconds(5)
            }) { server, _ in
                let first = try TestClient(port: server.boundAddress.port)
                let second = try TestClient(port: server.boundAddress.port)
                for client in [first, second] {
                    try client.send(get("/echo", server))
                    XCTAssertEqual(try client.readResponse().status, 200, "\(backend)")
                }
                let third = try TestClient(port: server.boundAddress.port)
                let refused = try third.readResponse()
                XCTAssertEqual(refused.status, 503, "\(backend)")
                XCTAssertEqual(refused.header("Retry-After"), "1", "\(backend)")
                XCTAssertEqual(refused.header("Connection"), "close", "\(backend)")
                XCTAssertEqual(try third.readUntilClosed(), [], "\(backend)")

                // The two open connections are still served; once one closes, a new one is taken.
                try first.send(get("/again", server, "Connection: close\r\n"))
                XCTAssertEqual(try first.readResponse().text, "GET /again\n", "\(backend)")
                XCTAssertEqual(try first.readUntilClosed(), [], "\(backend)")
                let fourth = try TestClient(port: server.boundAddress.port)
                try fourth.send(get("/fourth", server))
                XCTAssertEqual(try fourth.readResponse().text, "GET /fourth\n", "\(backend)")
                XCTAssertEqual(server.openConnections.load(ordering: .relaxed), 2, "\(backend)")
            }
        }
    }

    func testAClientThatDoesNotReadIsDroppedAfterTheWriteTimeout() throws {
        for backend in testedBackends {
            try withServer(backend, configure: { $0.writeTimeout = .milliseconds(100) }) { server, _ in
                let client = try TestClient(port: server.boundAddress.port, receiveBuffer: 16 * 1024)
                let count = 40
                let sent = ContinuousClock.now
                try client.send(String(repeating: get("/huge", server), count: count))
                // Accepted (connecting does not wait for that), then dropped.
                for _ in 0..<200 where server.openConnections.load(ordering: .relaxed) == 0 { usleep(1_000) }
                for _ in 0..<200 where server.openConnections.load(ordering: .relaxed) > 0 { usleep(10_000) }
                let dropped = ContinuousClock.now - sent
                XCTAssertEqual(server.openConnections.load(ordering: .relaxed), 0, "\(backend)")
                XCTAssertGreaterThanOrEqual(dropped, .milliseconds(100), "\(backend)")
                XCTAssertLessThan(dropped, .milliseconds(1000), "\(backend)")
                // What was sent before the drop is there, then the close: far less than the answers asked for.
                let received = try client.readUntilClosed()
                XCTAssertGreaterThan(received.count, 0, "\(backend)")
                XCTAssertLessThan(received.count, count * TestResponder.hugeBody.count / 2, "\(backend)")
                // Other clients are still answered.
                let other = try TestClient(port: server.boundAddress.port)
                try other.send(get("/echo", server))
                XCTAssertEqual(try other.readResponse().status, 200, "\(backend)")
            }
        }
    }

    func testSlowAndIdleClientsDoNotHoldUpOthers() throws {
        for backend in testedBackends {
            try withServer(backend, configure: {
                $0.requestTimeout = .seconds(10)
                $0.idleTimeout = .seconds(10)
            }) { server, _ in
                var slow: [TestClient] = []
                for index in 0..<100 {
                    let client = try TestClient(port: server.boundAddress.port)
                    if index.isMultiple(of: 2) { try client.send("GET /slow HTTP/1.1\r\nHost: ") }
                    slow.append(client)
                }
                let normal = try TestClient(port: server.boundAddress.port)
                var response: TestResponse?
                let time = try elapsed {
                    try normal.send(get("/echo", server))
                    response = try normal.readResponse()
                }
                XCTAssertEqual(response?.text, "GET /echo\n", "\(backend)")
                XCTAssertLessThan(time, .milliseconds(500), "\(backend)")
                XCTAssertEqual(server.openConnections.load(ordering: .relaxed), 101, "\(backend)")
                // The slow ones are still open, and still answered when they finish.
                try slow[0].send("\(server.hostHeader)\r\n\r\n")
                XCTAssertEqual(try slow[0].readResponse().text, "GET /slow\n", "\(backend)")
            }
        }
    }

    // MARK: - Stopping

    func testStopClosesIdleConnectionsFinishesRequestsAndEndsWithinTheGrace() throws {
        for backend in testedBackends {
            try withServer(backend, configure: {
                $0.requestTimeout = .seconds(10)
                $0.idleTimeout = .seconds(10)
                // Long enough that "closed at once" (within the loop's 100 ms tick) and "held for the grace" stay
                // far apart on a loaded machine.
                $0.shutdownGrace = .milliseconds(500)
            }) { server, responder in
                let idle = try TestClient(port: server.boundAddress.port)
                try idle.send(get("/echo", server))
                XCTAssertEqual(try idle.readResponse().status, 200, "\(backend)")
                let inFlight = try TestClient(port: server.boundAddress.port)
                try inFlight.send("GET /in-flight HTTP/1.1\r\n")
                let sentBeforeStop = try TestClient(port: server.boundAddress.port)
                let stuck = try TestClient(port: server.boundAddress.port)
                try stuck.send("GET /stuck HTTP/1.1\r\n")
                // Let the loop read the partial requests, so that they are in flight.
                usleep(50_000)

                try sentBeforeStop.send(get("/before-stop", server))
                let stopped = ContinuousClock.now
                server.stop()

                let answered = try sentBeforeStop.readResponse()
                XCTAssertEqual(answered.text, "GET /before-stop\n", "\(backend)")
                // Answered before the loop saw the stop (keep-alive) or after (close): closed either way.
                XCTAssertEqual(try sentBeforeStop.readUntilClosed(), [], "\(backend)")
                XCTAssertEqual(try idle.readUntilClosed(), [], "\(backend)")
                XCTAssertLessThan(ContinuousClock.now - stopped, .milliseconds(450), "idle closed: \(backend)")

                try inFlight.send("Host: \(server.hostHeader)\r\n\r\n")
                let finished = try inFlight.readResponse()
                XCTAssertEqual(finished.text, "GET /in-flight\n", "\(backend)")
                XCTAssertEqual(finished.header("Connection"), "close", "\(backend)")
                XCTAssertEqual(try inFlight.readUntilClosed(), [], "\(backend)")

                // The stuck request holds the loop until the grace period ends, no longer.
                server.wait()
                let waited = ContinuousClock.now - stopped
                XCTAssertGreaterThanOrEqual(waited, .milliseconds(450), "\(backend)")
                XCTAssertLessThan(waited, .milliseconds(1500), "\(backend)")
                XCTAssertEqual(try stuck.readUntilClosed(), [], "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 3, "\(backend)")
                // Nothing accepts any more (the socket is closed when the server is released).
                let late = try? TestClient(port: server.boundAddress.port, receiveTimeout: .milliseconds(50))
                XCTAssertThrowsError(try late?.readResponse() ?? { throw TestClientError.closed }(), "\(backend)")
            }
        }
    }

    func testStopWithNothingOpenEndsAtOnce() throws {
        for backend in testedBackends {
            try withServer(backend, configure: { $0.loopCount = 2 }) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/echo", server, "Connection: close\r\n"))
                XCTAssertEqual(try client.readResponse().status, 200, "\(backend)")
                XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)")
                let time = elapsed {
                    server.stop()
                    server.wait()
                }
                XCTAssertLessThan(time, .milliseconds(400), "\(backend)")
            }
        }
    }
}
