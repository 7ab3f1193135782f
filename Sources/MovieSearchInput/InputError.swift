import MovieSearchPlatform

/// Why the bytes of an input could not be read: what reading a file can fail with (`FileFailure`: a failed call,
/// a limit), or gzip data that does not decode.
package enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or stream could not be read: a failed call ("No such file or directory", "Is a directory"), or more
    /// bytes than a limit.
    case file(FileFailure)
    /// The input starts as gzip but is not valid gzip: `reason` says how ("it ends before its last block",
    /// "a checksum does not match").
    case corruptGzip(reason: String)

    /// A call failed.
    package static func system(_ error: SystemError) -> InputError { .file(.system(error)) }

    /// The input holds (or decodes to) more than `limit` bytes.
    package static func tooLarge(_ limit: Int) -> InputError { .file(.tooLarge(limit)) }

    /// A short message a user can act on: the file failure's, or "not valid gzip data: …".
    package var reason: String {
        switch self {
        case let .file(failure): failure.reason
        case let .corruptGzip(reason): "not valid gzip data: \(reason)"
        }
    }

    /// The reason.
    package var description: String { reason }
}
