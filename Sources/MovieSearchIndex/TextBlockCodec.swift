private import CZlib
import MovieSearchPlatform
import Synchronization

/// Raw deflate (RFC 1951) with a preset dictionary, through the system's zlib: how the blocks of a compressed text
/// column are stored (`CacheFormat`, "Compressed text columns"). The one file of the index layer that calls zlib;
/// the pointers it hands zlib stay inside the buffers of each call.
enum TextBlockCodec {
    /// zlib's level 6, its default: level 9 takes longer for hardly fewer bytes (PERFORMANCE.md, "Figures behind
    /// the code").
    static let level: Int32 = 6
    /// How far level 6 searches for matches (`deflateTune`): zlib's own figures for it (a lazy match tried only
    /// below 16 bytes, a search ended at 128 bytes or 128 candidates), but a quarter of the candidates once a match
    /// of 4 bytes is in hand, not 8. With a 16 KiB dictionary of titles ahead of every block, the hash chains are
    /// long and walking them is most of deflating; words of titles seldom match for 8 bytes, often for 4. 2 million
    /// generated IMDb titles in blocks of 64 deflate about 10 % faster (medians of alternating runs) to 0.07 % more
    /// bytes, century's real titles likewise (PERFORMANCE.md, "Figures behind the code").
    static let matchSearch: (good: Int32, lazy: Int32, nice: Int32, chain: Int32) = (4, 16, 128, 128)
    /// -15: a raw stream (no zlib header nor checksum: the cache's block checksums cover the bytes) and a 32 KiB
    /// window, the most deflate allows, so that every byte of the dictionary can be referred to.
    static let windowBits: Int32 = -15

    /// Deflates the blocks of one column, each with the column's dictionary set first, as one raw stream ending
    /// with its final block.
    ///
    /// Setting a dictionary hashes every byte of it into the stream's tables: for 16 KiB of dictionary and a block
    /// of 64 titles (1 to 2 KiB), most of the work of a block, and at 10 million titles the largest single cost of
    /// indexing. So the dictionary is set once, into `primed`, and each block starts from a copy of that state
    /// (`deflateCopy`: some 256 KiB of tables copied, several times cheaper than hashing the dictionary again),
    /// which gives the very bytes a reset stream with the dictionary set anew would. Without a dictionary, one
    /// stream reset between blocks (a new one would cost its 256 KiB of state anew).
    final class Deflater {
        /// The stream each block is deflated with.
        private let stream: UnsafeMutablePointer<z_stream>
        /// With a dictionary: a stream with it set and no input yet, copied into `stream` before each block.
        private let primed: UnsafeMutablePointer<z_stream>?
        /// Whether `stream` holds zlib state that `deflateEnd` must free.
        private var streamIsOpen: Bool

        /// A deflater for blocks whose preset dictionary is `dictionary`, at zlib's `level` (0: stored, each block
        /// copied as it is inside the stream); `nil` when zlib has no memory for it.
        init?(dictionary: [UInt8], level: Int32 = TextBlockCodec.level) {
            let opened = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            opened.initialize(to: z_stream())
            guard czlib_deflateInit2(opened, level, TextBlockCodec.windowBits) == Z_OK else {
                opened.deinitialize(count: 1)
                opened.deallocate()
                return nil
            }
            if level == TextBlockCodec.level {
                let tune = TextBlockCodec.matchSearch
                _ = deflateTune(opened, tune.good, tune.lazy, tune.nice, tune.chain)
            }
            guard !dictionary.isEmpty else {
                (stream, primed, streamIsOpen) = (opened, nil, true)
                return
            }
            let status = dictionary.withUnsafeBufferPointer { bytes in
                deflateSetDictionary(opened, bytes.baseAddress, uInt(bytes.count))
            }
            // The stream with the dictionary set is the primed one; each block gets a copy of it.
            let copy = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            copy.initialize(to: z_stream())
            (stream, primed, streamIsOpen) = (copy, opened, false)
            guard status == Z_OK else { return nil }  // `deinit` ends `primed`
        }

        deinit {
            if streamIsOpen { deflateEnd(stream) }
            stream.deinitialize(count: 1)
            stream.deallocate()
            if let primed {
                deflateEnd(primed)
                primed.deinitialize(count: 1)
                primed.deallocate()
            }
        }

        /// `block`, deflated; `nil` when zlib fails (for want of memory, or a stream in a bad state).
        func deflate(_ block: [UInt8]) -> [UInt8]? {
            if let primed {
                // deflateCopy allocates the copy's tables: end the last block's stream first.
                if streamIsOpen { deflateEnd(stream) }
                streamIsOpen = deflateCopy(stream, primed) == Z_OK
                guard streamIsOpen else { return nil }
            } else {
                guard deflateReset(stream) == Z_OK else { return nil }
            }
            var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(block.count))) + 16)
            let written: Int? = block.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                    stream.pointee.avail_in = uInt(input.count)
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = uInt(out.count)
                    let status = CZlib.deflate(stream, Z_FINISH)
                    return status == Z_STREAM_END ? out.count - Int(stream.pointee.avail_out) : nil
                }
            }
            guard let written else { return nil }
            output.removeSubrange(written...)
            return output
        }
    }

    /// The `length` bytes that the raw deflate stream `input`, with preset `dictionary`, inflates to; `nil` when it
    /// is not exactly one whole stream of that many bytes (a damaged or forged block), or zlib fails.
    static func inflate(_ input: UnsafeRawBufferPointer, dictionary: UnsafeRawBufferPointer, length: Int)
        -> [UInt8]?
    {
        // zlib counts in 32 bits; a deflate stream inflates to at most about 1,032 bytes a byte (258 bytes a
        // 2-bit code), so a length past that is forged, and is refused before any memory is taken for it.
        guard length >= 0, length <= UInt32.max, length <= (input.count + 1) * 1032, input.count <= UInt32.max
        else { return nil }
        guard let inflater = Inflater.take() else { return nil }
        defer { inflater.putBack() }
        let stream = inflater.stream
        if dictionary.count > 0 {
            let bytes = dictionary.baseAddress!.assumingMemoryBound(to: Bytef.self)
            guard inflateSetDictionary(stream, bytes, uInt(dictionary.count)) == Z_OK else { return nil }
        }
        var ended = false
        // One more byte than expected: a stream that would inflate to more fills it, and is refused.
        let output = [UInt8](unsafeUninitializedCapacity: length + 1) { buffer, initialized in
            let next = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: next)
            stream.pointee.avail_in = uInt(input.count)
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = uInt(length + 1)
            ended = CZlib.inflate(stream, Z_FINISH) == Z_STREAM_END
            initialized = length + 1 - Int(stream.pointee.avail_out)
        }
        guard ended, output.count == length, stream.pointee.avail_in == 0 else { return nil }
        return output
    }

    /// An inflate stream, reset between blocks rather than made anew for each: zlib allocates 7 KiB of state for
    /// a stream and, once a dictionary is set, its 32 KiB window, which a new stream for each block allocated,
    /// wrote and freed again (a `query` lists titles from a dozen blocks or more, and the fresh heap pages cost a
    /// `query` process some 20 page faults). One stream is kept for the process; a thread that finds it taken
    /// makes its own, ended after its block.
    fileprivate final class Inflater: @unchecked Sendable {
        /// The stream; used by whoever took this inflater (`take()`) until it is put back (`putBack()`).
        let stream: UnsafeMutablePointer<z_stream>
        /// Whether this is the kept one, which `putBack()` returns rather than ends.
        private let isKept: Bool

        /// Where the kept inflater is: not made yet, held by a thread, or free to take.
        fileprivate enum Slot { case unmade, held, free(Inflater) }
        fileprivate static let kept = Mutex<Slot>(.unmade)
        /// What the lock is named by for Thread Sanitizer (`withAnnotatedLock`), which cannot see a `Mutex` on Linux.
        private static let lockName = LockName()
        private final class LockName: Sendable {}

        private init?(kept: Bool) {
            stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            isKept = kept
            guard czlib_inflateInit2(stream, TextBlockCodec.windowBits) == Z_OK else {
                stream.deinitialize(count: 1)
                stream.deallocate()
                return nil
            }
        }

        deinit {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// The kept inflater if no thread holds it (made the first time), else one of the caller's own; `nil` when
        /// zlib has no memory for a stream.
        static func take() -> Inflater? {
            let slot = kept.withAnnotatedLock(owner: lockName) { slot -> Slot in
                let was = slot
                if case .held = was {} else { slot = .held }
                return was
            }
            switch slot {
            case .free(let inflater): return inflater
            case .held: return Inflater(kept: false)
            case .unmade:
                guard let inflater = Inflater(kept: true) else {
                    kept.withAnnotatedLock(owner: lockName) { $0 = .unmade }
                    return nil
                }
                return inflater
            }
        }

        /// Ready for the next block: the kept one reset and made free to take, any other ended (by its `deinit`).
        func putBack() {
            guard isKept else { return }
            let reset = inflateReset(stream) == Z_OK
            // A stream zlib will not reset is let go, and the next taker makes a new one.
            Self.kept.withAnnotatedLock(owner: Self.lockName) { $0 = reset ? .free(self) : .unmade }
        }
    }
}
