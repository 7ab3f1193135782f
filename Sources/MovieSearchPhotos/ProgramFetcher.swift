import MovieSearchPlatform

/// Fetches by running `moviesearch-fetch` (libcurl, in a process of its own): the static `moviesearch` never links
/// libcurl, so that a `query` does not pay for it, and the program is killed at the deadline, so that no fetch can
/// hang its caller whatever libcurl or the network do.
///
///     let fetcher = ProgramFetcher(program: FilePath("/usr/local/bin/moviesearch-fetch"))
///     let body = try fetcher.fetch(url, limits: .flickr)
///
/// Cost: a `posix_spawn` (about a millisecond) plus the request.
package struct ProgramFetcher: HTTPFetching {
    /// The name of the program, installed beside `moviesearch`.
    package static let programName = "moviesearch-fetch"
    /// The environment variable that names the program elsewhere (tests, packagers).
    package static let environmentVariable = "MOVIESEARCH_FETCH"

    /// The program run.
    package let program: FilePath

    /// A fetcher that runs `program`.
    package init(program: FilePath) {
        self.program = program
    }

    /// The program to run: `MOVIESEARCH_FETCH` when set and not empty, else `moviesearch-fetch` in the folder of
    /// this process's executable (`/proc/self/exe`, so a link to the binary elsewhere still finds it); `nil`
    /// when neither can be known.
    package static func located(environmentValue: String?) -> FilePath? {
        if let environmentValue, !environmentValue.isEmpty { return FilePath(environmentValue) }
        guard let executable = Syscalls.executablePath() else { return nil }
        return executable.split.folder + "/\(programName)"
    }

    package func fetch(_ url: String, limits: FetchLimits) throws(FetchFailure) -> [UInt8] {
        try run(url, headers: [], extra: [], limits: limits)
    }

    package func fetchAnyStatus(_ url: String, headers: [String], limits: FetchLimits) throws(FetchFailure)
        -> (status: Int, body: [UInt8])
    {
        let output = try run(url, headers: headers, extra: ["--any-status"], limits: limits)
        // The first line is the status (`moviesearch-fetch --any-status`), the rest the body.
        guard let newline = output.firstIndex(of: 0x0A),
              let status = Int(String(decoding: output[..<newline], as: UTF8.self)) else {
            throw .failed("\(Self.programName) gave no status line")
        }
        return (status, Array(output[(newline + 1)...]))
    }

    /// Runs the program for `url` with `headers` and `extra` arguments; its standard output.
    ///
    /// The URL (which holds an API key) and the headers (a Bearer token) go to the program's standard input, never
    /// its command line, which `ps` shows to every user of the machine.
    private func run(_ url: String, headers: [String], extra: [String], limits: FetchLimits) throws(FetchFailure)
        -> [UInt8]
    {
        let arguments = [Self.programName, "--connect-timeout-ms", String(limits.connectMilliseconds),
                         "--timeout-ms", String(limits.totalMilliseconds), "--max-bytes", String(limits.maximumBytes)]
            + extra + ["--request-from-stdin"]
        let input = Array(([url] + headers).map { $0 + "\n" }.joined().utf8)
        // libcurl stops itself at the total limit; the kill a second later is for a program that does not.
        let run: ProgramRun
        switch ProgramRun.run(program, arguments: arguments, input: input, deadlineMilliseconds: limits.totalMilliseconds + 1000,
                              maximumOutputBytes: limits.maximumBytes + 16) {
        case let .success(finished): run = finished
        case let .failure(error):
            throw .failed("cannot run \(program) (\(error); it is installed beside moviesearch, or named by "
                + "\(Self.environmentVariable))")
        }
        if run.timedOut { throw .timedOut("no answer within \(limits.totalDescription)") }
        if run.outputTooLarge { throw .tooLarge(limits.maximumBytes) }
        switch run.end {
        case .exited(0):
            return run.output
        case let .exited(status):
            var detail = String(decoding: run.errorOutput, as: UTF8.self)
            if let end = detail.firstIndex(where: { $0 == "\n" || $0 == "\r" }) { detail = String(detail[..<end]) }
            let prefix = "\(Self.programName): "
            if detail.hasPrefix(prefix) { detail.removeFirst(prefix.count) }
            // Printed on a terminal and in JSON: no control characters, and a bounded length.
            detail = String(String.UnicodeScalarView(detail.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
                .prefix(300)))
            throw FetchFailure(exitStatus: status, detail: detail)
        case let .signaled(signal):
            throw .failed("\(Self.programName) was ended by signal \(signal)")
        }
    }
}
