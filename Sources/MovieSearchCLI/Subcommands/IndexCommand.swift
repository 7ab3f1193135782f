import MovieSearch

/// `moviesearch index <catalog.json|-> [-o|--output <cache>] [--skip-invalid]`: builds the binary cache.
struct IndexCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "index",
        abstract: "Build the binary cache of a JSON movie catalog, for the other commands to read.",
        discussion: """
            The cache is written to a temporary file beside the output and renamed into place, so a failed run \
            leaves an existing cache untouched. A movie's id is its position in the catalog, counting from 0. \
            Nothing is written when the output is the catalog itself (also through a link), or when the catalog \
            has no valid movie. \
            A catalog that is not a regular file (standard input, a pipe, a device) is checked as it is read, \
            stops at its first byte that is not JSON, and may hold at most \
            \(FileReader.byteLimitDescription(CatalogDecoder.maximumStreamBytes)).
            """,
        arguments: [catalog, output, skipInvalid])

    static let catalog = Argument<FilePath>(
        "catalog.json",
        help: "The JSON catalog: an array of movies, or an object whose 'movies' member is one; '-' reads it from "
            + "standard input (then -o is required).")
    static let output = Option<FilePath>(
        "output", short: "o", valueName: "cache",
        help: "Where to write the cache. Default: the catalog's path with its extension replaced by .mscache.")
    static let skipInvalid = Flag(
        "skip-invalid",
        help: "Leave out invalid movies (and say how many) instead of stopping at the first one.")

    /// How messages name the catalog of `index -`.
    static let standardInputName = "<stdin>"
    /// The catalog argument that reads standard input.
    static let standardInput = FilePath("-")

    /// How many reasons `--skip-invalid` lists before it only counts.
    static let reasonsShown = 3

    var catalogPath: FilePath
    var outputPath: FilePath
    var skipsInvalid: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        catalogPath = arguments[Self.catalog]!
        if arguments[Self.output] == nil {
            // The default output lies beside the catalog, which only makes sense for a regular file: not
            // `/dev/stdin.mscache`.
            if catalogPath == Self.standardInput {
                throw UsageError("'-' reads the catalog from standard input: give the cache's path with -o <cache>")
            }
            if let kind = System.specialFileKind(catalogPath) {
                throw UsageError("\(TerminalSafeText.escaped(catalogPath)) is \(kind): give the cache's path with -o <cache>")
            }
        }
        outputPath = arguments[Self.output] ?? Self.defaultOutputPath(for: catalogPath)
        skipsInvalid = arguments[Self.skipInvalid]
    }

    /// The catalog's path with its extension replaced by `.mscache` (`a/b.json` → `a/b.mscache`), or with
    /// `.mscache` appended when its file name has no extension (`movies`, `.hidden`), on the path's bytes.
    static func defaultOutputPath(for catalogPath: FilePath) -> FilePath {
        catalogPath.replacingExtension(with: "mscache")
    }

    func run(_ context: CommandContext) throws {
        let start = ContinuousClock.now
        let readsStandardInput = catalogPath == Self.standardInput
        // Checked before reading, and both stat'ed, so that a link (symbolic or hard) to the catalog is caught too,
        // and so is standard input redirected from the output (`index - -o movies.json < movies.json`); an output
        // that does not exist yet cannot be the catalog.
        if let output = System.fileIdentity(outputPath),
           let input = readsStandardInput ? context.standardInput.fileIdentity : System.fileIdentity(catalogPath),
           output == input {
            throw IndexError.outputIsCatalog(
                catalog: readsStandardInput ? Self.standardInputName : catalogPath.description,
                output: outputPath.description)
        }
        let catalog = readsStandardInput
            ? try context.standardInput.catalog(source: Self.standardInputName, skipInvalid: skipsInvalid)
            : try CatalogDecoder.load(path: catalogPath, skipInvalid: skipsInvalid)
        let catalogName = readsStandardInput ? Self.standardInputName : catalogPath.description
        // A cache of no movie would replace a good one (with `--skip-invalid`, a catalog of nothing but bad movies).
        if catalog.movies.isEmpty {
            guard let first = catalog.skipped.first else {
                throw IndexError.emptyCatalog(catalog: catalogName)
            }
            throw IndexError.noValidMovie(catalog: catalogName, skipped: catalog.skipped.count,
                                          firstReason: first.description)
        }
        let statistics = try CacheWriter.write(catalog, to: outputPath)
        let elapsed = (ContinuousClock.now - start).wholeNanoseconds

        let skipped = catalog.skipped
        if !skipped.isEmpty {
            context.warning("skipped \(TextLayout.count(skipped.count, "invalid movie", "invalid movies"))"
                + (skipped.count > Self.reasonsShown ? ", the first \(Self.reasonsShown):" : ":"))
            for reason in skipped.prefix(Self.reasonsShown) {
                context.standardError.line("  \(TerminalSafeText.escapedMessage(String(describing: reason)))")
            }
        }

        let out = context.standardOutput
        let catalogShown = readsStandardInput ? Self.standardInputName : TerminalSafeText.escaped(catalogPath)
        out.line("Indexed \(catalogShown) into \(TerminalSafeText.escaped(outputPath))")
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
