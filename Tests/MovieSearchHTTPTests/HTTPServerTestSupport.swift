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

// What the tests of the server on real sockets share: a responder that echoes, a blocking TCP client, an answer
// parser, gunzip, and a server started and always stopped around a test.

/// Why the test client gave up.
enum TestClientError: Error, Equatable {
    /// A system call failed with this `errno`.
    case system(String, Int32)
    /// Nothing arrived within the receive timeout.
    case timeout
    /// The server closed the connection before the answer was complete.
    case closed
    /// The bytes are not an HTTP/1.1 answer.
    case malformed(String)
}

/// One answer as the test client read it.
struct TestResponse {
    /// The status code.
    var status: Int
    /// The header fields in order, names as sent.
    var headers: [(name: String, value: String)]
    /// The body (`Content-Length` bytes; none for a `HEAD`, a 204 or a 304).
    var body: [UInt8]

    /// The first field of this name, without regard to case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// The test responder: counts its calls, and answers by path.
///
/// - `/large`: 8 KiB of repetitive JSON, revalidatable and compressible;
/// - `/small`: 100 bytes, revalidatable and compressible (under gzip's minimum);
/// - `/tagged`: revalidatable, not compressible;
/// - `/huge`: 1 MiB, for a client that does not read;
/// - `/shared`: 1 MiB, revalidatable: identical answers share one buffer;
/// - `/distinct`: 16 MiB (more than the kernel's socket buffers take), different for each call, on the `.heavy`
///   lane;
/// - `/render`: waits 50 ms (a long render), on the `.heavy` lane;
/// - `/block`: waits until the test signals `gate` (a favorites lock held by another process), on the `.blocking`
///   lane;
/// - anything else: `METHOD TARGET` and a line feed, then the request's body, as `text/plain`.
final class TestResponder: HTTPResponder {
    /// Calls of `respond(to:)` so far.
    let calls = Atomic<Int>(0)
    /// What `/block` waits for: one `signal()` per request to let go.
    let gate = DispatchSemaphore(value: 0)

    func lane(for request: HTTPRequest) -> HTTPLane {
        switch request.path {
        case "/block": .blocking
        case "/render", "/distinct", "/huge", "/shared": .heavy
        default: .quick
        }
    }

    /// The body of `/large`.
    static let largeBody: [UInt8] = Array(
        ("[" + (0..<200).map { "{\"id\":\($0),\"title\":\"movie\"}" }.joined(separator: ",") + "]").utf8)

    /// The body of `/huge`.
    static let hugeBody = [UInt8](repeating: 0x61, count: 1 << 20)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        calls.add(1, ordering: .relaxed)
        switch request.path {
        case "/large":
            return HTTPResponse(status: 200, contentType: "application/json", body: Self.largeBody,
                                isRevalidatable: true, isCompressible: true)
        case "/small":
            return HTTPResponse(status: 200, contentType: "application/json",
                                body: Array(String(repeating: "a", count: 100).utf8), isRevalidatable: true,
                                isCompressible: true)
        case "/huge":
            return HTTPResponse(status: 200, contentType: "application/octet-stream", body: Self.hugeBody)
        case "/shared":
            return HTTPResponse(status: 200, contentType: "application/octet-stream", body: Self.hugeBody,
                                isRevalidatable: true)
        case "/distinct":
            var body = [UInt8](repeating: 0x62, count: 16 << 20)
            withUnsafeBytes(of: calls.load(ordering: .relaxed)) { body.replaceSubrange(0..<$0.count, with: $0) }
            return HTTPResponse(status: 200, contentType: "application/octet-stream", body: body)
        case "/render":
            usleep(50_000)
            return HTTPResponse(status: 200, contentType: "text/plain", body: Array("rendered\n".utf8))
        case "/block":
            gate.wait()
            return HTTPResponse(status: 200, contentType: "text/plain", body: Array("unblocked\n".utf8))
        case "/tagged":
            return HTTPResponse(status: 200, contentType: "text/plain", body: Array("tagged body".utf8),
                                isRevalidatable: true)
        default:
            return HTTPResponse(status: 200, contentType: "text/plain",
                                body: Array("\(request.method) \(request.target)\n".utf8) + request.body)
        }
    }

    func errorResponse(status: Int, message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain", body: Array("error \(status): \(message)\n".utf8))
    }
}

/// A blocking TCP client to 127.0.0.1, with a receive timeout (`SO_RCVTIMEO`) so that no test hangs on a server
/// that does not answer. Reads are buffered: the bytes after one answer stay for the next (pipelining).
final class TestClient {
    let descriptor: Int32
    /// Bytes received and not yet returned.
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; reads give up after `receiveTimeout` without a byte. `receiveBuffer` sets
    /// `SO_RCVBUF` before connecting (a small one makes a client that does not read stall the server's writes soon).
    init(port: UInt16, receiveTimeout: Duration = .seconds(2), receiveBuffer: Int32? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw TestClientError.system("socket", errno) }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw TestClientError.system("connect", error)
        }
        setReceiveTimeout(receiveTimeout)
    }

    deinit {
        close(descriptor)
    }

    /// How long a read waits for a byte before it gives up.
    func setReceiveTimeout(_ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: .init(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `text`.
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        for _ in 0..<10_000 where sent < bytes.count {
            #if canImport(Darwin)
            let count = bytes[sent...].withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
            #else
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            #endif
            if count < 0 {
                if errno == EINTR { continue }
                throw TestClientError.system("send", errno)
            }
            sent += count
        }
    }

    /// Reads once into the buffer: false when the server closed (end of stream or reset).
    private func receive() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        for _ in 0..<100 {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: throw TestClientError.timeout
            case ECONNRESET: return false
            default: throw TestClientError.system("recv", errno)
            }
        }
        throw TestClientError.timeout
    }

    /// Reads one answer; `omitsBody` for the answer to a `HEAD` (its `Content-Length` is not followed by a body).
    func readResponse(omitsBody: Bool = false) throws -> TestResponse {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        for _ in 0..<1_000 {
            if let end = buffer.firstRange(of: terminator)?.upperBound {
                headEnd = end
                break
            }
            guard buffer.count < 64 * 1024 else { throw TestClientError.malformed("no end of header in 64 KiB") }
            guard try receive() else { throw TestClientError.closed }
        }
        guard let headEnd else { throw TestClientError.timeout }
        let lines = String(decoding: buffer[0..<headEnd - 4], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw TestClientError.malformed("status line '\(lines[0])'")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw TestClientError.malformed("field '\(line)'") }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        var response = TestResponse(status: status, headers: headers, body: [])
        buffer.removeSubrange(0..<headEnd)
        guard !omitsBody, status != 204, status != 304 else { return response }
        guard let lengthText = response.header("Content-Length"), let length = Int(lengthText) else {
            throw TestClientError.malformed("no Content-Length")
        }
        for _ in 0..<10_000 where buffer.count < length {
            guard try receive() else { throw TestClientError.closed }
        }
        guard buffer.count >= length else { throw TestClientError.timeout }
        response.body = Array(buffer[0..<length])
        buffer.removeSubrange(0..<length)
        return response
    }

    /// Reads until the server closes the connection and returns the bytes that came before the close (none
    /// expected after a complete answer); throws `timeout` if the connection stays open.
    func readUntilClosed() throws -> [UInt8] {
        for _ in 0..<100_000 {
            guard try receive() else {
                defer { buffer = [] }
                return buffer
            }
        }
        throw TestClientError.timeout
    }
}

/// The backends to test on this platform: both on Linux, `poll` elsewhere (where `.epoll` would also use `poll`).
let testedBackends: [EventBackend] = {
    #if os(Linux)
    [.epoll, .poll]
    #else
    [.poll]
    #endif
}()

extension XCTestCase {
    /// Runs `body` with a server on 127.0.0.1 (port 0), one loop, short timeouts (request and idle 300 ms, write
    /// 1 s, grace 500 ms), no access log, adjusted by `configure`; the server is stopped and waited for afterwards,
    /// whatever `body` does or throws.
    func withServer(
        _ backend: EventBackend, configure: (inout HTTPServer.Configuration) -> Void = { _ in },
        _ body: (HTTPServer, TestResponder) throws -> Void
    ) throws {
        var configuration = HTTPServer.Configuration(address: SocketAddress(host: .ipv4(127, 0, 0, 1), port: 0))
        configuration.loopCount = 1
        configuration.requestTimeout = .milliseconds(300)
        configuration.idleTimeout = .milliseconds(300)
        configuration.writeTimeout = .seconds(1)
        configuration.shutdownGrace = .milliseconds(500)
        configuration.backend = backend
        configure(&configuration)
        let responder = TestResponder()
        let server = try HTTPServer(configuration: configuration, responder: responder)
        try server.start()
        defer {
            server.stop()
            // A connection wakes the loop at once; otherwise it notices the stop within its 100 ms tick, which,
            // over every test and backend, would cost seconds.
            _ = try? TestClient(port: server.boundAddress.port)
            server.wait()
        }
        try body(server, responder)
    }

    /// A request for `target` naming `server` as its host, with more fields if given.
    func get(_ target: String, _ server: HTTPServer, _ fields: String = "", method: String = "GET") -> String {
        "\(method) \(target) HTTP/1.1\r\nHost: \(server.hostHeader)\r\n\(fields)\r\n"
    }

    /// The time `body` takes.
    func elapsed(_ body: () throws -> Void) rethrows -> Duration {
        let start = ContinuousClock.now
        try body()
        return ContinuousClock.now - start
    }
}

extension HTTPServer {
    /// The `Host` header value that names this server: `127.0.0.1:port`.
    var hostHeader: String { boundAddress.description }
}
