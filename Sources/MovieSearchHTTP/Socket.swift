#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls of the HTTP layer: the only file of it that builds `sockaddr`s (the unsafe part, kept small, and
/// listed in ARCHITECTURE.md). Descriptors are non-blocking and close-on-exec; writes never raise `SIGPIPE`.
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
        let family: Int32
        switch address.host {
        case .ipv4: family = AF_INET
        case .ipv6: family = AF_INET6
        }
        let descriptor = socket(family, streamType, 0)
        guard descriptor >= 0 else { throw .cannotListen(address.description, reason: lastError()) }
        var yes: Int32 = 1
        // SO_REUSEADDR: a restarted server can bind while the old one's connections are in TIME_WAIT.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            // An IPv6 address means that address only, never IPv4 too (`[::]` does not also take 0.0.0.0).
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = withSocketAddress(address) { bind(descriptor, $0, $1) }
        guard bound == 0, systemListen(descriptor, backlog) == 0 else {
            let reason = lastError()
            close(descriptor)
            throw .cannotListen(address.description, reason: reason)
        }
        guard setNonBlocking(descriptor), let local = localAddress(descriptor) else {
            let reason = lastError()
            close(descriptor)
            throw .cannotListen(address.description, reason: reason)
        }
        return (descriptor, local)
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
        guard let (descriptor, peer) = acceptOne(listener) else {
            return [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno) ? .exhausted : .none
        }
        return .connection(descriptor: descriptor, peer: peer)
    }

    /// Raises this process's soft limit on open descriptors towards `wanted` (at most the hard limit), as nginx's
    /// `worker_rlimit_nofile` and Go's runtime do: the default soft limit (often 1,024) is below the connections a
    /// server is asked to hold. Returns the soft limit in force.
    static func raiseDescriptorLimit(to wanted: Int) -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return Int.max }
        let target = min(rlim_t(max(wanted, 0)), limit.rlim_max)
        if target > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    private static func acceptOne(_ listener: Int32) -> (descriptor: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let descriptor = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(listener, $0, &length) }
        }
        guard descriptor >= 0 else { return nil }
        guard setNonBlocking(descriptor) else {
            close(descriptor)
            return nil
        }
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var noDelay: Int32 = 1
        // Responses are written whole: Nagle's delay would only hold back the last segment of each.
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        return (descriptor, address(of: storage)?.hostText.trimmingBrackets ?? "-")
    }

    /// Reads what is there into `buffer`.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed
        }
    }

    /// Writes as much of `bytes` as the socket takes now.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        while true {
            #if canImport(Darwin)
            let count = send(descriptor, bytes.baseAddress, bytes.count, 0)
            #else
            let count = send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            #endif
            if count > 0 { return .bytes(count) }
            if count == 0 { return .wouldBlock }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed
        }
    }

    /// Closes a descriptor (its errors are of no use to a server: the connection is gone either way).
    static func close(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }

    /// The address a connected or listening socket is bound to.
    static func localAddress(_ descriptor: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return result == 0 ? address(of: storage) : nil
    }

    /// The last call's error as a sentence fragment: "Address already in use".
    static func lastError() -> String {
        guard let message = strerror(errno) else { return "error \(errno)" }
        return String(cString: message)
    }

    // MARK: - The unsafe part: sockaddr in and out

    private static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    private static func setNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
        return fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0
    }

    /// Calls `body` with `address` as a `sockaddr` pointer and its length.
    private static func withSocketAddress<Result>(
        _ address: SocketAddress, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        switch address.host {
        case let .ipv4(a, b, c, d):
            var value = sockaddr_in()
            #if canImport(Darwin)
            value.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            value.sin_family = sa_family_t(AF_INET)
            value.sin_port = address.port.bigEndian
            value.sin_addr.s_addr = (UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)).bigEndian
            return withUnsafePointer(to: &value) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case let .ipv6(bytes):
            var value = sockaddr_in6()
            #if canImport(Darwin)
            value.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            value.sin6_family = sa_family_t(AF_INET6)
            value.sin6_port = address.port.bigEndian
            withUnsafeMutableBytes(of: &value.sin6_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &value) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// The address a `sockaddr_storage` holds, if it is IPv4 or IPv6.
    private static func address(of storage: sockaddr_storage) -> SocketAddress? {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { value in
                    let host = UInt32(bigEndian: value.pointee.sin_addr.s_addr)
                    return SocketAddress(
                        host: .ipv4(UInt8(host >> 24), UInt8(host >> 16 & 0xFF), UInt8(host >> 8 & 0xFF),
                                    UInt8(host & 0xFF)),
                        port: UInt16(bigEndian: value.pointee.sin_port))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { value in
                    let bytes = withUnsafeBytes(of: value.pointee.sin6_addr) { [UInt8]($0) }
                    return SocketAddress(host: .ipv6(bytes), port: UInt16(bigEndian: value.pointee.sin6_port))
                }
            }
        default:
            return nil
        }
    }
}

extension String {
    /// The text without the brackets of an IPv6 host: access logs write `::1`, as nginx does.
    fileprivate var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}

// The C library's functions whose names the enum's own methods hide.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemAccept(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
) -> Int32 { accept(descriptor, address, length) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
