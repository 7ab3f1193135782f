import MovieSearchPlatform

/// A catalog file or stream opened for reading, in pieces (`ByteSource`), gzip decoded as it is read.
///
///     let input = try CatalogInput(path: "title.basics.tsv.gz")
///     let head = try input.peek(upTo: 4096)   // decoded bytes, still to be read
///     var source = input
///     let count = try source.read(into: &chunk, count: chunk.count)   // decoded, from the first byte
///
/// An input whose first two bytes are gzip's magic bytes (`1F 8B`) is gzip, whatever its name: `isGzip` is true and
/// `peek`, `read` and `readAll` hand out the decoded bytes, through `GzipDecoder`, in bounded buffers: never the whole
/// file in memory, never unpacked to disk. Concatenated members decode one after the other, as with `gzip -d`. A
/// truncated or damaged gzip input, or one followed by bytes that are not gzip, throws `InputError.corruptGzip`. An
/// empty input, or one of a single byte, is not gzip. A gzip regular file is decoded on a thread of its own, up to
/// two buffers of 1 MiB ahead of the reads (`GzipReadAhead`), so that inflating it and parsing it share two cores.
///
/// The first two bytes are read when first needed (by `peek`, `read`, `readAll` or `isGzip`), not when the input is
/// opened: standard input is not waited for until something reads it.
package final class CatalogInput: ByteSource {
    /// Where the bytes on disk (or in memory) come from, before any decoding.
    private var raw: RawSource
    /// Set once the input is known to be gzip: decodes `raw`.
    private var gzip: GzipDecoder?
    /// For a gzip regular file: `gzip` decoding `raw` on a thread of its own, a buffer ahead (`GzipReadAhead`),
    /// which the reads go through instead.
    private var readAhead: GzipReadAhead?
    /// Whether the first bytes have been looked at (for the magic bytes).
    private var sniffed = false
    /// The failure of reading the first bytes when `isGzip` read them: thrown by the next read.
    private var sniffFailure: InputError?
    /// Bytes `peek` read ahead (decoded, for gzip), handed out first by `read`.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Whether the input is a regular file (its size is known and it ends).
    package let isRegularFile: Bool
    /// The size of a regular file on disk (compressed, for a gzip file); 0 for a stream.
    package let fileSize: Int

    /// Opens `path` (`FileReader.open`). Throws `InputError.file` when it cannot be opened, or is a directory.
    package init(path: FilePath) throws(InputError) {
        let (descriptor, status): (Int32, FileStatus)
        do {
            (descriptor, status) = try FileReader.open(path: path)
        } catch {
            throw .file(error)
        }
        raw = RawSource(descriptor: descriptor, ownsDescriptor: true)
        isRegularFile = status.kind == .regular
        fileSize = isRegularFile ? status.size : 0
    }

    /// Reads from `descriptor` (standard input), which stays open.
    package init(descriptor: Int32) {
        raw = RawSource(descriptor: descriptor, ownsDescriptor: false)
        isRegularFile = false
        fileSize = 0
    }

    /// Reads `bytes`.
    package init(bytes: [UInt8]) {
        raw = RawSource(memory: BufferByteSource(bytes))
        isRegularFile = true
        fileSize = bytes.count
    }

    deinit {
        readAhead?.stop()  // its thread ended before the descriptor it reads is closed
        if raw.ownsDescriptor, let descriptor = raw.descriptor { Syscalls.closeDescriptor(descriptor) }
    }

    /// How many bytes have been read from the file or stream so far, as they are there (compressed, for gzip):
    /// with `fileSize`, how far through a regular file reading is, for a progress line. Bytes `peek` holds count.
    package var bytesReadFromInput: Int { readAhead?.rawBytesRead ?? raw.bytesRead }

    /// Whether the bytes on disk are gzip, decoded as they are read. Asked before any read, it reads the first byte,
    /// and the second when the first is `1F` (a stream is waited for until they come); should that read fail, this
    /// is false and the next read throws.
    package var isGzip: Bool {
        if !sniffed {
            do { try sniff() } catch { sniffFailure = error }
        }
        return gzip != nil
    }

    /// The first bytes of the input (decoded, for gzip), without consuming them: reading starts with them. Each
    /// call reads once more (one `read`, which may return fewer bytes than asked) while fewer than `count` are
    /// held, so that a caller can decide as soon as it has seen enough of a stream that pauses. `isComplete` is
    /// true when no more will come: `count` bytes are held, or the input has ended.
    package func peek(upTo count: Int) throws(InputError) -> (bytes: [UInt8], isComplete: Bool) {
        var ended = false
        let held = pending.count - pendingStart
        if held < count {
            var chunk = [UInt8](repeating: 0, count: count - held)
            let read = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(InputError) in try readDecoded(into: buffer) }
            }.get()
            ended = read == 0
            pending.append(contentsOf: chunk[..<read])
        }
        let bytes = Array(pending[pendingStart..<min(pending.count, pendingStart + count)])
        return (bytes, ended || bytes.count == count)
    }

    /// Reads the next bytes (decoded, for gzip) into the start of `buffer` and returns how many: 0 only at the end.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if pendingStart < pending.count {
            let count = min(buffer.count, pending.count - pendingStart)
            pending.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[pendingStart..<(pendingStart + count)]))
            }
            pendingStart += count
            if pendingStart == pending.count {
                pending = []
                pendingStart = 0
            }
            return count
        }
        return try readDecoded(into: buffer)
    }

    /// Everything left (decoded, for gzip), at most `maximumBytes` of it, else `tooLarge`: a gzip file that decodes
    /// to more (a "gzip bomb") fails when the decoded bytes pass the limit, having held no more than it.
    package func readAll(maximumBytes: Int) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        if isRegularFile && !isGzip { bytes.reserveCapacity(min(fileSize, maximumBytes)) }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            var source = self
            let count = try source.read(into: &chunk, count: chunk.count)
            if count == 0 { return bytes }
            if bytes.count + count > maximumBytes { throw .tooLarge(maximumBytes) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// The bytes `readAll` reads at a time: large enough that zlib inflates at its own speed, and that the calls
    /// cost nothing next to the bytes.
    package static let chunkSize = 1 << 18

    /// How many bytes `sniff` needs: gzip's magic bytes.
    private static let magic: [UInt8] = [0x1F, 0x8B]

    /// Reads the first bytes, at most two, and starts decoding if they are gzip's magic bytes; else keeps them for
    /// the first read. A first byte other than `1F` decides at once: a stream that pauses after it is not waited for.
    private func sniff() throws(InputError) {
        sniffed = true
        var head = [UInt8](repeating: 0, count: Self.magic.count)
        var count = 0
        while count < head.count && (count == 0 || head[0] == Self.magic[0]) {
            let read = try head.withUnsafeMutableBytes { buffer in
                Result { () throws(InputError) in
                    try raw.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                }
            }.get()
            if read == 0 { break }
            count += read
        }
        if count == Self.magic.count && head == Self.magic {
            let decoder = try GzipDecoder(prefix: head)
            gzip = decoder
            // Without a thread to spare (the process is at its limit), the file is decoded as it is read.
            if isRegularFile && raw.descriptor != nil {
                readAhead = try? GzipReadAhead.start(decoder: decoder, source: raw)
            }
        } else {
            pending = Array(head[..<count])
        }
    }

    /// The next bytes after those `peek` holds: decoded, for gzip.
    private func readDecoded(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if !sniffed {
            try sniff()
            // The bytes read to look for the magic bytes, when they are not gzip's.
            if !pending.isEmpty { return try read(into: buffer) }
        }
        if let failure = sniffFailure {
            sniffFailure = nil
            throw failure
        }
        if let readAhead { return try readAhead.read(into: buffer) }
        if let gzip { return try gzip.read(into: buffer, from: &raw) }
        return try raw.read(into: buffer)
    }
}

/// The bytes of a `CatalogInput` as they are on disk (or in memory), before any decoding.
struct RawSource: ByteSource {
    /// The descriptor read, if the input is a file or stream.
    let descriptor: Int32?
    /// Whether `CatalogInput` closes `descriptor` (it opened it).
    let ownsDescriptor: Bool
    private var memory: BufferByteSource?

    init(descriptor: Int32, ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
    }

    init(memory: BufferByteSource) {
        descriptor = nil
        ownsDescriptor = false
        self.memory = memory
    }

    /// How many bytes `read` has returned.
    private(set) var bytesRead = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count: Int
        if memory != nil {
            count = try memory!.read(into: buffer)
        } else {
            var source = DescriptorByteSource(descriptor!)
            count = try source.read(into: buffer)
        }
        bytesRead += count
        return count
    }
}
