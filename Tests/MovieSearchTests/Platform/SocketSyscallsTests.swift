#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@testable import MovieSearchPlatform
import XCTest

/// The calls the HTTP server makes through the platform layer (`Syscalls+Sockets`, `EventPoller`, `SystemThread`,
/// the clock and `sameBytes`), on 127.0.0.1 and pipes: what they return, and errors that keep the call's name.
final class SocketSyscallsTests: XCTestCase {
    private let loopback = SocketAddress(host: .ipv4(127, 0, 0, 1), port: 0)

    /// A port taken fails in `bind` with the system's words; the bound address is the one asked for, with the port
    /// the system chose.
    func testListenReportsTheBoundPortAndATakenPortAsABindError() throws {
        let (listener, bound) = try Syscalls.listenTCP(on: loopback, backlog: 8).get()
        defer { Syscalls.closeDescriptor(listener) }
        XCTAssertEqual(bound.host, .ipv4(127, 0, 0, 1))
        XCTAssertNotEqual(bound.port, 0)
        XCTAssertEqual(Syscalls.localAddress(ofSocket: listener), bound)

        guard case let .failure(error) = Syscalls.listenTCP(on: bound, backlog: 8) else {
            return XCTFail("a second listener on \(bound) was allowed")
        }
        XCTAssertEqual(error, SystemError(code: EADDRINUSE, call: "bind"))
        XCTAssertEqual(error.description, "Address already in use")
    }

    /// Nothing pending is `.none`; a client's connection comes with its peer's address; bytes sent arrive; once the
    /// client is gone a read says 0 and a send fails (`EPIPE` or `ECONNRESET`) instead of raising `SIGPIPE`.
    func testAcceptSendAndReadOnALoopbackConnection() throws {
        let (listener, bound) = try Syscalls.listenTCP(on: loopback, backlog: 8).get()
        defer { Syscalls.closeDescriptor(listener) }
        guard case .none = Syscalls.acceptConnection(listener) else { return XCTFail("accepted with none pending") }

        let client = try connectedClient(port: bound.port)
        var accepted: (descriptor: Int32, peer: SocketAddress?)?
        for _ in 0..<200 where accepted == nil {
            if case let .connection(descriptor, peer) = Syscalls.acceptConnection(listener) {
                accepted = (descriptor, peer)
            } else {
                usleep(5_000)
            }
        }
        let server = try XCTUnwrap(accepted, "no connection accepted within a second")
        defer { Syscalls.closeDescriptor(server.descriptor) }
        XCTAssertEqual(server.peer?.host, .ipv4(127, 0, 0, 1))

        let sent = Array("hello".utf8)
        XCTAssertEqual(sent.withUnsafeBytes { Syscalls.sendSome(server.descriptor, $0) }, .success(5))
        var received = [UInt8](repeating: 0, count: 16)
        let count = try received.withUnsafeMutableBytes { try Syscalls.readSome(client, into: $0).get() }
        XCTAssertEqual(Array(received[..<count]), sent)

        // A gathering send takes its buffers in order, in one call.
        let (head, body) = (Array("HTTP ".utf8), Array("body".utf8))
        let gathered = head.withUnsafeBytes { head in
            body.withUnsafeBytes { body in Syscalls.sendSome(server.descriptor, gathering: [head, body, head]) }
        }
        XCTAssertEqual(gathered, .success(14))
        let gatheredCount = try received.withUnsafeMutableBytes { try Syscalls.readSome(client, into: $0).get() }
        XCTAssertEqual(String(decoding: received[..<gatheredCount], as: UTF8.self), "HTTP bodyHTTP ")

        // Non-blocking: nothing to read yet is "would block", not a wait.
        guard case let .failure(error) = received.withUnsafeMutableBytes({ Syscalls.readSome(server.descriptor, into: $0) })
        else { return XCTFail("read something the client never sent") }
        XCTAssertTrue(Syscalls.isWouldBlock(error))

        Syscalls.closeDescriptor(client)
        var failure: SystemError?
        for _ in 0..<200 where failure == nil {
            if case let .failure(error) = sent.withUnsafeBytes({ Syscalls.sendSome(server.descriptor, $0) }) {
                failure = error
            } else {
                usleep(5_000)
            }
        }
        XCTAssertEqual(failure?.call, "send")
        XCTAssertTrue([EPIPE, ECONNRESET].contains(failure?.code ?? 0), "\(String(describing: failure))")
    }

    /// Both backends see a pipe become readable once a byte is written, and nothing before.
    func testEventPollerSeesAPipeBecomeReadable() throws {
        for backend in [EventBackend.poll, .preferred] {
            let (read, write) = try Syscalls.makeNonBlockingPipe().get()
            defer {
                Syscalls.closeDescriptor(read)
                Syscalls.closeDescriptor(write)
            }
            let poller = try EventPoller(backend: backend)
            poller.add(read, .readable)
            XCTAssertTrue(poller.wait(milliseconds: 0).isEmpty, "\(backend)")
            var byte: UInt8 = 1
            _ = withUnsafeBytes(of: &byte) { Syscalls.writeAll(write, $0) }
            let events = poller.wait(milliseconds: 1000)
            XCTAssertEqual(events.map(\.descriptor), [read], "\(backend)")
            XCTAssertEqual(events.first?.isReadable, true, "\(backend)")
            poller.remove(read)
            XCTAssertTrue(poller.wait(milliseconds: 0).isEmpty, "\(backend)")
        }
    }

    /// A thread runs its closure and is joined.
    func testSystemThreadRunsItsBody() throws {
        let box = Box()
        let thread = try SystemThread.start { box.value = 42 }
        thread.join()
        XCTAssertEqual(box.value, 42)
    }

    /// `gmtime_r`'s fields as the calendar says them: the epoch (a Thursday), a leap day, and the date of the
    /// example in `HTTPDate`.
    func testUniversalTimeBreaksDownKnownMoments() {
        XCTAssertEqual(Syscalls.universalTime(0), .init(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0,
                                                       weekday: 4))
        XCTAssertEqual(Syscalls.universalTime(1_709_251_199),
                       .init(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59, weekday: 4))
        XCTAssertEqual(Syscalls.universalTime(1_795_759_200),
                       .init(year: 2026, month: 11, day: 27, hour: 6, minute: 0, second: 0, weekday: 5))
        XCTAssertLessThanOrEqual(abs(Syscalls.wallClockSeconds() - Int(Syscalls.wallClockNanoseconds() / 1_000_000_000)), 1)
    }

    func testSameBytes() {
        let a: [UInt8] = [1, 2, 3], b: [UInt8] = [1, 2, 4], empty: [UInt8] = []
        func same(_ x: [UInt8], _ y: [UInt8]) -> Bool {
            x.withUnsafeBytes { x in y.withUnsafeBytes { y in Syscalls.sameBytes(x, y) } }
        }
        XCTAssertTrue(same(a, a))
        XCTAssertFalse(same(a, b))
        XCTAssertFalse(same(a, [1, 2]))
        XCTAssertTrue(same(empty, []))
    }

    /// A blocking TCP client connected to 127.0.0.1:`port`.
    private func connectedClient(port: UInt16) throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        XCTAssertEqual(result, 0, "connect: \(SystemError.current())")
        return descriptor
    }

    private final class Box: @unchecked Sendable {
        var value = 0
    }
}
