import Foundation
import XCTest
import TestSupport

/// `moviesearch serve` safe by default, as the built binary on port 0 over sockets: a foreign Host is refused and a
/// foreign Origin cannot write, a non-loopback address is warned about, stalled clients delay no one, and a bad
/// listen value, a port in use or running out of descriptors is one line, not a crash or a spin. Heavier variants
/// run in a full run only (`TestScale`).
final class ServeSafetyEndToEndTests: XCTestCase {
    // MARK: Safe by default

    func testAForeignHostIs421AndAForeignOriginCannotWrite() throws {
        let cache = try servedSmallCache()
        let favorites = try TestPaths.temporaryFolder(self).path + "/favorites.json"
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet",
                                             "--favorites", favorites])
        let port = server.port
        for host in ["evil.example", "evil.example:\(port)", "127.0.0.1:\(port &+ 1)", "localhost.evil.example"] {
            let answer = try server.request("/healthz", headers: ["Host": host])
            XCTAssertEqual(answer.status, 421, host)
            XCTAssertTrue(answer.text.hasPrefix(#"{"error":"#), answer.text)
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)"] {
            XCTAssertEqual(try server.request("/healthz", headers: ["Host": host]).status, 200, host)
        }

        XCTAssertEqual(try server.request("PUT", "/api/favorites/0").status, 200)
        let before = try Data(contentsOf: URL(fileURLWithPath: favorites))
        for origin in ["http://evil.example", "http://127.0.0.1:\(port &+ 1)", "null", "https://127.0.0.1:\(port)"] {
            for (method, id) in [("PUT", 2), ("DELETE", 0)] {
                let answer = try server.request(method, "/api/favorites/\(id)", headers: ["Origin": origin])
                XCTAssertEqual(answer.status, 403, "\(method) from \(origin)")
                XCTAssertNil(answer.header("Access-Control-Allow-Origin"))
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: favorites)), before,
                       "a refused write changed the file")
        // The server's own origin may write.
        let own = try server.request("PUT", "/api/favorites/2", headers: ["Origin": "http://127.0.0.1:\(port)"])
        XCTAssertEqual(own.status, 200, own.text)
    }

    func testANonLoopbackAddressIsWarnedAbout() throws {
        let cache = try servedSmallCache()
        guard Self.canListenOnAnyAddress() else { throw XCTSkip("this machine refuses to listen on 0.0.0.0") }
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "0.0.0.0:0", "--quiet"])
        XCTAssertEqual(server.firstLine, "moviesearch: serving 4 movies at http://0.0.0.0:\(server.port)/")
        XCTAssertTrue(server.waitForHealth(within: 2) { $0.contains(#""movies":4"#) })
        let lines = server.errorLines(atLeast: 2)
        XCTAssertEqual(lines.count, 2, server.standardError)
        XCTAssertTrue(lines.last?.hasPrefix("moviesearch: warning: listening on 0.0.0.0:\(server.port), not a "
            + "loopback address") ?? false, server.standardError)

        let loopback = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        XCTAssertTrue(loopback.waitForHealth(within: 2) { _ in true })
        XCTAssertEqual(loopback.errorLines.count, 1, loopback.standardError)
    }

    /// Whether a socket may listen on 0.0.0.0 (some sandboxes allow loopback only).
    private static func canListenOnAnyAddress() -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0 && listen(descriptor, 1) == 0
    }

    // MARK: Slow clients

    func testStalledClientsDoNotDelayOthers() throws {
        let server = try ServeProcess(self, ["--cache", try servedSmallCache(), "--listen", "127.0.0.1:0", "--quiet"])
        var stalled: [HTTPConnection] = []
        for index in 0..<200 {
            let connection = try server.connect(timeout: 15)
            try connection.send(index % 2 == 0 ? "GET /healthz HTTP/1.1\r\nHo" : "G")
            stalled.append(connection)
        }
        let start = ChildProcess.now()
        let answer = try server.request("/api/search?q=heat")
        XCTAssertEqual(answer.status, 200)
        XCTAssertLessThan(ChildProcess.now() - start, 1, "a normal request waited behind stalled ones")

        guard TestScale.isFull else { return }
        // The stalled ones are dropped once their headers are 10 s late (an answer, 408, may come first).
        let closing = ChildProcess.now()
        for connection in stalled {
            XCTAssertTrue(try connection.readsEndOfStream())
        }
        let waited = ChildProcess.now() - closing
        XCTAssertGreaterThan(waited, 8)
        XCTAssertLessThan(waited, 13)
        XCTAssertEqual(try server.request("/healthz").status, 200)
    }

    // MARK: Usage errors

    func testABadListenValueIsAUsageError() throws {
        let cache = try servedSmallCache()
        for value in ["nonsense", "127.0.0.1", "127.0.0.1:65536", "127.0.0.1:-1", "example.com:80", ":80",
                      "127.0.0.1:8080x", "[::1", ""] {
            let run = try BinaryRun.run(["serve", "--cache", cache, "--listen", value])
            XCTAssertEqual(run.status, 2, "\(value): \(run.standardError)")
            // One line says what is wrong; the usage of `serve` follows, as after every usage error.
            XCTAssertEqual(run.errorLines.filter { $0.hasPrefix("moviesearch: ") }, [
                "moviesearch: --listen takes host:port with an IPv4 address, [IPv6] or localhost, and a port from 0 "
                    + "to 65535, not '\(value)'",
            ], run.standardError)
            XCTAssertTrue(run.errorLines.dropFirst().first?.hasPrefix("Usage: moviesearch serve ") ?? false)
            XCTAssertEqual(run.errorLines.last, "See 'moviesearch serve --help'.")
            XCTAssertEqual(run.standardOutput, "")
        }
    }

    func testAPortInUseIsOneLineAndAFailure() throws {
        let cache = try servedSmallCache()
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet"])
        let outcome = try ChildProcess.run(try ChildProcess.binary(),
                                           ["serve", "--cache", cache, "--listen", "127.0.0.1:\(server.port)"],
                                           timeLimit: 5)
        XCTAssertTrue(outcome.finished, "a second server on a port in use kept running")
        XCTAssertTrue(outcome.reason == .exit && outcome.status != 0, outcome.summary)
        XCTAssertEqual(outcome.errorLines.count, 1, outcome.summary)
        XCTAssertTrue(outcome.errorLines.first?.hasPrefix("moviesearch: cannot listen on 127.0.0.1:\(server.port)")
            ?? false, outcome.summary)
        XCTAssertTrue(server.process.isRunning)
    }

    /// Out of descriptors (`ulimit -n 48`, far below `--max-connections`): serve warns at start, accepting pauses
    /// instead of spinning on a listener that stays readable (its CPU time stays low while connections wait), and
    /// once connections close the waiting ones are answered.
    func testRunningOutOfDescriptorsPausesAcceptingAndRecovers() throws {
        let cache = try servedDecadeCache()
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet", "--no-save"],
                                      openFiles: 48)
        // The warning may follow the first line by a moment (the server answers before its main thread writes it).
        let warned: ([String]) -> Bool = { $0.contains { $0.contains("fewer than --max-connections 1024") } }
        XCTAssertTrue(warned(server.errorLines(until: warned)), server.standardError)
        var held: [HTTPConnection] = []
        for _ in 0..<80 { held.append(try server.connect()) }
        let cpuBefore = try Self.cpuSeconds(server.process.processIdentifier)
        usleep(250_000)
        let spent = try Self.cpuSeconds(server.process.processIdentifier) - cpuBefore
        // Spinning on the listener would use the whole quarter of a second waited, on each loop's core.
        XCTAssertLessThan(spent, 0.125, "serve spun while out of descriptors")
        held.removeFirst(60)  // closed: room for more
        let answer = try server.request("/healthz")
        XCTAssertEqual(answer.status, 200)
        // The connections that waited in the listen queue are served too.
        for connection in held.suffix(5) {
            try connection.send(HTTPConnection.request("GET", "/healthz", host: "127.0.0.1:\(server.port)"))
            XCTAssertEqual(try connection.readAnswer().status, 200)
        }
    }

    /// User and system CPU time of a process, from /proc (Linux); skips elsewhere.
    private static func cpuSeconds(_ pid: Int32) throws -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { throw XCTSkip("no /proc here to read CPU time from") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw XCTSkip("unexpected /proc/<pid>/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
