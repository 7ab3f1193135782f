import MovieSearchCatalog
import MovieSearchCommandLine
import MovieSearchIndex
import MovieSearchInput
import MovieSearchOutput
import MovieSearchPlatform

/// `moviesearch index <catalog|-> [-o|--output <cache>] [--format …] [--ratings <file>] [--title-types …]
/// [--column field=column]… [--skip-invalid] [--quiet]`: builds the binary cache of a catalog in any format it reads.
struct IndexCommand: Subcommand {
    static let name = "index"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Build the binary cache of a movie catalog (JSON, TMDb JSON, IMDb TSV or CSV; gzipped or not), "
            + "for the other commands to read.",
        discussion: """
            The format is told from the first bytes unless --format names it; a gzip file is read as it is \
            decoded, never unpacked to disk. IMDb's dataset is title.basics.tsv[.gz] with --ratings \
            title.ratings.tsv[.gz]; its titles without a start year are invalid, so index it with --skip-invalid. \
            The cache is written to a temporary file beside the output and renamed into place, so a failed run \
            leaves an existing cache untouched. A movie's id is its position in the catalog, counting from 0. \
            Nothing is written when the output is the catalog itself (also through a link), or when the catalog \
            has no valid movie. \
            A catalog that is not a regular file (standard input, a pipe, a device) is checked as it is read, \
            stops at its first byte that is not JSON, and may hold at most \
            \(FileReader.byteLimitDescription(CatalogDecoder.maximumStreamBytes)).
            """,
        arguments: [catalog, output, format, ratings, titleTypes, column, ratingScale, criticScale, maxMovies, skipInvalid,
                    quiet])

    static let catalog = Argument<FilePath>(
        "catalog",
        help: "The catalog: moviesearch JSON (an array of movies, or an object whose 'movies' member is one), a TMDb "
            + "API response (or an array of them), IMDb's title.basics.tsv, or CSV with a header row; '-' reads it "
            + "from standard input (then -o is required).")
    static let output = Option<FilePath>(
        "output", short: "o", valueName: "cache",
        help: "Where to write the cache. Default: the catalog's path with its extension replaced by .mscache.")
    static let maxMovies = DefaultedOption<Int>(
        "max-movies", valueName: "N", range: 1...Int(UInt32.max), default: CatalogOptions.defaultMaximumRecords,
        help: "The most records the catalog may hold, counted as they are read (valid, invalid and left out alike; "
            + "IMDb ratings rows apart): past it, index stops with one line and writes nothing, so that a small file "
            + "that unpacks to millions of rows cannot take the machine's memory")
    static let skipInvalid = Flag(
        "skip-invalid",
        help: "Leave out invalid movies (and say how many) instead of stopping at the first one.")
    static let quiet = Flag(
        "quiet",
        help: "Print nothing but errors: no summary, no warnings, no progress display.")
    static let format = DefaultedOption<CatalogFormatChoice>(
        "format", default: .auto,
        help: "The catalog's format; auto tells it from the first bytes")
    static let ratings = Option<FilePath>(
        "ratings", valueName: "file",
        help: "IMDb only: title.ratings.tsv[.gz] ('-': standard input), joined on tconst; titles without a rating "
            + "are unrated.")
    static let titleTypes = Option<TitleTypeList>(
        "title-types", valueName: "types",
        help: "IMDb only: the title types to keep, separated by commas, or 'all' (default movie). The others keep "
            + "their ids unused.")
    static let column = Option<ColumnMapping>(
        "column", valueName: "field=column",
        help: "CSV only: read a field from a column named otherwise (rating=imdb_score); may be repeated.")

    static let ratingScale = Option<Int>(
        "rating-scale", valueName: "5|10|100", rule: .inRange(5...100),
        help: "What the users' ratings are out of, 5, 10 or 100, for every output to show them on it (4/5, 7.8/10); "
            + "a rating above it is a usage error. Default: the smallest of 5, 10 and 100 that no rating exceeds.")
    static let criticScale = Option<Int>(
        "critic-scale", valueName: "10|100", rule: .inRange(10...100),
        help: "CSV only: the scale of the critics' column, 10 (0 to 10) or 100 (0 to 100, as a Metascore, stored "
            + "divided by 10). Default: 100 for a column named metascore, else 10.")

    /// How messages name the catalog of `index -`.
    static let standardInputName = "<stdin>"
    /// The catalog argument that reads standard input.
    static let standardInput = FilePath("-")

    /// How many reasons `--skip-invalid` lists before it only counts.
    static let reasonsShown = 3

    var catalogPath: FilePath
    var outputPath: FilePath
    var options: CatalogOptions
    /// `--quiet`: errors only.
    var isQuiet: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        catalogPath = arguments[Self.catalog]!
        isQuiet = arguments[Self.quiet]
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
        options = CatalogOptions(format: arguments[Self.format].format, skipInvalid: arguments[Self.skipInvalid])
        options.maximumRecords = arguments[Self.maxMovies]
        // The decoder opens the ratings file by the bytes given (`ratingsPath`); the options say that there is one.
        options.ratingsPath = arguments[Self.ratings]?.description
        ratingsPath = arguments[Self.ratings]
        if ratingsPath == Self.standardInput && catalogPath == Self.standardInput {
            throw UsageError("the catalog and --ratings cannot both be '-' (standard input): give one as a file")
        }
        if let types = arguments[Self.titleTypes] { options.titleTypes = types.types }
        givesTitleTypes = arguments[Self.titleTypes] != nil
        for mapping in arguments.all(Self.column) { options.columns[mapping.field] = mapping.column }
        if let scale = arguments[Self.criticScale] {
            guard CatalogOptions.criticScales.contains(scale) else {
                throw UsageError("--critic-scale is 10 or 100, not \(scale)")
            }
            options.criticScale = scale
        }
        if let scale = arguments[Self.ratingScale] {
            guard let given = RatingScale(rawValue: scale) else {
                throw UsageError("--rating-scale is 5, 10 or 100, not \(scale)")
            }
            ratingScale = given
        }
        if let format = options.format { try Self.check(options, givesTitleTypes: givesTitleTypes, against: format) }
    }

    /// The ratings file, as given (its path need not be UTF-8).
    var ratingsPath: FilePath?
    /// `--rating-scale`, when given.
    var ratingScale: RatingScale?
    /// Whether `--title-types` was given (it has a default, so `options` cannot tell).
    var givesTitleTypes: Bool

    /// Refuses the options that do not apply to `format` (`--ratings` for a CSV file), so that a user does not
    /// believe they took effect.
    static func check(_ options: CatalogOptions, givesTitleTypes: Bool, against format: CatalogFormat)
        throws(UsageError)
    {
        let misplaced: String? =
            if options.ratingsPath != nil && format != .imdb { "--ratings" }
            else if givesTitleTypes && format != .imdb { "--title-types" }
            else if !options.columns.isEmpty && format != .csv { "--column" }
            else if options.criticScale != nil && format != .csv { "--critic-scale" }
            else { nil }
        guard let misplaced else { return }
        let applies = misplaced == "--column" || misplaced == "--critic-scale" ? "CSV" : "IMDb TSV"
        throw UsageError("\(misplaced) applies to \(applies) only, and the catalog is \(format.displayName)")
    }

    /// Opens the catalog at `path` for `CatalogDecoder`. Throws `CatalogError.unreadable`.
    static func open(_ path: FilePath) throws -> CatalogInput {
        try CatalogDecoder.open(path)
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
        if let output = FileIdentity.of(outputPath),
           let input = readsStandardInput ? context.standardInput.fileIdentity : FileIdentity.of(catalogPath),
           output.isSameFile(as: input) {
            throw IndexError.outputIsCatalog(
                catalog: readsStandardInput ? Self.standardInputName : catalogPath.description,
                output: outputPath.description)
        }
        // The ratings file is part of the catalog: writing the cache over it would lose it just the same.
        let readsRatingsFromStandardInput = ratingsPath == Self.standardInput
        if let ratingsPath, let output = FileIdentity.of(outputPath),
           let ratings = readsRatingsFromStandardInput ? context.standardInput.fileIdentity
               : FileIdentity.of(ratingsPath),
           output.isSameFile(as: ratings) {
            throw IndexError.outputIsRatings(
                ratings: readsRatingsFromStandardInput ? Self.standardInputName : ratingsPath.description,
                output: outputPath.description)
        }
        let ratings = readsRatingsFromStandardInput
            ? (input: context.standardInput.catalogInput, name: Self.standardInputName) : nil
        let catalogName = readsStandardInput ? Self.standardInputName : catalogPath.description
        let progress = isQuiet ? nil : context.errorTerminalWidth.map { ProgressLine(output: context.standardError, width: $0) }
        // Erased however the run ends, so that an error line starts at the left margin of a clean line.
        defer { progress?.finish() }
        let input = readsStandardInput ? context.standardInput.catalogInput : try Self.open(catalogPath)
        var options = self.options
        options.progress = progress?.handler
        // The titles are tokenized on another core as they are read, where reading leaves it mostly idle.
        let tokenizer = TitleTokenizer()
        options.titlesRead = tokenizer.handler
        let detected = options.format == nil
        if detected {
            options.format = try CatalogDecoder.format(of: input, source: catalogName)
            try Self.check(options, givesTitleTypes: givesTitleTypes, against: options.format!)
        }
        // The line-based formats are decoded as they are read, so the bytes read say how far decoding has come (a
        // JSON document is read whole first).
        if input.isRegularFile && input.fileSize > 0 && (options.format == .imdb || options.format == .csv) {
            progress?.readFraction = { Double(input.bytesReadFromInput) / Double(input.fileSize) }
        }
        var catalog = try CatalogDecoder.load(input, source: catalogName, options: options,
                                              ratingsPath: ratingsPath, ratings: ratings, formatDetected: detected)
        // A cache of no movie would replace a good one (with `--skip-invalid`, a catalog of nothing but bad movies).
        if catalog.movieCount == 0 {
            guard let first = catalog.skipped.first else {
                throw IndexError.emptyCatalog(catalog: catalogName)
            }
            throw IndexError.noValidMovie(catalog: catalogName, skipped: catalog.skippedCount,
                                          firstReason: first.description)
        }
        if let ratingScale {
            // The user said what the ratings are out of, and a rating says otherwise: the option is wrong (or the
            // catalog), so nothing is written.
            if let highest = catalog.highestRating, !ratingScale.holds(highest.rating) {
                let fitting = RatingScale.allCases.filter { $0.holds(highest.rating) }.map { String($0.rawValue) }
                throw UsageError("--rating-scale \(ratingScale.rawValue) is less than the rating "
                    + "\(TextLayout.rating(highest.rating) ?? "") of movie \(highest.id): "
                    + (fitting.isEmpty ? "leave it out (a rating above 100 is on no scale)"
                        : "give \(fitting.joined(separator: " or ")), or leave it out"))
            }
            catalog.ratingScale = ratingScale
        }
        // What the summary tells of the catalog, kept: the writer takes the catalog and lets its movies go as it
        // builds, which at IMDb's scale is gigabytes of the peak.
        let (duplicates, skipped, skippedCount) = (catalog.duplicates, catalog.skipped, catalog.skippedCount)
        let (format, filteredOut) = (catalog.format, catalog.filteredOut)
        let statistics = try CacheWriter.write(consume catalog, to: outputPath, titles: tokenizer.finish(),
                                               progress: progress?.handler)
        progress?.finish()
        let elapsed = (ContinuousClock.now - start).wholeNanoseconds
        if isQuiet { return }

        if duplicates > 0 {
            context.warning("\(TextLayout.count(duplicates, "record repeats", "records repeat")) a TMDb id "
                + "seen before (overlapping pages?): kept the first of each")
        }
        if !skipped.isEmpty {
            context.warning("skipped \(TextLayout.count(skippedCount, "invalid movie", "invalid movies"))"
                + (skippedCount > Self.reasonsShown ? ", the first \(Self.reasonsShown):" : ":"))
            for reason in skipped.prefix(Self.reasonsShown) {
                context.standardError.line("  \(TerminalSafeText.escapedMessage(String(describing: reason)))")
            }
        }

        IndexSummaryText.write(IndexSummaryText.Summary(
            catalog: readsStandardInput ? .label(Self.standardInputName) : .path(catalogPath), cache: outputPath,
            format: format.displayName, formatDetected: detected, gzip: input.isGzip, statistics: statistics,
            skipped: options.skipInvalid ? skippedCount : nil, filteredOut: filteredOut,
            elapsedNanoseconds: elapsed), to: context.standardOutput)
    }
}
