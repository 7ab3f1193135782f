import MovieSearchPlatform

/// What the command line asks of the system beyond single calls, composed from the library's `Syscalls` and
/// `FileReader` (shared through `package` access): the CLI imports neither Glibc nor Darwin (and never Foundation,
/// which would triple the start-up time of a query).
enum System {
    /// Why `path` is no regular file beside which a file could be written ("a FIFO (named pipe), not a regular
    /// file", in `FileKind`'s words),
    /// following symbolic links; `nil` for a regular file, a directory, or nothing at all. For messages.
    /// A path under `/dev/` or `/proc/` (`/dev/stdin`, `/dev/fd/0`) is "under /dev or /proc" even when it leads to
    /// a regular file (standard input redirected from one).
    static func specialFileKind(_ path: FilePath) -> String? {
        if path.bytes.starts(with: "/dev/".utf8) || path.bytes.starts(with: "/proc/".utf8) { return "under /dev or /proc" }
        guard case let .success(status) = Syscalls.status(ofPath: path, followingLinks: true) else { return nil }
        switch status.kind {
        case .regular, .notRegular(.directory): return nil
        case .symbolicLink: return FileKind.other.notARegularFile
        case let .notRegular(kind): return kind.notARegularFile
        }
    }

    /// The most memory this process has had resident so far, in bytes.
    ///
    /// On Linux, the `VmHWM` line of /proc/self/status: `ru_maxrss` there carries over from the parent across
    /// `exec`, so a `bench` started by a large process (a Python harness that loaded a catalog) reported the
    /// parent's peak. Elsewhere, and if /proc is not there, `ru_maxrss` (0 if even that fails).
    static func peakResidentBytes() -> Int {
        #if os(Linux)
        if let status = try? FileReader.readAll(path: FilePath("/proc/self/status")), let peak = highWaterMark(status) {
            return peak
        }
        #endif
        return Syscalls.peakResidentBytes() ?? 0
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
}
