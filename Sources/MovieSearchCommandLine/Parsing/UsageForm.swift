/// One way to call a subcommand, for its usage line (`moviesearch query <text> [--cache <file>] …`): its arguments
/// in order, each written from its declaration (`ArgumentDefinition.synopsis`), so that a renamed option or a new
/// value name shows up in every usage line at once. A command with one way to call it needs none: its usage line
/// is made from its arguments (`HelpFormatter.usageLines(_:)`).
package struct UsageForm: Sendable {
    /// A piece of a usage line.
    package enum Part: Sendable {
        /// `--cache <file>`: must be given.
        case required(ArgumentDefinition)
        /// `[--cache <file>]`.
        case optional(ArgumentDefinition)
        /// `--queries <file>...`: must be given, may be repeated.
        case repeated(ArgumentDefinition)
        /// `[--favorites <file> | --no-save]`: at most one of them.
        case alternatives([ArgumentDefinition])
        /// A literal word, such as a subcommand's action (`add`); `[list]` when optional.
        case word(String, isOptional: Bool)
    }

    var parts: [Part]

    /// The form of these parts, in order.
    package init(_ parts: [Part]) {
        self.parts = parts
    }

    /// The line after `moviesearch <command> `.
    package var text: String {
        parts.map { part in
            switch part {
            case .required(let argument): argument.synopsis
            case .optional(let argument): "[\(argument.synopsis)]"
            case .repeated(let argument): argument.synopsis + "..."
            case .alternatives(let arguments): "[" + arguments.map(\.synopsis).joined(separator: " | ") + "]"
            case .word(let word, let isOptional): isOptional ? "[\(word)]" : word
            }
        }.joined(separator: " ")
    }
}

// The parts of a declaration (`Flag`, `Option`, `Argument`) as a subcommand writes them: `.required(Self.cache)`.
extension UsageForm.Part {
    /// `.required` of the declaration's definition.
    package static func required(_ argument: any ArgumentDeclaration) -> Self { .required(argument.definition) }
    /// `.optional` of the declaration's definition.
    package static func optional(_ argument: any ArgumentDeclaration) -> Self { .optional(argument.definition) }
    /// `.repeated` of the declaration's definition.
    package static func repeated(_ argument: any ArgumentDeclaration) -> Self { .repeated(argument.definition) }
    /// `.alternatives` of the declarations' definitions.
    package static func alternatives(_ arguments: any ArgumentDeclaration...) -> Self {
        .alternatives(arguments.map(\.definition))
    }
}

extension [UsageForm.Part] {
    /// Each of `arguments`, optional: the options most forms end with.
    package static func optionals(_ arguments: [any ArgumentDeclaration]) -> Self { arguments.map { .optional($0) } }
}
