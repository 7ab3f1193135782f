/// A JSON number, kept as its literal so that nothing is lost before the caller decides what it needs.
///
/// `2010`, `2010.0` and `2.01e3` are different literals and so different `JSONNumber`s, although they have
/// the same value: equality compares the literal.
struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The literal as written in the document, for example `-12.5e3`. Always valid RFC 8259 number syntax.
    let text: String

    /// A number from a literal that `JSONReader` has checked.
    init(checkedLiteral text: String) {
        self.text = text
    }

    /// The number `value`.
    init(_ value: Int) {
        text = String(value)
    }

    /// The value of an integer literal that fits an `Int`; otherwise `nil`.
    ///
    /// Only a literal without fraction and exponent is an integer: `2010.0` and `2.01e3` give `nil`. A field
    /// that must hold an integer (a movie's year) is thereby checked at the level of what the author wrote, and
    /// a value that went through floating point on its way into the file is caught rather than truncated.
    var int: Int? {
        var text = text
        return text.withUTF8 { Self.integerValue(literal: $0) }
    }

    /// The nearest `Double` (correctly rounded), or `nil` when it is not finite (`1e999`). An underflow such as
    /// `1e-999` gives `0.0` (or `-0.0`).
    var double: Double? {
        var text = text
        return text.withUTF8 { Self.doubleValue(literal: $0) }
    }

    var description: String { text }

    /// The value of `literal` if it is an integer literal (optional `-`, then digits) that fits an `Int`.
    static func integerValue(literal: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let negative = literal.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < literal.count else { return nil }
        if literal.count - index <= 18 {
            // Every year, and every integer of up to 18 digits, fits an `Int`: no overflow checks.
            var value = 0
            for byte in UnsafeBufferPointer(rebasing: literal[index...]) {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
            }
            return negative ? -value : value
        }
        // Accumulate negatively: Int.min has no positive counterpart.
        var value = 0
        while index < literal.count {
            let digit = literal[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int(digit))
            guard !overflow1 && !overflow2 else { return nil }
            value = next
            index += 1
        }
        if negative { return value }
        return value == Int.min ? nil : -value
    }

    /// The correctly rounded value of `literal` (RFC 8259 number syntax), or `nil` when it is not finite.
    static func doubleValue(literal: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = fastDoubleValue(literal: literal) { return value }
        let value = Double(String(decoding: literal, as: UTF8.self))
        guard let value, value.isFinite else { return nil }
        return value
    }

    /// Clinger's fast path for the literals a catalog is made of (`4`, `4.5`, `-0.25`): a mantissa of at most
    /// 15 digits and at most 22 decimals, where the mantissa and the power of ten are both exact doubles, so
    /// one division gives the correctly rounded result. Anything else (exponents, long literals) gives `nil`,
    /// and the standard library's parser decides.
    private static func fastDoubleValue(literal: UnsafeBufferPointer<UInt8>) -> Double? {
        guard literal.count <= 17 else { return nil }
        var mantissa = 0
        var digits = 0
        var decimals = 0
        var inFraction = false
        for byte in literal {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                mantissa = mantissa * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                if inFraction { decimals += 1 }
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "-"): continue
            default: return nil
            }
        }
        guard digits <= 15, decimals <= 22 else { return nil }
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        let magnitude = Double(mantissa) / power
        return literal.first == UInt8(ascii: "-") ? -magnitude : magnitude
    }
}
