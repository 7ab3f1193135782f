import Foundation
import XCTest
import TestSupport

/// Writes of favorites wait for the favorites lock (the one `favorites add` takes, for up to 5 s) on workers of
/// their own, never on the event loops: while another process holds the lock, searches and `/healthz` answer at
/// once, the writes answer when the lock is let go, and SIGTERM still stops the server within its grace period.
/// (Before the workers, two such writes held both loops for 5 s, and SIGTERM took 7 s.)
final class ServeLockedFavoritesEndToEndTests: XCTestCase {
    private static let catalog = """
        [{"title":"Heat","year":1995,"rating":4},
         {"title":"Amelia","year":2009,"rating":3},
         {"title":"Avatar","year":2009,"rating":4}]
        """

    /// Takes the exclusive lock the server's saves take (`flock` on the favorites file's folder), as another
    /// process would; the returned descriptor holds it until closed.
    private func holdLock(on folder: String) throws -> Int32 {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0, "the lock is free at first")
        return descriptor
    }

    /// Sends a `PUT` of a favorite on a connection of its own, without waiting for the answer.
    private func sendWrite(_ server: ServeProcess, id: Int) throws -> HTTPConnection {
        let connection = try server.connect(timeout: 10)
        try connection.send(HTTPConnection.request("PUT", "/api/favorites/\(id)", host: "127.0.0.1:\(server.port)",
                                                   headers: ["Connection": "close"]))
        return connection
    }

    func testWritesWaitingForAHeldLockHoldUpNoSearchAndNoStop() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let cache = try indexedCache(try temporaryFile("catalog.json", Self.catalog))
        let favorites = folder + "/favorites.json"
        // The grace period a stop gives a write still waiting for the lock shortened to 200 ms (from 1 s).
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet",
                                             "--favorites", favorites],
                                      environment: ["MOVIESEARCH_SERVE_GRACE_MS": "200"])
        XCTAssertTrue(server.waitForHealth(within: 2) { _ in true })

        // Round 1: writes wait for the lock, everything else answers meanwhile, the writes land once it is free.
        let lock = try holdLock(on: folder)
        // One at a time, so that each reaches the server before the next: a server that answered on its event loops
        // would have each loop stuck on a write by the second one.
        let writes = try (0..<3).map { id in
            defer { usleep(50_000) }
            return try sendWrite(server, id: id)
        }
        for target in ["/api/search?q=heat", "/healthz", "/api/movies/1", "/api/top"] {
            let started = ChildProcess.now()
            let answer = try server.request(target)
            XCTAssertEqual(answer.status, 200, target)
            // Far below the 5 s the writes may wait: an answer held behind them would take seconds.
            XCTAssertLessThan(ChildProcess.now() - started, 2.5, "\(target) waited for the writes")
        }
        close(lock)
        for (id, write) in writes.enumerated() {
            let answer = try write.readAnswer()
            XCTAssertEqual(answer.status, 200, answer.text)
            XCTAssertTrue(answer.text.contains(#""id":\#(id),"#), answer.text)
        }
        let listed = try server.request("/api/favorites")
        for title in ["Heat", "Amelia", "Avatar"] { XCTAssertTrue(listed.text.contains(title), listed.text) }

        // Round 2: SIGTERM while a write still waits for a held lock stops the server within its grace period.
        let second = try holdLock(on: folder)
        defer { close(second) }
        let waiting = try sendWrite(server, id: 0)
        usleep(100_000)
        let stopped = ChildProcess.now()
        server.send(SIGTERM)
        XCTAssertTrue(server.waitForExit(within: 4), "a write waiting for the lock held up SIGTERM")
        XCTAssertLessThan(ChildProcess.now() - stopped, 4.0)
        XCTAssertEqual(server.process.terminationStatus, 0, server.standardError)
        _ = waiting
    }
}
