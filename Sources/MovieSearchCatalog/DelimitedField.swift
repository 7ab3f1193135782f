import MovieSearchJSON

/// Reads the values of IMDb TSV and CSV fields from their bytes (`DelimitedRecordReader.field`), building a
/// `String` only for text that is kept, and describes a field in an error message.
enum DelimitedField {
    /// Whether `field` stands for no value: it is empty, or `\N` (IMDb's null), or, with `naIsNull`, `NA` (R's).
    static func isNull(_ field: UnsafeBufferPointer<UInt8>, naIsNull: Bool = false) -> Bool {
        switch field.count {
        case 0: return true
        case 2:
            return (field[0] == UInt8(ascii: "\\") && field[1] == UInt8(ascii: "N"))
                || (naIsNull && field[0] == UInt8(ascii: "N") && field[1] == UInt8(ascii: "A"))
        default: return false
        }
    }

    /// `field` without the spaces and tabs around it.
    static func trimmed(_ field: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lower = 0
        var upper = field.count
        while lower < upper, field[lower] == 0x20 || field[lower] == 0x09 { lower += 1 }
        while upper > lower, field[upper - 1] == 0x20 || field[upper - 1] == 0x09 { upper -= 1 }
        return UnsafeBufferPointer(rebasing: field[lower..<upper])
    }

    /// `text` without the spaces and tabs around it.
    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }

    /// The text of `field`, or `nil` when it is not valid UTF-8. ASCII, as most titles are, is checked with one
    /// pass of ORs before the string is built.
    static func string(_ field: UnsafeBufferPointer<UInt8>) -> String? {
        var any: UInt8 = 0
        for byte in field { any |= byte }
        if any < 0x80 { return String(decoding: field, as: UTF8.self) }
        return String(validating: field, as: UTF8.self)
    }

    /// Whether `field` holds exactly the bytes of `other`.
    static func equals(_ field: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field.count == other.count else { return false }
        for index in 0..<field.count where field[index] != other[index] { return false }
        return true
    }

    /// The value of a year-like field: four ASCII digits (IMDb's `startYear`, read with no more ado), or a decimal
    /// number with a whole value (`2010`, `2010.0` as some exporters write integer columns, `+2010`).
    static func wholeNumber(_ field: UnsafeBufferPointer<UInt8>) -> JSONNumber.WholeValue? {
        if field.count == 4 {
            var value = 0
            var digits = true
            for byte in field {
                let digit = byte &- UInt8(ascii: "0")
                digits = digits && digit < 10
                value = value &* 10 &+ Int(digit)
            }
            if digits { return .value(value) }
        }
        guard let number = decimal(field) else { return nil }
        return JSONNumber.wholeValue(literal: number)
    }

    /// The value of a decimal number field (`7.5`, `-0.25`, `1e3`, `.5`), or `nil` when it is not one. A number
    /// past `Double`'s range (`1e999`) is infinite, for the caller to refuse in its own words (`RecordChecks`).
    static func double(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let number = decimal(field) else { return nil }
        return JSONNumber.nearestValue(literal: number)
    }

    /// `field` without a leading `+` when it is a decimal number: an optional sign, digits with at most one point
    /// among or around them (at least one digit), then an optional exponent. `nil` otherwise, so that `inf`,
    /// `nan`, `0x1p3` or `1.2.3` are never taken for numbers.
    private static func decimal(_ field: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        var index = 0
        let count = field.count
        if index < count, field[index] == UInt8(ascii: "-") || field[index] == UInt8(ascii: "+") { index += 1 }
        let body = index
        var digits = 0
        var point = false
        while index < count {
            let byte = field[index]
            if byte &- UInt8(ascii: "0") < 10 {
                digits += 1
            } else if byte == UInt8(ascii: "."), !point {
                point = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < count, field[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, field[index] == UInt8(ascii: "-") || field[index] == UInt8(ascii: "+") { index += 1 }
            let exponentStart = index
            while index < count, field[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            guard index > exponentStart else { return nil }
        }
        guard index == count else { return nil }
        let plus = body > 0 && field[0] == UInt8(ascii: "+")
        return plus ? UnsafeBufferPointer(rebasing: field[1...]) : field
    }

    /// A field as an error message shows it: quoted as a JSON string (control characters escaped), cut to 40
    /// characters, so that the message stays one line.
    static func describe(_ field: UnsafeBufferPointer<UInt8>) -> String {
        var text = String(decoding: field, as: UTF8.self)
        if text.count > 40 { text = String(text.prefix(39)) + "…" }
        var writer = JSONWriter()
        writer.value(text)
        return writer.text
    }
}
