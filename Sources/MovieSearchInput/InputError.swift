import MovieSearchPlatform

/// Why the bytes of an input could not be read: a failed call, a limit, or gzip data that does not decode.
package enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A call failed: "No such file or directory", "Is a directory".
    case system(SystemError)
    /// The input holds (or decodes to) more than this many bytes.
    case tooLarge(Int)
    /// The input starts as gzip but is not valid gzip: `reason` says how ("it ends before its last block",
    /// "a checksum does not match").
    case corruptGzip(reason: String)

    /// A short message a user can act on.
    package var reason: String {
        switch self {
        case let .system(error): error.reason
        case let .tooLarge(limit): "larger than \(FileReader.byteLimitDescription(limit))"
        case let .corruptGzip(reason): "not valid gzip data: \(reason)"
        }
    }

    /// The reason.
    package var description: String { reason }
}
