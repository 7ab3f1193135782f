import Foundation
import MovieSearch
import Synchronization
import XCTest
import TestSupport

/// `index` replaces a cache that a reader is querying: the reader keeps its mapping of the old file (the writer
/// renames a new file into place and never truncates the old one), so it neither crashes nor changes its answers.
/// Each test runs `index` seven times beside its reader: a full run's check (`TestScale.requireFullRun`), which
/// `.ci/run` makes against the installed binary.
final class ReplaceWhileQueryingTests: XCTestCase {
    /// How many times `index` replaces the cache during each test.
    static let replacements = 6
    static let queries = GeneratedCatalog.sampleQueries + "abcdefghijklmnopqrstuvwxyz".map(String.init)
        + ["ka to", "sha", "ber", "ul r", "qu", "Brüno", "straße"]

    /// A `moviesearch query --stdin` process answers queries in a loop while other processes replace its cache.
    func testAQueryProcessKeepsItsAnswersWhileTheCacheIsReplaced() throws {
        try TestScale.requireFullRun("a query process beside six replacements")
        let setup = try Setup(self)
        // A write to the reader's input after it died must fail the test, not kill the test process.
        signal(SIGPIPE, SIG_IGN)

        let reader = ChildProcess.configured(setup.binary, ["query", "--stdin", "--cache", setup.cache, "--per-year", "3"])
        let input = Pipe(), output = Pipe()
        let errorURL = URL(fileURLWithPath: setup.folder + "/reader-stderr")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        reader.standardInput = input
        reader.standardOutput = output
        reader.standardError = errorHandle
        try reader.run()
        try errorHandle.close()
        let answers = LineReader(output.fileHandleForReading.fileDescriptor)
        let batch = Array((Self.queries.joined(separator: "\n") + "\n").utf8)

        /// Sends every query and returns the answers, one JSON line each.
        func pass() throws -> [String] {
            try XCTUnwrap(writeAll(input.fileHandleForWriting.fileDescriptor, batch), "the reader stopped reading")
            return try Self.queries.map { query in
                try XCTUnwrap(answers.nextLine(), "no answer to \(query.debugDescription): the reader ended")
            }
        }

        let before = try pass()
        // The same answers as a fresh process on a copy of the first cache.
        let fresh = try BinaryRun.run(["query", "--stdin", "--cache", setup.firstCacheCopy, "--per-year", "3"],
                                      input: Data(batch))
        XCTAssertEqual(before, fresh.standardOutput.split(separator: "\n").map(String.init))

        let writer = Replacer(setup)
        writer.start()
        var passesDuringReplacement = 0
        do {
            while !writer.isDone {
                let during = try pass()
                XCTAssertEqual(during, before)
                passesDuringReplacement += 1
            }
            let after = try pass()
            XCTAssertEqual(after, before)
        } catch {
            while !writer.isDone { usleep(10_000) }  // XCTUnwrap recorded the failure; let the writer finish.
        }
        try input.fileHandleForWriting.close()
        XCTAssertNil(answers.nextLine(), "the reader wrote more lines than it got queries")
        ChildProcess.waitForExit(reader)

        XCTAssertEqual(reader.terminationReason, .exit, "the reader was killed by signal \(reader.terminationStatus)")
        XCTAssertEqual(reader.terminationStatus, 0)
        XCTAssertEqual(try String(contentsOf: errorURL, encoding: .utf8), "")
        XCTAssertEqual(writer.failures, [])
        XCTAssertGreaterThan(passesDuringReplacement, 0)
        try setup.checkReplaced(differentFrom: before.joined(separator: "\n") + "\n")
        print("ReplaceWhileQueryingTests: a query process answered \(passesDuringReplacement) × \(Self.queries.count) queries "
              + "while its cache was replaced \(Self.replacements) times")
    }

    /// Threads of this process query one open `MovieIndex` while other processes replace its file.
    func testAnOpenIndexKeepsItsAnswersWhileItsFileIsReplaced() throws {
        try TestScale.requireFullRun("an open index beside six replacements")
        let setup = try Setup(self)
        let index = try MovieIndex(path: setup.cache)
        let expected = try Self.queries.map { try index.search($0, perYear: 3) }
        let ids = Array(stride(from: 0, to: TestScale.replaceWhileQueryingMovies, by: 97))
        let movies = try ids.map { try index.movie(id: $0) }
        let state = QueryLoop()

        let group = DispatchGroup()
        for thread in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                while !state.stop.load(ordering: .relaxed) {
                    for (query, answer) in zip(Self.queries, expected) where (try? index.search(query, perYear: 3)) != answer {
                        state.fail("thread \(thread): \(query.debugDescription) changed")
                    }
                    for (id, movie) in zip(ids, movies) where (try? index.movie(id: id)) != movie {
                        state.fail("thread \(thread): movie \(id) changed")
                    }
                    state.passes.add(1, ordering: .relaxed)
                }
            }.start()
        }
        let writer = Replacer(setup)
        writer.run()
        state.stop.store(true, ordering: .relaxed)
        group.wait()

        XCTAssertEqual(writer.failures, [])
        XCTAssertEqual(state.failures, [])
        XCTAssertGreaterThan(state.passes.load(ordering: .relaxed), 0)
        XCTAssertNoThrow(try index.verify(), "the old file's bytes changed under the mapping")
        XCTAssertNotEqual(try MovieIndex(path: setup.cache).search("ka", perYear: 3), expected[0])
        print("ReplaceWhileQueryingTests: 2 threads ran \(state.passes.load(ordering: .relaxed)) passes over an open index "
              + "while its file was replaced \(Self.replacements) times")
    }

    // MARK: Setup

    /// A cache built from one catalog, and two other catalogs to replace it with.
    private struct Setup {
        let binary: String
        let folder: String
        let cache: String
        /// A copy of the first cache, outside the cache's folder.
        let firstCacheCopy: String
        let replacements: [String]
        let cacheFolder: String

        init(_ test: XCTestCase) throws {
            binary = try ChildProcess.binary()
            folder = try TestPaths.temporaryFolder(test).path
            cacheFolder = folder + "/caches"
            try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
            cache = cacheFolder + "/movies.mscache"
            let first = folder + "/first.json"
            let movies = TestScale.replaceWhileQueryingMovies
            try GeneratedCatalog(movies: movies, seed: 10).write(to: first)
            replacements = [folder + "/second.json", folder + "/third.json"]
            for (offset, path) in replacements.enumerated() {
                try GeneratedCatalog(movies: movies, seed: 11 + UInt64(offset)).write(to: path)
            }
            let indexed = try ChildProcess.run(binary, ["index", first, "-o", cache])
            XCTAssertTrue(indexed.exited(0), indexed.summary)
            firstCacheCopy = folder + "/first.mscache"
            try FileManager.default.copyItem(atPath: cache, toPath: firstCacheCopy)
        }

        /// The cache now holds a replacement's answers, and nothing else is in its folder.
        func checkReplaced(differentFrom answers: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let now = try BinaryRun.run(["query", "--stdin", "--cache", cache, "--per-year", "3"],
                                        input: Data((ReplaceWhileQueryingTests.queries.joined(separator: "\n") + "\n").utf8))
            XCTAssertEqual(now.status, 0, file: file, line: line)
            XCTAssertNotEqual(now.standardOutput, answers, "the cache was not replaced", file: file, line: line)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cacheFolder), ["movies.mscache"],
                           file: file, line: line)
        }
    }

    /// Runs `index` `replacements` times onto the cache, alternating between the replacement catalogs.
    private final class Replacer: @unchecked Sendable {
        // @unchecked: `failures` is written by the writing thread before `done` is set, read after.
        private let setup: Setup
        private let done = Atomic<Bool>(false)
        private(set) var failures: [String] = []

        init(_ setup: Setup) { self.setup = setup }

        var isDone: Bool { done.load(ordering: .acquiring) }

        func start() {
            Thread { self.run() }.start()
        }

        func run() {
            for round in 0..<ReplaceWhileQueryingTests.replacements {
                let catalog = setup.replacements[round % setup.replacements.count]
                do {
                    let outcome = try ChildProcess.run(setup.binary, ["index", catalog, "-o", setup.cache])
                    if !outcome.exited(0) { failures.append("index \(round): \(outcome.summary)") }
                } catch {
                    failures.append("index \(round): \(error)")
                }
            }
            done.store(true, ordering: .releasing)
        }
    }

    /// What the querying threads share.
    private final class QueryLoop: Sendable {
        let stop = Atomic<Bool>(false)
        let passes = Atomic<Int>(0)
        private let failureList = Mutex<[String]>([])

        var failures: [String] { failureList.withLock { $0 } }

        func fail(_ message: String) {
            failureList.withLock { if $0.count < 20 { $0.append(message) } }
        }
    }

    /// Lines read from a file descriptor as they arrive.
    private final class LineReader {
        private let descriptor: Int32
        private var buffer: [UInt8] = []

        init(_ descriptor: Int32) { self.descriptor = descriptor }

        /// The next line without its newline, or `nil` at the end of the input.
        func nextLine() -> String? {
            var searched = 0
            while true {
                if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                searched = buffer.count
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return nil }
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }
}

/// Writes all of `bytes` to `descriptor`; `nil` when a write fails (the reader went away).
private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Void? {
    var offset = 0
    while offset < bytes.count {
        let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return nil }
        offset += count
    }
    return ()
}
