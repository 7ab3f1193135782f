#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files and streams with the C library, so that the engine needs no Foundation.
package enum FileReader {
    /// Why a file could not be read: the C library's message for `errno` ("No such file or directory"), or a
    /// limit it went past.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// A short message a user can act on.
        package var reason: String

        package init(reason: String) { self.reason = reason }

        init(errno code: Int32) {
            reason = String(cString: strerror(code))
        }

        /// The input holds more than `limit` bytes.
        package static func tooLarge(_ limit: Int) -> Failure {
            Failure(reason: "larger than \(FileReader.byteLimitDescription(limit))")
        }

        package var description: String { reason }
    }

    /// Bytes read as JSON (see `readJSON`).
    package struct JSONInput: Sendable {
        /// The whole input; or, when `badByte` is set, the input up to a few bytes past it.
        package var bytes: [UInt8]
        /// The offset of the first byte that no JSON document could hold where it is, if the read stopped there.
        /// Decoding `bytes` then reports the same malformed JSON, at the same place, as decoding the whole input
        /// would (see `JSONStreamChecker`).
        package var badByte: Int?

        /// The line and column (from 1; the column in Unicode scalars) of the byte at `offset`.
        package func location(of offset: Int) -> (line: Int, column: Int) {
            bytes.withUnsafeBufferPointer { LineCounter.location(of: offset, in: $0) }
        }

        package init(bytes: [UInt8], badByte: Int?) {
            self.bytes = bytes
            self.badByte = badByte
        }
    }

    /// `limit` for a message: `16 MiB`, `2 GiB`, or a count of bytes when it is not a whole number of MiB.
    package static func byteLimitDescription(_ limit: Int) -> String {
        if limit >= 1 << 30 && limit % (1 << 30) == 0 { return "\(limit >> 30) GiB" }
        if limit >= 1 << 20 && limit % (1 << 20) == 0 { return "\(limit >> 20) MiB" }
        return limit == 1 ? "1 byte" : "\(limit) bytes"
    }

    /// The JSON at `path`. A regular file is read whole, in one allocation of its size, without the check;
    /// a file of any other kind (a character device, a FIFO, a socket) is a stream, read and checked as
    /// `readJSON(descriptor:maximumBytes:)` does. Throws when a regular file holds more than `maximumBytes`,
    /// unless `regularFilesUnbounded` (catalogs, whose size on disk is the user's choice).
    ///
    /// Skipping the check changes no outcome, only when reading stops: the decoder reports the same first fault
    /// in the whole file as in the prefix the check would have stopped at (see `JSONStreamChecker`), and a
    /// regular file holds a finite number of bytes already on disk, where `/dev/zero` or a pipe can produce
    /// bytes for ever. The check would cost a second pass over every byte of a large catalog for nothing.
    package static func readJSON(path: FilePath, maximumBytes: Int, regularFilesUnbounded: Bool = false)
        throws(Failure) -> JSONInput
    {
        try withDescriptor(path: path) { (descriptor, type, size) throws(Failure) in
            guard type == S_IFREG else { return try readJSON(descriptor: descriptor, maximumBytes: maximumBytes) }
            if !regularFilesUnbounded && size > maximumBytes { throw .tooLarge(maximumBytes) }
            let bytes = try readAll(descriptor: descriptor, expectedSize: size)
            // A regular file that grew since `fstat`: the bound holds for what was read.
            if !regularFilesUnbounded && bytes.count > maximumBytes { throw .tooLarge(maximumBytes) }
            return JSONInput(bytes: bytes, badByte: nil)
        }
    }

    /// JSON from `descriptor`, read in chunks and checked as it arrives (`JSONStreamChecker`): the read stops a
    /// few bytes after the first byte that is not JSON, so that a stream that never ends (`/dev/zero`) or a
    /// binary file costs no more than its first chunk. Throws when the input, still JSON so far, holds more than
    /// `maximumBytes`, or when a read fails.
    package static func readJSON(descriptor: Int32, maximumBytes: Int) throws(Failure) -> JSONInput {
        var bytes: [UInt8] = []
        var checker = JSONStreamChecker()
        var badByte: Int?
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // After a bad byte, only the few the decoder looks at to word its error.
            let wanted = badByte.map { $0 + JSONStreamChecker.lookahead - bytes.count } ?? chunk.count
            guard wanted > 0 else { break }
            let count = try readSome(descriptor, into: &chunk, count: min(wanted, chunk.count))
            if count == 0 { break }
            if badByte == nil {
                badByte = chunk.withUnsafeBufferPointer { checker.feed(UnsafeBufferPointer(rebasing: $0[..<count])) }
                if badByte == nil && bytes.count + count > maximumBytes { throw .tooLarge(maximumBytes) }
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        if let badByte, bytes.count > badByte + JSONStreamChecker.lookahead {
            bytes.removeSubrange((badByte + JSONStreamChecker.lookahead)...)
        }
        return JSONInput(bytes: bytes, badByte: badByte)
    }

    /// Opens `path` for reading and calls `body` with the descriptor, the file's type (`S_IFREG`, `S_IFIFO`, …)
    /// and its size (meaningful for a regular file). A directory is refused with "Is a directory".
    private static func withDescriptor<Result>(
        path: FilePath, _ body: (Int32, mode_t, Int) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure(errno: errno) }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw Failure(errno: EISDIR) }
        return try body(descriptor, type, Int(status.st_size))
    }

    /// Everything left on `descriptor`: the first `expectedSize` bytes in one allocation, the rest in chunks.
    private static func readAll(descriptor: Int32, expectedSize: Int) throws(Failure) -> [UInt8] {
        var readError: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expectedSize) { buffer, count in
            while count < expectedSize {
                let result = read(descriptor, buffer.baseAddress! + count, expectedSize - count)
                if result > 0 {
                    count += result
                } else if result == 0 {
                    return  // The file shrank since `fstat`.
                } else if errno != EINTR {
                    readError = errno
                    return
                }
            }
        }
        if readError != 0 { throw Failure(errno: readError) }

        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try readSome(descriptor, into: &chunk, count: chunk.count)
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads at most `count` bytes into the start of `buffer`, retrying interrupted calls; 0 at the end.
    private static func readSome(_ descriptor: Int32, into buffer: inout [UInt8], count: Int) throws(Failure) -> Int {
        while true {
            let result = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, count) }
            if result >= 0 { return result }
            if errno != EINTR { throw Failure(errno: errno) }
        }
    }
}
