#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread running one closure: the HTTP server's loops block in `epoll_wait`/`poll`, and its workers in the
/// responder's file and lock calls, which a Swift concurrency task or a Dispatch worker must never do (they would
/// starve the shared pool).
package struct SystemThread: @unchecked Sendable {
    /// The closure, boxed so that it can cross into C as one pointer.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private let thread: pthread_t

    /// Starts a thread running `body`.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) -> SystemThread {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { context in
            #if canImport(Darwin)
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            #else
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            #endif
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError(code: result, call: "pthread_create")
        }
        #if canImport(Darwin)
        return SystemThread(thread: thread!)
        #else
        return SystemThread(thread: thread)
        #endif
    }

    /// Waits for the thread to end.
    package func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own, never joined (its resources freed when it ends).
    package func detach() {
        pthread_detach(thread)
    }
}
