import MovieSearchCommandLine
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPlatform
import MovieSearchQuery

/// `moviesearch info [--cache <file>] [--json]`: what a cache holds and where its bytes go, section by section,
/// as `sqlite3_analyzer` tells for SQLite (`CacheLayout`, from the header and directory alone).
struct InfoCommand: Subcommand {
    static let name = "info"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Show what a cache holds and where its bytes go: every section, its size and what reads it.",
        discussion: """
            One line per section, largest first: its tag, packed integers or bytes, bits per entry, entries, \
            bytes, its share of the file and what it holds; then the bytes of each group: what a search reads, \
            what a movie's details and listings read, the top lists, and the file's structure (header, \
            directory, alignment padding and block checksums). The groups add up to the file's size. Then every \
            block's checksum is checked: a damaged cache is reported on standard error (and in "checks" with \
            --json), status 1. A cache of another format version is named as such.
            """,
        arguments: [CacheLocation.option, json])

    static let json = JSONOutput.flag(members: CacheLayoutJSON.members.helpList)

    var cache: FilePath?
    var printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        cache = arguments[CacheLocation.option]
        printsJSON = arguments[Self.json]
    }

    func run(_ context: CommandContext) throws {
        let index = try CacheLocation.open(cache, context)
        let layout = index.layout
        // Every block checked (the layout comes from the header and directory, which opening checked): a cache that
        // opens but would fail a query with "checksum mismatch" is reported here, not first by a query or a server.
        // Hashing is cheap: it adds nothing measurable to `info` (PERFORMANCE.md, "Figures behind the code").
        var problem: (any Error)?
        do {
            try index.verify()
        } catch {
            problem = error
        }
        if printsJSON {
            context.standardOutput.line(bytes: CacheLayoutJSON.object(layout, problem: problem.map { "\($0)" }).bytes)
        } else {
            CacheLayoutText.write(layout, path: index.path, to: context.standardOutput)
        }
        if let problem { throw problem }
    }
}
