import MovieSearchOutput
import MovieSearchPlatform

/// A type whose values can be written on the command line, as the value of an option or a positional argument.
package protocol ArgumentValue: Sendable {
    /// Reads a value from its command-line text; `nil` when the text is not one.
    init?(argument: String)
    /// Reads a value from the word's bytes as given and its text (where bytes that are not UTF-8 are repaired).
    /// By default from the text; a file path takes the bytes, so that it names the file the user named.
    init?(argument: String, bytes: [UInt8])
    /// What a valid value looks like, for the message when a text is not one ("a whole number").
    static var expectation: String { get }
    /// What a shell's completion may offer for a value of this type: nothing by default.
    static var completion: ValueCompletion { get }
    /// Whether `argument` is the text of a value that `accepts` takes. By default through `init?(argument:)`.
    static func isValid(_ argument: String, accepting accepts: (Self) -> Bool) -> Bool
}

extension ArgumentValue {
    /// From the text, by default.
    package init?(argument: String, bytes: [UInt8]) { self.init(argument: argument) }
    /// Nothing to offer, by default.
    package static var completion: ValueCompletion { .none }

    // A requirement rather than code in `Option.checker`: the options are declared in the commands' target, where
    // that generic code ran unspecialized, and its `Value?` made the runtime set up `Optional`'s metadata (all
    // of the binary's prespecialized `Optional`s registered, in every `moviesearch query`: PERFORMANCE.md).
    // This default is compiled for each type declared in this target (paths, texts, numbers).

    /// Through `init?(argument:)`, by default.
    package static func isValid(_ argument: String, accepting accepts: (Self) -> Bool) -> Bool {
        guard let value = Self(argument: argument) else { return false }
        return accepts(value)
    }
}

/// A path: any bytes but none at all, since an empty path names no file (`-o ''` is a usage error, not a write
/// to a file named `.tmp-…`).
extension FilePath: ArgumentValue {
    package init?(argument: String) {
        self.init(argument: argument, bytes: Array(argument.utf8))
    }

    package init?(argument: String, bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        self.init(bytes: bytes)
    }

    package static var expectation: String { "a file path (not empty)" }
    package static var completion: ValueCompletion { .file }
}

extension String: ArgumentValue {
    package init?(argument: String) { self = argument }
    package static var expectation: String { "a text" }
}

extension Int: ArgumentValue {
    package init?(argument: String) { self.init(argument, radix: 10) }
    package static var expectation: String { "a whole number" }
}

/// A further condition on a value, beyond being of its type (for example: not negative).
package struct ValueRule<Value: ArgumentValue>: Sendable {
    /// What a valid value looks like, replacing the type's own `expectation` in messages.
    package var expectation: String { expectationText() }
    /// Whether `value` is acceptable.
    var accepts: @Sendable (Value) -> Bool
    /// Built when a message needs it, not when the option is declared.
    private let expectationText: @Sendable () -> String

    /// A rule that accepts what `accepts` says, described as `expectation` in a usage error.
    package init(expectation: @autoclosure @escaping @Sendable () -> String, accepts: @escaping @Sendable (Value) -> Bool) {
        self.expectationText = expectation
        self.accepts = accepts
    }

    /// Every value of the type.
    package static var any: ValueRule { ValueRule(expectation: Value.expectation, accepts: { _ in true }) }
}

extension ValueRule where Value == Int {
    /// A whole number in `range`, both ends included: "a whole number from 1 to 1,000".
    ///
    /// Every numeric option has one, chosen wide enough for any real use and narrow enough that the arithmetic
    /// and allocations it drives (passes × queries samples, rows to list) stay far from overflow and from the
    /// memory a machine has; a value outside it is a usage error that names the range.
    package static func inRange(_ range: ClosedRange<Int>) -> ValueRule {
        ValueRule(expectation: "a whole number from \(spelled(range))", accepts: { range.contains($0) })
    }

    /// `1 to 1,000`: a range as the help and the messages write it.
    static func spelled(_ range: ClosedRange<Int>) -> String {
        "\(TextLayout.grouped(range.lowerBound)) to \(TextLayout.grouped(range.upperBound))"
    }
}
