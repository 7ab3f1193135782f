import MovieSearchCommandLine
import MovieSearchOutput

/// `moviesearch completions bash|zsh|fish`: prints the shell's completion script, generated from the same
/// declarations the parser and the help use (see `CompletionScript`).
struct CompletionsCommand: Subcommand {
    static let name = "completions"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            bash: source <(moviesearch completions bash), or save it as \
            ~/.local/share/bash-completion/completions/moviesearch.
            zsh: save it as _moviesearch in a folder of $fpath, before compinit runs.
            fish: save it as ~/.config/fish/completions/moviesearch.fish.
            """,
        arguments: [shell])

    static let shell = Argument<Shell>("shell", help: "The shell: bash, zsh or fish.")

    var shell: Shell

    init(_ arguments: ParsedArguments) throws(UsageError) {
        shell = arguments[Self.shell]!
    }

    func run(_ context: CommandContext) throws {
        let commands = MovieSearchCommand.subcommands.map { $0.configuration }
        context.standardOutput.write(CompletionScript.script(for: shell, commands: commands,
                                                             topLevelOptions: MovieSearchCommand.topLevelOptions))
    }
}
