import Synchronization

extension Mutex where Value: ~Copyable {
    /// `withLock`, with Thread Sanitizer told about the lock (`ThreadSanitizer`: on Linux it cannot see `Mutex` by
    /// itself), the lock named by the address of `owner`, the object that holds it.
    @inlinable @inline(__always)
    public borrowing func withAnnotatedLock<Result>(owner: AnyObject, _ body: (inout sending Value) -> sending Result)
        -> sending Result
    {
        withLock { value in
            let address = UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque())
            ThreadSanitizer.acquire(address)
            defer { ThreadSanitizer.release(address) }
            return body(&value)
        }
    }
}
