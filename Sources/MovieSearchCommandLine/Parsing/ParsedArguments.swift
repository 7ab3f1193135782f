/// The values found on a command line, read back through the declarations that describe them.
///
/// The parser has already checked every value against its declaration, so reading one back cannot fail.
///
/// Kept in two small arrays searched in order, not a `Dictionary` and a `Set`: a command line has a handful of
/// arguments, and a hashed collection keyed by `String` makes the runtime build its storage's generic metadata and
/// look up `String: Hashable` among every conformance in the binary, which every `moviesearch query` paid at start.
package struct ParsedArguments {
    /// The words given for one option or positional, in command-line order.
    private struct Values {
        let key: String
        var words: [ArgumentWord]
    }

    /// Every value given for each option or positional, each key once, in the order first given.
    private var values: [Values] = []
    /// The flags given, each once.
    private var flags: [String] = []

    /// Whether `flag` was given.
    package subscript(flag: Flag) -> Bool {
        flags.contains(flag.definition.name)
    }

    // The commands read their values from another target, where these generics run unspecialized: the value goes
    // straight into the result, never through an `Optional<Value>` of their own (`flatMap`), whose metadata the
    // runtime would make at the first read, registering every prespecialized `Optional` in the binary (a cost
    // every `moviesearch query` paid: PERFORMANCE.md, "Figures behind the code").

    /// The value given for `option` (the last one when it was given more than once), or `nil`.
    package subscript<Value: ArgumentValue>(option: Option<Value>) -> Value? {
        guard let word = words(for: option.definition).last else { return nil }
        return Value(argument: word.text, bytes: word.bytes)
    }

    /// The value given for `option` (the last one when it was given more than once), else its declared default.
    package subscript<Value: ArgumentValue>(option: DefaultedOption<Value>) -> Value {
        guard let word = words(for: option.definition).last,
              let value = Value(argument: word.text, bytes: word.bytes) else { return option.defaultValue }
        return value
    }

    /// Whether `declaration` was given on the command line (for a `DefaultedOption`, whose reading cannot tell).
    package func isGiven(_ declaration: some ArgumentDeclaration) -> Bool {
        let definition = declaration.definition
        return definition.kind == .flag ? flags.contains(definition.name) : !words(for: definition).isEmpty
    }

    /// Every value given for `option`, in command-line order, for an option that may be repeated
    /// (`--column rating=score --column title=name`).
    package func all<Value: ArgumentValue>(_ option: Option<Value>) -> [Value] {
        // A plain loop, and nothing built when the option was left out (the usual case): `compactMap`'s generic
        // closure instantiates metadata at run time on a command's start-up path (`query` reads `--genre` and
        // `--cast` through here on every run).
        let given = words(for: option.definition)
        if given.isEmpty { return [] }
        var values: [Value] = []
        values.reserveCapacity(given.count)
        for word in given {
            if let value = Value(argument: word.text, bytes: word.bytes) { values.append(value) }
        }
        return values
    }

    /// The value given for `argument`, or `nil` when an optional one was left out.
    package subscript<Value: ArgumentValue>(argument: Argument<Value>) -> Value? {
        guard let word = words(for: argument.definition).last else { return nil }
        return Value(argument: word.text, bytes: word.bytes)
    }

    mutating func set(_ definition: ArgumentDefinition, to value: ArgumentWord) {
        let key = Self.key(definition)
        if let index = values.firstIndex(where: { $0.key == key }) {
            values[index].words.append(value)
        } else {
            values.append(Values(key: key, words: [value]))
        }
    }

    mutating func setFlag(_ definition: ArgumentDefinition) {
        if !flags.contains(definition.name) { flags.append(definition.name) }
    }

    /// The words given for `definition`, none when it was not given.
    private func words(for definition: ArgumentDefinition) -> [ArgumentWord] {
        let key = Self.key(definition)
        return values.first { $0.key == key }?.words ?? []
    }

    // Positional labels and option names live in one table, so a positional `<cache>` and an option `--cache`
    // must not collide.
    private static func key(_ definition: ArgumentDefinition) -> String {
        definition.kind == .positional ? "<\(definition.name)>" : definition.name
    }
}
