/// The pieces of JSON the commands print, built as text so that key order is exactly the documented one.
enum JSONText {
    /// `text` as a JSON string: quotes, backslashes and control characters escaped, everything else as UTF-8.
    static func string(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        result += "\""
        return result
    }

    /// A rating as a JSON number without a needless `.0`, or `null` for an unrated movie.
    static func rating(_ rating: Double?) -> String {
        TextLayout.rating(rating) ?? "null"
    }

    /// `["a","b"]`.
    static func array(_ texts: [String]) -> String {
        "[" + texts.map(string).joined(separator: ",") + "]"
    }
}
