#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MovieSearchPlatform
import Synchronization

/// An HTTP/1.1 server: one listening socket, and one event loop per core, each on a thread of its own, each owning
/// the connections it accepted (no locks on the request path).
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(address: address), responder: api)
/// try server.start()           // returns once the loops run
/// …                            // on SIGTERM:
/// server.stop()                // stop accepting; requests in flight finish
/// server.wait()                // the loops are done
/// ```
///
/// Requests are parsed by `HTTPRequestParser` (its limits answer 414, 431, 413 before the bytes are buffered),
/// checked (`Host` against `Configuration.allowedHost`, `Origin` of writes), and answered by the responder on the
/// loop's thread: the answers this server exists for take microseconds, so handing them to another thread would cost
/// more than it saves. Slow clients cost a descriptor and a buffer, never a thread.
package final class HTTPServer: Sendable {
    /// How the server listens and what it allows.
    package struct Configuration: Sendable {
        /// Where to listen; port 0 takes a free port (`boundAddress` says which).
        package var address: SocketAddress
        /// Connections open at once, over all loops; one more is answered 503 and closed.
        package var maxConnections = 1024
        /// Event loops (threads); by default one per core.
        package var loopCount = HTTPServer.coreCount
        /// From a request's first byte to its last, the most a client may take; then the connection is dropped
        /// (after a 408). This is what stops a client that sends its headers a byte at a time.
        package var requestTimeout: Duration = .seconds(10)
        /// How long a connection may sit without a request before it is closed.
        package var idleTimeout: Duration = .seconds(5)
        /// How long a write may make no progress (a client that does not read) before the connection is dropped.
        package var writeTimeout: Duration = .seconds(10)
        /// After `stop()`, how long requests in flight have to finish before their connections are closed.
        package var shutdownGrace: Duration = .seconds(1)
        /// Names a `Host` header may give besides the listening address, `localhost` and loopback addresses
        /// (lowercased, without port: any port is accepted for them).
        package var allowedHosts: Set<String> = []
        /// The one other origin allowed to make requests from a browser (CORS); nil for none.
        package var corsOrigin: String?
        /// Whether each request is logged to standard error (common log format).
        package var logsRequests = true
        /// The parser's limits.
        package var limits = HTTPRequestParser.Limits()
        /// How the loops wait.
        package var backend = EventBackend.preferred
        /// Fields every answer carries (`X-Content-Type-Options`, a `Content-Security-Policy`).
        package var commonHeaders: [HTTPRequest.Field] = []

        /// A configuration listening on `address`, with the defaults above.
        package init(address: SocketAddress) {
            self.address = address
        }
    }

    /// The number of cores online (at least 1).
    package static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The configuration.
    package let configuration: Configuration
    /// The address the socket is bound to: the configuration's, with the port the system chose for port 0.
    package let boundAddress: SocketAddress
    let responder: any HTTPResponder
    let listener: Int32
    /// Connections open now, over all loops.
    let openConnections = Atomic<Int>(0)
    /// Set by `stop()`; the loops read it at every wake.
    let isStopping = Atomic<Bool>(false)
    private let threads = Mutex<[LoopThread]>([])
    private let limit = Atomic<Int>(Int.max)

    /// The soft limit on this process's open descriptors once `start()` raised it as far as allowed: when it is
    /// below `maxConnections`, connections past it wait in the listen queue (accepting pauses) instead of a 503.
    package private(set) var descriptorLimit: Int {
        get { limit.load(ordering: .relaxed) }
        set { limit.store(newValue, ordering: .relaxed) }
    }

    /// Binds and listens (so that a port taken fails here, before anything is printed), without accepting yet.
    package init(configuration: Configuration, responder: any HTTPResponder) throws(HTTPServerError) {
        self.configuration = configuration
        self.responder = responder
        (listener, boundAddress) = try Socket.listen(on: configuration.address, backlog: 1024)
    }

    deinit {
        Socket.close(listener)
    }

    /// Starts the event loops; returns once they run.
    package func start() throws(HTTPServerError) {
        Syscalls.ignoreBrokenPipeSignal()
        // Room for every connection allowed, the loops' pollers, the cache, and a favorites file being saved.
        descriptorLimit = Socket.raiseDescriptorLimit(to: configuration.maxConnections + 64)
        var started: [LoopThread] = []
        for _ in 0..<max(1, configuration.loopCount) {
            let loop = try EventLoop(server: self)
            started.append(try LoopThread.start { loop.run() })
        }
        threads.withLock { $0 = started }
    }

    /// Stops accepting: each loop closes its idle connections, finishes the requests in flight (within
    /// `shutdownGrace`), and ends. Returns at once; `wait()` waits.
    package func stop() {
        isStopping.store(true, ordering: .releasing)
    }

    /// Waits for every loop to end (after `stop()`).
    package func wait() {
        let running = threads.withLock { threads in
            defer { threads = [] }
            return threads
        }
        for thread in running { thread.join() }
    }
}
