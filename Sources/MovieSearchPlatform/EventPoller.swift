#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
private import CEventPoll
#endif

/// Readiness of many descriptors at once: `epoll` on Linux, `poll` elsewhere (and on Linux when asked, so that the
/// tests run both). Level-triggered: a descriptor stays ready until it is read or written.
///
/// The HTTP server's event loops wait in it. Here, with the other system calls, rather than in the server: the
/// platform layer owns `epoll` (and the `CEventPoll` module that declares it), as it owns `poll`
/// (`Syscalls.poll`, which `waitUntilReadable` uses too).
package final class EventPoller {
    /// What a descriptor waits for.
    package struct Interest: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bytes to read, a connection to accept, or the peer's close.
        package static let readable = Interest(rawValue: 1)
        /// Room to write.
        package static let writable = Interest(rawValue: 2)
    }

    /// One ready descriptor.
    package struct Event {
        /// The descriptor.
        package var descriptor: Int32
        /// Readable, or closed or failed on the peer's side (a read then says which).
        package var isReadable: Bool
        /// Writable, or failed (a write then says so).
        package var isWritable: Bool
    }

    private let backend: EventBackend
    private let epollDescriptor: Int32
    /// For `poll`: every registered descriptor and what it waits for.
    private var registered: [Int32: Interest] = [:]

    /// A poller using `backend` (`epoll` only on Linux; elsewhere `poll` is used whatever is asked).
    package init(backend: EventBackend) throws(SystemError) {
        #if os(Linux)
        self.backend = backend
        if backend == .epoll {
            epollDescriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epollDescriptor >= 0 else { throw .current("epoll_create1") }
        } else {
            epollDescriptor = -1
        }
        #else
        self.backend = .poll
        epollDescriptor = -1
        #endif
    }

    deinit {
        if epollDescriptor >= 0 { Syscalls.closeDescriptor(epollDescriptor) }
    }

    /// Starts watching `descriptor`. `exclusive` (a listening socket shared by several pollers): on `epoll`, only
    /// one of the pollers is woken per connection, not all.
    package func add(_ descriptor: Int32, _ interest: Interest, exclusive: Bool = false) {
        registered[descriptor] = interest
        #if os(Linux)
        if backend == .epoll { control(EPOLL_CTL_ADD, descriptor, interest, exclusive: exclusive) }
        #endif
    }

    /// Changes what `descriptor` waits for.
    package func modify(_ descriptor: Int32, _ interest: Interest) {
        guard registered[descriptor] != interest else { return }
        registered[descriptor] = interest
        #if os(Linux)
        if backend == .epoll { control(EPOLL_CTL_MOD, descriptor, interest, exclusive: false) }
        #endif
    }

    /// Stops watching `descriptor` (before it is closed).
    package func remove(_ descriptor: Int32) {
        guard registered.removeValue(forKey: descriptor) != nil else { return }
        #if os(Linux)
        if backend == .epoll {
            var event = epoll_event()
            epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, descriptor, &event)
        }
        #endif
    }

    /// Waits up to `milliseconds` for readiness and returns the ready descriptors (none after a timeout or a
    /// signal).
    package func wait(milliseconds: Int32) -> [Event] {
        #if os(Linux)
        if backend == .epoll { return waitEpoll(milliseconds: milliseconds) }
        #endif
        return waitPoll(milliseconds: milliseconds)
    }

    private func waitPoll(milliseconds: Int32) -> [Event] {
        var descriptors = registered.map { descriptor, interest in
            let events = (interest.contains(.readable) ? POLLIN : 0) | (interest.contains(.writable) ? POLLOUT : 0)
            return pollfd(fd: descriptor, events: Int16(events), revents: 0)
        }
        guard case .success(let count?) = Syscalls.poll(&descriptors, timeoutMilliseconds: milliseconds), count > 0 else {
            return []
        }
        let failure = Int16(POLLERR | POLLHUP | POLLNVAL)
        return descriptors.compactMap { entry in
            guard entry.revents != 0 else { return nil }
            return Event(descriptor: entry.fd, isReadable: entry.revents & (Int16(POLLIN) | failure) != 0,
                         isWritable: entry.revents & (Int16(POLLOUT) | failure) != 0)
        }
    }

    #if os(Linux)
    private var epollEvents = [epoll_event](repeating: epoll_event(), count: 256)

    private func control(_ operation: Int32, _ descriptor: Int32, _ interest: Interest, exclusive: Bool) {
        var flags: UInt32 = 0
        if interest.contains(.readable) { flags |= EPOLLIN.rawValue }
        if interest.contains(.writable) { flags |= EPOLLOUT.rawValue }
        // EPOLLEXCLUSIVE allows no flag but EPOLLIN, EPOLLOUT, EPOLLET and EPOLLWAKEUP beside it (EINVAL).
        flags |= exclusive ? EPOLLEXCLUSIVE.rawValue : interest.contains(.readable) ? EPOLLRDHUP.rawValue : 0
        var event = epoll_event()
        event.events = flags
        event.data.fd = descriptor
        epoll_ctl(epollDescriptor, operation, descriptor, &event)
    }

    private func waitEpoll(milliseconds: Int32) -> [Event] {
        let count = epollEvents.withUnsafeMutableBufferPointer {
            epoll_wait(epollDescriptor, $0.baseAddress, Int32($0.count), milliseconds)
        }
        guard count > 0 else { return [] }
        let failure = EPOLLERR.rawValue | EPOLLHUP.rawValue
        return (0..<Int(count)).map { slot in
            let flags = epollEvents[slot].events
            return Event(descriptor: epollEvents[slot].data.fd,
                         isReadable: flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | failure) != 0,
                         isWritable: flags & (EPOLLOUT.rawValue | failure) != 0)
        }
    }
    #endif
}

/// Which system call waits.
package enum EventBackend: Sendable {
    /// Linux's `epoll`: the cost of a wait is the number of ready descriptors, not of all of them.
    case epoll
    /// POSIX `poll`: every registered descriptor is passed at every wait.
    case poll

    /// The best one here.
    package static var preferred: EventBackend {
        #if os(Linux)
        .epoll
        #else
        .poll
        #endif
    }
}
