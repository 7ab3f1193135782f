import MovieSearchCatalog
import MovieSearchJSON

/// Small text-formatting helpers for the human-readable output. Widths count `Character`s, which is right for
/// the ASCII columns they align (numbers, labels, URLs); a title is always the last thing on its line, never
/// measured, padded or cut, so the escape codes of its bold spans (`Highlight`) never reach a width computation.
package enum TextLayout {
    /// What follows the title of a favorite in text output (`query`, `top`, `show`): a space and a heart, after
    /// the title, which is last on its line, so that no column moves.
    package static let favoriteMark = " ♥"

    /// `text` padded with spaces on the left to `width`.
    package static func padLeft(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }

    /// `text` padded with spaces on the right to `width`.
    package static func padRight(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    /// `1234567` → `1,234,567`.
    package static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    /// `1 match`, `2 matches`.
    package static func count(_ number: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(number)) \(number == 1 ? singular : plural)"
    }

    /// A size for people: `812 bytes`, `14.2 KB`, `3.1 MB` (powers of 1000, one decimal).
    package static func byteSize(_ bytes: Int) -> String {
        if bytes < 1000 { return count(bytes, "byte", "bytes") }
        let units = ["KB", "MB", "GB", "TB"]
        var unit = 0
        var scale = 1000
        while true {
            let tenths = (bytes * 10 + scale / 2) / scale
            // 999,999 bytes round to 1000.0 KB: say 1.0 MB instead.
            if tenths < 10_000 || unit + 1 == units.count { return "\(tenths / 10).\(tenths % 10) \(units[unit])" }
            scale *= 1000
            unit += 1
        }
    }

    /// A duration for people: `0.4 ms`, `38 ms`, `2.35 s`.
    package static func duration(nanoseconds: UInt64) -> String {
        let microseconds = Int((nanoseconds + 500) / 1000)
        if microseconds < 10_000 {
            let tenths = (microseconds + 50) / 100
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        if microseconds < 1_000_000 { return "\((microseconds + 500) / 1000) ms" }
        let hundredths = (microseconds + 5000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// A rating as the catalog gave it, written as `--json` writes it (`5`, not `5.0`; `3.5`); `nil` for an
    /// unrated movie.
    package static func rating(_ rating: Double?) -> String? {
        guard let rating else { return nil }
        var json = JSONWriter()
        json.value(rating)
        return json.text
    }

    /// A rating out of its scale, as lists show it: `4/5`, `7.8/10`, `78/100` (the number as `rating(_:)` writes
    /// it), or the number alone on no scale (`150`); `nil` for an unrated movie. ASCII, so that a list's column of
    /// ratings lines up on any terminal.
    package static func rating(_ rating: Double?, on scale: RatingScale?) -> String? {
        guard let text = self.rating(rating) else { return nil }
        guard let scale else { return text }
        return "\(text)/\(scale.rawValue)"
    }

    /// A rating as a movie's details show it: on a five-point scale, stars before it (`★★★★☆ 4/5`, the stars
    /// rounded to the nearest whole one, within 0 to 5), else `rating(_:on:)`.
    package static func detailedRating(_ rating: Double?, on scale: RatingScale?) -> String? {
        guard let text = self.rating(rating, on: scale) else { return nil }
        guard scale == .five, let rating else { return text }
        let filled = Int(min(max(rating, 0), 5).rounded())
        return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled) + " " + text
    }

    /// Fills lines of at most `width` characters with the words of `text`; a word longer than a line gets a line
    /// of its own. Ends with a line feed.
    package static func wrap(_ text: String, width: Int, firstPrefix: String, indent: String) -> String {
        var result = ""
        var line = firstPrefix
        var lineCount = firstPrefix.count
        var lineHasWord = false
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordCount = word.count
            if lineHasWord, lineCount + 1 + wordCount > width {
                result += line + "\n"
                line = indent
                lineCount = indent.count
                lineHasWord = false
            }
            if lineHasWord {
                line += " "
                lineCount += 1
            }
            line += word
            lineCount += wordCount
            lineHasWord = true
        }
        return result + line + "\n"
    }

    /// `items` in two columns, left to right then down (the order of a two-column grid of pictures), the second
    /// column starting half-way across `width`; one item a line when two do not fit side by side.
    package static func twoColumns(_ items: [String], width: Int) -> [String] {
        let gap = 2
        let widest = items.lazy.map { $0.count }.max() ?? 0
        let column = max(widest + gap, width / 2)
        guard items.count > 1, widest + column <= width else { return items }
        return stride(from: 0, to: items.count, by: 2).map { index in
            index + 1 < items.count ? padRight(items[index], column) + items[index + 1] : items[index]
        }
    }
}
