#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a file that must be a regular file (a cache), read-only, without ever blocking on what the path names.
///
/// `open(2)` of a FIFO for reading blocks until a writer opens it, for ever if none comes; a serial line may
/// wait for its carrier. Opening with `O_NONBLOCK` returns at once whatever the path is, and `fstat` on the
/// opened descriptor (not on the path, which could be swapped in between) tells what it is before anything is
/// read or mapped. On a regular file `O_NONBLOCK` has no effect, so the descriptor is used as it is.
enum RegularFile {
    /// Why the file could not be opened as a regular file.
    enum Failure: Error, Equatable, Sendable {
        /// `open` or `fstat` failed.
        case system(SystemError)
        /// The path names something else: a FIFO, a device, a directory, a socket.
        case notARegularFile(FileKind)
    }

    /// An open descriptor for the regular file at `path` and its size in bytes. The caller closes the descriptor.
    static func openForReading(_ path: FilePath) -> Result<(descriptor: Int32, size: Int), Failure> {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        if descriptor < 0 {
            // Some kinds cannot be opened at all (a socket: ENXIO); name the kind rather than the errno.
            let error = SystemError.current()
            var status = stat()
            if path.withCString({ stat($0, &status) }) == 0, status.st_mode & S_IFMT != S_IFREG {
                return .failure(.notARegularFile(kind(of: status.st_mode & S_IFMT)))
            }
            return .failure(.system(error))
        }
        var status = stat()
        if fstat(descriptor, &status) != 0 {
            let error = SystemError.current()
            close(descriptor)
            return .failure(.system(error))
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            return .failure(.notARegularFile(kind(of: type)))
        }
        return .success((descriptor, Int(status.st_size)))
    }

    /// The kind of a non-regular file from the `S_IFMT` bits of its mode.
    static func kind(of type: mode_t) -> FileKind {
        switch type {
        case S_IFDIR: .directory
        case S_IFIFO: .fifo
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFSOCK: .socket
        default: .other
        }
    }
}
