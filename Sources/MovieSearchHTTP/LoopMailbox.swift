import MovieSearchPlatform
import Synchronization

/// How the workers hand answers back to an event loop: a list under a lock, and a pipe whose read end the loop's
/// poller watches, written one byte when the list stops being empty. The loop drains both when the pipe is readable.
/// Outlives its loop while a worker still holds it (a job stuck past the server's stop posts into it harmlessly).
final class LoopMailbox: Sendable {
    /// What a worker made of a connection's request.
    enum Outcome: Sendable {
        /// The answer's bytes, the access log's request line, and whether the connection closes after it.
        case answered(ResponseEncoder.Encoded, requestLine: String, closes: Bool)
        /// Not started: a `.heavy` request found the queued answers over the budget; it waits on the loop.
        case deferred(HTTPRequest)
    }

    /// A worker's outcome for a connection of the loop.
    struct Delivery: Sendable {
        /// The connection's descriptor.
        var descriptor: Int32
        /// The connection's serial number in its loop (a descriptor is reused once closed).
        var serial: UInt64
        /// What became of the request.
        var outcome: Outcome
    }

    /// The end the loop's poller watches.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    private let deliveries = Mutex<[Delivery]>([])
    /// Whether a byte is in the pipe that the loop has not yet drained.
    private let isSignalled = Atomic<Bool>(false)

    /// A mailbox with a pipe of its own.
    init() throws(HTTPServerError) {
        switch Syscalls.makeNonBlockingPipe() {
        case let .success(ends): (readDescriptor, writeDescriptor) = ends
        case let .failure(error): throw .eventLoop(error)
        }
    }

    deinit {
        _ = Syscalls.closeDescriptor(readDescriptor)
        _ = Syscalls.closeDescriptor(writeDescriptor)
    }

    /// Hands `delivery` to the loop and wakes it. Called on a worker.
    func post(_ delivery: Delivery) {
        deliveries.withLock { $0.append(delivery) }
        if !isSignalled.exchange(true, ordering: .acquiringAndReleasing) {
            var byte: UInt8 = 1
            // A full pipe (it cannot be: one byte at a time) or a closed one would only lose a wake-up the loop's
            // tick makes up for.
            _ = withUnsafeBytes(of: &byte) { Syscalls.writeAll(writeDescriptor, $0) }
        }
    }

    /// The deliveries posted since the last call, in order. Called on the loop when the pipe is readable (or at
    /// any wake: it is cheap when empty).
    func take() -> [Delivery] {
        if isSignalled.exchange(false, ordering: .acquiringAndReleasing) {
            var scratch: (UInt64, UInt64) = (0, 0)
            _ = withUnsafeMutableBytes(of: &scratch) { Syscalls.readSome(readDescriptor, into: $0) }
        }
        return deliveries.withLock { deliveries in
            defer { deliveries.removeAll(keepingCapacity: true) }
            return deliveries
        }
    }
}
