import MovieSearchPlatform

/// Why the server could not start: one line a user can act on, around the `SystemError` of the call that failed.
package enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Binding or listening failed: the address as given and the system's error.
    case cannotListen(String, SystemError)
    /// An event loop could not be made (out of descriptors, …).
    case eventLoop(SystemError)
    /// A thread could not be started.
    case thread(SystemError)

    /// One line for a person.
    package var description: String {
        switch self {
        case let .cannotListen(address, error): "cannot listen on \(address): \(error)"
        case let .eventLoop(error): "cannot start the event loop: \(error)"
        case let .thread(error): "cannot start a server thread: \(error)"
        }
    }
}
