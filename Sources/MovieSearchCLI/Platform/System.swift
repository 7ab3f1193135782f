#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("moviesearch needs Glibc or Darwin")
#endif
import MovieSearch

/// The few system calls the command line makes, fenced in one file so that the rest of the target imports neither
/// Glibc nor Darwin (and never Foundation, which would triple the start-up time of a query).
enum System {
    /// Standard input, output and error.
    static let standardInput: Int32 = 0
    static let standardOutput: Int32 = 1
    static let standardError: Int32 = 2

    /// Writes all of `bytes` to `fd`, retrying short writes and interrupted calls. Returns 0, or the `errno` of the
    /// call that failed.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var next = bytes.baseAddress else { return 0 }
        var left = bytes.count
        while left > 0 {
            let written = write(fd, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            next += written
            left -= written
        }
        return 0
    }

    /// Reads at most `buffer.count` bytes from `fd`. Returns the count read (0 at end of input), or the negated
    /// `errno`.
    static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { return -Int(errno) }
        }
    }

    /// The whole content of the file at `path`, or the `errno` of the call that failed.
    static func readFile(_ path: String) -> Result<[UInt8], SystemError> {
        readFile(FilePath(path))
    }

    /// The whole content of the file at `path` (raw bytes, used unchanged), or the `errno` of the call that failed.
    static func readFile(_ path: FilePath) -> Result<[UInt8], SystemError> {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        if fd < 0 { return .failure(SystemError(code: errno)) }
        defer { close(fd) }
        return readAll(fd)
    }

    /// Everything left to read on `fd`.
    static func readAll(_ fd: Int32) -> Result<[UInt8], SystemError> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { readSome(fd, into: $0) }
            if count < 0 { return .failure(SystemError(code: Int32(-count))) }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Opens `path` for reading, or returns the `errno` of `open`. The caller closes the descriptor.
    static func openForReading(_ path: FilePath) -> Result<Int32, SystemError> {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        return fd < 0 ? .failure(SystemError(code: errno)) : .success(fd)
    }

    /// Closes a descriptor from `openForReading`.
    static func closeDescriptor(_ fd: Int32) {
        close(fd)
    }

    /// Why `path` is no regular file beside which a file could be written ("a FIFO, not a regular file", …),
    /// following symbolic links; `nil` for a regular file, a directory, or nothing at all. For messages.
    /// A path under `/dev/` or `/proc/` (`/dev/stdin`, `/dev/fd/0`) counts as "a device or process file" even
    /// when it leads to a regular file (standard input redirected from one).
    static func specialFileKind(_ path: FilePath) -> String? {
        if path.bytes.starts(with: "/dev/".utf8) || path.bytes.starts(with: "/proc/".utf8) { return "under /dev or /proc" }
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: return "a FIFO, not a regular file"
        case S_IFCHR: return "a character device, not a regular file"
        case S_IFBLK: return "a block device, not a regular file"
        case S_IFSOCK: return "a socket, not a regular file"
        default: return "not a regular file"
        }
    }

    /// Whether something (of any kind) exists at `path` and can be read.
    static func isReadable(_ path: FilePath) -> Bool {
        path.withCString { access($0, R_OK) } == 0
    }

    /// The device and inode of the file at `path`, links followed (so a symbolic or hard link to a file gives that
    /// file's), or `nil` when there is nothing there (or nothing we may look at).
    static func fileIdentity(_ path: FilePath) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// The value of an environment variable of this process.
    static func environmentValue(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// The bytes of an environment variable of this process, as they are (not repaired to valid UTF-8).
    static func environmentBytes(_ name: String) -> [UInt8]? {
        guard let value = getenv(name) else { return nil }
        return Array(UnsafeRawBufferPointer(start: value, count: strlen(value)))
    }

    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// The width in columns of the terminal on `fd`, or `nil` when it is not a terminal or does not say.
    static func terminalColumns(_ fd: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// A monotonic clock in nanoseconds, for reporting how long a step took.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The most memory this process has had resident so far, in bytes.
    ///
    /// On Linux, the `VmHWM` line of /proc/self/status: `ru_maxrss` there carries over from the parent across
    /// `exec`, so a `bench` started by a large process (a Python harness that loaded a catalog) reported the
    /// parent's peak. Elsewhere, and if /proc is not there, `ru_maxrss` (KiB on Linux, bytes on Apple platforms).
    static func peakResidentBytes() -> Int {
        #if os(Linux)
        if case .success(let status) = readFile("/proc/self/status"), let peak = highWaterMark(status) { return peak }
        #endif
        var usage = rusage()
        #if canImport(Glibc)
        let who = RUSAGE_SELF.rawValue  // an enum in Glibc's headers, an Int32 constant elsewhere
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1024
        #endif
    }

    /// The bytes of `VmHWM:   10376 kB` in the text of a /proc/<pid>/status file, if it has that line.
    static func highWaterMark(_ status: [UInt8]) -> Int? {
        for line in status.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array("VmHWM:".utf8)) {
            let fields = line.dropFirst(6).split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard fields.count == 2, fields[1].elementsEqual("kB".utf8),
                  let kibibytes = Int(String(decoding: fields[0], as: UTF8.self))
            else { return nil }
            return kibibytes * 1024
        }
        return nil
    }

    /// Lets writes to a closed pipe fail with `EPIPE` instead of killing the process, so that
    /// `moviesearch query … | head` ends quietly.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Lets a write past the file size limit (`ulimit -f`) fail with `EFBIG` instead of killing the process with
    /// SIGXFSZ, so that `index` reports "File too large", removes its temporary file and leaves the previous cache.
    static func ignoreFileSizeLimitSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Ends the process.
    static func exitProcess(_ status: Int32) -> Never {
        exit(status)
    }
}

/// A failed system call's `errno`, with the system's wording of it.
struct SystemError: Error, Equatable, CustomStringConvertible {
    var code: Int32

    /// Whether the error says that the reader of a pipe has gone away.
    var isBrokenPipe: Bool { code == EPIPE }

    var description: String { String(cString: strerror(code)) }
}
