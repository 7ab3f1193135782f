import MovieSearchPlatform
import Synchronization

/// An HTTP/1.1 server: one listening socket, one event loop per core, each on a thread of its own, each owning
/// the connections it accepted; and pools of worker threads, one per `HTTPLane`, that run the responder.
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
/// checked by `RequestPolicy` (`Host` against `Configuration.allowedHosts`, `Origin` and `Sec-Fetch-Site` of writes),
/// and answered by the responder on a worker of the lane it names, never on a loop: a loop only moves bytes, so no
/// client, file, lock or long render can stall the others. A connection has one request at the workers at a time
/// (pipelined ones wait in order), so that a client that pipelines queues behind the others instead of taking every
/// worker. Answers are encoded on the workers too (`ResponseEncoder`: ETag, 304, gzip) and queued as shared
/// buffers; what clients that do not read make the server hold is bounded (`Configuration.queuedAnswerBudget`).
/// Slow clients cost a descriptor and a buffer, never a thread.
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
        /// Where each request is logged (common log format), nil for nowhere. The loops never wait for it: lines it
        /// cannot take at once are dropped and counted.
        package var accessLog: AccessLog?
        /// Worker threads of each lane: `.quick` ones for answers made in a moment, `.heavy` ones (one per core) for
        /// searches and other long renders, `.blocking` ones for answers that wait on files and locks, `.network`
        /// ones for answers that wait on another server.
        package var workers: [HTTPLane: Int] = [.quick: 2, .heavy: HTTPServer.coreCount, .blocking: 4, .network: 8]
        /// Past this many bytes of answers queued for clients (a buffer shared by several connections counted
        /// once), `.heavy` requests wait until clients read or are dropped by `writeTimeout`.
        package var queuedAnswerBudget = 64 << 20
        /// The most bytes of large answers (plain and gzipped) kept to share among identical answers.
        package var sharedAnswerBytes = 64 << 20
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
    package static var coreCount: Int { Syscalls.onlineCoreCount() }

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
    /// The bytes of answers queued for clients, over all loops.
    package let memory: AnswerMemory
    /// What the server allows before the responder.
    let policy: RequestPolicy
    /// Turns answers into bytes, on the workers.
    let encoder: ResponseEncoder
    private let pools = Mutex<[HTTPLane: WorkerPool]>([:])
    private let threads = Mutex<[SystemThread]>([])
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
        memory = AnswerMemory(budget: configuration.queuedAnswerBudget)
        policy = RequestPolicy(server: boundAddress, allowedHosts: configuration.allowedHosts,
                               corsOrigin: configuration.corsOrigin)
        encoder = ResponseEncoder(
            commonHeaderBytes: Array(configuration.commonHeaders.map { "\($0.name): \($0.value)\r\n" }.joined().utf8),
            cache: EncodedBodyCache(capacity: configuration.sharedAnswerBytes))
    }

    /// The workers of `lane` (started by `start()`).
    func workers(_ lane: HTTPLane) -> WorkerPool {
        pools.withLock { $0[lane]! }
    }

    deinit {
        Socket.close(listener)
    }

    /// Starts the event loops; returns once they run.
    package func start() throws(HTTPServerError) {
        Syscalls.ignoreBrokenPipeSignal()
        // Room for every connection allowed, the loops' pollers, the cache, and a favorites file being saved.
        descriptorLimit = Syscalls.raiseDescriptorLimit(to: configuration.maxConnections + 64)
        var lanes: [HTTPLane: WorkerPool] = [:]
        for lane in HTTPLane.allCases { lanes[lane] = try WorkerPool(threads: configuration.workers[lane] ?? 1) }
        pools.withLock { $0 = lanes }
        var started: [SystemThread] = []
        for _ in 0..<max(1, configuration.loopCount) {
            let loop = try EventLoop(server: self)
            do {
                started.append(try SystemThread.start { loop.run() })
            } catch {
                throw .thread(error)
            }
        }
        threads.withLock { $0 = started }
    }

    /// Stops accepting: each loop closes its idle connections, finishes the requests in flight (within
    /// `shutdownGrace`), and ends. Returns at once; `wait()` waits.
    package func stop() {
        isStopping.store(true, ordering: .releasing)
    }

    /// Waits for every loop to end (after `stop()`), then lets the idle workers end. A worker stuck in the
    /// responder (a lock another process holds) is not waited for: the loops have closed its connection, and the
    /// process's exit ends it.
    package func wait() {
        let running = threads.withLock { threads in
            defer { threads = [] }
            return threads
        }
        for thread in running { thread.join() }
        for pool in pools.withLock({ $0.values }) { pool.stop() }
    }
}
