#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread running one closure: the server's loops block in `epoll_wait`/`poll`, and its workers in the
/// responder's file and lock calls, which a Swift concurrency task or a Dispatch worker must never do (they would
/// starve the shared pool).
struct LoopThread: @unchecked Sendable {
    /// The closure, boxed so that it can cross into C as one pointer.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private let thread: pthread_t

    /// Starts a thread running `body`.
    static func start(_ body: @escaping @Sendable () -> Void) throws(HTTPServerError) -> LoopThread {
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
            throw .thread(reason: String(cString: strerror(result)))
        }
        #if canImport(Darwin)
        return LoopThread(thread: thread!)
        #else
        return LoopThread(thread: thread)
        #endif
    }

    /// Waits for the thread to end.
    func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own, never joined (its resources freed when it ends).
    func detach() {
        pthread_detach(thread)
    }
}
