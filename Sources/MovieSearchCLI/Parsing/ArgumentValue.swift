import MovieSearch

/// A type whose values can be written on the command line, as the value of an option or a positional argument.
protocol ArgumentValue: Sendable {
    /// Reads a value from its command-line text; `nil` when the text is not one.
    init?(argument: String)
    /// Reads a value from the word's bytes as given and its text (where bytes that are not UTF-8 are repaired).
    /// By default from the text; a file path takes the bytes, so that it names the file the user named.
    init?(argument: String, bytes: [UInt8])
    /// What a valid value looks like, for the message when a text is not one ("a whole number").
    static var expectation: String { get }
}

extension ArgumentValue {
    init?(argument: String, bytes: [UInt8]) { self.init(argument: argument) }
}

/// A path: any bytes but none at all, since an empty path names no file (`-o ''` is a usage error, not a write
/// to a file named `.tmp-…`).
extension FilePath: ArgumentValue {
    init?(argument: String) {
        self.init(argument: argument, bytes: Array(argument.utf8))
    }

    init?(argument: String, bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        self.init(bytes: bytes)
    }

    static var expectation: String { "a file path (not empty)" }
}

extension String: ArgumentValue {
    init?(argument: String) { self = argument }
    static var expectation: String { "a text" }
}

extension Int: ArgumentValue {
    init?(argument: String) { self.init(argument, radix: 10) }
    static var expectation: String { "a whole number" }
}

/// A further condition on a value, beyond being of its type (for example: not negative).
struct ValueRule<Value: ArgumentValue>: Sendable {
    /// What a valid value looks like, replacing the type's own `expectation` in messages.
    var expectation: String
    /// Whether `value` is acceptable.
    var accepts: @Sendable (Value) -> Bool

    /// Every value of the type.
    static var any: ValueRule { ValueRule(expectation: Value.expectation, accepts: { _ in true }) }
}

extension ValueRule where Value == Int {
    /// Counts and ids: 0, 1, 2…
    static var nonNegative: ValueRule {
        ValueRule(expectation: "a whole number, 0 or more", accepts: { $0 >= 0 })
    }

    /// Repetitions: 1, 2, 3…
    static var positive: ValueRule {
        ValueRule(expectation: "a whole number, 1 or more", accepts: { $0 >= 1 })
    }
}
