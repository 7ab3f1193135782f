#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("moviesearch needs a POSIX C library")
#endif
import Synchronization

/// A failed system call: the C library's `errno`, kept with the text `strerror` gives for it.
struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The raw error number.
    var code: Int32
    /// What went wrong, as the C library says it (for example "Permission denied").
    var reason: String

    /// The error of the last failed call on this thread.
    static func current() -> SystemError {
        let code = errno
        return SystemError(code: code, reason: String(cString: strerror(code)))
    }

    var description: String { reason }
}

/// Writes whole files atomically with the C library (the engine needs no Foundation). Reading files is
/// `FileReader`'s job, mapping them `MappedCacheFile`'s.
enum AtomicFileWriter {
    /// Writes `bytes` to a new temporary file in the folder of `path`, flushes it to disk, then renames it onto
    /// `path`. Readers that mapped the previous file keep their mapping; on any failure the temporary file is
    /// removed and whatever was at `path` is left as it was.
    static func replaceFile(at path: String, with bytes: [UInt8]) throws(AtomicWriteError) {
        let temporary = temporaryPath(beside: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 { throw AtomicWriteError(operation: "create a temporary file beside", error: .current()) }
        var failure: AtomicWriteError?
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, min(buffer.count - offset, 1 << 24))
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = AtomicWriteError(operation: "write", error: .current())
                    return false
                }
                offset += count
            }
            return true
        }
        if written, fsync(descriptor) != 0 { failure = AtomicWriteError(operation: "flush", error: .current()) }
        if close(descriptor) != 0, failure == nil { failure = AtomicWriteError(operation: "write", error: .current()) }
        if failure == nil, rename(temporary, path) != 0 { failure = AtomicWriteError(operation: "replace", error: .current()) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        syncFolder(of: path)
    }

    /// A failed atomic write: which step failed and why.
    struct AtomicWriteError: Error {
        var operation: String
        var error: SystemError
    }

    /// `folder/.name.tmp-PID-N`, hidden, unique per process and call, in the same folder (so rename is atomic).
    private static func temporaryPath(beside path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let serial = temporaryCounter.add(1, ordering: .relaxed).newValue
        return "\(folder).\(name).tmp-\(getpid())-\(serial)"
    }

    private static let temporaryCounter = Atomic<Int>(0)

    /// Makes the rename itself durable; best effort (not every file system lets a folder be opened and synced).
    private static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let descriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
