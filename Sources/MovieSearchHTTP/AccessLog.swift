import Dispatch
import MovieSearchPlatform
import Synchronization

/// The access log's lines on their way out: the loops add them to a bounded buffer, which a thread of its own hands
/// to the caller's `write`. A `write` that blocks (standard error a pipe nobody reads) stalls only that thread: once
/// the buffer is full, further lines are dropped and counted, never waited for, and the count is written as a line
/// of its own when writing works again.
package final class AccessLog: Sendable {
    /// The most bytes of lines waiting; past it lines are dropped.
    package let capacity: Int
    private let write: @Sendable ([UInt8]) -> Void
    private struct State {
        var pending: [UInt8] = []
        var isClosed = false
    }
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let dropped = Atomic<Int>(0)
    /// Signalled by the writer thread when it ends (after `close()`, with everything written).
    private let finished = DispatchSemaphore(value: 0)

    /// A log whose lines go to `write`, called on the log's own thread with whole lines, one call per batch (so
    /// that lines never interleave mid-line with another writer of the same descriptor).
    package init(capacity: Int = 1 << 20, write: @escaping @Sendable ([UInt8]) -> Void) throws(HTTPServerError) {
        self.capacity = capacity
        self.write = write
        do {
            try SystemThread.start { [self] in run() }.detach()
        } catch {
            throw .thread(error)
        }
    }

    /// A log to standard error.
    package static func standardError() throws(HTTPServerError) -> AccessLog {
        try AccessLog { bytes in _ = bytes.withUnsafeBytes { Syscalls.writeAll(2, $0) } }
    }

    /// Lines dropped so far because the buffer was full.
    package var droppedLines: Int { dropped.load(ordering: .relaxed) }

    /// Adds `lines` (whole lines, each ending in a line feed), or drops them when the buffer is full. Never blocks.
    func add(_ lines: [UInt8], count: Int) {
        let wakes = state.withLock { state in
            guard !state.isClosed else { return false }
            guard state.pending.count + lines.count <= capacity else {
                dropped.add(count, ordering: .relaxed)
                return false
            }
            // The writer empties `pending` when it takes it: lines added to an empty buffer wake it.
            let wasEmpty = state.pending.isEmpty
            state.pending.append(contentsOf: lines)
            return wasEmpty
        }
        if wakes { ready.signal() }
    }

    /// Writes what is buffered and ends the thread; waits for that at most `timeout` (a blocked `write` is left
    /// behind).
    package func close(waiting timeout: Duration) {
        state.withLock { $0.isClosed = true }
        ready.signal()
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        _ = finished.wait(timeout: .now() + .nanoseconds(nanoseconds))
    }

    private func run() {
        var reportedDrops = 0
        while true {
            ready.wait()
            let (bytes, closed) = state.withLock { state in
                defer { state.pending = [] }
                return (state.pending, state.isClosed)
            }
            if !bytes.isEmpty { write(bytes) }
            let drops = droppedLines
            if drops > reportedDrops {
                write(Array(("moviesearch: warning: \(drops - reportedDrops) access log lines dropped: the log was "
                    + "not read as fast as requests came\n").utf8))
                reportedDrops = drops
            }
            if closed {
                finished.signal()
                return
            }
        }
    }
}
