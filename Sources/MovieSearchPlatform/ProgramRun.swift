/// One run of another program, its output collected, killed at a deadline: so that a program that hangs can never
/// hang its caller.
///
///     let run = try ProgramRun.run(FilePath("/usr/bin/moviesearch-fetch"), arguments: ["moviesearch-fetch", url],
///                                  deadlineMilliseconds: 11_000, maximumOutputBytes: 1 << 20).get()
///     if case .exited(0) = run.end { use(run.output) }
///
/// The output and the error output are read as they come (a program that fills a pipe is never stuck on it), at
/// most `maximumOutputBytes` of the first and 4 KiB of the second; a program that writes more, or is still running
/// at the deadline, is killed (`SIGKILL`) and waited for.
///
/// Cost: the program's run, at most the deadline, plus O(n) in its output.
package struct ProgramRun: Sendable {
    /// How the program ended.
    package var end: Syscalls.ProgramEnd
    /// Its standard output (at most the limit).
    package var output: [UInt8]
    /// Its standard error (at most 4 KiB).
    package var errorOutput: [UInt8]
    /// Whether it was killed because the deadline passed.
    package var timedOut: Bool
    /// Whether it was killed because its output passed the limit.
    package var outputTooLarge: Bool

    /// The most standard error kept: a line or two of a message.
    static let maximumErrorBytes = 4096

    /// Runs the program at `path` (see `Syscalls.spawn`) and collects what it writes until it ends, the deadline
    /// passes, or its output passes `maximumOutputBytes`. Fails only when the program cannot be started (no such
    /// file, not executable) or a pipe cannot be made. `input`, when not empty, is the program's standard input
    /// (a few bytes: secrets kept off its command line, which every user of the machine can read); it must fit
    /// in a pipe's buffer (64 KiB on Linux), as it is written before the output is read.
    package static func run(_ path: FilePath, arguments: [String], input: [UInt8] = [], deadlineMilliseconds: Int,
                            maximumOutputBytes: Int) -> Result<ProgramRun, SystemError>
    {
        var inputPipe: (read: Int32, write: Int32)?
        if !input.isEmpty {
            switch Syscalls.makeCloseOnExecPipe() {
            case let .success(ends): inputPipe = ends
            case let .failure(error): return .failure(error)
            }
        }
        // Both ends closed on every way out; the write end right after the input is written (below), so that the
        // program reads its end.
        var inputOpen = inputPipe != nil
        defer {
            if inputOpen, let inputPipe {
                _ = Syscalls.closeDescriptor(inputPipe.read)
                _ = Syscalls.closeDescriptor(inputPipe.write)
            }
        }
        let output: (read: Int32, write: Int32)
        let errors: (read: Int32, write: Int32)
        switch Syscalls.makeCloseOnExecPipe() {
        case let .success(ends): output = ends
        case let .failure(error): return .failure(error)
        }
        switch Syscalls.makeCloseOnExecPipe() {
        case let .success(ends): errors = ends
        case let .failure(error):
            _ = Syscalls.closeDescriptor(output.read)
            _ = Syscalls.closeDescriptor(output.write)
            return .failure(error)
        }
        let spawned = Syscalls.spawn(path, arguments: arguments, standardInput: inputPipe?.read,
                                     standardOutput: output.write, standardError: errors.write)
        if let inputPipe {
            _ = Syscalls.closeDescriptor(inputPipe.read)
            // Into the pipe's buffer at once (SIGPIPE is ignored: a program that ended early is an EPIPE here, and
            // its own failure below), then the end of the input.
            if case .success = spawned { _ = input.withUnsafeBytes { Syscalls.writeAll(inputPipe.write, $0) } }
            _ = Syscalls.closeDescriptor(inputPipe.write)
            inputOpen = false
        }
        // The parent's write ends closed, so that a read sees the end once the program's are.
        _ = Syscalls.closeDescriptor(output.write)
        _ = Syscalls.closeDescriptor(errors.write)
        defer {
            _ = Syscalls.closeDescriptor(output.read)
            _ = Syscalls.closeDescriptor(errors.read)
        }
        let pid: Int32
        switch spawned {
        case let .success(started): pid = started
        case let .failure(error): return .failure(error)
        }

        var run = ProgramRun(end: .exited(0), output: [], errorOutput: [], timedOut: false, outputTooLarge: false)
        let deadline = Syscalls.monotonicMilliseconds() + Int64(deadlineMilliseconds)
        var open = [output.read, errors.read]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        reading: while !open.isEmpty {
            let left = deadline - Syscalls.monotonicMilliseconds()
            guard left > 0 else {
                run.timedOut = true
                break
            }
            let ready: [Bool]
            switch Syscalls.waitUntilReadableWithPoll(open, timeoutMilliseconds: Int32(min(left, 60_000))) {
            case let .success(answer?): ready = answer
            case .success(nil): continue  // a signal: wait again, until the deadline
            case .failure: run.timedOut = true; break reading
            }
            for (descriptor, isReady) in zip(open, ready) where isReady {
                let count: Int
                switch buffer.withUnsafeMutableBytes({ Syscalls.readSome(descriptor, into: $0) }) {
                case let .success(read): count = read
                case .failure: count = 0
                }
                if count == 0 {
                    open.removeAll { $0 == descriptor }
                } else if descriptor == output.read {
                    guard run.output.count + count <= maximumOutputBytes else {
                        run.outputTooLarge = true
                        break reading
                    }
                    run.output += buffer[0..<count]
                } else if run.errorOutput.count < maximumErrorBytes {
                    run.errorOutput += buffer[0..<min(count, maximumErrorBytes - run.errorOutput.count)]
                }
            }
        }
        if run.timedOut || run.outputTooLarge { Syscalls.killProgram(pid) }
        switch Syscalls.waitForProgram(pid) {
        case let .success(end): run.end = end
        case let .failure(error): return .failure(error)
        }
        return .success(run)
    }
}
