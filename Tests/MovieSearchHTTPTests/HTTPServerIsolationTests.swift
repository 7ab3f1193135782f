#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
@testable import MovieSearchHTTP
import MovieSearchPlatform
import Synchronization
import XCTest

/// `HTTPServer` on real sockets, about what no client may do to the others: pipelining clients, answers that block
/// on a lock, clients that do not read, a log nobody reads; and `Expect: 100-continue`, `Vary: Origin`,
/// `Sec-Fetch-Site`. Bounds on times are generous: the point is that the answer does not wait for the other work.
final class HTTPServerIsolationTests: XCTestCase {
    /// Runs `body` on a thread of its own; the returned closure waits for it and says whether it threw.
    private func inBackground(_ body: @escaping @Sendable () throws -> Bool) throws -> () -> Bool {
        let done = DispatchSemaphore(value: 0)
        let failed = Atomic<Bool>(false)
        try SystemThread.start {
            do {
                if try !body() { failed.store(true, ordering: .relaxed) }
            } catch {
                failed.store(true, ordering: .relaxed)
            }
            done.signal()
        }.detach()
        return {
            done.wait()
            return !failed.load(ordering: .relaxed)
        }
    }

    // MARK: - Item 4: pipelining clients

    func testTwoPipeliningClientsDoNotHoldUpAThird() throws {
        for backend in testedBackends {
            try withServer(backend, configure: { $0.workers[.heavy] = 2 }) { server, responder in
                let port = server.boundAddress.port
                let host = server.hostHeader
                // Two clients each pipeline 10 renders of 50 ms (half a second of work each) and read as they come.
                let count = 10
                let pipelines = try (0..<2).map { _ in
                    try inBackground {
                        let client = try TestClient(port: port, receiveTimeout: .seconds(5))
                        try client.send(String(repeating: "GET /render HTTP/1.1\r\nHost: \(host)\r\n\r\n", count: count))
                        return try (0..<count).allSatisfy { _ in try client.readResponse().text == "rendered\n" }
                    }
                }
                // Once both pipelines are being worked on (their first renders begun, 450 ms of each left), not
                // after a fixed wait.
                for _ in 0..<2_000 where responder.calls.load(ordering: .relaxed) < 2 { usleep(1_000) }
                let other = try TestClient(port: port)
                var response: TestResponse?
                let time = try elapsed {
                    try other.send(get("/echo", server))
                    response = try other.readResponse()
                }
                XCTAssertEqual(response?.text, "GET /echo\n", "\(backend)")
                XCTAssertLessThan(time, .milliseconds(300), "behind 450 ms of pipelined renders: \(backend)")
                for pipeline in pipelines { XCTAssertTrue(pipeline(), "\(backend)") }
            }
        }
    }

    func testClientsPipeliningLargeAnswersAndReadingFastDoNotHoldUpAThird() throws {
        for backend in testedBackends {
            try withServer(backend) { server, _ in
                let port = server.boundAddress.port
                let host = server.hostHeader
                let count = 40  // 40 MiB each
                let pipelines = try (0..<2).map { _ in
                    try inBackground {
                        let client = try TestClient(port: port, receiveTimeout: .seconds(5))
                        try client.send(String(repeating: "GET /huge HTTP/1.1\r\nHost: \(host)\r\n\r\n", count: count))
                        return try (0..<count).allSatisfy { _ in try client.readResponse().body.count == 1 << 20 }
                    }
                }
                usleep(50_000)
                var worst = Duration.zero
                for _ in 0..<5 {
                    let other = try TestClient(port: port)
                    let time = try elapsed {
                        try other.send(get("/echo", server, "Connection: close\r\n"))
                        XCTAssertEqual(try other.readResponse().text, "GET /echo\n", "\(backend)")
                    }
                    worst = max(worst, time)
                    usleep(20_000)
                }
                XCTAssertLessThan(worst, .milliseconds(300), "\(backend)")
                for pipeline in pipelines { XCTAssertTrue(pipeline(), "\(backend)") }
            }
        }
    }

    // MARK: - Item 5: blocking work

    func testAnswersBlockedOnALockHoldNeitherTheOthersNorTheStop() throws {
        for backend in testedBackends {
            try withServer(backend, configure: {
                $0.workers[.blocking] = 2
                $0.requestTimeout = .seconds(10)
                $0.idleTimeout = .seconds(10)
                $0.shutdownGrace = .milliseconds(200)
            }) { server, responder in
                defer { for _ in 0..<10 { responder.gate.signal() } }
                // Ten writes wait on a lock another process holds: two take the blocking workers, eight wait.
                var blocked: [TestClient] = []
                for _ in 0..<10 {
                    let client = try TestClient(port: server.boundAddress.port)
                    try client.send(get("/block", server, "Content-Length: 0\r\n", method: "PUT"))
                    blocked.append(client)
                }
                usleep(50_000)
                for target in ["/echo", "/render"] {
                    let client = try TestClient(port: server.boundAddress.port)
                    let time = try elapsed {
                        try client.send(get(target, server))
                        XCTAssertEqual(try client.readResponse().status, 200, "\(target) \(backend)")
                    }
                    XCTAssertLessThan(time, .milliseconds(500), "\(target) \(backend)")
                }
                // The stop ends within the grace period (200 ms) though two workers are still stuck.
                let time = elapsed {
                    server.stop()
                    server.wait()
                }
                XCTAssertLessThan(time, .milliseconds(1500), "\(backend)")
                for client in blocked { XCTAssertEqual(try client.readUntilClosed(), [], "\(backend)") }
            }
        }
    }

    // MARK: - Item 6: clients that do not read

    func testIdenticalLargeAnswersToClientsThatDoNotReadShareOneBuffer() throws {
        for backend in testedBackends {
            // Short clocks: the answers that fit in the kernel's buffers leave a connection idle, not writing.
            try withServer(backend, configure: {
                $0.writeTimeout = .milliseconds(100)
                $0.idleTimeout = .milliseconds(100)
            }) { server, _ in
                var clients: [TestClient] = []
                for _ in 0..<20 {
                    let client = try TestClient(port: server.boundAddress.port, receiveBuffer: 4096)
                    try client.send(get("/shared", server))
                    clients.append(client)
                }
                for _ in 0..<300 where server.memory.queuedBytes < 1 << 20 { usleep(1_000) }
                for _ in 0..<300 where server.openConnections.load(ordering: .relaxed) > 0 { usleep(10_000) }
                XCTAssertEqual(server.openConnections.load(ordering: .relaxed), 0, "dropped: \(backend)")
                // One body of 1 MiB and twenty heads, not twenty bodies.
                XCTAssertLessThan(server.memory.highestQueuedBytes, 2 << 20, "\(backend)")
                XCTAssertGreaterThan(server.memory.highestQueuedBytes, 1 << 20, "\(backend)")
                XCTAssertEqual(server.memory.queuedBytes, 0, "\(backend)")
            }
        }
    }

    func testDistinctLargeAnswersToClientsThatDoNotReadStayWithinTheBudget() throws {
        for backend in testedBackends {
            try withServer(backend, configure: {
                $0.writeTimeout = .milliseconds(100)
                $0.queuedAnswerBudget = 16 << 20
                $0.workers[.heavy] = 2
            }) { server, responder in
                var clients: [TestClient] = []
                for _ in 0..<6 {
                    let client = try TestClient(port: server.boundAddress.port, receiveBuffer: 4096)
                    try client.send(get("/distinct", server))
                    clients.append(client)
                }
                // Answers wait for the budget, and the budget frees as the clients are dropped by the write timeout.
                for _ in 0..<1000 where server.memory.queuedBytes < 1 << 20 { usleep(1_000) }
                for _ in 0..<500 where server.openConnections.load(ordering: .relaxed) > 0 { usleep(10_000) }
                XCTAssertEqual(server.openConnections.load(ordering: .relaxed), 0, "all dropped: \(backend)")
                // The budget, plus what the two heavy workers had made when it filled: far below 6 × 16 MiB.
                XCTAssertLessThanOrEqual(server.memory.highestQueuedBytes, (16 << 20) + 2 * (16 << 20) + 64 * 1024,
                                         "\(backend)")
                XCTAssertEqual(server.memory.queuedBytes, 0, "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 6, "every one answered in turn: \(backend)")
                let other = try TestClient(port: server.boundAddress.port)
                try other.send(get("/echo", server))
                XCTAssertEqual(try other.readResponse().status, 200, "\(backend)")
            }
        }
    }

    // MARK: - Item 7: Expect: 100-continue

    func testExpectContinueIsAnsweredBeforeTheBodyOrRefusedAtOnce() throws {
        for backend in testedBackends {
            try withServer(backend) { server, responder in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/echo", server, "Expect: 100-continue\r\nContent-Length: 5\r\n", method: "PUT"))
                let interim = try client.readResponse(omitsBody: true)
                XCTAssertEqual(interim.status, 100, "\(backend)")
                XCTAssertTrue(interim.headers.isEmpty, "\(backend)")
                try client.send("hello")
                XCTAssertEqual(try client.readResponse().text, "PUT /echo\nhello", "\(backend)")

                // A write from another site: its final status at once, no 100, and the connection closed.
                let refused = try TestClient(port: server.boundAddress.port)
                try refused.send(get("/echo", server, "Origin: https://evil.example\r\nExpect: 100-continue\r\n"
                    + "Content-Length: 5\r\n", method: "PUT"))
                XCTAssertEqual(try refused.readResponse().status, 403, "\(backend)")
                XCTAssertEqual(try refused.readUntilClosed(), [], "\(backend)")
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 1, "\(backend)")
            }
        }
    }

    // MARK: - Item 8: Vary: Origin

    func testEveryAnswerVariesByOriginWhenACORSOriginIsSet() throws {
        let app = "https://app.example"
        for backend in testedBackends {
            try withServer(backend, configure: { $0.corsOrigin = app }) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                for (target, origin) in [("/echo", "Origin: https://other.example\r\n"), ("/echo", ""),
                                         ("/large", "Origin: \(app)\r\n"), ("/large", "")] {
                    try client.send(get(target, server, origin + "Accept-Encoding: gzip\r\n"))
                    let response = try client.readResponse()
                    let vary = response.headers.filter { $0.name.lowercased() == "vary" }.map(\.value)
                    XCTAssertTrue(vary.contains("Origin"), "\(target) \(origin) \(backend): \(vary)")
                }
            }
            // Without a CORS origin, answers do not depend on `Origin`.
            try withServer(backend) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                try client.send(get("/echo", server, "Origin: https://other.example\r\n"))
                XCTAssertNil(try client.readResponse().header("Vary"), "\(backend)")
            }
        }
    }

    // MARK: - Item 12: Sec-Fetch-Site

    func testAWriteFromAnotherSiteWithoutOriginIsRefused() throws {
        for backend in testedBackends {
            try withServer(backend) { server, responder in
                let client = try TestClient(port: server.boundAddress.port)
                for site in ["cross-site", "same-site", "Cross-Site"] {
                    try client.send(get("/favorites", server, "Sec-Fetch-Site: \(site)\r\nContent-Length: 0\r\n",
                                        method: "PUT"))
                    XCTAssertEqual(try client.readResponse().status, 403, "\(site) \(backend)")
                }
                XCTAssertEqual(responder.calls.load(ordering: .relaxed), 0, "\(backend)")
                for site in ["same-origin", "none"] {
                    try client.send(get("/favorites", server, "Sec-Fetch-Site: \(site)\r\n", method: "DELETE"))
                    XCTAssertEqual(try client.readResponse().status, 200, "\(site) \(backend)")
                }
                try client.send(get("/favorites", server, "Sec-Fetch-Site: cross-site\r\n"))
                XCTAssertEqual(try client.readResponse().status, 200, "a GET from anywhere: \(backend)")
            }
        }
    }

    // MARK: - The access log

    func testALogThatBlocksDropsLinesAndHoldsNoAnswer() throws {
        let stuck = DispatchSemaphore(value: 0)
        let log = try AccessLog(capacity: 1024) { _ in stuck.wait() }
        defer { for _ in 0..<10 { stuck.signal() } }
        for backend in testedBackends {
            try withServer(backend, configure: { $0.accessLog = log }) { server, _ in
                let client = try TestClient(port: server.boundAddress.port)
                let time = try elapsed {
                    // 60 lines of some 60 bytes each: more than the log's 1 KiB holds while its writer is stuck.
                    for index in 0..<60 {
                        try client.send(get("/echo?\(index)", server))
                        XCTAssertEqual(try client.readResponse().status, 200, "\(backend)")
                    }
                }
                XCTAssertLessThan(time, .seconds(2), "\(backend)")
            }
        }
        XCTAssertGreaterThan(log.droppedLines, 0)
    }
}
