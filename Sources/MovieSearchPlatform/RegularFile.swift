/// Opens a file that must be a regular file (a cache), read-only, without ever blocking on what the path names.
///
/// `open(2)` of a FIFO for reading blocks until a writer opens it, for ever if none comes; a serial line may
/// wait for its carrier. Opening with `O_NONBLOCK` returns at once whatever the path is, and `fstat` on the
/// opened descriptor (not on the path, which could be swapped in between) tells what it is before anything is
/// read or mapped. On a regular file `O_NONBLOCK` has no effect, so the descriptor is used as it is.
enum RegularFile {
    /// An open descriptor for the regular file at `path` and its size in bytes. The caller closes the descriptor.
    /// Fails with `FileFailure.system` when `open` or `fstat` fails, `.notARegularFile` when the path names a FIFO,
    /// a device, a directory or a socket.
    static func openForReading(_ path: FilePath) -> Result<(descriptor: Int32, size: Int), FileFailure> {
        let descriptor: Int32
        switch Syscalls.openFile(path, for: .readingWithoutBlocking) {
        case let .success(opened):
            descriptor = opened
        case let .failure(error):
            // Some kinds cannot be opened at all (a socket: ENXIO); name the kind rather than the errno.
            if case let .success(status) = Syscalls.status(ofPath: path, followingLinks: true),
               case let .notRegular(kind) = status.kind {
                return .failure(.notARegularFile(kind))
            }
            return .failure(.system(error))
        }
        switch Syscalls.status(ofDescriptor: descriptor) {
        case let .success(status) where status.kind == .regular:
            return .success((descriptor, status.size))
        case let .success(status):
            Syscalls.closeDescriptor(descriptor)
            return .failure(.notARegularFile(Self.kind(status.kind)))
        case let .failure(error):
            Syscalls.closeDescriptor(descriptor)
            return .failure(.system(error))
        }
    }

    /// The kind of a file that is not a regular one, as `FileKind` names it (a descriptor's status never says
    /// "symbolic link": `open` follows links).
    private static func kind(_ kind: FileStatus.Kind) -> FileKind {
        if case let .notRegular(named) = kind { return named }
        return .other
    }
}
