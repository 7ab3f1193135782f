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
///
/// A file is written whole to a temporary file beside its destination, `.<name>.tmp-<pid>-<n>`, then renamed onto
/// it, so that the destination always holds either the previous file or the new one, complete:
///
/// - A failed write (full disk, file size limit, read-only folder) removes its temporary file and leaves the
///   destination as it was.
/// - A process killed while writing (SIGKILL, power loss) leaves its temporary file behind; the next write of the
///   same destination removes it (`removeStaleTemporaries(beside:)`).
/// - Readers that mapped the previous file keep their mapping: the old file is renamed over, never truncated.
///
/// A process that exceeds its file size limit (`ulimit -f`) gets SIGXFSZ, which kills it by default: ignore that
/// signal (as the command line does) to get an error instead.
enum AtomicFileWriter {
    /// Writes `chunks`, one after the other, to a new temporary file in the folder of `path`, flushes it to disk,
    /// then renames it onto `path`. Readers that mapped the previous file keep their mapping; on any failure the temporary file is
    /// removed and whatever was at `path` is left as it was.
    ///
    /// First removes the temporary files of `path` that killed writers left behind (which also frees their space
    /// on a full disk).
    static func replaceFile(at path: String, with chunks: [[UInt8]]) throws(AtomicWriteError) {
        try replaceFile(at: FilePath(path), with: chunks)
    }

    /// `replaceFile(at:with:)` for a path of raw bytes, which need not be valid UTF-8: the destination, its
    /// temporary file and the links followed are named by the same bytes.
    static func replaceFile(at path: FilePath, with chunks: [[UInt8]]) throws(AtomicWriteError) {
        let path = try destination(of: path)
        removeStaleTemporaries(beside: path)
        let temporary = temporaryPath(beside: path)
        let descriptor = temporary.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        if descriptor < 0 { throw AtomicWriteError(operation: "create a temporary file beside", error: .current()) }
        var failure: AtomicWriteError?
        var written = true
        for chunk in chunks where written {
            written = chunk.withUnsafeBytes { buffer -> Bool in
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
        }
        if written, fsync(descriptor) != 0 { failure = AtomicWriteError(operation: "flush", error: .current()) }
        if close(descriptor) != 0, failure == nil { failure = AtomicWriteError(operation: "write", error: .current()) }
        if failure == nil, temporary.withCString({ from in path.withCString { rename(from, $0) } }) != 0 {
            failure = AtomicWriteError(operation: "replace", error: .current())
        }
        if let failure {
            _ = temporary.withCString { unlink($0) }
            throw failure
        }
        syncFolder(of: path)
    }

    /// The file that writing `path` replaces: the file a symbolic link leads to (so that the link stays a link;
    /// a dangling link names the file to create), and never anything but a regular file. Renaming onto `/dev/null` or a named pipe would replace the device or
    /// pipe itself, for every program on the machine (a write as root once did: `index -o /dev/null`).
    static func destination(of path: FilePath) throws(AtomicWriteError) -> FilePath {
        var target = path
        var status = stat()
        // Follow a chain of links, as open() would; a dangling one names the file to create.
        for _ in 0..<32 {
            // Nothing there yet, or nothing we may look at: the write itself reports what is wrong.
            guard target.withCString({ lstat($0, &status) }) == 0 else { return target }
            guard (status.st_mode & S_IFMT) == S_IFLNK, let next = linkTarget(target) else { break }
            target = next
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return target
        case S_IFDIR:
            throw AtomicWriteError(operation: "replace", error: SystemError(code: EISDIR, reason: "it is a folder; give a file path"))
        case S_IFLNK:
            throw AtomicWriteError(operation: "replace", error: SystemError(code: ELOOP, reason: "its symbolic links go round in a loop"))
        default:
            throw AtomicWriteError(operation: "replace", error: SystemError(
                code: EINVAL, reason: "it is not a regular file (a device, pipe or socket is never replaced); give a file path"))
        }
    }

    /// Where the symbolic link at `path` points, relative targets taken from the link's folder; the link's bytes
    /// as they are.
    private static func linkTarget(_ path: FilePath) -> FilePath? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = path.withCString { readlink($0, &buffer, buffer.count - 1) }
        guard count > 0 else { return nil }
        let target = FilePath(bytes: buffer[0..<count].map { UInt8(bitPattern: $0) })
        return target.isAbsolute ? target : path.split.folder + target
    }

    /// A failed atomic write: which step failed and why.
    struct AtomicWriteError: Error {
        var operation: String
        var error: SystemError
    }

    /// `folder/.name.tmp-PID-N`, hidden, unique per process and call, in the same folder (so rename is atomic).
    static func temporaryPath(beside path: String) -> String {
        temporaryPath(beside: FilePath(path)).description
    }

    /// `temporaryPath(beside:)` on raw bytes: the name's bytes are kept as they are.
    static func temporaryPath(beside path: FilePath) -> FilePath {
        let (folder, name) = path.split
        let serial = temporaryCounter.add(1, ordering: .relaxed).newValue
        return folder + "." + name + ".tmp-\(getpid())-\(serial)"
    }

    /// Removes the temporary files of `path` (`.name.tmp-PID-N` in its folder) whose writing process no longer
    /// exists: those of writers killed before they could rename or remove them. Returns how many it removed.
    ///
    /// A temporary file is removed only when `kill(PID, 0)` fails with `ESRCH`, so a live writer's (in this
    /// process or another, of any user) is never touched. Best effort: a folder that cannot be listed, or a file
    /// that cannot be removed, is left as it is.
    ///
    /// Limits: a file whose PID has been reused by an unrelated process stays until that process ends. On a folder
    /// shared across PID namespaces or machines, a live writer elsewhere may look dead and lose its temporary file;
    /// its rename then fails and it reports an error, and the destination is never damaged.
    @discardableResult
    static func removeStaleTemporaries(beside path: String) -> Int {
        removeStaleTemporaries(beside: FilePath(path))
    }

    /// `removeStaleTemporaries(beside:)` on raw bytes: entries are compared and removed by their bytes.
    @discardableResult
    static func removeStaleTemporaries(beside path: FilePath) -> Int {
        let (folder, name) = path.split
        guard let directory = (folder.isEmpty ? FilePath(".") : folder).withCString({ opendir($0) }) else { return 0 }
        var stale: [FilePath] = []
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FilePath(bytes: raw.prefix { $0 != 0 })
            }
            if let owner = temporaryOwner(entryName.bytes, of: name.bytes), kill(owner, 0) != 0, errno == ESRCH {
                stale.append(entryName)
            }
        }
        closedir(directory)
        return stale.count { (folder + $0).withCString { unlink($0) } == 0 }
    }

    /// The writer's PID when `entry` is a temporary file of the file named `name` (`.name.tmp-PID-N`, both numbers
    /// positive decimals as `temporaryPath` writes them), else `nil`.
    static func temporaryOwner(_ entry: String, of name: String) -> pid_t? {
        temporaryOwner(Array(entry.utf8), of: Array(name.utf8))
    }

    /// `temporaryOwner(_:of:)` on the raw bytes of the names.
    static func temporaryOwner(_ entry: [UInt8], of name: [UInt8]) -> pid_t? {
        let prefix = [UInt8(ascii: ".")] + name + Array(".tmp-".utf8)
        guard !name.isEmpty, entry.starts(with: prefix) else { return nil }
        let numbers = entry.dropFirst(prefix.count)
            .split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy(isCanonicalPositiveDecimal),
              let pid = pid_t(String(decoding: numbers[0], as: UTF8.self))
        else { return nil }
        return pid
    }

    /// Digits only, no leading zero, not zero.
    private static func isCanonicalPositiveDecimal(_ digits: ArraySlice<UInt8>) -> Bool {
        guard let first = digits.first, first != UInt8(ascii: "0") else { return false }
        return digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static let temporaryCounter = Atomic<Int>(0)

    /// Makes the rename itself durable; best effort (not every file system lets a folder be opened and synced).
    private static func syncFolder(of path: FilePath) {
        let folder = path.split.folder
        let descriptor = (folder.isEmpty ? FilePath(".") : folder).withCString { open($0, O_RDONLY | O_CLOEXEC) }
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
