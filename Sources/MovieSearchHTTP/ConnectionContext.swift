/// What the connections of one event loop share, on its thread: the server's checks, how it makes the answers it
/// gives itself, the limits of a connection's clocks, the time of this wake, whether the server stops, and the access
/// log's lines of this wake. A value the loop owns and lends to a `Connection` for each call; the tests make their
/// own, without a loop or a socket.
struct ConnectionContext {
    /// How long a connection's clocks may run.
    struct Timeouts: Sendable {
        /// From a request's first byte to its last; then a 408 and the connection is closed.
        var request: Duration
        /// Between requests; then the connection is closed.
        var idle: Duration
        /// While answers are queued, a write that makes no progress; then the connection is dropped.
        var write: Duration
    }

    /// `Host`, `Origin` and CORS.
    let policy: RequestPolicy
    /// The application: its error answers (called here, on the loop) and its lanes.
    let responder: any HTTPResponder
    /// Frames answers.
    let encoder: ResponseEncoder
    /// The bytes of answers queued over the server.
    let memory: AnswerMemory
    /// The clocks' limits.
    let timeouts: Timeouts
    /// Whether request lines are logged (the server has an access log).
    let logsRequests: Bool
    /// The `Date` field's value for this wake.
    var dateHeader = ""
    /// The access log's time for this wake.
    var logTime = ""
    /// Whether the server stops: answers say `Connection: close`, idle connections close, nothing waits.
    var isStopping = false
    /// The access log's lines since the last `handLog(to:)`, and their number.
    private(set) var log: [UInt8] = []
    private(set) var logLines = 0

    /// A context for connections checked by `policy`, answered with `encoder`'s framing and `responder`'s errors.
    init(
        policy: RequestPolicy, responder: any HTTPResponder, encoder: ResponseEncoder, memory: AnswerMemory,
        timeouts: Timeouts, logsRequests: Bool
    ) {
        self.policy = policy
        self.responder = responder
        self.encoder = encoder
        self.memory = memory
        self.timeouts = timeouts
        self.logsRequests = logsRequests
    }

    /// Adds a common log format line: `peer - - [time] "request line" status bytes`.
    mutating func logLine(peer: String, requestLine: String, status: Int, bytes: Int) {
        guard logsRequests else { return }
        let size = bytes > 0 ? String(bytes) : "-"
        log.append(contentsOf: "\(peer) - - [\(logTime)] \"\(requestLine)\" \(status) \(size)\n".utf8)
        logLines += 1
    }

    /// Hands the lines added since the last call to `accessLog` in one piece (its thread writes them, never the
    /// loop's).
    mutating func handLog(to accessLog: AccessLog) {
        guard !log.isEmpty else { return }
        accessLog.add(log, count: logLines)
        log.removeAll(keepingCapacity: true)
        logLines = 0
    }

    /// `request`'s line as the access log gives it.
    static func requestLine(_ request: HTTPRequest) -> String {
        "\(request.method) \(request.target) \(request.versionText)"
    }
}
