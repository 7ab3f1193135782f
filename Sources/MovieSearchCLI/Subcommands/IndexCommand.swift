import MovieSearch

/// `moviesearch index <catalog.json> [-o|--output <cache>] [--skip-invalid]`: builds the binary cache.
struct IndexCommand: Subcommand {
    static let catalog = Argument<String>(
        "catalog.json",
        help: "The JSON catalog: an array of movies, or an object whose 'movies' member is one.")
    static let output = Option<String>(
        "output", short: "o", valueName: "cache",
        help: "Where to write the cache. Default: the catalog's path with its extension replaced by .mscache.")
    static let skipInvalid = Flag(
        "skip-invalid",
        help: "Leave out invalid movies (and say how many) instead of stopping at the first one.")

    static let configuration = CommandConfiguration(
        name: "index",
        abstract: "Build the binary cache of a JSON movie catalog, for the other commands to read.",
        discussion: """
            The cache is written to a temporary file beside the output and renamed into place, so a failed run \
            leaves an existing cache untouched. A movie's id is its position in the catalog, counting from 0.
            """,
        arguments: [catalog, output, skipInvalid])

    /// How many reasons `--skip-invalid` lists before it only counts.
    static let reasonsShown = 3

    var catalogPath: String
    var outputPath: String
    var skipsInvalid: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        catalogPath = arguments[Self.catalog]!
        outputPath = arguments[Self.output] ?? Self.defaultOutputPath(catalogPath: catalogPath)
        skipsInvalid = arguments[Self.skipInvalid]
    }

    /// The catalog's path with its extension replaced by `.mscache` (`a/b.json` → `a/b.mscache`), or with
    /// `.mscache` appended when its file name has no extension (`movies`, `.hidden`).
    static func defaultOutputPath(catalogPath: String) -> String {
        let nameStart = catalogPath.lastIndex(of: "/").map(catalogPath.index(after:)) ?? catalogPath.startIndex
        let name = catalogPath[nameStart...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return catalogPath[..<dot] + ".mscache"
        }
        return catalogPath + ".mscache"
    }

    func run(_ context: CommandContext) throws {
        let start = System.monotonicNanoseconds()
        let catalog = try CatalogDecoder.load(path: catalogPath, skipInvalid: skipsInvalid)
        let statistics = try CacheWriter.write(catalog, to: outputPath)
        let elapsed = System.monotonicNanoseconds() - start

        let skipped = catalog.skipped
        if !skipped.isEmpty {
            context.warning("skipped \(TextLayout.count(skipped.count, "invalid movie", "invalid movies"))"
                + (skipped.count > Self.reasonsShown ? ", the first \(Self.reasonsShown):" : ":"))
            for reason in skipped.prefix(Self.reasonsShown) {
                context.standardError.line("  \(TerminalSafeText.escapedMessage(String(describing: reason)))")
            }
        }

        let out = context.standardOutput
        out.line("Indexed \(TerminalSafeText.escaped(catalogPath)) into \(TerminalSafeText.escaped(outputPath))")
        var rows = [
            ("movies", TextLayout.grouped(statistics.movies)),
            ("distinct tokens", TextLayout.grouped(statistics.distinctTokens)),
            ("file size", statistics.bytes < 1000 ? TextLayout.byteSize(statistics.bytes)
                : "\(TextLayout.byteSize(statistics.bytes)) (\(TextLayout.count(statistics.bytes, "byte", "bytes")))"),
            ("time", TextLayout.duration(nanoseconds: elapsed)),
        ]
        if skipsInvalid { rows.insert(("skipped", "\(TextLayout.grouped(skipped.count)) invalid"), at: 1) }
        let labelWidth = rows.map(\.0.count).max()!
        for (label, value) in rows { out.line("  \(TextLayout.padRight(label, labelWidth))  \(value)") }
    }
}
