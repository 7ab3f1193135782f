#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MovieSearch
@testable import MovieSearchCatalog
import XCTest

/// A catalog read from a pipe: checked as it arrives, stopped at its first bad byte, bounded in size, and
/// reported exactly as the same bytes from a regular file.
final class CatalogStreamTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        signal(SIGPIPE, SIG_IGN)  // The writer of a pipe the reader gave up on gets EPIPE, not a signal.
    }

    /// How many bytes the writer thread got into the pipe; read only after it is done.
    private final class Count: @unchecked Sendable { var value = 0 }

    /// Writes `bytes` to a new pipe from another thread (stopping when the reader closes its end), calls `body`
    /// with the read end, closes it, and returns how many bytes the writer got into the pipe.
    private func withPipe(writing bytes: [UInt8], _ body: (Int32) -> Void) -> Int {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let written = Count()
        let done = DispatchSemaphore(value: 0)
        Thread {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let result = write(writeEnd, buffer.baseAddress! + offset, min(4096, buffer.count - offset))
                    if result <= 0 { break }
                    offset += result
                }
                written.value = offset
            }
            close(writeEnd)
            done.signal()
        }.start()
        body(readEnd)
        close(readEnd)
        done.wait()
        return written.value
    }

    private func streamError(_ bytes: [UInt8], maximumBytes: Int = CatalogDecoder.maximumStreamBytes) -> CatalogError? {
        var result: CatalogError?
        _ = withPipe(writing: bytes) { descriptor in
            do {
                _ = try CatalogDecoder.load(fileDescriptor: descriptor, source: "<stdin>", maximumBytes: maximumBytes)
            } catch {
                result = error as? CatalogError
            }
        }
        return result
    }

    func testEndlessZerosStopAtTheFirstByte() {
        let megabytes = [UInt8](repeating: 0, count: 8 << 20)
        var thrown: CatalogError?
        let written = withPipe(writing: megabytes) { descriptor in
            do {
                _ = try CatalogDecoder.load(fileDescriptor: descriptor, source: "<stdin>")
            } catch {
                thrown = error as? CatalogError
            }
        }
        XCTAssertEqual(thrown, .malformedJSON(source: "<stdin>", line: 1, column: 1, offset: 0,
                                              reason: "unexpected control character U+0000, expected a value"))
        // Reading stopped long before the writer was done: a pipe holds far less than 8 MiB.
        XCTAssertLessThan(written, megabytes.count)
    }

    func testAStreamGivesTheSameErrorsAsTheSameBytesInMemory() {
        let catalog = #"[{"title":"Amélie","year":2001,"rating":8.3},{"title":"Up","year":2009}]"#
        var inputs = [Array(catalog.utf8), [], Array("   ".utf8), Array(#"{"movies":3}"#.utf8)]
        for (offset, byte) in [(1, UInt8(ascii: "x")), (12, 0), (25, 0xFF), (40, UInt8(ascii: "]")), (70, 0x0A)] {
            var broken = Array(catalog.utf8)
            broken[offset] = byte
            inputs.append(broken)
            inputs.append(Array(broken.prefix(offset + 2)))
        }
        for input in inputs {
            var inMemory: CatalogError?
            do { _ = try CatalogDecoder.decode(input, source: "<stdin>") } catch { inMemory = error as? CatalogError }
            XCTAssertEqual(streamError(input), inMemory, String(decoding: input, as: UTF8.self))
        }
    }

    func testAStreamPastTheLimitIsRefused() {
        let padded = Array(("[" + String(repeating: " ", count: 200) + "]").utf8)
        XCTAssertEqual(streamError(padded, maximumBytes: 100),
                       .unreadable(source: "<stdin>", reason: "larger than 100 bytes"))
        XCTAssertNil(streamError(padded, maximumBytes: padded.count))
    }
}
