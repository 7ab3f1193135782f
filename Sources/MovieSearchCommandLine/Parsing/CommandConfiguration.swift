/// What a subcommand declares about itself: its name, what it does, and its arguments, from which the parser
/// reads the command line and the help and usage lines are generated.
package struct CommandConfiguration: Sendable {
    /// The word after `moviesearch` (`query`).
    package var name: String
    /// One line for the overview and the help's first line.
    package var abstract: String
    /// Paragraphs after the options in the help, if any.
    package var discussion: String { discussionText() }
    /// The declared arguments, in the order the help lists them.
    package var arguments: [ArgumentDefinition]
    /// Usage lines written by hand, for a command whose forms one generated line cannot say (`query` takes a
    /// text or `--stdin`); each line without the leading `moviesearch <name>`.
    package var usageForms: [String]? { usageFormsText() }

    // Built when the help or a usage line is printed, not each time the command runs (see `ArgumentDefinition`).
    private let discussionText: @Sendable () -> String
    private let usageFormsText: @Sendable () -> [String]?

    /// The texts (`discussion`, `usageForms`) are built when the help or a usage line needs them, not here.
    package init(name: String, abstract: String, discussion: @autoclosure @escaping @Sendable () -> String = "",
                 usageForms: @autoclosure @escaping @Sendable () -> [UsageForm]? = nil,
                 arguments: [any ArgumentDeclaration]) {
        self.name = name
        self.abstract = abstract
        self.discussionText = discussion
        self.usageFormsText = { usageForms()?.map(\.text) }
        self.arguments = arguments.map { $0.definition }
    }
}
