import Foundation
import XCTest
import TestSupport

/// A `moviesearch serve` process of one test: started on port 0, its address read from its first line on standard
/// error, killed when the test ends (whatever the test did), its standard error kept in a file.
final class ServeProcess {
    /// A small catalog the serve tests index (`servedSmallCache()`): four movies in three years.
    static let smallCatalog = """
        [{"title":"The Dark Knight Rises","year":2012,"rating":5},
         {"title":"Dark Shadows","year":2012,"rating":3},
         {"title":"Heat","year":1995,"rating":4},
         {"title":"Gone Girl","year":2014,"rating":4}]
        """

    let process: Process
    /// The port it listens on, from `moviesearch: serving N movies at http://127.0.0.1:PORT/`.
    private(set) var port: UInt16 = 0
    /// The first line it wrote on standard error.
    private(set) var firstLine = ""
    private let errorPath: String

    /// Starts `serve` with `arguments` and waits (up to 10 s) for its first line; `environment` is added to the
    /// isolated one (`ChildProcess.configured`). Fails the test, and throws, when it ends or says nothing.
    /// `openFiles`: the process's limit on open descriptors, soft and hard (set by `sh`'s `ulimit -n` before it
    /// runs the binary), for the tests of running out of them.
    init(_ test: XCTestCase, _ arguments: [String], environment: [String: String] = [:], openFiles: Int? = nil,
         file: StaticString = #filePath, line: UInt = #line) throws {
        let binary = try ChildProcess.binary(file: file, line: line)
        let folder = try TestPaths.temporaryFolder(test).path
        errorPath = folder + "/serve-stderr"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        if let openFiles {
            process = ChildProcess.configured(
                "/bin/sh", ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\"", binary, "serve"] + arguments)
        } else {
            process = ChildProcess.configured(binary, ["serve"] + arguments)
        }
        process.environment?.merge(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardError = errorHandle
        try process.run()
        try errorHandle.close()
        let process = process
        test.addTeardownBlock {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            ChildProcess.waitForExit(process)
        }

        let deadline = ChildProcess.now() + 10
        while !standardError.contains("\n") {
            guard process.isRunning, ChildProcess.now() < deadline else {
                XCTFail("serve did not start: \(standardError.debugDescription)", file: file, line: line)
                throw CocoaError(.fileReadUnknown)
            }
            usleep(2_000)
        }
        firstLine = String(standardError.prefix { $0 != "\n" })
        guard let range = firstLine.range(of: "http://127.0.0.1:") ?? firstLine.range(of: "http://0.0.0.0:"),
              let port = UInt16(firstLine[range.upperBound...].prefix { $0.isNumber }) else {
            XCTFail("no address in \(firstLine.debugDescription)", file: file, line: line)
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    /// What it wrote on standard error so far.
    var standardError: String {
        (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    }

    /// The lines of standard error so far.
    var errorLines: [String] {
        standardError.split(separator: "\n").map(String.init)
    }

    /// The lines of standard error once `condition` holds of them (or `seconds` have passed): what the server logs
    /// comes in its own time, a warning after the first line possibly after the server already answers.
    func errorLines(within seconds: Double = 2, until condition: ([String]) -> Bool) -> [String] {
        let deadline = ChildProcess.now() + seconds
        while !condition(errorLines), ChildProcess.now() < deadline { usleep(5_000) }
        return errorLines
    }

    /// The lines of standard error once there are at least `count` (or `seconds` have passed).
    func errorLines(atLeast count: Int, within seconds: Double = 2) -> [String] {
        errorLines(within: seconds) { $0.count >= count }
    }

    /// Sends `signal`.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits up to `seconds` for the process to end; whether it did.
    func waitForExit(within seconds: Double) -> Bool {
        ChildProcess.waitForExit(process, until: ChildProcess.now() + seconds)
    }

    /// A new connection to the server.
    func connect(timeout: Double = 5) throws -> HTTPConnection {
        try HTTPConnection(port: port, timeout: timeout)
    }

    /// One request on a connection of its own (`Connection: close`): `Host` is the server's address unless
    /// `headers` names one.
    func request(_ target: String, headers: [String: String] = [:]) throws -> HTTPAnswer {
        try request("GET", target, headers: headers)
    }

    /// One request of this method on a connection of its own, as `request(_:headers:)`.
    func request(_ method: String, _ target: String, headers: [String: String] = [:]) throws -> HTTPAnswer {
        let connection = try connect()
        try connection.send(HTTPConnection.request(method, target, host: "127.0.0.1:\(port)",
                                                   headers: headers.merging(["Connection": "close"]) { a, _ in a }))
        return try connection.readAnswer()
    }

    /// Polls `/healthz` until `condition` holds of its body, or `seconds` pass; whether it held.
    func waitForHealth(within seconds: Double, _ condition: (String) -> Bool) -> Bool {
        let deadline = ChildProcess.now() + seconds
        repeat {
            if let answer = try? request("/healthz"), answer.status == 200, condition(answer.text) { return true }
            usleep(10_000)
        } while ChildProcess.now() < deadline
        return false
    }
}

/// An answer as the client read it.
struct HTTPAnswer {
    var status: Int
    /// Header fields, names lowercased.
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.name == name.lowercased() }?.value
    }
}

/// A client connection to 127.0.0.1 only, with send and receive timeouts: it never waits forever on the server.
final class HTTPConnection {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeout: Double) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        #if !canImport(Glibc)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// The bytes of a request with `Host: host` (unless `headers` names another) and `headers`, and no body.
    static func request(_ method: String, _ target: String, host: String, headers: [String: String] = [:])
        -> String
    {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.keys.contains("Host") { text += "Host: \(host)\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        return text + "\r\n"
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, flags) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// Reads more bytes into the buffer; false at the end of the stream. Throws on a timeout or an error.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
            buffer += chunk[..<count]
            return count > 0
        }
    }

    /// Whether the server closed the connection (reads to the end of the stream, throws on a timeout).
    func readsEndOfStream() throws -> Bool {
        while try fill() {}
        return true
    }

    /// Reads one answer (framed by `Content-Length`; an answer to `HEAD` is not read with this).
    func readAnswer() throws -> HTTPAnswer {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while true {
            if buffer.count >= 4 {
                end = (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(separator) }
            }
            if end != nil { break }
            guard try fill() else { throw Failure(description: "the connection closed before an answer") }
        }
        let head = String(decoding: buffer[..<end!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head.debugDescription)")
        }
        let headers = lines.map { line in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            return (name: line[..<colon].lowercased(),
                    value: line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
        }
        let length = Int(headers.first { $0.name == "content-length" }?.value ?? "0") ?? 0
        let start = end! + 4
        while buffer.count < start + length {
            guard try fill() else { throw Failure(description: "the connection closed inside a body") }
        }
        let body = Array(buffer[start..<(start + length)])
        buffer.removeFirst(start + length)
        return HTTPAnswer(status: status, headers: headers, body: body)
    }
}

/// Text as a query component: every byte but the unreserved ones percent-encoded.
func percentEncoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            result.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            result += String(format: "%%%02X", byte)
        }
    }
    return result
}

extension XCTestCase {
    /// `ServeProcess.smallCatalog` indexed in a temporary folder of this test.
    func servedSmallCache() throws -> String {
        try indexedCache(try temporaryFile("small.json", ServeProcess.smallCatalog))
    }

    /// The shared decade catalog indexed in a temporary folder of this test; skipped when the data is missing.
    func servedDecadeCache() throws -> String {
        try indexedCache(try Requirement.sharedData("data/movies.json"))
    }
}
