@testable import MovieSearchHTTP
import MovieSearchPlatform
import XCTest

/// `Connection` without a socket or a loop: bytes fed in pieces, a "socket" that takes as many bytes as the test
/// gives it room for, the workers played by the test, and a clock the test moves.
final class ConnectionTests: XCTestCase {
    /// Answers errors as `error <status>: <message>`; `respond(to:)` is the test's to play.
    private struct Responder: HTTPResponder {
        func respond(to request: HTTPRequest) -> HTTPResponse {
            HTTPResponse(status: 200, contentType: "text/plain", body: Array(request.target.utf8))
        }

        func errorResponse(status: Int, message: String) -> HTTPResponse {
            HTTPResponse(status: status, contentType: "text/plain", body: Array("error \(status): \(message)\n".utf8))
        }
    }

    /// One connection, its context, and the bytes it wrote.
    private final class Harness {
        static let host = "Host: 127.0.0.1:8080\r\n"
        let start = ContinuousClock.now
        let memory = AnswerMemory(budget: 1 << 30)
        var context: ConnectionContext
        let connection: Connection
        /// What the connection wrote, not yet taken by `takeWritten()`.
        var written: [UInt8] = []
        /// How many more bytes the socket takes; nil: all.
        var room: Int?
        /// The most bytes one write takes (a socket's buffer); nil: all it is given.
        var perWrite: Int?
        /// Whether the next write fails (the client reset the connection).
        var fails = false
        /// How many writes the connection made.
        var writes = 0

        init(limits: HTTPRequestParser.Limits = .init(), corsOrigin: String? = nil) {
            let server = SocketAddress(host: .ipv4(127, 0, 0, 1), port: 8080)
            context = ConnectionContext(
                policy: RequestPolicy(server: server, allowedHosts: [], corsOrigin: corsOrigin),
                responder: Responder(),
                encoder: ResponseEncoder(commonHeaderBytes: [], cache: EncodedBodyCache(capacity: 1 << 20)),
                memory: memory, timeouts: .init(request: .seconds(10), idle: .seconds(5), write: .seconds(10)),
                logsRequests: true)
            context.dateHeader = "Sat, 28 Nov 2026 12:00:00 GMT"
            context.logTime = "28/Nov/2026:12:00:00 +0000"
            connection = Connection(descriptor: 7, serial: 1, peer: "127.0.0.1", localAddress: nil, limits: limits,
                                    now: start)
        }

        /// `seconds` after the connection was accepted.
        func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

        /// Feeds `text` as read at `seconds`, then lets the connection advance.
        @discardableResult
        func feed(_ text: String, at seconds: Double = 0) -> Connection.Step {
            connection.received(Array(text.utf8), at: at(seconds))
            return advance(at: seconds)
        }

        /// Lets the connection take its requests and write.
        @discardableResult
        func advance(at seconds: Double = 0) -> Connection.Step {
            var trim = false
            return connection.advance(at(seconds), &context, trim: &trim) { buffers in
                if fails { return nil }
                writes += 1
                let bytes = buffers.flatMap { Array($0) }
                let count = min(bytes.count, room ?? bytes.count, perWrite ?? bytes.count)
                written.append(contentsOf: bytes.prefix(count))
                room = room.map { $0 - count }
                return count
            }
        }

        /// Plays a worker: answers `request` with `body` (held in memory as a worker does), hands it back.
        func answer(_ request: HTTPRequest, body: [UInt8]? = nil, closes: Bool = false) {
            let response = HTTPResponse(status: 200, contentType: "text/plain",
                                        body: body ?? Array("\(request.method) \(request.target)\n".utf8))
            let encoded = context.encoder.encode(response, for: request, keepAlive: !closes, omitsBody: false,
                                                 extra: [], date: context.dateHeader)
            for chunk in encoded.chunks where chunk.count > 0 { memory.hold(chunk) }
            connection.answered(encoded, requestLine: ConnectionContext.requestLine(request), closes: closes,
                                &context)
        }

        /// The bytes written since the last call, as text.
        func takeWritten() -> String {
            defer { written = [] }
            return String(decoding: written, as: UTF8.self)
        }
    }

    /// The request of a `.dispatch` step; fails the test for any other.
    private func dispatched(_ step: Connection.Step, file: StaticString = #filePath, line: UInt = #line)
        -> HTTPRequest?
    {
        guard case let .dispatch(request) = step else {
            XCTFail("expected a request for the workers, got \(step)", file: file, line: line)
            return nil
        }
        return request
    }

    func testARequestCutIntoPiecesIsHandedOverOnceCompleteWithItsBody() throws {
        let harness = Harness()
        let text = "PUT /api/favorites/1 HTTP/1.1\r\n\(Harness.host)Content-Length: 5\r\n\r\nhello"
        for (offset, byte) in text.utf8.enumerated() {
            let step = harness.feed(String(decoding: [byte], as: UTF8.self))
            if offset < text.utf8.count - 1 {
                XCTAssertEqual(step, .watch, "incomplete after \(offset + 1) bytes")
                XCTAssertTrue(harness.connection.wanted.reads)
            } else {
                let request = try XCTUnwrap(dispatched(step))
                XCTAssertEqual(request.method, "PUT")
                XCTAssertEqual(request.target, "/api/favorites/1")
                XCTAssertEqual(request.body, Array("hello".utf8))
            }
        }
        XCTAssertTrue(harness.connection.hasRequestInFlight)
        XCTAssertFalse(harness.connection.wanted.reads, "not read while its request is at the workers")
        XCTAssertTrue(harness.written.isEmpty)
    }

    /// An answer's head and body go to the socket in one write: a server killed between two writes would leave a
    /// proxy in front of it a head without its body, which it can neither complete nor retry elsewhere.
    func testAnAnswersHeadAndBodyGoOutInOneWrite() throws {
        let harness = Harness()
        let request = try XCTUnwrap(dispatched(harness.feed("GET /one-write HTTP/1.1\r\n\(Harness.host)\r\n")))
        harness.answer(request)
        XCTAssertEqual(harness.advance(), .watch)
        XCTAssertEqual(harness.writes, 1)
        let answer = harness.takeWritten()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), answer)
        XCTAssertTrue(answer.hasSuffix("\r\n\r\nGET /one-write\n"), answer)

        // A socket that takes a few bytes per write: the rest follows from where each write stopped.
        harness.perWrite = 7
        let second = try XCTUnwrap(dispatched(harness.feed("GET /in-pieces HTTP/1.1\r\n\(Harness.host)\r\n")))
        harness.answer(second)
        XCTAssertEqual(harness.advance(), .watch)
        XCTAssertEqual(harness.writes, 1 + (answer.utf8.count + 6) / 7)
        XCTAssertEqual(harness.takeWritten(), answer.replacingOccurrences(of: "/one-write", with: "/in-pieces"))
    }

    func testPipelinedRequestsGoToTheWorkersOneAtATimeAndAreAnsweredInOrder() throws {
        let harness = Harness()
        let first = try XCTUnwrap(dispatched(harness.feed(
            (1...3).map { "GET /\($0) HTTP/1.1\r\n\(Harness.host)\r\n" }.joined())))
        XCTAssertEqual(first.target, "/1")
        XCTAssertEqual(harness.advance(), .watch, "the second waits for the first's answer")
        var answers = ""
        var request = first
        for next in ["/2", "/3"] {
            harness.answer(request)
            request = try XCTUnwrap(dispatched(harness.advance()))
            XCTAssertEqual(request.target, next)
            answers += harness.takeWritten()
        }
        harness.answer(request)
        XCTAssertEqual(harness.advance(), .watch)
        answers += harness.takeWritten()
        let bodies = answers.components(separatedBy: "\r\n\r\n").dropFirst().map { $0.prefix { $0 != "\n" } }
        XCTAssertEqual(bodies, ["GET /1", "GET /2", "GET /3"])
        XCTAssertEqual(answers.components(separatedBy: "Connection: keep-alive").count, 4)
        XCTAssertTrue(harness.connection.isIdle)
        XCTAssertEqual(harness.memory.queuedBytes, 0, "every written buffer released")
        let log = String(decoding: harness.context.log, as: UTF8.self)
        XCTAssertEqual(log.split(separator: "\n").map { $0.split(separator: "\"")[1] },
                       ["GET /1 HTTP/1.1", "GET /2 HTTP/1.1", "GET /3 HTTP/1.1"])
    }

    func testTheRequestClockRunsFromTheFirstByteAndEndsIn408AndAClose() {
        let harness = Harness()
        XCTAssertEqual(harness.connection.checkClocks(harness.at(4), &harness.context), .keep)
        harness.feed("GET / HTTP/1.1\r\nHo", at: 4)
        // Idle for 5 s before it, but the request clock (10 s) runs from its first byte: 4 s.
        XCTAssertEqual(harness.connection.checkClocks(harness.at(13.9), &harness.context), .keep)
        XCTAssertTrue(harness.written.isEmpty)
        XCTAssertEqual(harness.connection.checkClocks(harness.at(14.1), &harness.context), .advance)
        XCTAssertEqual(harness.advance(at: 14.1), .close)
        let answer = harness.takeWritten()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), answer)
        XCTAssertTrue(answer.contains("Connection: close\r\n"))
        XCTAssertTrue(answer.hasSuffix("error 408: the request took longer than 10.0 seconds to arrive\n"), answer)
    }

    func testAnIdleKeepAliveClosesAfterItsIdleTimeoutFromItsLastAnswer() throws {
        let harness = Harness()
        XCTAssertEqual(harness.connection.checkClocks(harness.at(4.9), &harness.context), .keep)
        let request = try XCTUnwrap(dispatched(harness.feed("GET / HTTP/1.1\r\n\(Harness.host)\r\n", at: 4.9)))
        XCTAssertEqual(harness.connection.checkClocks(harness.at(60), &harness.context), .keep,
                       "no clock runs while the workers answer")
        harness.answer(request)
        XCTAssertEqual(harness.advance(at: 61), .watch)
        XCTAssertEqual(harness.connection.checkClocks(harness.at(65.9), &harness.context), .keep)
        XCTAssertEqual(harness.connection.checkClocks(harness.at(66.1), &harness.context), .close)
    }

    func testASlowReaderIsNotReadFromUntilItsAnswersDrainAndIsDroppedWhenTheyStall() throws {
        let harness = Harness()
        harness.room = 0
        let first = try XCTUnwrap(dispatched(harness.feed(
            "GET /huge HTTP/1.1\r\n\(Harness.host)\r\nGET /next HTTP/1.1\r\n\(Harness.host)\r\n")))
        let huge = [UInt8](repeating: 0x61, count: 1 << 20)
        harness.answer(first, body: huge)
        harness.room = 64 * 1024
        XCTAssertEqual(harness.advance(at: 1), .watch, "the next request waits while the output is large")
        XCTAssertEqual(harness.connection.wanted, .init(reads: false, writes: true))
        XCTAssertEqual(harness.written.count, 64 * 1024)
        // No progress for longer than the write timeout: dropped.
        XCTAssertEqual(harness.connection.checkClocks(harness.at(10.9), &harness.context), .keep)
        XCTAssertEqual(harness.connection.checkClocks(harness.at(11.1), &harness.context), .close)
        // Progress resets the clock; under the high-water mark the pipelined request goes to the workers, before the
        // rest is written.
        var step = Connection.Step.watch
        for turn in 0..<20 where step == .watch {
            harness.room = 64 * 1024
            step = harness.advance(at: 10 + Double(turn))
            XCTAssertEqual(harness.connection.checkClocks(harness.at(10.5 + Double(turn)), &harness.context), .keep)
        }
        XCTAssertEqual(try XCTUnwrap(dispatched(step)).target, "/next")
        XCTAssertLessThan(harness.connection.pendingOutput, Connection.outputHighWater)
        XCTAssertGreaterThan(harness.connection.pendingOutput, 0)
        XCTAssertEqual(harness.connection.wanted, .init(reads: false, writes: true))
        harness.room = nil
        XCTAssertEqual(harness.advance(at: 30), .watch)
        XCTAssertTrue(harness.takeWritten().hasSuffix(String(decoding: huge, as: UTF8.self)))
        XCTAssertEqual(harness.memory.queuedBytes, 0)
    }

    func testAWriteTurnIsBoundedSoThatOtherConnectionsGetTheirs() throws {
        let harness = Harness()
        let request = try XCTUnwrap(dispatched(harness.feed("GET / HTTP/1.1\r\n\(Harness.host)\r\n")))
        harness.answer(request, body: [UInt8](repeating: 0x61, count: 2 * Connection.writeTurn))
        harness.perWrite = 64 * 1024
        XCTAssertEqual(harness.advance(), .watch)
        XCTAssertLessThan(harness.written.count, Connection.writeTurn + 64 * 1024)
        XCTAssertGreaterThanOrEqual(harness.written.count, Connection.writeTurn)
        XCTAssertTrue(harness.connection.wanted.writes)
    }

    func testKeepAliveStaysOpenAndConnectionCloseOrTheClientsEndCloses() throws {
        let keeps = Harness()
        let request = try XCTUnwrap(dispatched(keeps.feed("GET / HTTP/1.1\r\n\(Harness.host)\r\n")))
        XCTAssertTrue(request.keepsAlive)
        keeps.answer(request)
        XCTAssertEqual(keeps.advance(), .watch)
        XCTAssertTrue(keeps.takeWritten().contains("Connection: keep-alive\r\n"))
        XCTAssertEqual(keeps.connection.wanted, .init(reads: true, writes: false))

        let closes = Harness()
        let last = try XCTUnwrap(dispatched(closes.feed(
            "GET / HTTP/1.1\r\n\(Harness.host)Connection: close\r\n\r\n")))
        XCTAssertFalse(last.keepsAlive)
        closes.room = 10
        closes.answer(last, closes: true)
        XCTAssertEqual(closes.advance(), .watch, "not closed before its answer is written")
        closes.room = nil
        XCTAssertEqual(closes.advance(), .close)
        XCTAssertTrue(closes.takeWritten().contains("Connection: close\r\n"))

        let ends = Harness()
        let pending = try XCTUnwrap(dispatched(ends.feed("GET /a HTTP/1.1\r\n\(Harness.host)\r\n")))
        ends.connection.receivedEnd()
        ends.answer(pending)
        XCTAssertEqual(ends.advance(), .close, "the client closed its side: answered, then closed")
        XCTAssertTrue(ends.takeWritten().hasSuffix("GET /a\n"))

        let fails = Harness()
        let failed = try XCTUnwrap(dispatched(fails.feed("GET / HTTP/1.1\r\n\(Harness.host)\r\n")))
        fails.fails = true
        fails.answer(failed)
        XCTAssertEqual(fails.advance(), .close)
    }

    func testTheServerAnswersErrorsRefusalsPreflightsAndContinueWithoutTheWorkers() throws {
        let malformed = Harness()
        XCTAssertEqual(malformed.feed("GET / HTTP/1.1\r\nBad Header\r\n\r\nGET /never HTTP/1.1\r\n\r\n"), .close)
        let error = malformed.takeWritten()
        XCTAssertTrue(error.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), error)
        XCTAssertTrue(error.contains("Connection: close\r\n"))
        XCTAssertFalse(error.contains("/never"))

        let policy = Harness(corsOrigin: "https://app.example")
        XCTAssertEqual(policy.feed("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n"), .watch)
        XCTAssertTrue(policy.takeWritten().hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"))
        XCTAssertEqual(policy.feed("OPTIONS /api/favorites/1 HTTP/1.1\r\n\(Harness.host)Origin: https://app.example\r\n"
            + "Access-Control-Request-Method: PUT\r\n\r\n"), .watch)
        let preflight = policy.takeWritten()
        XCTAssertTrue(preflight.hasPrefix("HTTP/1.1 204 No Content\r\n"), preflight)
        XCTAssertTrue(preflight.contains("Access-Control-Allow-Origin: https://app.example\r\n"))
        XCTAssertFalse(policy.connection.hasRequestInFlight)

        let expects = Harness()
        XCTAssertEqual(expects.feed("PUT /x HTTP/1.1\r\n\(Harness.host)Expect: 100-continue\r\n"
            + "Content-Length: 2\r\n\r\n"), .watch)
        XCTAssertEqual(expects.takeWritten(), "HTTP/1.1 100 Continue\r\n\r\n")
        XCTAssertEqual(try XCTUnwrap(dispatched(expects.feed("ok"))).body, Array("ok".utf8))
        let refused = Harness()
        XCTAssertEqual(refused.feed("PUT /x HTTP/1.1\r\n\(Harness.host)Origin: https://evil.example\r\n"
            + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n"), .close)
        XCTAssertTrue(refused.takeWritten().hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
    }

    func testWhenTheServerStopsAnIdleConnectionIsDrainedAndAnswersSayClose() throws {
        let harness = Harness()
        harness.context.isStopping = true
        XCTAssertEqual(harness.connection.checkClocks(harness.at(0.1), &harness.context), .drain)
        XCTAssertTrue(harness.connection.isIdle)
        XCTAssertEqual(harness.feed("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n"), .close,
                       "an answer the server makes while stopping closes")
        XCTAssertTrue(harness.takeWritten().contains("Connection: close\r\n"))
    }
}
