import MovieSearchPlatform

/// A buffered output stream: standard output or error of the process, or memory for tests.
///
/// Writes gather in a buffer that goes to the file descriptor when it grows past `capacity` and on `flush()`, so
/// that printing a long answer costs a handful of system calls rather than one per line. The first failed write
/// (a closed pipe, a full disk) is kept in `failure`; later writes are dropped, and commands that print in a loop
/// stop early when `isClosed`.
package final class TextOutput {
    /// Where flushed bytes go.
    package enum Destination {
        case fileDescriptor(Int32)
        /// Kept in `captured`, for tests.
        case memory
    }

    private let destination: Destination
    private let capacity: Int
    private var buffer: [UInt8] = []
    /// Everything written so far, when the destination is `.memory`.
    package private(set) var captured: [UInt8] = []
    /// Why a flush failed, if one did.
    package private(set) var failure: SystemError?

    /// Creates a stream that flushes to `destination` once `capacity` bytes are pending.
    ///
    /// The buffer grows as text is written (and keeps its size across flushes) rather than being allocated whole
    /// here: a short answer, the usual one, then costs no 64 KB allocation at start-up.
    package init(_ destination: Destination, capacity: Int = 1 << 16) {
        self.destination = destination
        self.capacity = capacity
    }

    /// Whether writes are being dropped because an earlier one failed.
    package var isClosed: Bool { failure != nil }

    /// The captured text, when the destination is `.memory`.
    package var capturedText: String { String(decoding: captured, as: UTF8.self) }

    /// Appends `text`.
    package func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    /// Appends `bytes` (UTF-8 text) and a line feed.
    package func line(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= capacity { flush() }
    }

    /// Appends `text` and a line feed.
    package func line(_ text: String = "") {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= capacity { flush() }
    }

    /// Sends what is pending to the destination.
    package func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        switch destination {
        case .memory:
            captured.append(contentsOf: buffer)
        case let .fileDescriptor(fd):
            if case let .failure(error) = buffer.withUnsafeBytes({ Syscalls.writeAll(fd, $0) }) { failure = error }
        }
    }
}
