import MovieSearchPlatform

/// The server's view of its sockets: the platform's calls (`Syscalls.listenTCP`, `acceptConnection`, `readSome`,
/// `sendSome`), their results put as the event loop acts on them. Descriptors are non-blocking and close-on-exec;
/// writes never raise `SIGPIPE`.
enum Socket {
    /// What one non-blocking read or write did.
    enum Transfer: Equatable {
        /// This many bytes moved (more than 0).
        case bytes(Int)
        /// Nothing now: the call would block.
        case wouldBlock
        /// The peer closed its side (a read of 0 bytes).
        case closed
        /// The connection failed (reset, broken pipe, …): close it.
        case failed
    }

    /// A listening, non-blocking TCP socket bound to `address`, and the address it is bound to (the port the
    /// system chose for port 0).
    static func listen(on address: SocketAddress, backlog: Int32) throws(HTTPServerError)
        -> (descriptor: Int32, bound: SocketAddress)
    {
        switch Syscalls.listenTCP(on: address, backlog: backlog) {
        case let .success(listening): return listening
        case let .failure(error): throw .cannotListen(address.description, error)
        }
    }

    /// What `accept` found.
    enum Accepted {
        /// A connection, non-blocking and close-on-exec, with its peer's address as text.
        case connection(descriptor: Int32, peer: String)
        /// Nothing pending (or the one pending failed before it was taken, which is not the server's concern).
        case none
        /// The process or the system is out of descriptors or memory: the pending connections stay pending, and
        /// the listener stays readable, so accepting must pause rather than spin.
        case exhausted
    }

    /// The next pending connection.
    static func accept(_ listener: Int32) -> Accepted {
        switch Syscalls.acceptConnection(listener) {
        case let .connection(descriptor, peer):
            return .connection(descriptor: descriptor, peer: peer?.hostText.trimmingBrackets ?? "-")
        case .none: return .none
        case .exhausted: return .exhausted
        }
    }

    /// Reads what is there into `buffer`.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        transfer(Syscalls.readSome(descriptor, into: buffer), endsAtZero: true)
    }

    /// Writes as much of `bytes` as the socket takes now.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        transfer(Syscalls.sendSome(descriptor, bytes), endsAtZero: false)
    }

    /// Writes as much of `buffers`, in order, as the socket takes now, in one system call.
    static func write(_ descriptor: Int32, gathering buffers: [UnsafeRawBufferPointer]) -> Transfer {
        transfer(Syscalls.sendSome(descriptor, gathering: buffers), endsAtZero: false)
    }

    /// The most buffers one gathering write takes.
    static var maximumGathered: Int { Syscalls.maximumGathered }

    /// Closes a descriptor (its errors are of no use to a server: the connection is gone either way).
    static func close(_ descriptor: Int32) {
        _ = Syscalls.closeDescriptor(descriptor)
    }

    /// The address a connected or listening socket is bound to.
    static func localAddress(_ descriptor: Int32) -> SocketAddress? {
        Syscalls.localAddress(ofSocket: descriptor)
    }

    /// A read's or a send's result as a transfer: 0 bytes is the peer's close for a read (`endsAtZero`), a socket
    /// that takes nothing now for a send.
    private static func transfer(_ result: Result<Int, SystemError>, endsAtZero: Bool) -> Transfer {
        switch result {
        case let .success(count) where count > 0: .bytes(count)
        case .success: endsAtZero ? .closed : .wouldBlock
        case let .failure(error): Syscalls.isWouldBlock(error) ? .wouldBlock : .failed
        }
    }
}

extension String {
    /// The text without the brackets of an IPv6 host: access logs write `::1`, as nginx does.
    fileprivate var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
