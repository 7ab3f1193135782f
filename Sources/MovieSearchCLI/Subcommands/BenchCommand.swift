import MovieSearchCommandLine
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPlatform
import MovieSearchQuery

/// `moviesearch bench --cache <file> --queries <file> [--per-year <K>] [--typos auto|off] [--passes <N>] [--slowest <N>]
/// [--json]`: times queries in this process, one call at a time, with a monotonic clock. With `--browse`, times
/// the keys of `browse` instead (see `BenchCommand+Browse.swift`).
///
/// Each timed call produces the whole grouped answer (per-year counts, total, listed ids) exactly as `query`
/// would, and prints nothing; the answers are kept so the work cannot be optimized away. Every query runs once
/// untimed first, so the figures describe a warm index (blocks checked, pages in memory), as in an app that
/// searches as the user types.
struct BenchCommand: Subcommand {
    static let name = "bench"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Time queries in-process: percentiles per query, open time, cache size, peak memory.",
        discussion: """
            Opens the cache (timed), runs every query once to warm up, then times each query call on its own \
            over N passes. Each call builds the full grouped answer without printing it. A queries file with no \
            line but blank ones is an error.
            With --browse: each queries file (--queries may be given more than once) is typed into browse's model \
            in-process, one key per letter (Backspace back to what the line before shares with it, Ctrl-U when \
            nothing), and each key is timed from the key to the bytes of the frame that shows its answer (the model's \
            search, the layout of the visible rows at 80×24, the changed rows as terminal bytes); percentiles per \
            key, per file and over all files.
            """,
        usageForms: [
            UsageForm([.required(cache), .required(queries)]
                + .optionals(SearchOptions.arguments + FilterOptions.arguments + [facets, passes, slowest, json])),
            UsageForm([.required(browse), .required(cache), .repeated(queries)]
                + .optionals([SearchOptions.typos, passes, json])),
            UsageForm([.required(details), .required(cache), .optional(passes)]),
        ],
        arguments: [cache, queries] + SearchOptions.arguments + FilterOptions.arguments
            + [facets, passes, slowest, browse, details, json])

    static let facets = Option<FacetChoice>("facets", valueName: FacetChoice.valueName, help: "genre: count each answer's genre facet too.")

    static let defaultPasses = 5
    /// The most queries a file may hold, and the most bytes they may take in all: they are all kept in memory,
    /// with a time for each per pass. A line may hold `QueryCommand.maximumLineBytes`.
    static let maximumQueries = 1_000_000
    static let maximumQueryBytes = 64 << 20

    static let cache = Option<FilePath>("cache", valueName: "file", help: "The cache to query, built by 'moviesearch index'.")
    static let queries = Option<FilePath>(
        "queries", valueName: "file",
        help: "The queries, one per line (an empty line is a query too), e.g. ../shared/queries/decade-typing.txt. "
            + "At most \(TextLayout.grouped(maximumQueries)) queries and "
            + "\(FileReader.byteLimitDescription(maximumQueryBytes)) in all, "
            + "\(FileReader.byteLimitDescription(QueryCommand.maximumLineBytes)) a line.")
    /// Passes a run may make: plenty for stable percentiles; more only multiplies the samples kept in memory.
    static let passRange = 1...1_000
    static let slowestRange = 0...10_000
    /// Timed calls (queries × passes) one run keeps, 8 bytes each (400 MB), checked before allocating them:
    /// room for 1,000 passes over the 13,489 queries of ../shared/queries/century-typing.txt.
    static let maximumSamples = 50_000_000
    static let passes = DefaultedOption<Int>(
        "passes", valueName: "N", range: passRange, default: defaultPasses, help: "Timed passes over all queries",
        note: "queries × passes may not exceed \(TextLayout.grouped(maximumSamples))")
    static let slowest = DefaultedOption<Int>(
        "slowest", valueName: "N", range: slowestRange, default: 0,
        help: "Also list the N slowest queries, by their median time over the passes")
    static let browse = Flag(
        "browse", help: "Time browse's keys instead of queries: each query file typed a letter at a time through "
            + "the browse model, each key from key to frame bytes.")
    static let details = Option<Int>(
        "details", valueName: "id", rule: .movieID,
        help: "Time browse's details page of this movie instead of queries: opening it, then each ↓ down to its "
            + "end, each key from key to frame bytes at 80×24 (a movie with a long overview shows the cost of "
            + "laying a long text out).")
    static let json = JSONOutput.flag(members: BenchReportJSON.helpText)

    /// What is timed: queries, browse's keys, or a details page.
    enum Mode {
        /// Each query of the file (`--queries`, the last one given).
        case queries(FilePath)
        /// `--browse`: every `--queries` file typed into browse's model, in command-line order.
        case browse([FilePath])
        /// `--details <id>`: that movie's details page in browse.
        case details(movieID: Int)
    }

    var cachePath: FilePath
    var mode: Mode
    var search: SearchOptions
    var filters: FilterOptions
    var countsGenres: Bool
    var passCount, slowestCount: Int
    var printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let cachePath = arguments[Self.cache] else { throw UsageError("missing option '--cache <file>'") }
        let timesBrowse = arguments[Self.browse]
        if let movieID = arguments[Self.details] {
            if arguments[Self.queries] != nil || timesBrowse {
                throw UsageError("--details times one movie's page: it takes no --queries and no --browse")
            }
            mode = .details(movieID: movieID)
        } else {
            guard let queriesPath = arguments[Self.queries] else {
                throw UsageError("missing option '--queries <file>'")
            }
            mode = timesBrowse ? .browse(arguments.all(Self.queries)) : .queries(queriesPath)
        }
        self.cachePath = cachePath
        search = SearchOptions(arguments)
        filters = FilterOptions(arguments)
        countsGenres = arguments[Self.facets] == .genre
        passCount = arguments[Self.passes]
        slowestCount = arguments[Self.slowest]
        printsJSON = arguments[Self.json]
        if timesBrowse, arguments.isGiven(SearchOptions.perYear) {
            throw UsageError("--per-year does not apply to --browse: browse lists as many per year as fit its screen")
        }
        if timesBrowse, arguments.isGiven(Self.slowest) {
            throw UsageError("--slowest does not apply to --browse")
        }
    }

    func run(_ context: CommandContext) throws {
        let queriesPath: FilePath
        switch mode {
        case let .details(movieID): return try runDetails(movieID: movieID, context)
        case let .browse(paths): return try runBrowse(paths, context)
        case let .queries(path): queriesPath = path
        }
        let queries = try Self.readQueries(queriesPath)
        let (sampleCount, overflow) = queries.count.multipliedReportingOverflow(by: passCount)
        if overflow || sampleCount > Self.maximumSamples {
            throw BenchError.tooManySamples(file: queriesPath.description, queries: queries.count, passes: passCount)
        }

        let openStart = ContinuousClock.now
        let index = try MovieIndex(path: cachePath)
        let openNanoseconds = (ContinuousClock.now - openStart).wholeNanoseconds

        var checksum = 0
        for query in queries {
            checksum &+= try index.search(query, perYear: search.perYear, typos: search.typos,
                                          filters: filters.filters, genreFacet: countsGenres).total
        }
        var samples: [UInt64] = []
        samples.reserveCapacity(queries.count * passCount)
        for _ in 0..<passCount {
            for query in queries {
                let start = ContinuousClock.now
                let result = try index.search(query, perYear: search.perYear, typos: search.typos,
                                              filters: filters.filters, genreFacet: countsGenres)
                samples.append((ContinuousClock.now - start).wholeNanoseconds)
                checksum &+= result.total &+ result.years.count
            }
        }
        var report = Report(queries: queries.count, passes: passCount, samples: samples, openNanoseconds: openNanoseconds,
                            cacheBytes: index.fileSize, peakResidentBytes: System.peakResidentBytes(), checksum: checksum)
        report.slowest = Self.slowest(slowestCount, of: queries, samples: samples)
        if printsJSON {
            context.standardOutput.line(bytes: BenchReportJSON.object(report).bytes)
        } else {
            BenchReportText.write(report, cache: cachePath, queriesFile: queriesPath, to: context.standardOutput)
        }
    }

    /// The `count` queries with the largest median time over the passes (`samples` holds pass after pass),
    /// slowest first; ties in query-file order.
    static func slowest(_ count: Int, of queries: [String], samples: [UInt64]) -> [(query: String, medianMicroseconds: Double)] {
        guard count > 0, !queries.isEmpty else { return [] }
        let passes = samples.count / queries.count
        let medians = queries.indices.map { query -> UInt64 in
            let times = (0..<passes).map { samples[$0 * queries.count + query] }.sorted()
            return times.isEmpty ? 0 : times[(times.count - 1) / 2]
        }
        let order = queries.indices.sorted { medians[$0] != medians[$1] ? medians[$0] > medians[$1] : $0 < $1 }
        return order.prefix(count).map { (queries[$0], Double(medians[$0]) / 1000) }
    }

    /// The lines of a queries file (see `lines(_:)`), refusing one without a query (percentiles of no sample
    /// would print as 0 µs, a figure that looks measured). Opened without waiting for a writer: a FIFO no one
    /// writes to holds no queries, rather than freezing here.
    static func readQueries(_ path: FilePath) throws -> [String] {
        let queries: [String]
        switch Syscalls.openFile(path, for: .readingWithoutWaitingForAWriter) {
        case .success(let fd):
            defer { Syscalls.closeDescriptor(fd) }
            do {
                queries = try lines(.fileDescriptor(fd))
            } catch {
                throw FileReadError(role: "queries", path: path.description, cause: error)
            }
        case .failure(let cause):
            throw FileReadError(role: "queries", path: path.description, cause: cause)
        }
        guard queries.contains(where: { $0.contains { !$0.isWhitespace } }) else {
            throw BenchError.noQueries(file: path.description, lines: queries.count)
        }
        return queries
    }

    /// The lines of `input`, read as a stream; a final newline does not start another (empty) query, a `\r`
    /// before `\n` is dropped. Throws past `maximumCount` lines, `maximumBytes` bytes in all or a line of more
    /// than `QueryCommand.maximumLineBytes`, as soon as the line that goes past is read.
    static func lines(_ input: InputSource, maximumCount: Int = maximumQueries, maximumBytes: Int = maximumQueryBytes)
        throws(LineReadFailure) -> [String]
    {
        var lines: [String] = []
        var bytes = 0
        var limit: LineReadFailure?
        let failure = input.forEachLine(maximumLineBytes: QueryCommand.maximumLineBytes, { line in
            bytes += line.utf8.count + 1
            if lines.count == maximumCount {
                limit = .tooManyLines(limit: maximumCount)
            } else if bytes > maximumBytes {
                limit = .tooManyBytes(limit: maximumBytes)
            } else {
                lines.append(line)
            }
            return limit == nil
        }, beforeWaiting: {})
        if let failure = failure ?? limit { throw failure }
        return lines
    }

    /// The figures of one run.
    typealias Report = BenchReport
}
