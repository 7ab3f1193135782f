import Foundation
import Synchronization
import TestSupport
import XCTest

/// `serve` while an operator writes over its cache in place (`truncate -s 0`, `cp new live`, a shell redirect) or
/// renames a damaged cache into place: the server never dies (it used to, with SIGBUS, exit 135), never answers a
/// wrong 200 (every answer is the old catalog's, the new one's, or a 503 with `Retry-After`), serves the new file
/// once it is complete, and refuses a damaged replacement, keeping the old one and saying so in `/healthz`. Each
/// test indexes two catalogs and searches through every step: a full run's check (`TestScale.requireFullRun`), which
/// `.ci/run` makes against the installed binary.
final class OverwrittenCacheEndToEndTests: XCTestCase {
    static let queries = ["ka", "to ri", "bru", "a", "man del", "e", ""]
    /// Fewer with the slower debug binary (`TestScale.binaryIsOptimized`).
    static let movies = TestScale.binaryIsOptimized ? 20_000 : 2_000

    /// Two caches of different catalogs (and sizes), built by the binary, and each one's search answers as a
    /// server of its own gives them.
    private struct Setup {
        let folder: String
        let live: String
        let old: String
        let new: String
        let oldAnswers: [String]
        let newAnswers: [String]

        init(_ test: XCTestCase) throws {
            let binary = try ChildProcess.binary()
            folder = try TestPaths.temporaryFolder(test).path
            live = folder + "/live.mscache"
            old = folder + "/old.mscache"
            new = folder + "/new.mscache"
            for (path, seed, count) in [(old, 31, movies), (new, 32, movies + movies / 3)] {
                try GeneratedCatalog(movies: count, seed: UInt64(seed)).write(to: path + ".json")
                let indexed = try ChildProcess.run(binary, ["index", path + ".json", "-o", path, "--quiet"])
                XCTAssertTrue(indexed.exited(0), indexed.summary)
            }
            try FileManager.default.copyItem(atPath: old, toPath: live)
            func answers(_ cache: String) throws -> [String] {
                let server = try ServeProcess(test, ["--cache", cache, "--listen", "127.0.0.1:0", "--no-save", "--quiet"])
                defer { server.send(SIGKILL) }
                return try OverwrittenCacheEndToEndTests.queries.map { query in
                    let answer = try server.request(OverwrittenCacheEndToEndTests.target(query))
                    XCTAssertEqual(answer.status, 200, answer.text)
                    return answer.text
                }
            }
            oldAnswers = try answers(old)
            newAnswers = try answers(new)
            XCTAssertNotEqual(oldAnswers, newAnswers)
        }
    }

    static func target(_ query: String) -> String {
        "/api/search?q=\(percentEncoded(query))&per_year=3"
    }

    /// Searches in a loop on a thread of its own until stopped, keeping every answer.
    private final class Searcher: @unchecked Sendable {
        // @unchecked: `answers` is written by the searching thread only, read after `finished` is set.
        struct Answer {
            var query: Int
            var status: Int
            var retryAfter: String?
            var body: String
        }

        private let server: ServeProcess
        private let stop = Atomic<Bool>(false)
        private let finished = Atomic<Bool>(false)
        private(set) var answers: [Answer] = []
        private(set) var failures: [String] = []

        init(_ server: ServeProcess) { self.server = server }

        func start() {
            Thread {
                var round = 0
                // Bounded: stops when told, or after 30 s whatever happens.
                let deadline = ChildProcess.now() + 30
                while !self.stop.load(ordering: .acquiring), ChildProcess.now() < deadline {
                    let query = round % OverwrittenCacheEndToEndTests.queries.count
                    do {
                        let answer = try self.server.request(OverwrittenCacheEndToEndTests.target(
                            OverwrittenCacheEndToEndTests.queries[query]))
                        self.answers.append(Answer(query: query, status: answer.status,
                                                   retryAfter: answer.header("Retry-After"), body: answer.text))
                    } catch {
                        self.failures.append("\(error)")
                        if self.failures.count > 20 { break }
                    }
                    round += 1
                }
                self.finished.store(true, ordering: .releasing)
            }.start()
        }

        /// Stops the loop and waits for it.
        func finish() {
            stop.store(true, ordering: .releasing)
            while !finished.load(ordering: .acquiring) { usleep(1_000) }
        }
    }

    /// Writes `bytes` over `path` in place in `slices` writes `pause` apart, as a slow `cp` does: truncated by the
    /// open unless `truncating` is false (then the file is expected to be empty already).
    private func writeInPlace(_ bytes: Data, to path: String, slices: Int, truncating: Bool) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        if truncating { try handle.truncate(atOffset: 0) }
        let size = (bytes.count + slices - 1) / slices
        for start in stride(from: 0, to: bytes.count, by: size) {
            try handle.write(contentsOf: bytes[start..<min(start + size, bytes.count)])
            usleep(20_000)
        }
        try handle.close()
    }

    /// Checks every answer the searcher got: the old catalog's, the new one's, or a 503 that says to retry.
    private func checkAnswers(_ searcher: Searcher, _ setup: Setup, file: StaticString = #filePath,
                              line: UInt = #line) -> (old: Int, new: Int, unavailable: Int) {
        XCTAssertEqual(searcher.failures, [], file: file, line: line)
        var counts = (old: 0, new: 0, unavailable: 0)
        for answer in searcher.answers {
            switch answer.status {
            case 200 where answer.body == setup.oldAnswers[answer.query]: counts.old += 1
            case 200 where answer.body == setup.newAnswers[answer.query]: counts.new += 1
            case 503:
                counts.unavailable += 1
                XCTAssertEqual(answer.retryAfter, "1", file: file, line: line)
                XCTAssertTrue(answer.body.contains("is being replaced"), answer.body, file: file, line: line)
            default:
                XCTFail("a wrong answer to \(Self.queries[answer.query].debugDescription): \(answer.status) "
                    + answer.body.prefix(300), file: file, line: line)
            }
        }
        return counts
    }

    /// `truncate -s 0` on the served cache, then the new catalog's cache written in place in slices (a slow `cp`),
    /// then the old one written back over it the same way, all while a client searches without a pause.
    func testACacheTruncatedAndCopiedOverInPlaceWhileSearching() throws {
        try TestScale.requireFullRun("a cache written over in slices while searching")
        let setup = try Setup(self)
        let server = try ServeProcess(self, ["--cache", setup.live, "--listen", "127.0.0.1:0", "--no-save"])
        let newBytes = try Data(contentsOf: URL(fileURLWithPath: setup.new))
        let oldBytes = try Data(contentsOf: URL(fileURLWithPath: setup.old))

        for (round, (bytes, expected)) in [(newBytes, setup.newAnswers), (oldBytes, setup.oldAnswers)].enumerated() {
            let searcher = Searcher(server)
            searcher.start()
            usleep(100_000)
            if round == 0 {
                XCTAssertEqual(truncate(setup.live, 0), 0)
                usleep(300_000)
            }
            try writeInPlace(bytes, to: setup.live, slices: 16, truncating: round > 0)
            let count = expected == setup.newAnswers ? Self.movies + Self.movies / 3 : Self.movies
            XCTAssertTrue(server.waitForHealth(within: 10) { $0.contains("\"movies\":\(count),") },
                          "round \(round): the complete file is not served")
            usleep(100_000)
            searcher.finish()

            XCTAssertTrue(server.process.isRunning, "round \(round): the server died: \(server.standardError)")
            let counts = checkAnswers(searcher, setup)
            XCTAssertGreaterThan(counts.unavailable, 0, "round \(round): no 503 while the file was incomplete")
            XCTAssertGreaterThan(round == 0 ? counts.new : counts.old, 0, "round \(round): no answer once complete")
            for (query, answer) in zip(Self.queries, expected) {
                XCTAssertEqual(try server.request(Self.target(query)).text, answer, "round \(round): \(query)")
            }
            print("OverwrittenCacheEndToEndTests: round \(round): \(searcher.answers.count) searches: \(counts.old) "
                  + "old, \(counts.new) new, \(counts.unavailable) 503")
        }
        XCTAssertTrue(server.process.isRunning)
        let log = server.standardError
        XCTAssertTrue(log.contains("was written over in place"), log)
        XCTAssertTrue(log.contains("serving the new cache"), log)
    }

    /// A cache that opens but has one damaged block, renamed into place: the old cache is still served, `/healthz`
    /// says "degraded" with the problem (200: this server still answers correctly), the log says why, and `info`
    /// on the file reports it with status 1. A good cache renamed into place after it is served.
    func testACacheWithADamagedBlockRenamedIntoPlace() throws {
        try TestScale.requireFullRun("a damaged cache renamed into place")
        let setup = try Setup(self)
        let server = try ServeProcess(self, ["--cache", setup.live, "--listen", "127.0.0.1:0", "--no-save", "--quiet"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: setup.new)))
        let layout = try BinaryRun.run(["info", "--json", "--cache", setup.new])
        XCTAssertEqual(layout.status, 0, layout.standardError)
        let sections = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(layout.standardOutput.utf8))
            as? [String: Any])?["sections"] as? [[String: Any]])
        let largest = try XCTUnwrap(sections.max { ($0["bytes"] as? Int ?? 0) < ($1["bytes"] as? Int ?? 0) })
        bytes[(largest["offset"] as? Int ?? 0) + (largest["bytes"] as? Int ?? 0) / 2] ^= 0x10
        let damaged = setup.folder + "/damaged.mscache"
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        try Data(bytes).write(to: URL(fileURLWithPath: setup.live + ".tmp"))
        XCTAssertEqual(rename(setup.live + ".tmp", setup.live), 0)

        XCTAssertTrue(server.waitForHealth(within: 10) { $0.contains(#""status":"degraded""#) }, "not reported")
        let health = try server.request("/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertTrue(health.text.contains("checksum mismatch in block"), health.text)
        XCTAssertTrue(health.text.contains("\"movies\":\(Self.movies),"), health.text)
        for (query, answer) in zip(Self.queries, setup.oldAnswers) {
            XCTAssertEqual(try server.request(Self.target(query)).text, answer, query)
        }
        XCTAssertTrue(server.standardError.contains("cannot be served, still serving the previous one"),
                      server.standardError)

        for json in [false, true] {
            let info = try BinaryRun.run(["info", "--cache", damaged] + (json ? ["--json"] : []))
            XCTAssertEqual(info.status, 1, info.standardError)
            XCTAssertTrue(info.standardError.contains("checksum mismatch in block"), info.standardError)
            XCTAssertFalse(info.standardOutput.isEmpty, "the layout is still shown")
            if json { XCTAssertTrue(info.standardOutput.contains(#""checks":"\#(damaged) is corrupted"#), info.standardOutput) }
        }
        XCTAssertTrue(try BinaryRun.run(["info", "--json", "--cache", setup.new]).standardOutput
            .contains(#""checks":"ok"}"#))

        try FileManager.default.copyItem(atPath: setup.new, toPath: setup.live + ".tmp")
        XCTAssertEqual(rename(setup.live + ".tmp", setup.live), 0)
        XCTAssertTrue(server.waitForHealth(within: 10) { $0.contains(#""status":"ok""#) && !$0.contains("problem") })
        XCTAssertEqual(try server.request(Self.target("ka")).text, setup.newAnswers[0])
    }
}
