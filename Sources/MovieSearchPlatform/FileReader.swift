/// Reads files and streams through `Syscalls`, so that the engine needs no Foundation. What the bytes mean is its
/// callers' business: `JSONInput` reads JSON with it, checking streams as they arrive. Every failure is a
/// `FileFailure`.
package enum FileReader {
    /// `limit` for a message: `16 MiB`, `2 GiB`, or a count of bytes when it is not a whole number of MiB.
    package static func byteLimitDescription(_ limit: Int) -> String {
        if limit >= 1 << 30 && limit % (1 << 30) == 0 { return "\(limit >> 30) GiB" }
        if limit >= 1 << 20 && limit % (1 << 20) == 0 { return "\(limit >> 20) MiB" }
        return limit == 1 ? "1 byte" : "\(limit) bytes"
    }

    /// The whole content of the file at `path`, however long: as many bytes as `fstat` says in one allocation,
    /// then whatever follows in chunks (all of it for a stream, or for a /proc file, whose size says 0). Throws
    /// when a call fails, or "Is a directory".
    package static func readAll(path: FilePath) throws(FileFailure) -> [UInt8] {
        try withDescriptor(path: path) { (descriptor, status) throws(FileFailure) in
            try readAll(descriptor: descriptor, expectedSize: status.kind == .regular ? status.size : 0)
        }
    }

    /// Opens `path` for reading and calls `body` with the descriptor and the file's status (its kind, and its
    /// size, meaningful for a regular file). A directory is refused with "Is a directory". Unless
    /// `waitingForAWriter` (a catalog FIFO, whose writer may come after the reader), the open never waits
    /// (`.readingWithoutWaitingForAWriter`): a FIFO that no one writes to reads as ended instead of freezing the
    /// tool in `open`.
    package static func withDescriptor<Result>(
        path: FilePath, waitingForAWriter: Bool = true, _ body: (Int32, FileStatus) throws(FileFailure) -> Result
    ) throws(FileFailure) -> Result {
        let (descriptor, status) = try open(path: path, waitingForAWriter: waitingForAWriter)
        defer { Syscalls.closeDescriptor(descriptor) }
        return try body(descriptor, status)
    }

    /// `withDescriptor`'s open: the descriptor (the caller closes it) and the file's status; a directory refused
    /// with "Is a directory" (`EISDIR`, as `read` would say), its descriptor closed. For a reader that keeps the
    /// descriptor past one call (`CatalogInput`).
    package static func open(path: FilePath, waitingForAWriter: Bool = true) throws(FileFailure)
        -> (descriptor: Int32, status: FileStatus)
    {
        let mode: Syscalls.OpenMode = waitingForAWriter ? .reading : .readingWithoutWaitingForAWriter
        let descriptor = try Syscalls.openFile(path, for: mode).mapError(FileFailure.system).get()
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
        return (descriptor, status)
    }

    /// Opens the regular file at `path` without blocking (`RegularFile.openForReading`) and calls `body` with the
    /// descriptor and its size; a FIFO, a device, a socket or a folder is refused (`notARegularFile`) before a
    /// byte is read, so that a FIFO no one writes to never freezes the caller.
    package static func withRegularFile<Result>(
        path: FilePath, _ body: (Int32, Int) throws(FileFailure) -> Result
    ) throws(FileFailure) -> Result {
        let (descriptor, size) = try RegularFile.openForReading(path).get()
        defer { Syscalls.closeDescriptor(descriptor) }
        return try body(descriptor, size)
    }

    /// The whole regular file at `path` (`withRegularFile`: anything else refused without waiting), of at most
    /// `maximumBytes` (`readAll(descriptor:size:maximumBytes:)`).
    package static func readRegularFile(path: FilePath, maximumBytes: Int) throws(FileFailure) -> [UInt8] {
        try withRegularFile(path: path) { (descriptor, size) throws(FileFailure) in
            try readAll(descriptor: descriptor, size: size, maximumBytes: maximumBytes)
        }
    }

    /// `readRegularFile(path:maximumBytes:)`, with the status of the file read (`fstat` of the descriptor read, so
    /// that the two describe one file).
    ///
    /// Not generic, unlike `withRegularFile`, which other targets would run unspecialized: for this result (a
    /// tuple) the runtime then builds its type metadata in every `moviesearch query` (PERFORMANCE.md, "Figures
    /// behind the code").
    package static func readRegularFileAndStatus(path: FilePath, maximumBytes: Int) throws(FileFailure)
        -> (bytes: [UInt8], status: FileStatus) {
        try withRegularFile(path: path) { (descriptor, size) throws(FileFailure) in
            let status = try Syscalls.status(ofDescriptor: descriptor).mapError(FileFailure.system).get()
            return (try readAll(descriptor: descriptor, size: size, maximumBytes: maximumBytes), status)
        }
    }

    /// Everything on `descriptor`, a regular file `fstat` said holds `size` bytes, when that is at most
    /// `maximumBytes`: a larger size is refused before anything is allocated (a sparse file's, a disk image), and
    /// a file that grew since `fstat` past the bound is refused after the read, so the bound holds for what is
    /// returned.
    package static func readAll(descriptor: Int32, size: Int, maximumBytes: Int) throws(FileFailure) -> [UInt8] {
        if size > maximumBytes { throw .tooLarge(maximumBytes) }
        let bytes = try readAll(descriptor: descriptor, expectedSize: size)
        if bytes.count > maximumBytes { throw .tooLarge(maximumBytes) }
        return bytes
    }

    /// Everything left on `descriptor`: the first `expectedSize` bytes in one allocation, the rest in chunks.
    package static func readAll(descriptor: Int32, expectedSize: Int) throws(FileFailure) -> [UInt8] {
        var readError: SystemError?
        var bytes = [UInt8](unsafeUninitializedCapacity: expectedSize) { buffer, count in
            while count < expectedSize {
                let rest = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count..<expectedSize]))
                switch Syscalls.readSome(descriptor, into: rest) {
                case .success(0): return  // The file shrank since `fstat`.
                case let .success(read): count += read
                case let .failure(error): readError = error; return
                }
            }
        }
        if let readError { throw .system(readError) }

        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try readSome(descriptor, into: &chunk, count: chunk.count)
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads at most `count` bytes into the start of `buffer`; 0 at the end.
    package static func readSome(_ descriptor: Int32, into buffer: inout [UInt8], count: Int) throws(FileFailure) -> Int {
        try buffer.withUnsafeMutableBytes { Syscalls.readSome(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<count])) }
            .mapError(FileFailure.system).get()
    }
}
