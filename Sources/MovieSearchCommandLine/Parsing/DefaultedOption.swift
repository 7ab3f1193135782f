/// `--name <value>` with a declared default: `ParsedArguments[option]` reads the value given, else this default,
/// so that the default is written once, where the help states it, and never again by the command that reads it.
/// (`Value` is constrained on the initializers, not on the type, for `Option`'s reason.)
package struct DefaultedOption<Value: Sendable>: ArgumentDeclaration {
    package let definition: ArgumentDefinition
    /// What the command gets when the option is left out, and what its help says.
    package let defaultValue: Value
}

extension DefaultedOption where Value == Int {
    /// `--name <N>`: a whole number in `range` (see `ValueRule.inRange`), `defaultValue` when it is left out.
    /// Every numeric option's help says its range and default the same way: `help`, then
    /// `, 0 to 1,000,000 (default 5)`, then `; note` if there is one, then a full stop.
    package init(_ name: String, valueName: String, range: ClosedRange<Int>, default defaultValue: Int,
                 help: @autoclosure @escaping @Sendable () -> String,
                 note: @autoclosure @escaping @Sendable () -> String? = nil) {
        let option = Option<Int>(name, valueName: valueName, rule: .inRange(range), help: {
            var text = "\(help()), \(ValueRule.spelled(range)) (default \(defaultValue))"
            if let note = note() { text += "; \(note)" }
            return text + "."
        }())
        self.init(definition: option.definition, defaultValue: defaultValue)
    }
}

extension DefaultedOption where Value: ArgumentChoice {
    /// `--name <a|b|c>`: one of the choice's words, `defaultValue` when it is left out. The help is `help`, then
    /// ` (default a).`, the way numeric options state their default.
    package init(_ name: String, default defaultValue: Value, help: @autoclosure @escaping @Sendable () -> String) {
        let option = Option<Value>(name, valueName: Value.valueName,
                                   help: "\(help()) (default \(defaultValue.rawValue)).")
        self.init(definition: option.definition, defaultValue: defaultValue)
    }
}
