#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The current second as HTTP's `Date` (`Fri, 27 Nov 2026 06:00:00 GMT`, RFC 9110 §5.6.7) and as the common log
/// format's (`27/Nov/2026:06:00:00 +0000`), remade once a second: one per event loop, as it is not shared.
struct HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private var second = -1
    /// The `Date` header's value for the current second.
    private(set) var header = ""
    /// The access log's time for the current second.
    private(set) var logTime = ""

    /// Brings both texts to the current second.
    mutating func update() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        var parts = tm()
        var value = now
        gmtime_r(&value, &parts)
        let day = Self.twoDigits(Int(parts.tm_mday)), month = Self.months[Int(parts.tm_mon)]
        let year = String(Int(parts.tm_year) + 1900)
        let clock = "\(Self.twoDigits(Int(parts.tm_hour))):\(Self.twoDigits(Int(parts.tm_min))):"
            + Self.twoDigits(Int(parts.tm_sec))
        header = "\(Self.days[Int(parts.tm_wday)]), \(day) \(month) \(year) \(clock) GMT"
        logTime = "\(day)/\(month)/\(year):\(clock) +0000"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
