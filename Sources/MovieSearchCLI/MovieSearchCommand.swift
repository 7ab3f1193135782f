import MovieSearchCommandLine
import MovieSearchOutput
import MovieSearchPlatform

/// The `moviesearch` command line: finds the subcommand, parses its arguments, runs it, and turns the outcome into
/// an exit status.
///
/// - 0: success, also when a query matches nothing.
/// - 1: a data or I/O error (a bad catalog or cache, a missing file), printed as one line `moviesearch: …`.
/// - 2: a usage error (unknown subcommand or option, missing or bad argument), printed with the usage lines.
public enum MovieSearchCommand {
    /// Every subcommand, in the order the overview lists them. A new subcommand is one file and one line here.
    static var subcommands: [any Subcommand.Type] {
        [IndexCommand.self, QueryCommand.self, ShowCommand.self, TopCommand.self, GenresCommand.self,
         FavoritesCommand.self,
         BrowseCommand.self, ServeCommand.self, PhotosCommand.self, InfoCommand.self, BenchCommand.self,
         VersionCommand.self, CompletionsCommand.self, ManCommand.self]
    }

    /// The options the tool takes before (instead of) a subcommand.
    static let topLevelOptions = ["--help", "--version"]

    /// Runs the tool with the process's arguments, standard streams and environment, and exits with its status.
    public static func main() -> Never {
        // A closed pipe then fails a write with EPIPE, so that `moviesearch query … | head` ends quietly; a write
        // past `ulimit -f` fails with EFBIG, so that `index` reports "File too large", removes its temporary file
        // and leaves the previous cache. By default both signals kill the process.
        Syscalls.ignoreBrokenPipeSignal()
        Syscalls.ignoreFileSizeLimitSignal()
        // Ctrl-\ (SIGQUIT) asks to quit, no crash: it ends the process (status 131) without the Swift runtime's
        // crash report, which would otherwise be printed and the process left running.
        Syscalls.defaultQuitSignal()
        var context = CommandContext(
            standardOutput: TextOutput(.fileDescriptor(Syscalls.standardOutput)),
            // Unbuffered, so that a note reaches a terminal before the answer it is about.
            standardError: TextOutput(.fileDescriptor(Syscalls.standardError), capacity: 0),
            standardInput: .fileDescriptor(Syscalls.standardInput),
            environment: .process,
            terminal: Terminal.detect(environment: .process))
        context.errorTerminalWidth = Terminal.errorWidth(environment: .process)
        context.processExitsAfterRun = true
        // From `argv` itself: `CommandLine.arguments` repairs bytes that are not UTF-8, and a path so repaired
        // names another file.
        Syscalls.exitProcess(run(ArgumentWord.processArguments(), context))
    }

    /// Runs the tool in this process, for tests: the output is captured, nothing is read from the real standard
    /// input and the process environment is not consulted.
    ///
    /// - Parameters:
    ///   - arguments: The command line after the tool's name.
    ///   - environment: The environment variables the tool may read (`MOVIESEARCH_CACHE`, `FLICKR_API_KEY`).
    ///   - standardInput: What the tool reads from standard input.
    ///   - terminalWidth: The width of the terminal standard output is on, or `nil` for a pipe or file.
    /// - Returns: The exit status and everything written to standard output and standard error.
    public static func run(
        arguments: [String], environment: [String: String] = [:], standardInput: [UInt8] = [],
        terminalWidth: Int? = nil
    ) -> (status: Int32, standardOutput: String, standardError: String) {
        let context = CommandContext(
            standardOutput: TextOutput(.memory), standardError: TextOutput(.memory),
            standardInput: .bytes(standardInput), environment: .fixed(environment),
            terminal: Terminal(width: terminalWidth))
        let status = run(arguments.map { ArgumentWord($0) }, context)
        return (status, context.standardOutput.capturedText, context.standardError.capturedText)
    }

    static func run(_ arguments: [ArgumentWord], _ context: CommandContext) -> Int32 {
        var status = dispatch(arguments, context)
        context.standardOutput.flush()
        // A reader that went away (`| head`) has all it wanted: end quietly. Any other write failure is an error.
        if let failure = context.standardOutput.failure, !failure.isBrokenPipe {
            context.standardError.line("moviesearch: cannot write the output: \(failure)")
            status = 1
        }
        context.standardError.flush()
        return status
    }

    private static func dispatch(_ arguments: [ArgumentWord], _ context: CommandContext) -> Int32 {
        // Configurations are built when asked for (a `static let` each): a query builds only those it passes on
        // its way to its own, not every subcommand's help text.
        guard let name = arguments.first?.text else {
            context.standardError.write(HelpFormatter.overview(subcommands.map { $0.configuration }))
            return 2
        }
        if name == "-h" || name == "--help" {
            context.standardOutput.write(HelpFormatter.overview(subcommands.map { $0.configuration }))
            return 0
        }
        if name == "--version" {
            context.standardOutput.write(Version.description)
            return 0
        }
        if name == "help" { return help(topic: arguments.dropFirst().map { $0.displayText }, context) }
        guard let command = subcommands.first(where: { $0.name == name }) else {
            let problem = name.hasPrefix("-")
                ? "expected a subcommand before '\(arguments[0].displayText)'"
                    + Suggestion.phrase(for: name, among: topLevelOptions)
                : "unknown subcommand '\(arguments[0].displayText)'"
                    + Suggestion.phrase(for: name, among: subcommandNames)
            context.standardError.write(HelpFormatter.usageError(UsageError(problem), command: nil))
            return 2
        }
        let configuration = command.configuration
        let rest = Array(arguments.dropFirst())
        if ArgumentParser.asksForHelp(rest.map { $0.text }) {
            context.standardOutput.write(HelpFormatter.help(configuration))
            return 0
        }
        do {
            let parsed = try ArgumentParser(configuration.arguments).parse(rest)
            try command.init(parsed).run(context)
            return 0
        } catch let error as UsageError {
            context.standardError.write(HelpFormatter.usageError(error, command: configuration))
            return 2
        } catch let exit as CommandExit {
            if let message = exit.message { context.standardError.line("moviesearch: " + oneLine(message)) }
            if let signal = exit.signal, context.processExitsAfterRun {
                // A signal asked the command to end (browse caught it to give the terminal back first): end by it,
                // so that the shell sees status 128 + n and a script running browse stops on a SIGINT too.
                context.standardOutput.flush()
                context.standardError.flush()
                Syscalls.endProcess(bySignal: signal)
            }
            return exit.status
        } catch {
            context.standardError.line("moviesearch: " + oneLine(String(describing: error)))
            return 1
        }
    }

    /// The words that may follow `moviesearch`: every subcommand, and `help`.
    static var subcommandNames: [String] { subcommands.map { $0.name } + ["help"] }

    /// `moviesearch help [<subcommand>]`, as in git and swift-argument-parser.
    private static func help(topic: [String], _ context: CommandContext) -> Int32 {
        guard let name = topic.first else {
            context.standardOutput.write(HelpFormatter.overview(subcommands.map { $0.configuration }))
            return 0
        }
        guard topic.count == 1, let command = subcommands.first(where: { $0.name == name }) else {
            let problem = topic.count == 1
                ? "unknown subcommand '\(name)'" + Suggestion.phrase(for: name, among: subcommandNames)
                : "unexpected argument '\(topic[1])'"
            context.standardError.write(HelpFormatter.usageError(UsageError(problem), command: nil))
            return 2
        }
        context.standardOutput.write(HelpFormatter.help(command.configuration))
        return 0
    }

    /// Errors are promised as one line, and may quote data (a path, a catalog value, Flickr's message): control
    /// characters, line feeds included, are escaped (`\e`, `\n`, see `TerminalSafeText`), never let through to
    /// the terminal, and a description cannot span lines.
    private static func oneLine(_ text: String) -> String {
        TerminalSafeText.escapedMessage(text)
    }
}
