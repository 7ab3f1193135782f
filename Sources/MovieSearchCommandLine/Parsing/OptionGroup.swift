/// Options that several subcommands share, declared once with their defaults and read together, as
/// swift-argument-parser's `@OptionGroup`: a command lists `arguments` among its own and keeps the group's value,
/// made from what was parsed.
package protocol OptionGroup {
    /// The group's options, in the order help lists them.
    static var arguments: [any ArgumentDeclaration] { get }
    /// The group's values in `arguments`, defaults filled in.
    init(_ arguments: ParsedArguments)
}
