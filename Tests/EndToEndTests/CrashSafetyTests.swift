import Foundation
import MovieSearch
import XCTest
import TestSupport

/// `moviesearch index` killed with SIGKILL at many moments of a run on a large catalog: the previous cache must stay
/// byte-identical and answer queries, and the next successful run must leave no temporary file behind. Some 30 runs
/// of `index`: a full run's check (`TestScale.requireFullRun`), which `.ci/run` makes against the installed binary.
final class CrashSafetyTests: XCTestCase {
    /// Kills at evenly spread moments, from right after the start to near the end of a full run.
    static let spreadKills = 22
    /// Kills right after the write starts (the temporary file appears), plus these delays: the write takes only
    /// milliseconds, so evenly spread kills rarely land in it, and these make sure some runs die with a half-written
    /// file. The last is the likeliest to leave one behind for the final run to remove.
    static let delaysAfterTheWriteStarts = [0.01, 0.003, 0.001, 0]
    /// How many kills must find the previous cache in place (those that land after the rename find the new one).
    static let requiredKills = 20

    func testKillingIndexAnywhereKeepsThePreviousCacheAndTheNextRunLeavesNoTemporaryFile() throws {
        try TestScale.requireFullRun("index killed some 30 times")
        let testStart = ChildProcess.now()
        var run = try KillScenario(test: self)

        // One full run, timed: the kills are spread over its duration, and its cache is what the last run must give.
        let reference = run.folder + "/reference.mscache"
        let fullStart = ChildProcess.now()
        let full = try ChildProcess.run(run.binary, ["index", run.catalog, "-o", reference])
        run.duration = ChildProcess.now() - fullStart
        XCTAssertTrue(full.exited(0), full.summary)
        run.newBytes = try Data(contentsOf: URL(fileURLWithPath: reference))
        let fullDuration = run.duration

        for kill in 0..<Self.spreadKills {
            try run.killedRun(at: .fraction(0.92 * Double(kill) / Double(Self.spreadKills - 1)))
        }
        for delay in Self.delaysAfterTheWriteStarts {
            try run.killedRun(at: .afterTheWriteStarts(delay: delay))
        }
        // Each run's writer removes the files of those killed before it: make sure the final run has one to remove.
        for _ in 0..<5 where try run.leftovers().isEmpty {
            try run.killedRun(at: .afterTheWriteStarts(delay: 0))
        }
        // An optimized binary indexes the small catalog of a debug test build in 20–30 ms, so that a kill late in
        // the spread can land after the rename or after the end (this failed CI once: 7 of 9). Kills early in a run
        // top the count up; past three times the count the machine is too erratic and the test fails.
        var topUps = 0
        while run.killsBeforeTheRename < Self.requiredKills, topUps < 3 * Self.requiredKills {
            try run.killedRun(at: .fraction(0.1 * Double(topUps % 5)))
            topUps += 1
        }
        XCTAssertGreaterThanOrEqual(run.killsBeforeTheRename, Self.requiredKills)
        XCTAssertFalse(try run.leftovers().isEmpty,
                       "no kill left a temporary file behind, so the cleanup of the next run is not tested")

        // The next successful run writes the new cache and removes every temporary file the killed runs left.
        let next = try ChildProcess.run(run.binary, ["index", run.catalog, "-o", run.output])
        XCTAssertTrue(next.exited(0), next.summary)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: run.output)), run.newBytes)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: run.outputFolder), ["movies.mscache"])

        print(String(
            format: "CrashSafetyTests: %d movies, full run %.3f s; %d kills (%d before the rename, %d after; %d early "
                + "ones to top up), %d runs finished first; %d temporary files left by killed runs, %d of them removed "
                + "by a later killed run; %.1f s in all",
            TestScale.crashSafetyMovies, fullDuration, run.killsBeforeTheRename + run.killsAfterTheRename,
            run.killsBeforeTheRename, run.killsAfterTheRename, topUps, run.finishedRuns, run.leftoversSeen.count,
            run.leftoversRemovedByLaterRuns, ChildProcess.now() - testStart))
    }
}

/// The state of the kill test: the catalogs, the output folder, the caches expected there, and counts.
private struct KillScenario {
    let test: XCTestCase
    let binary: String
    let folder: String
    /// The large catalog every killed run indexes.
    let catalog: String
    /// Holds nothing but the cache and the temporary files of killed runs.
    let outputFolder: String
    let output: String
    /// The cache at `output` before each run, and its answers.
    let previousBytes: Data
    let previousAnswers: [SearchResult]
    let previousMovie: Movie
    /// The cache of `catalog`.
    var newBytes = Data()
    /// How long a full run takes; lowered when a run finishes or renames sooner (the machine is shared).
    var duration = 0.0

    private(set) var killsBeforeTheRename = 0
    private(set) var killsAfterTheRename = 0
    private(set) var finishedRuns = 0
    private(set) var killedProcesses = Set<Int32>()
    private(set) var leftoversSeen = Set<String>()
    private(set) var leftoversRemovedByLaterRuns = 0

    enum Moment {
        /// This fraction of `duration` after the start.
        case fraction(Double)
        /// As soon as the run starts writing the cache (its temporary file exists), plus `delay` seconds.
        case afterTheWriteStarts(delay: Double)
    }

    init(test: XCTestCase) throws {
        self.test = test
        binary = try ChildProcess.binary()
        folder = try TestPaths.temporaryFolder(test).path
        catalog = folder + "/large.json"
        try GeneratedCatalog(movies: TestScale.crashSafetyMovies, seed: 1).write(to: catalog)
        outputFolder = folder + "/out"
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        output = outputFolder + "/movies.mscache"

        // The previous cache: a smaller, different catalog, so that it is quick to build and its answers differ.
        let previousCatalog = folder + "/previous.json"
        try GeneratedCatalog(movies: 2_000, seed: 2).write(to: previousCatalog)
        let first = try ChildProcess.run(binary, ["index", previousCatalog, "-o", output])
        XCTAssertTrue(first.exited(0), first.summary)
        previousBytes = try Data(contentsOf: URL(fileURLWithPath: output))
        let index = try MovieIndex(path: output)
        previousAnswers = try GeneratedCatalog.sampleQueries.map { try index.search($0, perYear: 3) }
        previousMovie = try index.movie(id: 1_999)
        XCTAssertGreaterThan(previousAnswers[0].total, 0)
    }

    /// Starts `index catalog -o output`, kills it at `moment`, and checks what it left.
    mutating func killedRun(at moment: Moment, file: StaticString = #filePath, line: UInt = #line) throws {
        let start = ChildProcess.now()
        let process = try ChildProcess.start(binary, ["index", catalog, "-o", output])
        let pid = process.processIdentifier
        var killAt = start
        switch moment {
        case let .fraction(fraction):
            killAt = start + fraction * duration
            ChildProcess.sleep(until: killAt)
        case let .afterTheWriteStarts(delay):
            // The writer's temporary file appears; a writer that wrongly wrote in place would change the output.
            let temporary = "\(outputFolder)/.movies.mscache.tmp-\(pid)-1"
            let before = Self.identity(output)
            let deadline = start + 5 * duration + 10
            while process.isRunning, access(temporary, F_OK) != 0, Self.identity(output) == before,
                  ChildProcess.now() < deadline {
                usleep(100)
            }
            XCTAssertLessThan(ChildProcess.now(), deadline, "the write never started", file: file, line: line)
            killAt = ChildProcess.now() + delay
            ChildProcess.sleep(until: killAt)
        }
        kill(pid, SIGKILL)
        ChildProcess.waitForExit(process)
        let elapsed = ChildProcess.now() - start

        let killed = process.terminationReason == .uncaughtSignal
        if killed {
            XCTAssertEqual(process.terminationStatus, SIGKILL, file: file, line: line)
            killedProcesses.insert(pid)
        } else {
            XCTAssertEqual(process.terminationStatus, 0, "index failed before it was killed", file: file, line: line)
            finishedRuns += 1
        }

        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        if bytes == previousBytes {
            XCTAssertTrue(killed, "a run that finished left the previous cache", file: file, line: line)
            killsBeforeTheRename += 1
            try checkPreviousCacheAnswers(file: file, line: line)
        } else {
            // Killed after the rename, or finished: the new cache must be complete. Put the previous one back
            // (without our writer, so that the temporary files stay for the next runs to clean).
            XCTAssertEqual(bytes, newBytes, "the cache is neither the previous one nor the new one", file: file, line: line)
            if killed { killsAfterTheRename += 1 }
            duration = min(duration, killAt - start, elapsed)
            try previousBytes.write(to: URL(fileURLWithPath: output), options: .atomic)
        }
        try checkLeftovers(file: file, line: line)
    }

    /// What tells one version of a file from another without reading it: inode, size and modification time.
    private static func identity(_ path: String) -> [Int] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return [Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }

    /// The cache at `output` opens, passes its checksums and gives the answers it gave before any run.
    private func checkPreviousCacheAnswers(file: StaticString, line: UInt) throws {
        let index = try MovieIndex(path: output)
        XCTAssertNoThrow(try index.verify(), file: file, line: line)
        for (query, expected) in zip(GeneratedCatalog.sampleQueries, previousAnswers) {
            XCTAssertEqual(try index.search(query, perYear: 3), expected, query, file: file, line: line)
        }
        XCTAssertEqual(try index.movie(id: 1_999), previousMovie, file: file, line: line)
    }

    /// Nothing but the cache and the temporary files of killed runs is in the output folder.
    private mutating func checkLeftovers(file: StaticString, line: UInt) throws {
        let current = try leftovers()
        for name in current {
            let owner = killedProcesses.first { name.hasPrefix(".movies.mscache.tmp-\($0)-") }
            XCTAssertNotNil(owner, "\(name) is not the temporary file of a killed run", file: file, line: line)
        }
        leftoversSeen.formUnion(current)
        leftoversRemovedByLaterRuns = leftoversSeen.subtracting(current).count
    }

    /// What the output folder holds besides the cache.
    func leftovers() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: outputFolder)).subtracting(["movies.mscache"])
    }
}
