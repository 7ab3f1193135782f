#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MovieSearch
import MovieSearchCLI
import XCTest
import TestSupport

/// Inputs that are streams, not regular files (`/dev/zero`, pipes, FIFOs, standard input), through the built
/// binary: read as they arrive, stopped at the first byte that is not JSON, bounded in size, and every failure
/// one line.
final class StreamInputEndToEndTests: XCTestCase {
    private static let catalog = #"[{"title": "Alpha Dawn", "year": 2010, "rating": 3}, {"title": "Beta Dusk", "year": 2011}]"#

    /// Runs the binary with `standardInput` (a file handle of any kind) as its standard input; standard output
    /// and error go to files, as in `BinaryRun`.
    private func run(_ arguments: [String], standardInput: FileHandle) throws -> BinaryRun {
        let outcome = try ChildProcess.run(ChildProcess.binary(), arguments, standardInput: standardInput)
        XCTAssertEqual(outcome.reason, .exit, "moviesearch was killed by a signal: \(arguments)")
        return BinaryRun(status: outcome.status, standardOutput: outcome.standardOutput,
                         standardError: outcome.standardError)
    }

    /// Runs the binary reading `bytes` from a pipe (they must fit in the pipe's buffer, 64 KiB on Linux).
    private func run(_ arguments: [String], pipedInput bytes: String) throws -> BinaryRun {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(bytes.utf8))
        try pipe.fileHandleForWriting.close()
        defer { try? pipe.fileHandleForReading.close() }
        return try run(arguments, standardInput: pipe.fileHandleForReading)
    }

    private func assertOneLineError(_ run: BinaryRun, status: Int32 = 1, _ expected: String,
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, status, run.standardError, file: file, line: line)
        XCTAssertEqual(run.standardOutput, "", file: file, line: line)
        XCTAssertEqual(run.errorLines.first, expected, run.standardError, file: file, line: line)
        if status == 1 { XCTAssertEqual(run.errorLines.count, 1, run.standardError, file: file, line: line) }
    }

    private func cache() throws -> String {
        try indexedCache(try temporaryFile("movies.json", Self.catalog))
    }

    // MARK: - /dev/zero

    func testZerosFailAtTheFirstByteForEveryCommand() throws {
        let cache = try cache()
        let output = try TestPaths.temporaryFolder(self).appendingPathComponent("zero.mscache").path
        let notJSON = "malformed JSON at line 1, column 1 (byte 0): unexpected control character U+0000, expected a value"
        let binary = "not a movie catalog: it is binary, not text (a NUL byte near its start)"
        let noInput = FileHandle.nullDevice

        assertOneLineError(try run(["index", "/dev/zero", "-o", output], standardInput: noInput),
                           "moviesearch: /dev/zero: \(binary)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        assertOneLineError(try run(["photos", "0", "--cache", cache, "--response", "/dev/zero"], standardInput: noInput),
                           "moviesearch: /dev/zero: not a Flickr response: \(notJSON)")
        assertOneLineError(try run(["bench", "--cache", cache, "--queries", "/dev/zero"], standardInput: noInput),
                           "moviesearch: cannot read queries /dev/zero: line 1 is longer than 1 MiB, the most a query may hold")

        let zeros = try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/zero"))
        defer { try? zeros.close() }
        assertOneLineError(try run(["index", "-", "-o", output], standardInput: zeros),
                           "moviesearch: <stdin>: \(binary)")
        assertOneLineError(try run(["photos", "0", "--cache", cache, "--response", "-"], standardInput: zeros),
                           "moviesearch: <stdin>: not a Flickr response: \(notJSON)")
        assertOneLineError(try run(["query", "--stdin", "--cache", cache], standardInput: zeros),
                           "moviesearch: cannot read queries from <stdin>: line 1 is longer than 1 MiB, the most a query may hold")
    }

    // MARK: - index -

    func testAStreamThatPausesAfterABadByteFailsAtOnce() throws {
        // A person typing at a terminal, or a writer that stalls: the bad byte is there, the rest never comes.
        // (`{` already says JSON; a first line of text could still become a CSV header.)
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("{x".utf8))
        defer { try? pipe.fileHandleForWriting.close() }
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("paused.mscache").path
        let outcome = try ChildProcess.run(try ChildProcess.binary(), ["index", "-", "-o", cache],
                                           standardInput: pipe.fileHandleForReading, timeLimit: 10)
        XCTAssertTrue(outcome.finished, "index waited for more input after a bad byte")
        XCTAssertTrue(outcome.exited(1), outcome.summary)
        XCTAssertEqual(outcome.errorLines.count, 1, outcome.standardError)
        XCTAssertTrue(outcome.standardError.hasPrefix("moviesearch: <stdin>: malformed JSON at line 1, column 2 (byte 1)"),
                      outcome.standardError)
    }

    func testACatalogFileLargerThanMemoryIsRefusedBeforeItIsRead() throws {
        // A sparse file claims a size no allocation may take: refused with one line, never a crash. (JSON is
        // read whole; the line-based formats are streamed and have no such limit.)
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("sparse.json").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("[".utf8)))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(CatalogDecoder.maximumFileBytes) + 1)
        try handle.close()
        let run = try BinaryRun.run(["index", path, "-o", path + ".mscache"])
        XCTAssertEqual(run.status, 1, run.standardError)
        XCTAssertEqual(run.errorLines, ["moviesearch: cannot read catalog \(path): larger than 8 GiB, "
            + "the most a catalog file may hold"])
    }

    func testIndexReadsTheCatalogFromAPipe() throws {
        let output = try TestPaths.temporaryFolder(self).appendingPathComponent("piped.mscache").path
        let indexed = try run(["index", "-", "-o", output], pipedInput: Self.catalog)
        XCTAssertEqual(indexed.status, 0, indexed.standardError)
        XCTAssertTrue(indexed.standardOutput.hasPrefix("Indexed <stdin> into \(output)\n"), indexed.standardOutput)

        let query = try BinaryRun.run(["query", "dusk", "--cache", output, "--json"])
        XCTAssertEqual(query.status, 0, query.standardError)
        XCTAssertTrue(query.standardOutput.contains(#""title":"Beta Dusk""#), query.standardOutput)
    }

    func testMalformedJSONFromAPipeIsReportedAsFromAFile() throws {
        let text = "[{\"title\": \"A\", \"year\": 2010},\n {\"title\": \"B\" \"year\": 2011}]"
        let output = try TestPaths.temporaryFolder(self).appendingPathComponent("bad.mscache").path
        let file = try temporaryFile("bad.json", text)
        let fromFile = try BinaryRun.run(["index", file, "-o", output])
        let fromPipe = try run(["index", "-", "-o", output], pipedInput: text)
        XCTAssertEqual(fromFile.status, 1)
        assertOneLineError(fromPipe, fromFile.standardError.replacingOccurrences(of: file, with: "<stdin>")
            .trimmingCharacters(in: .newlines))
        XCTAssertTrue(fromPipe.standardError.contains("line 2, column 16"), fromPipe.standardError)
    }

    func testIndexFromStandardInputNeedsAnOutput() throws {
        let minus = try BinaryRun.run(["index", "-"], input: Data(Self.catalog.utf8))
        assertOneLineError(minus, status: 2,
                           "moviesearch: '-' reads the catalog from standard input: give the cache's path with -o <cache>")

        // Standard input redirected from a regular file: /dev/stdin leads to it, yet its default cache would be
        // /dev/stdin.mscache.
        let devStdin = try BinaryRun.run(["index", "/dev/stdin"], input: Data(Self.catalog.utf8))
        assertOneLineError(devStdin, status: 2,
                           "moviesearch: /dev/stdin is under /dev or /proc: give the cache's path with -o <cache>")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/stdin.mscache"))

        let output = try TestPaths.temporaryFolder(self).appendingPathComponent("stdin.mscache").path
        let withOutput = try BinaryRun.run(["index", "/dev/stdin", "-o", output], input: Data(Self.catalog.utf8))
        XCTAssertEqual(withOutput.status, 0, withOutput.standardError)
    }

    // MARK: - FIFOs and directories

    func testAFIFOCatalogNeedsAnOutputAndAnEmptyOneIsOneLine() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let fifo = folder.appendingPathComponent("catalog.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        assertOneLineError(try BinaryRun.run(["index", fifo]), status: 2,
                           "moviesearch: \(fifo) is a FIFO (named pipe), not a regular file: give the cache's path with -o <cache>")

        // A writer that opens the FIFO and closes it at once: an empty catalog.
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            if fd >= 0 { close(fd) }
        }
        writer.start()
        let output = folder.appendingPathComponent("fifo.mscache").path
        assertOneLineError(try BinaryRun.run(["index", fifo, "-o", output]),
                           "moviesearch: \(fifo): not a movie catalog: it is empty")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testADirectoryCatalogIsOneLine() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let output = folder + "/out.mscache"
        assertOneLineError(try BinaryRun.run(["index", folder, "-o", output]),
                           "moviesearch: cannot read catalog \(folder): Is a directory")
        assertOneLineError(try BinaryRun.run(["index", folder]),
                           "moviesearch: cannot read catalog \(folder): Is a directory")
    }

    // MARK: - Limits

    func testAResponsePastTheLimitIsRefused() throws {
        let cache = try cache()
        // A regular file's size is known before reading: what it holds does not matter.
        let big = try temporaryFile("big.json", "")
        XCTAssertEqual(truncate(big, (1 << 20) + 1), 0)
        assertOneLineError(try BinaryRun.run(["photos", "0", "--cache", cache, "--response", big]),
                           "moviesearch: cannot read Flickr response \(big): larger than 1 MiB, the most a response may hold")
        // Standard input, in process. The one limit of every Flickr answer, given, saved, cached or fetched.
        let fromInput = MovieSearchCommand.run(
            arguments: ["photos", "0", "--cache", cache, "--response", "-", "--flickr-key", "k"],
            standardInput: [UInt8](repeating: UInt8(ascii: " "), count: (1 << 20) + 1))
        XCTAssertEqual(fromInput.status, 1)
        XCTAssertEqual(fromInput.standardError,
                       "moviesearch: cannot read Flickr response <stdin>: larger than 1 MiB, the most a response may hold\n")
    }

    func testQueryLinesAndQueryFilesAreBounded() throws {
        let cache = try cache()
        let longLine = "alpha\n" + String(repeating: "x", count: (1 << 20) + 1) + "\n"
        let query = try BinaryRun.run(["query", "--stdin", "--cache", cache], input: Data(longLine.utf8))
        XCTAssertEqual(query.status, 1, query.standardError)
        XCTAssertEqual(query.standardOutput.split(separator: "\n").count, 1, "the first line is answered")
        XCTAssertEqual(query.errorLines,
                       ["moviesearch: cannot read queries from <stdin>: line 2 is longer than 1 MiB, the most a query may hold"])

        let longFile = try temporaryFile("long.txt", longLine)
        assertOneLineError(try BinaryRun.run(["bench", "--cache", cache, "--queries", longFile]),
                           "moviesearch: cannot read queries \(longFile): line 2 is longer than 1 MiB, the most a query may hold")
        // The bounds on the number of queries and their bytes in all: BenchCommandTests.testQueryFilesAreBounded.
    }
}
