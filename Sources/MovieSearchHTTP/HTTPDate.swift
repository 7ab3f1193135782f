import MovieSearchPlatform

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
        let now = Syscalls.wallClockSeconds()
        guard now != second else { return }
        second = now
        let parts = Syscalls.universalTime(now)
        let day = Self.twoDigits(parts.day), month = Self.months[parts.month - 1]
        let year = String(parts.year)
        let clock = "\(Self.twoDigits(parts.hour)):\(Self.twoDigits(parts.minute)):" + Self.twoDigits(parts.second)
        header = "\(Self.days[parts.weekday]), \(day) \(month) \(year) \(clock) GMT"
        logTime = "\(day)/\(month)/\(year):\(clock) +0000"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
