#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls of the HTTP server: the only file that builds `sockaddr`s (the unsafe part, kept small).
/// Descriptors are non-blocking and close-on-exec; a send never raises `SIGPIPE`. Reading a socket is `readSome`,
/// closing it `closeDescriptor`: the calls of any descriptor.
extension Syscalls {
    /// A listening, non-blocking TCP socket bound to `address`, and the address it is bound to (the port the
    /// system chose for port 0). `SO_REUSEADDR` is set, and an IPv6 address listens on IPv6 only.
    package static func listenTCP(on address: SocketAddress, backlog: Int32)
        -> Result<(descriptor: Int32, bound: SocketAddress), SystemError>
    {
        let family: Int32
        switch address.host {
        case .ipv4: family = AF_INET
        case .ipv6: family = AF_INET6
        }
        let descriptor = socket(family, streamType, 0)
        guard descriptor >= 0 else { return .failure(.current("socket")) }
        var yes: Int32 = 1
        // SO_REUSEADDR: a restarted server can bind while the old one's connections are in TIME_WAIT.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            // An IPv6 address means that address only, never IPv4 too (`[::]` does not also take 0.0.0.0).
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        let failure: SystemError
        if withSocketAddress(address, { bind(descriptor, $0, $1) }) != 0 {
            failure = .current("bind")
        } else if listen(descriptor, backlog) != 0 {
            failure = .current("listen")
        } else if !setNonBlocking(descriptor) {
            failure = .current("fcntl")
        } else if let local = localAddress(ofSocket: descriptor) {
            return .success((descriptor, local))
        } else {
            failure = .current("getsockname")
        }
        close(descriptor)
        return .failure(failure)
    }

    /// What `acceptConnection` found.
    package enum Accepted {
        /// A connection, non-blocking, close-on-exec and without Nagle's delay, and its peer's address (nil when it
        /// is neither IPv4 nor IPv6).
        case connection(descriptor: Int32, peer: SocketAddress?)
        /// Nothing pending (or the one pending failed before it was taken, which is not the server's concern).
        case none
        /// The process or the system is out of descriptors or memory: the pending connections stay pending, and
        /// the listener stays readable, so accepting must pause rather than spin.
        case exhausted
    }

    /// The next pending connection on the non-blocking `listener`.
    package static func acceptConnection(_ listener: Int32) -> Accepted {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let descriptor = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
        }
        guard descriptor >= 0 else {
            return [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno) ? .exhausted : .none
        }
        guard setNonBlocking(descriptor) else {
            close(descriptor)
            return [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno) ? .exhausted : .none
        }
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var noDelay: Int32 = 1
        // Responses are written whole: Nagle's delay would only hold back the last segment of each.
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        return .connection(descriptor: descriptor, peer: address(of: storage))
    }

    /// Sends at most `bytes.count` bytes of `bytes` on the connected socket `descriptor`: the count sent (0 when
    /// the socket takes nothing now). A peer that went away fails with `EPIPE`, never with `SIGPIPE`
    /// (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE`, set by `acceptConnection`, on Apple systems).
    package static func sendSome(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, SystemError> {
        sendSome(descriptor, gathering: [bytes])
    }

    /// Sends as much of `buffers`, in order, as the socket takes now, in one system call (`sendmsg`): the count sent
    /// (0 when the socket takes nothing now). One call rather than one per buffer, so that an answer's head and body
    /// reach the peer together: a server killed between two sends would leave a proxy a head without its body, which
    /// the proxy can neither retry nor complete. At most `maximumGathered` buffers are sent; the rest are ignored.
    package static func sendSome(
        _ descriptor: Int32, gathering buffers: [UnsafeRawBufferPointer]
    ) -> Result<Int, SystemError> {
        let count = min(buffers.count, maximumGathered)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: max(count, 1)) { vectors in
            for index in 0..<count {
                vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: buffers[index].baseAddress),
                                       iov_len: buffers[index].count)
            }
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            #if canImport(Darwin)
            message.msg_iovlen = Int32(count)
            let flags: Int32 = 0
            #else
            message.msg_iovlen = count
            let flags = Int32(MSG_NOSIGNAL)
            #endif
            return retryingInterrupts("send") { sendmsg(descriptor, &message, flags) }
        }
    }

    /// The most buffers one `sendSome(_:gathering:)` sends (far below every system's `IOV_MAX`).
    package static let maximumGathered = 16

    /// The address a connected or listening socket is bound to (`getsockname`).
    package static func localAddress(ofSocket descriptor: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return result == 0 ? address(of: storage) : nil
    }

    /// Raises this process's soft limit on open descriptors towards `wanted` (at most the hard limit), as nginx's
    /// `worker_rlimit_nofile` and Go's runtime do: the default soft limit (often 1,024) is below the connections a
    /// server is asked to hold. Returns the soft limit in force (`Int.max` when it cannot be read).
    package static func raiseDescriptorLimit(to wanted: Int) -> Int {
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

    /// The sixteen bytes of the IPv6 address `text` (`inet_pton`: `::1`, `fe80::1`, no brackets, no zone), or nil.
    static func ipv6Address(parsing text: String) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let parsed = text.withCString { inet_pton(AF_INET6, $0, &bytes) }
        return parsed == 1 ? bytes : nil
    }

    /// The IPv6 address `bytes` (sixteen) in its shortest text (`inet_ntop`: `::1`), without brackets.
    static func ipv6Text(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = inet_ntop(AF_INET6, bytes, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - The unsafe part: sockaddr in and out

    /// A stream socket, close-on-exec from the start where the flag exists.
    private static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Makes `descriptor` non-blocking and close-on-exec.
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
