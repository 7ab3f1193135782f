import Dispatch
@testable import MovieSearchHTTP
import Synchronization
import XCTest

/// `AccessLog` without a server: the caller's `write` gets whole batches of lines on the log's thread; a `write`
/// that blocks makes lines past the capacity dropped and counted, never waited for.
final class AccessLogTests: XCTestCase {
    func testLinesReachTheWriterWholeAndDropsAreCountedWhenItBlocks() throws {
        let written = Mutex<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let log = try AccessLog(capacity: 66) { bytes in
            let first = written.withLock { written in
                written.append(String(decoding: bytes, as: UTF8.self))
                return written.count == 1
            }
            if first {
                entered.signal()
                release.wait()
            }
        }
        let line = { (name: String) in Array("\(name) - - [T] \"GET / HTTP/1.1\" 200 -\n".utf8) }
        XCTAssertEqual(line("a").count, 33)
        log.add(line("a"), count: 1)
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, "the writer got the first line")
        // The writer is stuck in `write`: 66 bytes fit (b, c); d is dropped at once.
        let started = ContinuousClock.now
        for name in ["b", "c", "d"] { log.add(line(name), count: 1) }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1), "adding never waits for the writer")
        XCTAssertEqual(log.droppedLines, 1)
        release.signal()
        log.close(waiting: .seconds(5))
        // The count follows the batch whose write was stuck; the lines that fit follow in one batch.
        XCTAssertEqual(written.withLock { $0 }, [
            String(decoding: line("a"), as: UTF8.self),
            "moviesearch: warning: 1 access log lines dropped: the log was not read as fast as requests came\n",
            String(decoding: line("b") + line("c"), as: UTF8.self),
        ])
    }
}
