#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with the C library, so that the engine needs no Foundation.
enum FileReader {
    /// Why a file could not be read: the C library's message for `errno` ("No such file or directory").
    struct Failure: Error, Equatable, Sendable {
        /// A short message a user can act on.
        var reason: String

        init(reason: String) { self.reason = reason }

        init(errno code: Int32) {
            reason = String(cString: strerror(code))
        }
    }

    /// The bytes of the file at `path`.
    ///
    /// A regular file is read straight into an array of its size (one allocation for a 250 MB catalog); what
    /// follows that size, or the contents of a file without one (a pipe, `/dev/stdin`), is read in chunks.
    static func readAll(path: FilePath) throws(Failure) -> [UInt8] {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure(errno: errno) }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw Failure(errno: EISDIR) }
        let expectedSize = type == S_IFREG ? Int(status.st_size) : 0

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
            let result = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if result > 0 {
                bytes.append(contentsOf: chunk[..<result])
            } else if result == 0 {
                return bytes
            } else if errno != EINTR {
                throw Failure(errno: errno)
            }
        }
    }
}
