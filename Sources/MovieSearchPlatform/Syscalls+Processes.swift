#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's environment, `environ`, which a spawned program inherits.
#if canImport(Darwin)
@_silgen_name("_NSGetEnviron") private func environmentPointer() -> UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
private var inheritedEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { environmentPointer().pointee }
#else
private var inheritedEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { environ }
#endif

/// Starting other programs, and the clock that times them: the calls `ProgramRun` makes.
extension Syscalls {
    /// How a spawned program ended, as `waitpid` says.
    package enum ProgramEnd: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (`SIGKILL` when it was killed at its deadline).
        case signaled(Int32)
    }

    /// The path of this process's executable: `/proc/self/exe` on Linux, `_NSGetExecutablePath` on Apple
    /// systems; `nil` when it cannot be known.
    package static func executablePath() -> FilePath? {
        #if canImport(Darwin)
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return FilePath(bytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        #else
        return linkTarget(FilePath("/proc/self/exe"))
        #endif
    }

    /// A pipe whose two ends are close-on-exec (atomically where `pipe2` exists, so that a program another thread
    /// spawns at that moment never inherits an end, which would keep the pipe from ever reaching its end).
    package static func makeCloseOnExecPipe() -> Result<(read: Int32, write: Int32), SystemError> {
        var ends: [Int32] = [-1, -1]
        #if canImport(Darwin)
        guard pipe(&ends) == 0 else { return .failure(.current("pipe")) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        #else
        guard linuxPipe2(&ends, O_CLOEXEC) == 0 else { return .failure(.current("pipe2")) }
        #endif
        return .success((ends[0], ends[1]))
    }

    /// Starts the program at `path` with `arguments` (the first is its name, `argv[0]`) and this process's
    /// environment; its standard input is `standardInput` (a pipe's read end) or else `/dev/null`, its standard
    /// output and error the write ends given. The
    /// signals a server or a terminal program changes (`SIGPIPE`, `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`,
    /// `SIGXFSZ`, `SIGCHLD`) start with their default actions and none is blocked. `posix_spawn`: no `fork` of
    /// a large, threaded process.
    package static func spawn(_ path: FilePath, arguments: [String], standardInput: Int32? = nil,
                              standardOutput: Int32, standardError: Int32) -> Result<Int32, SystemError>
    {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let words = arguments.map { strdup($0) }
        defer { words.forEach { free($0) } }
        var argv = words + [nil]
        var pid: pid_t = 0
        let result = path.withCString { cPath in
            posix_spawn(&pid, cPath, &actions, &attributes, &argv, inheritedEnvironment)
        }
        return result == 0 ? .success(pid) : .failure(SystemError(code: result, call: "posix_spawn"))
    }

    /// Sends `SIGKILL` to the process `pid` (a program this process spawned and has not waited for).
    package static func killProgram(_ pid: Int32) {
        _ = kill(pid, SIGKILL)
    }

    /// Waits for the spawned program `pid` to end, and says how it did.
    package static func waitForProgram(_ pid: Int32) -> Result<ProgramEnd, SystemError> {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return .failure(.current("waitpid")) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (C macros).
        if status & 0x7F == 0 { return .success(.exited((status >> 8) & 0xFF)) }
        return .success(.signaled(status & 0x7F))
    }

    /// A clock that never goes backwards (`CLOCK_MONOTONIC`), in milliseconds from an arbitrary start: for
    /// deadlines.
    package static func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1000 &+ Int64(time.tv_nsec) / 1_000_000
    }
}

#if !canImport(Darwin)
/// `pipe2(2)`, which Glibc's Swift module leaves out (it is declared under `_GNU_SOURCE` only).
@_silgen_name("pipe2") private func linuxPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
#endif
