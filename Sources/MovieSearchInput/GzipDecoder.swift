import MovieSearchPlatform

private import CZlib

/// Gzip data decoded as it is read, through the system's zlib: the one type of the library that touches zlib and its
/// pointers.
///
///     let decoder = try GzipDecoder(prefix: firstBytes)   // the bytes already read, magic bytes included
///     let count = try decoder.read(into: buffer, from: &file)   // 0 only at the end of the last member
///
/// It reads the compressed bytes from a `ByteSource` into an input buffer of its own (`inputCapacity`) and
/// inflates them straight into the caller's buffer, so a file of any size costs these two buffers and zlib's
/// window (32 KiB plus about 7 KiB of tables), and decoded bytes are never copied between them.
///
/// Members follow one another as `gzip -d` reads them: after the end of one, the next bytes must start another
/// (`1F 8B`), be zero bytes to the end of the input (padding, which `gzip -d` ignores too), or be the end of the
/// input. Anything else fails with `InputError.corruptGzip`, whose reason says
/// what a user can do: the input was cut short (truncated), a checksum does not match (damaged), bytes follow the
/// data (trailing garbage). The CRC-32 and length in each member's trailer are checked by zlib.
///
/// The `z_stream` is allocated once, at a fixed address (zlib's state points back at it), and ended in `deinit`.
final class GzipDecoder {
    /// How many compressed bytes one read of the source asks for.
    static let inputCapacity = 1 << 17

    /// Where the decoder is in the input.
    private enum State {
        /// Inside a member: zlib wants more bytes until it reports the end of the member.
        case member
        /// After the end of a member: the input may end here, or start another member.
        case betweenMembers
        /// The input ended after a whole member; every read returns 0.
        case finished
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    private var state = State.member
    /// Whether the decoder has read the end of its source (a later read would return 0 again).
    private var sourceEnded = false
    /// Whether a whole member has been decoded: a bad header after it is trailing garbage, not a damaged file.
    private var endedAMember = false
    /// How many compressed bytes have been put in the input buffer so far, the prefix included: with zlib's
    /// `avail_in`, the offset in the file of the byte zlib reads next, which an error names.
    private var bytesFed = 0

    /// Starts decoding a gzip input whose first bytes, already read from its source, are `prefix` (at most
    /// `inputCapacity` of them, starting with the magic bytes).
    init(prefix: [UInt8]) throws(InputError) {
        precondition(prefix.count <= Self.inputCapacity, "a gzip prefix larger than the input buffer")
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(byteCount: Self.inputCapacity, alignment: 16)
        // 15 + 16: a window of 32 KiB (the most deflate uses) and a gzip header and trailer, not zlib's.
        let status = czlib_inflateInit2(stream, 15 + 16)
        guard status == Z_OK else {
            input.deallocate()
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw Self.failure(status, message: nil)
        }
        prefix.withUnsafeBytes { input.copyMemory(from: $0) }
        setInput(count: prefix.count)
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    /// Decodes the next bytes into the start of `buffer` (not empty), reading compressed bytes from `source` as
    /// needed, and returns how many: at least one while any are left, 0 only after the last member. Throws
    /// `InputError.corruptGzip` for data that is not whole, valid gzip, and what `source` throws.
    func read(into buffer: UnsafeMutableRawBufferPointer, from source: inout some ByteSource) throws(InputError)
        -> Int
    {
        precondition(!buffer.isEmpty, "a read into an empty buffer")
        // zlib counts in `UInt32`: a buffer larger than 4 GiB is filled in part, which `read` allows.
        let capacity = min(buffer.count, Int(UInt32.max))
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(capacity)
        // Each pass consumes input, produces output, or ends: the input runs out (0 from the source), a member
        // ends, or zlib fails. Nothing loops without progress.
        while true {
            let produced = capacity - Int(stream.pointee.avail_out)
            switch state {
            case .finished:
                return produced
            case .betweenMembers:
                if stream.pointee.avail_in == 0, try !refill(from: &source) {
                    state = .finished
                    return produced
                }
                // Zero bytes after the last member are padding (a tape block, a copy made in whole blocks):
                // `gzip -d` ignores them, and so does this, when nothing but zeros follows to the end.
                if stream.pointee.next_in.pointee == 0 {
                    try skipZeroPadding(from: &source)
                    state = .finished
                    return produced
                }
                // `gzip -d` reads on only into another member; the first byte tells (zlib checks the second).
                guard stream.pointee.next_in.pointee == 0x1F else { throw Self.trailingGarbage }
                inflateReset(stream)
                state = .member
            case .member:
                if produced == capacity { return produced }
                if stream.pointee.avail_in == 0, try !refill(from: &source) {
                    throw .corruptGzip(reason: "the input ends before the end of its compressed data "
                        + "(truncated? a download or copy that did not finish)")
                }
                let status = inflate(stream, Z_NO_FLUSH)
                switch status {
                case Z_OK, Z_BUF_ERROR:
                    // Z_BUF_ERROR: no progress possible until more input (the buffer has room): refilled above.
                    continue
                case Z_STREAM_END:
                    state = .betweenMembers
                    endedAMember = true
                    // Hand out what this member gave before looking at what follows it, so that a stream is not
                    // read ahead of the caller.
                    let done = capacity - Int(stream.pointee.avail_out)
                    if done > 0 { return done }
                default:
                    let message = stream.pointee.msg.map { String(cString: $0) }
                    if endedAMember && Self.headerMessages.contains(message ?? "") { throw Self.trailingGarbage }
                    // zlib stops at the byte where the data stopped making sense (for a checksum, right after it).
                    throw Self.failure(status, message: message, offset: bytesFed - Int(stream.pointee.avail_in))
                }
            }
        }
    }

    /// Reads the next compressed bytes from `source` into the input buffer; false at the end of the source.
    private func refill(from source: inout some ByteSource) throws(InputError) -> Bool {
        if sourceEnded { return false }
        let count = try source.read(into: input)
        if count == 0 { sourceEnded = true }
        setInput(count: count)
        return count > 0
    }

    /// Reads the rest of the input, which must be zero bytes only (padding after the last member); any other byte
    /// is trailing garbage. The input buffer's unread bytes are looked at first.
    private func skipZeroPadding(from source: inout some ByteSource) throws(InputError) {
        repeat {
            let pending = UnsafeBufferPointer(start: stream.pointee.next_in, count: Int(stream.pointee.avail_in))
            guard pending.allSatisfy({ $0 == 0 }) else { throw Self.trailingGarbage }
            stream.pointee.avail_in = 0
        } while try refill(from: &source)
    }

    /// Points zlib at the first `count` bytes of the input buffer.
    private func setInput(count: Int) {
        bytesFed += count
        stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(count)
    }

    /// What zlib says of a member header that is not gzip's.
    private static let headerMessages: Set = ["incorrect header check", "unknown compression method",
                                              "unknown header flags set"]

    /// Bytes after the last member that do not start another.
    private static let trailingGarbage = InputError.corruptGzip(
        reason: "bytes that are not gzip follow the end of its compressed data (trailing garbage; was something "
            + "appended to the file?)")

    /// The error for zlib's `status`, with its `message` ("incorrect data check"), in words a user can act on;
    /// `offset`, when known, is where in the compressed file zlib stopped.
    private static func failure(_ status: Int32, message: String?, offset: Int? = nil) -> InputError {
        let place = offset.map { " at byte \($0)" } ?? ""
        switch status {
        case Z_MEM_ERROR:
            return .system(SystemError(code: Syscalls.Errno.outOfMemory))
        case Z_DATA_ERROR, Z_NEED_DICT:
            switch message {
            case "incorrect data check", "incorrect length check", "header crc mismatch":
                return .corruptGzip(reason: "damaged data\(place): a checksum does not match (the file is damaged)")
            case let message? where headerMessages.contains(message):
                return .corruptGzip(reason: "it starts like gzip but its header is not gzip's "
                    + "(zlib: \(message); is it really a gzip file?)")
            default:
                return .corruptGzip(reason: "damaged data\(place): the compressed data does not decode (zlib: "
                    + "\(message ?? "invalid data"))")
            }
        default:
            // Z_STREAM_ERROR, Z_VERSION_ERROR: a misuse of zlib or a library that does not match its header.
            return .corruptGzip(reason: "zlib failed (status \(status): \(message ?? "no message"))")
        }
    }
}
