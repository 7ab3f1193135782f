import Dispatch
import MovieSearchPlatform
import Synchronization

/// A gzip file decoded on a thread of its own, up to two buffers ahead of its reader: while a reader parses one
/// buffer of decoded bytes (an IMDb or CSV catalog, row by row), the next is being inflated on the other core.
/// Inflating (and its CRC-32) is about an eighth of reading the 10M IMDb pair, a phase that otherwise runs on one
/// core while the other waits.
///
/// `CatalogInput` hands a regular gzip file over to one once its magic bytes are read, and reads through it from
/// then on: the decoder and the raw source belong to the thread until it ends. The bytes and the errors are those
/// of reading the decoder directly: an error is thrown once every byte decoded before it has been read (a read that
/// fails drops what it inflated, as a direct read does, so how many bytes come first follows the reads' sizes),
/// and every read after it returns 0, as after the end.
///
/// Only for regular files: a read of one never blocks for long, so `stop()` can end the thread between two buffers
/// and wait for it (a stream might hold the thread in `read` for ever). The owner calls `stop()` before it closes
/// the file: the thread holds the object while it runs, so `deinit` cannot be what stops it.
final class GzipReadAhead: @unchecked Sendable {
    // @unchecked: `decoder` and `source` are used by the thread alone once it starts; the buffers are handed
    // between the thread and the reader through `state` (a lock Thread Sanitizer is told about), with the
    // semaphores only to wait; `thread` is set by `start` and used by `stop()`, on the owner's thread.

    /// The bytes of each buffer.
    static let bufferSize = 1 << 20

    /// What the thread has done with a buffer, handed to the reader.
    private struct Filled {
        /// What follows a buffer's bytes.
        enum Next {
            /// The next buffer.
            case more
            /// The end of the input: this was the last buffer.
            case end
            /// The decoder's error, thrown once the buffer's bytes are read: this was the last buffer.
            case failure(InputError)
        }

        var slot: Int
        var count: Int
        var next = Next.more
    }

    /// The state the two sides share.
    private struct Shared {
        var filled: [Filled] = []
        var stopped = false
        var rawBytesRead = 0
    }

    private let decoder: GzipDecoder
    private var source: RawSource
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let state = Mutex(Shared())
    /// Signalled for each buffer the thread fills; waited for by the reader. (Both semaphores start at 0 and are
    /// signalled up: libdispatch traps when a semaphore is freed below the value it was made with.)
    private let ready = DispatchSemaphore(value: 0)
    /// Signalled for each buffer free to fill (and by `stop()`); waited for by the thread.
    private let free = DispatchSemaphore(value: 0)
    private var thread: SystemThread?

    // The reader's side.
    private var current: Filled?
    private var position = 0
    private var ended = false

    private init(decoder: GzipDecoder, source: RawSource) {
        self.decoder = decoder
        self.source = source
        buffers = (0..<2).map { _ in .allocate(byteCount: Self.bufferSize, alignment: 16) }
        state.withAnnotatedLock(owner: self) { $0.rawBytesRead = source.bytesRead }
    }

    /// Starts decoding `source` with `decoder` on a thread of its own; both belong to it from now on. Throws
    /// `InputError.system` when no thread can be started.
    static func start(decoder: GzipDecoder, source: RawSource) throws(InputError) -> GzipReadAhead {
        let readAhead = GzipReadAhead(decoder: decoder, source: source)
        // The closure holds no reference (the call to `decode` does while it runs); `stop()` ends it.
        do {
            readAhead.thread = try SystemThread.start { [unowned(unsafe) readAhead] in readAhead.decode() }
        } catch {
            throw .system(error)
        }
        for _ in readAhead.buffers { readAhead.free.signal() }
        return readAhead
    }

    deinit {
        // `stop()` has run (the running thread holds the object): the buffers are no one's.
        for buffer in buffers { buffer.deallocate() }
    }

    /// Ends the thread, between two buffers, and waits for it: the decoder and the source are no longer read.
    /// Reads after it must not be made. Once is enough; later calls do nothing.
    func stop() {
        guard let running = thread else { return }
        thread = nil
        state.withAnnotatedLock(owner: self) { $0.stopped = true }
        free.signal()
        running.join()
    }

    /// How many raw (compressed) bytes the thread has read from the file so far: for a progress line.
    var rawBytesRead: Int {
        state.withAnnotatedLock(owner: self) { $0.rawBytesRead }
    }

    /// The next decoded bytes, into the start of `buffer`: how many, 0 only at the end (and after an error).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while !ended {
            if current == nil {
                ready.wait()
                current = state.withAnnotatedLock(owner: self) { $0.filled.removeFirst() }
                position = 0
            }
            let filled = current!
            if position < filled.count {
                let count = min(buffer.count, filled.count - position)
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffers[filled.slot][position..<(position + count)]))
                position += count
                return count
            }
            // This buffer is read: the next one, the end, or an error.
            current = nil
            switch filled.next {
            case .more: free.signal()
            case .end: ended = true
            case .failure(let error):
                ended = true
                throw error
            }
        }
        return 0
    }

    /// The thread: fills the buffers in turn until the decoder ends or fails, or `stop()` ends it.
    private func decode() {
        var slot = 0
        while true {
            free.wait()
            if state.withAnnotatedLock(owner: self, { $0.stopped }) { return }
            var filled = Filled(slot: slot, count: 0)
            let buffer = buffers[slot]
            do {
                while filled.count < buffer.count {
                    let count = try decoder.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled.count...]),
                                                 from: &source)
                    if count == 0 {
                        filled.next = .end
                        break
                    }
                    filled.count += count
                }
            } catch {
                filled.next = .failure(error)
            }
            let read = source.bytesRead
            state.withAnnotatedLock(owner: self) {
                $0.filled.append(filled)
                $0.rawBytesRead = read
            }
            ready.signal()
            guard case .more = filled.next else { return }
            slot = (slot + 1) % buffers.count
        }
    }
}
