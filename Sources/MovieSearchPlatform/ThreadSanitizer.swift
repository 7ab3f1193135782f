/// Tells Thread Sanitizer about an ordering it cannot see, when the process runs under it; does nothing otherwise.
///
/// On Linux, `Synchronization.Mutex` locks with a futex inside the uninstrumented Swift runtime, so Thread
/// Sanitizer sees no ordering between two holders of one lock and reports every access they make under it as a
/// race (a `Mutex<Int>` incremented from two threads is enough). A lock that calls `release` before it unlocks and
/// `acquire` after it locks, both with the same address, makes the ordering visible again, so that real races
/// (an access outside the lock) are still reported. On Apple platforms `Mutex` is an `os_unfair_lock`, which Thread
/// Sanitizer understands: the functions are never looked up there.
///
/// The annotation functions are looked up once with `dlsym`, as the Swift runtime does for its own locks: they
/// exist only in a process linked with the sanitizer. Cost when absent: the check that the lookup was done, a
/// load and a test per call.
@usableFromInline enum ThreadSanitizer {
    @usableFromInline typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

    @usableFromInline static let acquireFunction = lookUp("__tsan_acquire")
    @usableFromInline static let releaseFunction = lookUp("__tsan_release")

    /// Call after taking a lock: what other threads did before `release(address)` happened before what follows.
    @inlinable @inline(__always)
    static func acquire(_ address: UnsafeRawPointer) {
        acquireFunction?(address)
    }

    /// Call before giving a lock up.
    @inlinable @inline(__always)
    static func release(_ address: UnsafeRawPointer) {
        releaseFunction?(address)
    }

    private static func lookUp(_ name: String) -> Annotation? {
        #if os(Linux)
        guard let symbol = Syscalls.symbol(named: name) else { return nil }
        return unsafeBitCast(symbol, to: Annotation.self)
        #else
        return nil
        #endif
    }
}
