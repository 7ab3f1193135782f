import MovieSearch

/// `moviesearch index <catalog.json> [-o|--output <cache>] [--skip-invalid]`: builds the binary cache.
struct IndexCommand: Subcommand {
    static let catalog = Argument<FilePath>(
        "catalog.json",
        help: "The JSON catalog: an array of movies, or an object whose 'movies' member is one.")
    static let output = Option<FilePath>(
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
            leaves an existing cache untouched. A movie's id is its position in the catalog, counting from 0. \
            Nothing is written when the output is the catalog itself (also through a link), or when the catalog \
            has no valid movie.
            """,
        arguments: [catalog, output, skipInvalid])

    /// How many reasons `--skip-invalid` lists before it only counts.
    static let reasonsShown = 3

    var catalogPath: FilePath
    var outputPath: FilePath
    var skipsInvalid: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        catalogPath = arguments[Self.catalog]!
        outputPath = arguments[Self.output] ?? catalogPath.replacingExtension(with: "mscache")
        skipsInvalid = arguments[Self.skipInvalid]
    }

    /// The catalog's path with its extension replaced by `.mscache` (`a/b.json` → `a/b.mscache`), or with
    /// `.mscache` appended when its file name has no extension (`movies`, `.hidden`).
    /// (The work is `FilePath.replacingExtension(with:)`, on the path's bytes.)
    static func defaultOutputPath(catalogPath: String) -> String {
        FilePath(catalogPath).replacingExtension(with: "mscache").description
    }

    func run(_ context: CommandContext) throws {
        let start = System.monotonicNanoseconds()
        // Checked before reading, and both stat'ed, so that a link (symbolic or hard) to the catalog is caught too;
        // an output that does not exist yet cannot be the catalog.
        if let output = System.fileIdentity(outputPath), let input = System.fileIdentity(catalogPath),
           output == input {
            throw IndexError.outputIsCatalog(catalog: catalogPath.description, output: outputPath.description)
        }
        let catalog = try CatalogDecoder.load(path: catalogPath, skipInvalid: skipsInvalid)
        // A cache of no movie would replace a good one (with `--skip-invalid`, a catalog of nothing but bad movies).
        if catalog.movies.isEmpty {
            guard let first = catalog.skipped.first else {
                throw IndexError.emptyCatalog(catalog: catalogPath.description)
            }
            throw IndexError.noValidMovie(catalog: catalogPath.description, skipped: catalog.skipped.count,
                                          firstReason: first.description)
        }
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
