#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("moviesearch needs a POSIX C library: Glibc, Musl or Darwin")
#endif

/// The system calls of the package, engine, command line and HTTP server alike. With its extensions by job
/// (`Syscalls+Processes.swift`, `Syscalls+Sockets.swift`) and the two types that hold system state (`EventPoller`,
/// `SystemThread`), the only files of the package that import the C library.
///
///     switch Syscalls.openFile(path, for: .reading) {
///     case let .success(descriptor): defer { Syscalls.closeDescriptor(descriptor) } …
///     case let .failure(error): …   // error.reason: "No such file or directory"
///     }
///
/// As in swift-system's `Internals/Syscalls.swift`, each wrapper makes one call (or repeats the same call until
/// it is done), so that the rest of the package reads as Swift: it takes and returns Swift values (`FilePath`,
/// raw buffers, `FileStatus` rather than `struct stat` and `S_IF…` bits), and reports a failure as the
/// `SystemError` of the call, read straight after it. `open`, `read`, `pread` and `write`, which a signal handler
/// can interrupt, are retried on `EINTR`, so that no caller has to. The C library's constants stay here as well:
/// callers name what they want (`.readingWithoutBlocking`, `followingLinks: false`).
///
/// A new call is one more `static func` in the section it belongs to, returning `Result<…, SystemError>` when a
/// caller acts on its failure. Keep the Apple branches compiling: `#if canImport(Darwin)` where the C types or
/// units differ.
package enum Syscalls {
    // MARK: Errors

    /// The `errno` values the package tells apart.
    package enum Errno {
        /// `EPIPE`: the reader of a pipe went away.
        static var brokenPipe: Int32 { EPIPE }
        /// `EISDIR`.
        package static var isADirectory: Int32 { EISDIR }
        /// `ELOOP`: too many symbolic links, or a loop of them.
        static var tooManySymbolicLinks: Int32 { ELOOP }
        /// `EINVAL`.
        static var invalidArgument: Int32 { EINVAL }
        /// `ENOMEM`: an allocation failed (zlib's, for a gzip input).
        package static var outOfMemory: Int32 { ENOMEM }
        /// `ENOENT`: nothing at that path.
        package static var noSuchFile: Int32 { ENOENT }
        /// `EEXIST`: something is already at that path.
        package static var fileExists: Int32 { EEXIST }
    }

    /// `errno`: the error of the last failed call on this thread.
    static func lastErrorNumber() -> Int32 {
        errno
    }

    /// The C library's words for the error `code` (`strerror`): "No such file or directory".
    static func errorMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    // MARK: Opening and closing

    /// Standard input, output and error.
    package static let standardInput: Int32 = 0
    package static let standardOutput: Int32 = 1
    package static let standardError: Int32 = 2

    /// What `openFile` opens a file for. Every descriptor is opened close-on-exec.
    package enum OpenMode {
        /// Reading (`O_RDONLY`).
        case reading
        /// Reading, without waiting for what the path names to be ready (`O_NONBLOCK`): a FIFO with no writer or a
        /// serial line waiting for its carrier would block `open` for ever. No effect on a regular file.
        case readingWithoutBlocking
        /// Reading a file or stream, opened without waiting (`O_NONBLOCK`), then read with blocking reads: a FIFO
        /// that no one writes to opens at once and reads as ended, where `.reading` would wait in `open` for a
        /// writer, deaf to signals handled by the program; a pipe that has a writer, a device or a terminal reads as
        /// it would.
        case readingWithoutWaitingForAWriter
        /// Writing a new file, which must not exist yet (`O_WRONLY | O_CREAT | O_EXCL`), readable by all (0644
        /// before the umask).
        case creatingNew
    }

    /// Opens the file at `path`; the caller closes the descriptor.
    package static func openFile(_ path: FilePath, for mode: OpenMode) -> Result<Int32, SystemError> {
        let flags: Int32 = switch mode {
        case .reading: O_RDONLY
        case .readingWithoutBlocking, .readingWithoutWaitingForAWriter: O_RDONLY | O_NONBLOCK
        case .creatingNew: O_WRONLY | O_CREAT | O_EXCL
        }
        let opened = retryingInterrupts("open") { path.withCString { open($0, flags | O_CLOEXEC, 0o644) } }
        guard mode == .readingWithoutWaitingForAWriter, case let .success(descriptor) = opened else { return opened }
        let status = fcntl(descriptor, F_GETFL)
        guard status != -1, fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) != -1 else {
            let error = SystemError.current("fcntl")
            closeDescriptor(descriptor)
            return .failure(error)
        }
        return .success(descriptor)
    }

    /// Closes `descriptor`. Not retried on `EINTR`: on Linux the descriptor is closed even then.
    @discardableResult
    package static func closeDescriptor(_ descriptor: Int32) -> Result<Void, SystemError> {
        checked("close", close(descriptor))
    }

    // MARK: Reading and writing

    /// Reads at most `buffer.count` bytes from `descriptor` into `buffer`: the count read, 0 at the end. At most
    /// `Int32.max` bytes a call, which Darwin refuses to go past (`EINVAL`) where Linux reads less.
    package static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
        -> Result<Int, SystemError>
    {
        retryingInterrupts("read") { read(descriptor, buffer.baseAddress, min(buffer.count, Int(Int32.max))) }
    }


    /// Writes at most `bytes.count` bytes of `bytes` to `descriptor`: the count written.
    static func writeSome(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, SystemError> {
        retryingInterrupts("write") { write(descriptor, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes` to `descriptor`, repeating `write` after a short write. At most 16 MiB a call:
    /// Darwin refuses a count above `Int32.max` (`EINVAL`), and Linux writes at most about 2 GiB a call anyway.
    /// On failure, what was written before the failed call stays written.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, SystemError> {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + (1 << 24))
            switch writeSome(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) {
            case let .success(count): offset += count
            case let .failure(error): return .failure(error)
            }
        }
        return .success(())
    }

    /// Flushes what was written to `descriptor` to the disk (`fsync`).
    static func flushToDisk(_ descriptor: Int32) -> Result<Void, SystemError> {
        checked("fsync", fsync(descriptor))
    }

    // MARK: Mapping

    /// Maps the first `size` bytes (more than 0) of the file open on `descriptor`, read-only and private. The
    /// mapping outlives the descriptor; `unmap` releases it.
    static func mapReadOnly(_ descriptor: Int32, size: Int) -> Result<UnsafeRawPointer, SystemError> {
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            return .failure(.current("mmap"))
        }
        return .success(UnsafeRawPointer(mapping))
    }

    /// Releases a mapping of `size` bytes that `mapReadOnly` made.
    static func unmap(_ base: UnsafeRawPointer, size: Int) {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
    }

    /// Whether `a` and `b` hold the same bytes (`memcmp`: an element-wise `==` takes far longer on megabytes in a
    /// debug build).
    package static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    // MARK: Files and folders

    /// The status of the file open on `descriptor` (`fstat`).
    package static func status(ofDescriptor descriptor: Int32) -> Result<FileStatus, SystemError> {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.current("fstat")) }
        return .success(fileStatus(status))
    }

    /// The status of the file at `path`: of the file a symbolic link leads to (`stat`), or with `followingLinks`
    /// false, of the link itself (`lstat`).
    package static func status(ofPath path: FilePath, followingLinks: Bool) -> Result<FileStatus, SystemError> {
        var status = stat()
        let result = path.withCString { followingLinks ? stat($0, &status) : lstat($0, &status) }
        guard result == 0 else { return .failure(.current(followingLinks ? "stat" : "lstat")) }
        return .success(fileStatus(status))
    }

    /// The bytes of the symbolic link at `path` (`readlink`), unchanged (a relative target is relative to the
    /// link's folder); `nil` when there is no link there or it cannot be read.
    static func linkTarget(_ path: FilePath) -> FilePath? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = path.withCString { readlink($0, &buffer, buffer.count - 1) }
        guard count > 0 else { return nil }
        return FilePath(bytes: buffer[0..<count].map { UInt8(bitPattern: $0) })
    }

    /// Whether something (of any kind) exists at `path` and this process may read it (`access`).
    package static func isReadable(_ path: FilePath) -> Bool {
        path.withCString { access($0, R_OK) } == 0
    }

    /// The names in the folder at `path`, `.` and `..` included, as their bytes; `nil` when it cannot be listed.
    static func folderEntries(_ path: FilePath) -> [FilePath]? {
        guard let folder = path.withCString({ opendir($0) }) else { return nil }
        defer { closedir(folder) }
        var names: [FilePath] = []
        while let entry = readdir(folder) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { FilePath(bytes: $0.prefix { $0 != 0 }) })
        }
        return names
    }

    /// Creates the folder `path` with permissions `mode` (less the umask), its parent being there already
    /// (`mkdir`). Fails with `EEXIST` when something is at `path`.
    package static func makeFolder(_ path: FilePath, mode: UInt32) -> Result<Void, SystemError> {
        checked("mkdir", path.withCString { mkdir($0, mode_t(mode)) })
    }

    /// Sets the permission bits of the file open on `descriptor` to `mode`, the umask not applied (`fchmod`).
    static func changeMode(_ descriptor: Int32, to mode: UInt32) -> Result<Void, SystemError> {
        checked("fchmod", fchmod(descriptor, mode_t(mode)))
    }

    /// Renames `source` onto `destination`, atomically replacing what was there.
    static func renameFile(_ source: FilePath, to destination: FilePath) -> Result<Void, SystemError> {
        checked("rename", source.withCString { from in destination.withCString { rename(from, $0) } })
    }

    /// Opens the folder at `path` read-only, to hold a lock on it (`tryLockExclusively`); the caller closes the
    /// descriptor, which lets the lock go. `O_DIRECTORY`: anything but a folder fails, never blocks.
    package static func openFolder(_ path: FilePath) -> Result<Int32, SystemError> {
        retryingInterrupts("open") { path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
    }

    /// Takes the exclusive advisory lock on the file or folder open on `descriptor` without waiting (`flock`,
    /// `LOCK_EX | LOCK_NB`): true when taken, false when another open description holds it. Closing the
    /// descriptor lets it go, as does the process ending in any way.
    package static func tryLockExclusively(_ descriptor: Int32) -> Result<Bool, SystemError> {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return .success(true) }
        let code = lastErrorNumber()
        if code == EWOULDBLOCK || code == EINTR { return .success(false) }
        return .failure(SystemError(code: code, call: "flock"))
    }

    /// Sleeps for `milliseconds` (a signal may cut it short).
    package static func sleep(milliseconds: Int) {
        usleep(useconds_t(milliseconds * 1000))
    }

    /// Removes the file at `path` (`unlink`).
    @discardableResult
    static func removeFile(_ path: FilePath) -> Result<Void, SystemError> {
        checked("unlink", path.withCString { unlink($0) })
    }

    // MARK: Processes

    /// The number of cores online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    package static func onlineCoreCount() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// This process's ID.
    static func processID() -> Int32 {
        getpid()
    }

    /// Whether no process has the ID `pid`: `kill(pid, 0)` fails with `ESRCH`. A process of another user, which
    /// may not be signalled (`EPERM`), exists.
    static func processIsGone(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The bytes of the environment variable `name` of this process, as they are (not repaired to valid UTF-8);
    /// `nil` when it is not set.
    package static func environmentBytes(_ name: String) -> [UInt8]? {
        guard let value = getenv(name) else { return nil }
        return Array(UnsafeRawBufferPointer(start: value, count: strlen(value)))
    }

    /// The most memory this process has had resident so far, in bytes, as `getrusage` says (`ru_maxrss`, KiB on
    /// Linux, bytes on Apple platforms); `nil` when the call fails.
    package static func peakResidentBytes() -> Int? {
        var usage = rusage()
        #if canImport(Glibc)
        let who = RUSAGE_SELF.rawValue  // an enum in Glibc's headers, an Int32 constant elsewhere
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return nil }
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1024
        #endif
    }

    /// Lets writes to a pipe whose reader went away fail with `EPIPE` instead of killing the process (SIGPIPE).
    package static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Lets a write past the file size limit (`ulimit -f`) fail with `EFBIG` instead of killing the process
    /// (SIGXFSZ).
    package static func ignoreFileSizeLimitSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Ends the process with `status`.
    package static func exitProcess(_ status: Int32) -> Never {
        exit(status)
    }

    /// The address of the function `name` in the process's loaded images (`dlsym`), or `nil` when none has it.
    static func symbol(named name: String) -> UnsafeMutableRawPointer? {
        dlsym(dlopen(nil, RTLD_NOW), name)
    }

    /// Gives the memory the allocator holds free back to the system: glibc's `malloc_trim(0)`, looked up by name so
    /// that other C libraries (which have no such call, or give memory back by themselves) build and do nothing.
    /// Takes milliseconds on a large heap: call it off any event loop.
    package static func returnFreeMemory() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let address = symbol(named: "malloc_trim") else { return }
        _ = unsafeBitCast(address, to: MallocTrim.self)(0)
    }

    // MARK: Terminals

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The width in columns of the terminal on `descriptor`, or `nil` when it is not a terminal or does not say.
    package static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    // MARK: Helpers

    /// Makes the call `body` until it does not fail with `EINTR`: its result, or the error of the call that
    /// returned -1.
    static func retryingInterrupts<Value: FixedWidthInteger>(
        _ call: String, _ body: () -> Value
    ) -> Result<Value, SystemError> {
        while true {
            let result = body()
            if result != -1 { return .success(result) }
            let code = errno
            if code != EINTR { return .failure(SystemError(code: code, call: call)) }
        }
    }

    /// Success for a call that returned 0, else the error it set.
    static func checked(_ call: String, _ result: Int32) -> Result<Void, SystemError> {
        result == 0 ? .success(()) : .failure(.current(call))
    }

    /// The fields of `status` the package reads.
    private static func fileStatus(_ status: stat) -> FileStatus {
        let kind: FileStatus.Kind = switch status.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFLNK: .symbolicLink
        case S_IFDIR: .notRegular(.directory)
        case S_IFIFO: .notRegular(.fifo)
        case S_IFCHR: .notRegular(.characterDevice)
        case S_IFBLK: .notRegular(.blockDevice)
        case S_IFSOCK: .notRegular(.socket)
        default: .notRegular(.other)
        }
        #if canImport(Darwin)
        let (modified, changed) = (status.st_mtimespec, status.st_ctimespec)
        #else
        let (modified, changed) = (status.st_mtim, status.st_ctim)
        #endif
        return FileStatus(kind: kind, size: Int(status.st_size), device: UInt64(truncatingIfNeeded: status.st_dev),
                          inode: UInt64(truncatingIfNeeded: status.st_ino), permissions: UInt32(status.st_mode & 0o777),
                          modified: nanoseconds(modified), changed: nanoseconds(changed))
    }

    /// A `timespec` as nanoseconds since 1970.
    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// A moment of the wall clock in UTC, broken down as a calendar says it (`gmtime_r`).
    package struct CalendarTime: Equatable, Sendable {
        /// The year (2026), the month (1 to 12), the day of the month (1 to 31).
        package var year: Int, month: Int, day: Int
        /// The hour (0 to 23), minute (0 to 59) and second (0 to 60, for a leap second).
        package var hour: Int, minute: Int, second: Int
        /// The day of the week, 0 for Sunday to 6 for Saturday.
        package var weekday: Int
    }

    /// The wall clock's current second since 1970 (`time`).
    package static func wallClockSeconds() -> Int {
        time(nil)
    }

    /// The moment `seconds` since 1970, in UTC (`gmtime_r`).
    package static func universalTime(_ seconds: Int) -> CalendarTime {
        var parts = tm()
        var value = seconds
        gmtime_r(&value, &parts)
        return CalendarTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
                            weekday: Int(parts.tm_wday))
    }

    /// The wall clock (`CLOCK_REALTIME`, the clock file times are stamped with) in nanoseconds since 1970.
    package static func wallClockNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return nanoseconds(time)
    }
}

// MARK: Terminal

/// The descriptor the signal handler of `Syscalls.installSignalPipe` writes to, -1 when none. Set before the
/// handlers are installed and set back to -1 by `Syscalls.restoreSignalActions` once they are removed, before the
/// pipe is closed: a handler still running then (on another thread) writes to -1, which fails harmlessly, rather
/// than into a file that reuses the pipe's number. The handler reads a plain, already-initialized global:
/// async-signal-safe.
nonisolated(unsafe) private var signalPipeWriteDescriptor: Int32 = -1

extension sigaction {
    /// The handler (`SIG_DFL`, `SIG_IGN` or a function), by the one name for the field that Darwin and Glibc
    /// spell apart (`__sigaction_u.__sa_handler`, `__sigaction_handler.sa_handler`).
    fileprivate var handler: (@convention(c) (Int32) -> Void)? {
        get {
            #if canImport(Darwin)
            __sigaction_u.__sa_handler
            #else
            __sigaction_handler.sa_handler
            #endif
        }
        set {
            #if canImport(Darwin)
            __sigaction_u.__sa_handler = newValue
            #else
            __sigaction_handler.sa_handler = newValue
            #endif
        }
    }
}

/// The signal handler of `Syscalls.installSignalPipe`: writes the signal's number as one byte to the self-pipe and
/// nothing else (`write` is async-signal-safe; `errno` is saved and restored around it). A full pipe drops the
/// byte (the descriptor does not block), which loses nothing: the reader has not read the bytes already there.
private func signalPipeHandler(_ signal: Int32) {
    let savedErrorNumber = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteDescriptor, &byte, 1)
    errno = savedErrorNumber
}

extension Syscalls {
    /// The signals an interactive program catches, by name.
    package enum Signal {
        /// `SIGWINCH`: the terminal's window changed size.
        package static var windowChanged: Int32 { SIGWINCH }
        /// `SIGTERM`.
        package static var terminate: Int32 { SIGTERM }
        /// `SIGHUP`: the terminal hung up (its window was closed).
        package static var hangUp: Int32 { SIGHUP }
        /// `SIGINT` (sent by `kill`; raw mode delivers Ctrl-C as a byte instead).
        package static var interrupt: Int32 { SIGINT }
        /// `SIGQUIT` (Ctrl-\\ in a terminal): `serve` stops gracefully on it, as nginx does.
        package static var quit: Int32 { SIGQUIT }
        /// `SIGUSR1` and `SIGUSR2`, whose meaning is the program's own (`serve`: a status line, nothing).
        package static var user1: Int32 { SIGUSR1 }
        package static var user2: Int32 { SIGUSR2 }
        /// `SIGTSTP`: a request to stop for job control (sent by `kill -TSTP`; raw mode delivers Ctrl-Z as a byte
        /// instead). Unlike `SIGSTOP`, it can be caught, so that the terminal is given back before stopping.
        package static var suspend: Int32 { SIGTSTP }

        /// The signals whose default action ends the process and that are no crash, which an interactive program
        /// catches to give the terminal back before it ends by the same signal: `SIGHUP`, `SIGINT`, `SIGQUIT`,
        /// `SIGTERM`, `SIGUSR1`, `SIGUSR2`, `SIGALRM`, `SIGVTALRM`, `SIGPROF` and `SIGXCPU` (a CPU time limit
        /// reached, `ulimit -t`), and on Linux `SIGIO` (`SIGPOLL`), `SIGPWR` and `SIGSTKFLT`.
        ///
        /// Not in the list: `SIGPIPE` and `SIGXFSZ`, which the command line ignores so that a write fails with an
        /// error instead; `SIGKILL` and `SIGSTOP`, which cannot be caught; the crash signals (`SIGSEGV`, `SIGBUS`,
        /// `SIGILL`, `SIGFPE`, `SIGTRAP`, `SIGABRT`, `SIGSYS`), left to the Swift runtime's backtracer; the
        /// real-time signals (`SIGRTMIN`…, which nothing sends an interactive program), left at their default.
        package static var terminating: [Int32] {
            var signals = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU]
            #if os(Linux)
            signals += [SIGIO, SIGPWR, SIGSTKFLT]
            #endif
            return signals
        }
    }

    /// Gives `SIGQUIT` its default action (end the process, status 128 + 3, a core file where `ulimit -c`
    /// allows), as any program has: the Swift runtime's backtracer catches it otherwise, prints a crash report
    /// ("Press space to interact…" on a terminal) and lets the process run on. The runtime documents this as
    /// the way to opt a signal out (docs/Backtracing.rst: a replaced handler no longer produces backtraces);
    /// `SWIFT_BACKTRACE` can only turn the backtracer off for every crash, and is read before `main`. Real
    /// crashes (SIGSEGV, SIGILL, SIGBUS, SIGFPE, SIGTRAP, SIGABRT) keep their report.
    package static func defaultQuitSignal() {
        signal(SIGQUIT, SIG_DFL)
    }

    /// Stops this process's whole process group, as a shell's Ctrl-Z does (vim and less do the same): `SIGTSTP`
    /// with its default action (stop) sent to the group, so that the other programs of a pipeline (`browse
    /// --print | jq`) stop too and the shell takes the terminal back; returns once a `SIGCONT` (the shell's `fg`
    /// or `bg`) continues it. The disposition `SIGTSTP` had (the handler that sent the request) is put back then.
    package static func stopProcessGroup() {
        let previous = unblockedWithDefaultAction(SIGTSTP)
        // A signal a process sends to itself, unblocked, is delivered before `kill` returns: the process is stopped
        // here, and goes on below once continued.
        kill(0, SIGTSTP)
        var restored = previous
        sigaction(SIGTSTP, &restored, nil)
    }

    /// Whether the process may stop for job control on the terminal `descriptor`: a shell with job control runs it
    /// and can bring it back (`fg`). Not when `SIGTSTP` is ignored (the parent said so), when the process group is
    /// its session's own (`setsid`, or a shell without job control such as `sh -c`: no shell of this session
    /// stands outside the group to continue it, and the kernel discards stops of such an orphaned group), when its
    /// parent left the session (the shell that started the job is gone), or when the terminal is not the
    /// controlling terminal of this process group's session, or this group is not in its foreground. Asked
    /// before a handler is put on `SIGTSTP`.
    package static func hasJobControl(terminal descriptor: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(SIGTSTP, nil, &current) == 0 else { return false }
        if let handler = current.handler, unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
            return false
        }
        let group = getpgrp(), session = getsid(0), parent = getppid()
        guard group != session, tcgetpgrp(descriptor) == group else { return false }
        return getpgid(parent) == group || getsid(parent) == session
    }

    /// Ends the process by `signal`, as its default action does (the shell sees the signal: status 128 + n, and a
    /// script that runs it stops too on SIGINT): the default disposition put back, the signal unblocked and
    /// raised. `_exit(128 + n)` should the signal not end it (a signal whose default is to go on).
    package static func endProcess(bySignal signal: Int32) -> Never {
        unblockedWithDefaultAction(signal)
        raise(signal)
        _exit(128 + signal)
    }

    /// Puts `signal`'s default action back and unblocks it in this thread, so that raising or sending it acts at
    /// once as it would on a program that never handled it; returns the disposition it had.
    @discardableResult
    private static func unblockedWithDefaultAction(_ signal: Int32) -> sigaction {
        var action = sigaction(), previous = sigaction()
        action.handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, &previous)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return previous
    }

    /// A terminal's line discipline settings (`struct termios`), as `tcgetattr` gives them, to be put back exactly.
    package struct TerminalSettings: Equatable, @unchecked Sendable {
        fileprivate var value: termios

        /// Whether typed characters are echoed (`ECHO`).
        package var echoes: Bool { value.c_lflag & tcflag_t(ECHO) != 0 }
        /// Whether input is given line by line, with editing (`ICANON`).
        package var isCanonical: Bool { value.c_lflag & tcflag_t(ICANON) != 0 }
        /// Whether Ctrl-C, Ctrl-\ and Ctrl-Z send signals (`ISIG`).
        package var sendsSignals: Bool { value.c_lflag & tcflag_t(ISIG) != 0 }
        /// Whether Ctrl-S and Ctrl-Q stop and start output (`IXON`).
        package var hasFlowControl: Bool { value.c_iflag & tcflag_t(IXON) != 0 }
        /// Whether CR is read as LF (`ICRNL`).
        package var mapsReturnToNewline: Bool { value.c_iflag & tcflag_t(ICRNL) != 0 }

        /// These settings in raw mode, as a full-screen program wants them: every byte as typed, at once, no echo,
        /// no signals from keys, no flow control, no CR to LF (`cfmakeraw`'s input and local flags; output
        /// processing is kept, which a program that places its cursor itself does not notice).
        package var raw: TerminalSettings {
            var copy = value
            copy.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
            copy.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
            copy.c_cflag &= ~tcflag_t(CSIZE | PARENB)
            copy.c_cflag |= tcflag_t(CS8)
            withUnsafeMutableBytes(of: &copy.c_cc) { characters in
                characters[Int(VMIN)] = 1
                characters[Int(VTIME)] = 0
            }
            return TerminalSettings(value: copy)
        }

        /// Byte for byte: `termios` has no `==`, and any field that differs matters when putting it back.
        package static func == (left: TerminalSettings, right: TerminalSettings) -> Bool {
            withUnsafeBytes(of: left.value) { a in withUnsafeBytes(of: right.value) { b in a.elementsEqual(b) } }
        }
    }

    /// Opens the terminal at `path` (`/dev/tty`: the controlling terminal of the process) for reading and writing,
    /// without making it the controlling terminal (`O_NOCTTY`) and close-on-exec.
    package static func openTerminal(_ path: FilePath) -> Result<Int32, SystemError> {
        retryingInterrupts("open") { path.withCString { open($0, O_RDWR | O_NOCTTY | O_CLOEXEC) } }
    }

    /// The settings of the terminal on `descriptor` (`tcgetattr`).
    package static func terminalSettings(_ descriptor: Int32) -> Result<TerminalSettings, SystemError> {
        var value = termios()
        guard tcgetattr(descriptor, &value) == 0 else { return .failure(.current("tcgetattr")) }
        return .success(TerminalSettings(value: value))
    }

    /// Sets the settings of the terminal on `descriptor` at once (`tcsetattr`, `TCSANOW`), retried on `EINTR`.
    package static func setTerminalSettings(_ descriptor: Int32, _ settings: TerminalSettings)
        -> Result<Void, SystemError>
    {
        var value = settings.value
        return retryingInterrupts("tcsetattr") { tcsetattr(descriptor, TCSANOW, &value) }.map { _ in () }
    }

    /// The size of the terminal on `descriptor` (`TIOCGWINSZ`), or `nil` when it is not a terminal or says 0.
    package static func terminalSize(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// A pipe whose two ends are close-on-exec and do not block: a read of an empty one fails with `EAGAIN`, a
    /// write to a full one too.
    package static func makeNonBlockingPipe() -> Result<(read: Int32, write: Int32), SystemError> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .failure(.current("pipe")) }
        for end in ends {
            let flags = fcntl(end, F_GETFL)
            guard flags != -1, fcntl(end, F_SETFL, flags | O_NONBLOCK) != -1, fcntl(end, F_SETFD, FD_CLOEXEC) != -1
            else {
                let error = SystemError.current("fcntl")
                close(ends[0])
                close(ends[1])
                return .failure(error)
            }
        }
        return .success((ends[0], ends[1]))
    }

    /// What a signal did before `installSignalPipe` changed it, to put back.
    package struct SavedSignalAction: @unchecked Sendable {
        package let signal: Int32
        fileprivate let action: sigaction
    }

    /// Catches each of `signals` with a handler that writes the signal's number as one byte to `writeDescriptor`
    /// (the non-blocking write end of a self-pipe, which a `poll` loop reads): the self-pipe trick, so that no
    /// code but one `write` runs in the handler. `SA_RESTART` is set, so other calls are not interrupted where it
    /// can be avoided. Returns what each signal did before, for `restoreSignalActions`; on failure, those already
    /// changed are put back.
    package static func installSignalPipe(_ signals: [Int32], writeDescriptor: Int32)
        -> Result<[SavedSignalAction], SystemError>
    {
        signalPipeWriteDescriptor = writeDescriptor
        var saved: [SavedSignalAction] = []
        for number in signals {
            var action = sigaction()
            action.handler = signalPipeHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var previous = sigaction()
            guard sigaction(number, &action, &previous) == 0 else {
                let error = SystemError.current("sigaction")
                restoreSignalActions(saved)
                return .failure(error)
            }
            saved.append(SavedSignalAction(signal: number, action: previous))
        }
        return .success(saved)
    }

    /// Puts back what `installSignalPipe` changed, and forgets its descriptor, so that a handler still running
    /// on another thread writes nowhere rather than into a file that reuses the number once the pipe is closed.
    package static func restoreSignalActions(_ saved: [SavedSignalAction]) {
        for entry in saved.reversed() {
            var action = entry.action
            sigaction(entry.signal, &action, nil)
        }
        signalPipeWriteDescriptor = -1
    }

    /// Waits until one of `descriptors` can be read without blocking (or has hung up or failed: a read then says
    /// why), for at most `timeoutMilliseconds` (-1: for ever): which ones can, all false when the time ran out.
    /// `nil` when a caught signal ended the wait early (`EINTR`, which neither `poll` nor `select` restarts), so
    /// that the caller looks at its self-pipe at once and does not take the interruption for the end of its
    /// timeout.
    ///
    /// `poll` on Linux; `select` on Apple systems, whose `poll` does not support devices (a terminal comes back
    /// `POLLNVAL` at once, as fzf and termbox2 found), so that the timeout and the self-pipe would never be seen.
    package static func waitUntilReadable(_ descriptors: [Int32], timeoutMilliseconds: Int32)
        -> Result<[Bool]?, SystemError>
    {
        #if canImport(Darwin)
        return waitUntilReadableWithSelect(descriptors, timeoutMilliseconds: timeoutMilliseconds)
        #else
        return waitUntilReadableWithPoll(descriptors, timeoutMilliseconds: timeoutMilliseconds)
        #endif
    }

    /// `waitUntilReadable` with `poll`.
    package static func waitUntilReadableWithPoll(_ descriptors: [Int32], timeoutMilliseconds: Int32)
        -> Result<[Bool]?, SystemError>
    {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        return poll(&entries, timeoutMilliseconds: timeoutMilliseconds).map { count in
            count.map { _ in entries.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 } }
        }
    }

    /// The package's one `poll`: waits until one of `entries` is ready as its `events` ask, for at most
    /// `timeoutMilliseconds` (-1: for ever), and sets each entry's `revents`. The count of entries ready (0 when
    /// the time ran out); `nil` when a caught signal ended the wait early (`EINTR`, which `poll` never restarts).
    /// `waitUntilReadableWithPoll` and `EventPoller` (the server's loops where `epoll` is not used) wait in it.
    static func poll(_ entries: inout [pollfd], timeoutMilliseconds: Int32) -> Result<Int?, SystemError> {
        let result = entries.withUnsafeMutableBufferPointer { buffer in
            systemPoll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
        }
        if result == -1 {
            let code = errno
            return code == EINTR ? .success(nil) : .failure(SystemError(code: code, call: "poll"))
        }
        return .success(Int(result))
    }

    /// `waitUntilReadable` with `select`: for Apple systems, compiled everywhere so that Linux tests run it. A
    /// descriptor at or past `FD_SETSIZE` (1024), which an `fd_set` cannot hold, fails with `EINVAL`.
    ///
    /// Swift has no `FD_SET`/`FD_ISSET` (C macros), so the bits are set by hand, as Darwin's macros do:
    /// descriptor `d` is bit `d % 32` of the 32-bit word `d / 32`. Glibc uses 64-bit words instead, which on a
    /// little-endian machine (every one Linux tests run on) puts each bit at the same place in memory.
    package static func waitUntilReadableWithSelect(_ descriptors: [Int32], timeoutMilliseconds: Int32)
        -> Result<[Bool]?, SystemError>
    {
        let capacity = MemoryLayout<fd_set>.size * 8
        guard descriptors.allSatisfy({ $0 >= 0 && Int($0) < capacity }) else {
            return .failure(SystemError(code: EINVAL, call: "select"))
        }
        var readable = fd_set()
        withUnsafeMutableBytes(of: &readable) { bits in
            for descriptor in descriptors {
                let offset = Int(descriptor) / 32 * 4
                let word = bits.load(fromByteOffset: offset, as: UInt32.self)
                bits.storeBytes(of: word | 1 << UInt32(descriptor % 32), toByteOffset: offset, as: UInt32.self)
            }
        }
        var timeout = timeval()
        timeout.tv_sec = .init(timeoutMilliseconds / 1000)
        timeout.tv_usec = .init(timeoutMilliseconds % 1000 * 1000)
        let highest = descriptors.max() ?? -1
        let result = timeoutMilliseconds < 0
            ? select(highest + 1, &readable, nil, nil, nil)
            : select(highest + 1, &readable, nil, nil, &timeout)
        if result == -1 {
            let code = errno
            return code == EINTR ? .success(nil) : .failure(SystemError(code: code, call: "select"))
        }
        return .success(withUnsafeBytes(of: &readable) { bits in
            descriptors.map { descriptor in
                bits.load(fromByteOffset: Int(descriptor) / 32 * 4, as: UInt32.self) & 1 << UInt32(descriptor % 32) != 0
            }
        })
    }

    /// Whether `error` says that nothing can be read now from a descriptor that does not block (`EAGAIN`,
    /// `EWOULDBLOCK`).
    package static func isWouldBlock(_ error: SystemError) -> Bool {
        error.code == EAGAIN || error.code == EWOULDBLOCK
    }

    /// Whether `error` is what a read of a terminal gives once it hung up (`EIO`).
    package static func isTerminalGone(_ error: SystemError) -> Bool {
        error.code == EIO
    }
}

/// The C library's `poll`, whose name `Syscalls.poll` hides inside the enum.
private func systemPoll(_ entries: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32 {
    poll(entries, count, timeout)
}
