/// The values found on a command line, read back through the declarations that describe them.
///
/// The parser has already checked every value against its declaration, so reading one back cannot fail.
struct ParsedArguments {
    /// Every value given for each option or positional, in command-line order.
    private var values: [String: [ArgumentWord]] = [:]
    private var flags: Set<String> = []

    subscript(flag: Flag) -> Bool {
        flags.contains(flag.definition.name)
    }

    /// The value given for `option` (the last one when it was given more than once), or `nil`.
    subscript<Value>(option: Option<Value>) -> Value? {
        values[Self.key(option.definition)]?.last.flatMap { Value(argument: $0.text, bytes: $0.bytes) }
    }

    /// Every value given for `option`, in command-line order, for an option that may be repeated
    /// (`--column rating=score --column title=name`).
    func all<Value>(_ option: Option<Value>) -> [Value] {
        (values[Self.key(option.definition)] ?? []).compactMap { Value(argument: $0.text, bytes: $0.bytes) }
    }

    /// The value given for `argument`, or `nil` when an optional one was left out.
    subscript<Value>(argument: Argument<Value>) -> Value? {
        values[Self.key(argument.definition)]?.last.flatMap { Value(argument: $0.text, bytes: $0.bytes) }
    }

    mutating func set(_ definition: ArgumentDefinition, to value: ArgumentWord) {
        values[Self.key(definition), default: []].append(value)
    }

    mutating func setFlag(_ definition: ArgumentDefinition) {
        flags.insert(definition.name)
    }

    // Positional labels and option names live in one table, so a positional `<cache>` and an option `--cache`
    // must not collide.
    private static func key(_ definition: ArgumentDefinition) -> String {
        definition.kind == .positional ? "<\(definition.name)>" : definition.name
    }
}
