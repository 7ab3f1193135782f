/// What the parser and the help need to know of one declared flag, option or positional argument, whatever the
/// type of its value.
package struct ArgumentDefinition: Sendable {
    enum Kind: Sendable {
        /// `--name`, true when present.
        case flag
        /// `--name <value>`, `--name=<value>`, `-n <value>`.
        case option
        /// A bare word, in declaration order.
        case positional
    }

    var kind: Kind
    /// The long name without its dashes (`per-year`), or the label of a positional argument (`text`).
    package var name: String
    /// The one-letter name (`o` for `-o`), if any.
    var shortName: Character?
    /// How the help and usage name the value (`file` in `--cache <file>`).
    package var valueName: String { valueNameText() }
    /// One or two sentences for the help.
    package var help: String { helpText() }
    /// A positional argument that may be left out (the command checks what it needs).
    package var isOptional: Bool
    /// Checks a value's text: `nil` when valid, else what a valid value looks like.
    package var check: @Sendable (String) -> String?
    /// The type of the value (`nil` for a flag), from which `completion` is worked out when a completion script
    /// asks, not each time a command line is parsed.
    var valueType: (any ArgumentValue.Type)?

    // The texts are built when read (help, usage, messages, completion scripts), not when a command line is
    // parsed: a query parses its arguments but prints no help, and building every option's help (numbers
    // grouped, choices listed) was a measurable part of its start-up.
    private let valueNameText: @Sendable () -> String
    private let helpText: @Sendable () -> String

    init(kind: Kind, name: String, shortName: Character?, valueName: @autoclosure @escaping @Sendable () -> String,
         help: @autoclosure @escaping @Sendable () -> String, isOptional: Bool,
         check: @escaping @Sendable (String) -> String?, valueType: (any ArgumentValue.Type)? = nil) {
        self.kind = kind
        self.name = name
        self.shortName = shortName
        self.valueNameText = valueName
        self.helpText = help
        self.isOptional = isOptional
        self.check = check
        self.valueType = valueType
    }

    /// What a shell's completion may offer for the value (nothing for a flag).
    package var completion: ValueCompletion { valueType?.completion ?? .none }

    /// How the usage line shows the argument: `--cache <file>`, `--json`, `<text>`.
    var synopsis: String {
        switch kind {
        case .flag: "--\(name)"
        case .option: "--\(name) <\(valueName)>"
        case .positional: "<\(valueName)>"
        }
    }

    /// How the help's left column shows the argument: `-o, --output <cache>`.
    var helpLabel: String {
        guard let shortName else { return synopsis }
        return "-\(shortName), \(synopsis)"
    }

    /// The argument as the parser meets it in `arguments`, to name it in messages.
    package var displayName: String {
        kind == .positional ? synopsis : "--\(name)"
    }
}

/// A declaration that the parser reads: `Flag`, `Option` or `Argument`.
package protocol ArgumentDeclaration: Sendable {
    /// What the parser, the help and the completions read of the declaration.
    var definition: ArgumentDefinition { get }
}

/// `--name`: present or not.
package struct Flag: ArgumentDeclaration {
    package let definition: ArgumentDefinition

    /// `--name`, and one or two sentences for the help.
    package init(_ name: String, help: @autoclosure @escaping @Sendable () -> String) {
        definition = ArgumentDefinition(kind: .flag, name: name, shortName: nil, valueName: "", help: help(),
                                        isOptional: true, check: { _ in nil })
    }
}

/// `--name <value>`, optional, with a typed value.
///
/// `Value` is constrained on the initializers, not on the type: a constrained generic type's metadata is checked
/// against its constraints the first time it is made at run time (a scan of the binary's conformance records for
/// each value type), and every command's declaration list makes it for each of its options at start-up.
package struct Option<Value>: ArgumentDeclaration {
    package let definition: ArgumentDefinition
}

extension Option where Value: ArgumentValue {
    /// `--name <valueName>` (and `-short <valueName>`): a `Value` that `rule` accepts.
    package init(_ name: String, short: Character? = nil, valueName: @autoclosure @escaping @Sendable () -> String,
                 rule: ValueRule<Value> = .any, help: @autoclosure @escaping @Sendable () -> String) {
        definition = ArgumentDefinition(kind: .option, name: name, shortName: short, valueName: valueName(),
                                        help: help(), isOptional: true, check: Self.checker(rule),
                                        valueType: Value.self)
    }

    static func checker(_ rule: ValueRule<Value>) -> @Sendable (String) -> String? {
        { text in Value.isValid(text, accepting: rule.accepts) ? nil : rule.expectation }
    }
}

/// A positional argument with a typed value (`Value` constrained on the initializer, as `Option`'s is).
package struct Argument<Value>: ArgumentDeclaration {
    package let definition: ArgumentDefinition
}

extension Argument where Value: ArgumentValue {
    /// `<valueName>` in the usage line and the help: a `Value` that `rule` accepts, which may be left out when
    /// `isOptional`.
    package init(_ valueName: String, isOptional: Bool = false, rule: ValueRule<Value> = .any,
                 help: @autoclosure @escaping @Sendable () -> String) {
        definition = ArgumentDefinition(kind: .positional, name: valueName, shortName: nil, valueName: valueName,
                                        help: help(), isOptional: isOptional, check: Option<Value>.checker(rule),
                                        valueType: Value.self)
    }
}
