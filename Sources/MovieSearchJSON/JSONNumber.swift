/// A JSON number, kept as its literal so that nothing is lost before the caller decides what it needs.
///
/// `2010`, `2010.0` and `2.01e3` are different literals and so different `JSONNumber`s, although they have
/// the same value: equality compares the literal.
package struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The literal as written in the document, for example `-12.5e3`. Always valid RFC 8259 number syntax.
    package let text: String

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
    /// Only a literal without fraction and exponent is an integer: `2010.0` and `2.01e3` give `nil` (see
    /// `wholeValue` for those).
    package var int: Int? {
        var text = text
        return text.withUTF8 { Self.integerValue(literal: $0) }
    }

    /// What a number is as a whole number: its value, or why it has none.
    package enum WholeValue: Equatable, Sendable {
        /// The number is this integer.
        case value(Int)
        /// The number has a nonzero fractional part (`2010.5`, `1e-400`).
        case fraction
        /// The number is a whole number outside the range of `Int` (`1e400`, `-99999999999999999999`).
        case outOfRange
    }

    /// The literal's exact value as a whole number: `2010`, `2010.0`, `2.01e3` and `201000e-2` are all 2010.
    ///
    /// Judged on the decimal digits as written, never through a `Double`: `2010.0000000000000001` is a fraction
    /// although it rounds to the double 2010, and `9007199254740993` is not taken for its nearest double.
    package var wholeValue: WholeValue {
        var text = text
        return text.withUTF8 { Self.wholeValue(literal: $0) }
    }

    /// The nearest `Double` (correctly rounded), or `nil` when it is not finite (`1e999`). An underflow such as
    /// `1e-999` gives `0.0` (or `-0.0`).
    package var double: Double? {
        var text = text
        return text.withUTF8 { Self.doubleValue(literal: $0) }
    }

    package var description: String { text }

    /// The value of `literal` if it is an integer literal (optional `-`, then digits) that fits an `Int`.
    package static func integerValue(literal: UnsafeBufferPointer<UInt8>) -> Int? {
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

    /// The exact value of `literal` (RFC 8259 number syntax) as a whole number; see `wholeValue`.
    ///
    /// The value is the literal's digits, without the point, times ten to the power of its exponent less its
    /// count of decimals. Zeros at either end of the digits only move that power, so the digits from the first
    /// nonzero one to the last decide: none (zero, whatever the exponent), a negative power left (a fraction), or
    /// a whole number of as many digits as they have plus the power (more than 19 cannot fit an `Int`, so
    /// `1e400` costs no more than `1e4`). Linear in the literal's length.
    package static func wholeValue(literal: UnsafeBufferPointer<UInt8>) -> WholeValue {
        let zero = UInt8(ascii: "0")
        let negative = literal.first == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        // The digits before and after the point: `literal[digitsStart..<integerEnd]` and `[fractionStart..<digitsEnd]`.
        let digitsStart = index
        while index < literal.count, literal[index] &- zero < 10 { index += 1 }
        let integerEnd = index
        var fractionStart = index
        if index < literal.count, literal[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            while index < literal.count, literal[index] &- zero < 10 { index += 1 }
        }
        let digitsEnd = index
        // The exponent, held within ±2^40 (a literal cannot have that many digits, so the verdict is unchanged).
        var exponent = 0
        if index < literal.count, literal[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < literal.count, literal[index] == UInt8(ascii: "-") || literal[index] == UInt8(ascii: "+") {
                exponentNegative = literal[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < literal.count, literal[index] &- zero < 10 {
                if exponent < 1 << 40 { exponent = exponent * 10 + Int(literal[index] &- zero) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // Every digit, the point skipped: position `p` of them is `literal[p]` before the point, `literal[p + 1]`
        // after it.
        let integerCount = integerEnd - digitsStart
        let count = integerCount + (digitsEnd - fractionStart)
        func digit(_ position: Int) -> Int {
            let index = position < integerCount ? digitsStart + position : fractionStart + position - integerCount
            return Int(literal[index] &- zero)
        }
        var first = 0
        while first < count, digit(first) == 0 { first += 1 }
        if first == count { return .value(0) }
        var last = count - 1
        while digit(last) == 0 { last -= 1 }
        // The value is digits `first...last` times 10^power.
        let power = exponent - (digitsEnd - fractionStart) + (count - 1 - last)
        if power < 0 { return .fraction }
        if last - first + 1 + power > 19 { return .outOfRange }
        // At most 19 digits, which may still overflow: accumulate negatively, as `integerValue` does, so that
        // `Int.min` fits.
        var value = 0
        func append(_ digit: Int) -> Bool {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            value = next
            return !overflow1 && !overflow2
        }
        for position in first...last where !append(digit(position)) { return .outOfRange }
        for _ in 0..<power where !append(0) { return .outOfRange }
        if negative { return .value(value) }
        return value == Int.min ? .outOfRange : .value(-value)
    }

    /// The correctly rounded value of `literal` (RFC 8259 number syntax), or `nil` when it is not finite.
    package static func doubleValue(literal: UnsafeBufferPointer<UInt8>) -> Double? {
        let value = nearestValue(literal: literal)
        return value.isFinite ? value : nil
    }

    /// The correctly rounded value of `literal` (RFC 8259 number syntax; a point at either end, `5.` or `.5`, is
    /// taken too), infinite past the largest finite `Double` (`1e999`), so that a caller can tell that case apart
    /// and say so. NaN should the standard library's parser refuse such a literal, which it does not.
    package static func nearestValue(literal: UnsafeBufferPointer<UInt8>) -> Double {
        if let value = fastDoubleValue(literal: literal) { return value }
        return Double(String(decoding: literal, as: UTF8.self)) ?? .nan
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
