// The only platform import of the cache: the default clock of `LRUCache`.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Seconds from an arbitrary origin, never going backwards: wall-clock time can jump (NTP, the user), which
/// would expire cache entries early or keep them forever.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}
