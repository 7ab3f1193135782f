/// What a path names when it is not a regular file: the kinds `stat` tells apart, in the words a message uses.
///
/// A cache must be a regular file: a FIFO would block the reader until a writer comes, a device such as
/// `/dev/zero` has no size to map, a directory no bytes at all. `CacheError.notARegularFile` carries the kind.
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case directory
    /// A named pipe (`mkfifo`).
    case fifo
    /// A character device such as `/dev/zero` or a terminal.
    case characterDevice
    case blockDevice
    /// A Unix domain socket.
    case socket
    /// A kind this build does not name (a file type bit pattern `stat` may report on other systems).
    case other

    /// `a FIFO (named pipe)`, `a character device`…: the kind as a sentence says it after "is".
    public var description: String {
        switch self {
        case .directory: "a directory"
        case .fifo: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "not a regular file"
        }
    }

    /// The package's one wording of a path that is not a regular file, after "is": "a FIFO (named pipe), not a
    /// regular file", or "not a regular file" for a kind this build does not name.
    package var notARegularFile: String {
        self == .other ? "not a regular file" : "\(self), not a regular file"
    }
}
