/// Why a file could not be opened, mapped or read: the one failure type of `FileReader`, `RegularFile` and
/// `MappedFile`, each case with one wording.
///
///     do { let bytes = try FileReader.readRegularFile(path: path, maximumBytes: 16 << 20) }
///     catch { print("cannot read \(path): \(error)") }   // "it is a FIFO (named pipe), not a regular file"
///
/// The layers above map it into their own errors (`InputError.file`, `CacheError`, `FavoritesError`, the command
/// line's `FileReadError`) and print its `reason` after their own words, or say the same thing their own way
/// where a file has a role ("… not a cache file").
package enum FileFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// A call failed (`open`, `fstat`, `read`, `mmap`: the error's `call` says which): "No such file or directory",
    /// "Permission denied", "Is a directory".
    case system(SystemError)
    /// The path names a FIFO, a device, a socket or a folder where a regular file was expected: refused without
    /// waiting, as opening a FIFO for reading blocks until a writer comes.
    case notARegularFile(FileKind)
    /// The file holds more than this many bytes.
    case tooLarge(Int)

    /// A short message a user can act on: the system's words, "it is a FIFO (named pipe), not a regular file", or
    /// "larger than 16 MiB".
    package var reason: String {
        switch self {
        case let .system(error): error.reason
        case let .notARegularFile(kind): "it is \(kind.notARegularFile)"
        case let .tooLarge(limit): "larger than \(FileReader.byteLimitDescription(limit))"
        }
    }

    /// The reason.
    package var description: String { reason }

    /// Whether nothing is at the path (`ENOENT`): for a file that may be missing (favorites not saved yet).
    package var isNoSuchFile: Bool {
        if case let .system(error) = self { return error.isNoSuchFile }
        return false
    }
}
