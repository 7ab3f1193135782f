/// A catalog file or stream opened for reading, in pieces (`ByteSource`).
///
/// GZIP (TODO, issue 11: decode through zlib when the input starts with gzip's magic bytes `1F 8B`, streamed).
package final class CatalogInput: ByteSource {
    private let descriptor: Int32?
    private var memory: BufferByteSource?
    /// Bytes `peek` read ahead, handed out first by `read`.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Whether the input is a regular file (its size is known and it ends).
    package let isRegularFile: Bool
    /// The size of a regular file on disk (compressed, for a gzip file); 0 for a stream.
    package let fileSize: Int
    /// Whether the bytes on disk are gzip, decoded as they are read.
    package private(set) var isGzip = false

    /// Opens `path`. Throws `InputError.system` when it cannot be opened, or is a directory.
    package init(path: FilePath) throws(InputError) {
        let descriptor = try Syscalls.openFile(path, for: .reading).mapError(InputError.system).get()
        let status: FileStatus
        switch Syscalls.status(ofDescriptor: descriptor) {
        case let .success(found): status = found
        case let .failure(error):
            Syscalls.closeDescriptor(descriptor)
            throw .system(error)
        }
        if status.kind == .notRegular(.directory) {
            Syscalls.closeDescriptor(descriptor)
            throw .system(SystemError(code: Syscalls.Errno.isADirectory))
        }
        self.descriptor = descriptor
        isRegularFile = status.kind == .regular
        fileSize = isRegularFile ? status.size : 0
    }

    /// Reads from `descriptor` (standard input), which stays open.
    package init(descriptor: Int32) {
        self.descriptor = nil
        standardDescriptor = descriptor
        isRegularFile = false
        fileSize = 0
    }

    /// Reads `bytes`.
    package init(bytes: [UInt8]) {
        descriptor = nil
        memory = BufferByteSource(bytes)
        isRegularFile = true
        fileSize = bytes.count
    }

    private var standardDescriptor: Int32?

    deinit {
        if let descriptor { Syscalls.closeDescriptor(descriptor) }
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
                Result { () throws(InputError) in try readRaw(into: buffer) }
            }.get()
            ended = read == 0
            pending.append(contentsOf: chunk[..<read])
        }
        let bytes = Array(pending[pendingStart..<min(pending.count, pendingStart + count)])
        return (bytes, ended || bytes.count == count)
    }

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
        return try readRaw(into: buffer)
    }

    /// Everything left, at most `maximumBytes` (else `tooLarge`).
    package func readAll(maximumBytes: Int) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        if isRegularFile && !isGzip { bytes.reserveCapacity(min(fileSize, maximumBytes)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var source = self
            let count = try source.read(into: &chunk, count: chunk.count)
            if count == 0 { return bytes }
            if bytes.count + count > maximumBytes { throw .tooLarge(maximumBytes) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    private func readRaw(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if memory != nil { return try memory!.read(into: buffer) }
        var source = DescriptorByteSource(descriptor ?? standardDescriptor!)
        return try source.read(into: buffer)
    }
}
