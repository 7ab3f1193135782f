/// One step of a JSON document, as `JSONReader.next()` delivers it.
///
/// Scalars carry only where their text lies in the input, so that a caller that ignores a value (the catalog
/// decoder skipping a member it does not know) never pays for turning it into a `String` or a number.
package enum JSONToken: Equatable, Sendable {
    /// `[`; the array's elements follow, then `endArray`.
    case beginArray
    /// `]`.
    case endArray
    /// `{`; the object's members follow, each as `key` then its value, then `endObject`.
    case beginObject
    /// `}`.
    case endObject
    /// An object member's name (its `:` already consumed); the member's value comes next.
    case key(StringToken)
    /// A string value.
    case string(StringToken)
    /// A number value.
    case number(NumberToken)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// The end of the document: the top-level value is complete and only white space followed it.
    case end

    /// Where a string's contents lie in the input: between the quotes, still escaped. Already checked: its
    /// escapes are well-formed and its bytes are valid UTF-8.
    package struct StringToken: Equatable, Sendable {
        /// Offset of the first byte after the opening quote.
        package var start: Int
        /// Offset of the closing quote.
        package var end: Int
        /// Whether the contents hold a backslash, so that decoding cannot just copy the bytes.
        package var hasEscapes: Bool
    }

    /// Where a number literal lies in the input. Already checked against the RFC 8259 grammar.
    package struct NumberToken: Equatable, Sendable {
        /// Offset of the literal's first byte (a digit or `-`).
        var start: Int
        /// Offset just past the literal.
        var end: Int
        /// Whether the literal has neither a fraction nor an exponent (`2010`, not `2010.0` or `2e3`).
        package var isInteger: Bool
    }
}
