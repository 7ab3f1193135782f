/// Why the server could not start: one line a user can act on.
package enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Binding or listening failed: the address as given and the system's reason.
    case cannotListen(String, reason: String)
    /// An event loop could not be made (out of descriptors, …).
    case eventLoop(reason: String)
    /// A thread could not be started.
    case thread(reason: String)

    /// One line for a person.
    package var description: String {
        switch self {
        case let .cannotListen(address, reason): "cannot listen on \(address): \(reason)"
        case let .eventLoop(reason): "cannot start the event loop: \(reason)"
        case let .thread(reason): "cannot start a server thread: \(reason)"
        }
    }
}
