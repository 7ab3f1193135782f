import MovieSearchCatalog
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPlatform
import MovieSearchQuery

/// `bench --browse`: the keystroke query sets replayed through `browse`'s model in-process, one key at a time, as
/// a person types them; each key timed from the key to the bytes of the frame that shows its answer.
extension BenchCommand {
    /// The size every frame is drawn at: the terminal a person most often has.
    static let browseColumns = 80
    static let browseRows = 24

    /// The keys that type `queries` one after another: from the query on the line before, Backspace back to the
    /// longest common start, then each character of the rest as its own key. A query that shares no start with
    /// the one before is begun on a line cleared with Ctrl-U, as a person would. The shared sets hold every prefix
    /// of a query as a line of its own, in varying case (`v`, `va`, `Vam`, …): letters that differ from what is
    /// already typed in case only count as typed (the search folds case, so the answer is the same), which makes
    /// this one key per letter, as the person typed it.
    static func keystrokes(typing queries: [String]) -> [Key] {
        var keys: [Key] = []
        var current: [Character] = []
        for query in queries {
            let target = Array(query)
            var common = 0
            while common < current.count, common < target.count,
                  current[common] == target[common] || current[common].lowercased() == target[common].lowercased() {
                common += 1
            }
            if common == 0, !current.isEmpty {
                keys.append(.control("u"))
            } else {
                keys += Array(repeating: .backspace, count: current.count - common)
            }
            keys += target[common...].map { .text(String($0)) }
            current = Array(current.prefix(common)) + target[common...]
        }
        return keys
    }

    /// Times every key of every file's keystrokes: `handle`, `screen(columns: 80, rows: 24)` and the bytes
    /// `FrameWriter` makes of it (only the rows that changed), which is all a keystroke costs but the one write.
    /// One untimed pass first (pages in memory, blocks checked, typo walks cached, as in a session that has been
    /// running), then `passCount` timed passes, each on a fresh model and writer.
    ///
    /// - Returns: Per file, its samples in nanoseconds (pass after pass), and a checksum of the work done.
    static func timeBrowse(_ index: MovieIndex, keys files: [[Key]], passes passCount: Int, typos: TypoTolerance)
        -> (samples: [[UInt64]], checksum: Int) {
        var checksum = 0
        var samples: [[UInt64]] = []
        for keys in files {
            var fileSamples: [UInt64] = []
            fileSamples.reserveCapacity(keys.count * passCount)
            for pass in 0...passCount {
                var model = BrowseModel(index: index, typos: typos, columns: browseColumns, rows: browseRows)
                var writer = FrameWriter(withColor: false)
                for key in keys {
                    let start = ContinuousClock.now
                    _ = model.handle(key)
                    let screen = model.screen(columns: browseColumns, rows: browseRows)
                    let bytes = writer.frame(screen).count
                    let elapsed = (ContinuousClock.now - start).wholeNanoseconds
                    if pass > 0 { fileSamples.append(elapsed) }
                    checksum &+= screen.lines.count &+ bytes &+ (model.result?.total ?? 0)
                }
            }
            samples.append(fileSamples)
        }
        return (samples, checksum)
    }

    /// `bench --browse`: reads every `--queries` file, replays each through the model, prints the figures.
    func runBrowse(_ browseQueriesPaths: [FilePath], _ context: CommandContext) throws {
        var files: [(path: FilePath, keys: [Key])] = []
        for path in browseQueriesPaths {
            let queries = try Self.readQueries(path)
            files.append((path, Self.keystrokes(typing: queries)))
        }
        let keyCount = files.reduce(0) { $0 + $1.keys.count }
        let (sampleCount, overflow) = keyCount.multipliedReportingOverflow(by: passCount)
        if overflow || sampleCount > Self.maximumSamples {
            throw BenchError.tooManySamples(file: browseQueriesPaths.map(\.description).joined(separator: ", "),
                                            queries: keyCount, passes: passCount)
        }
        let openStart = ContinuousClock.now
        let index = try MovieIndex(path: cachePath)
        let openNanoseconds = (ContinuousClock.now - openStart).wholeNanoseconds
        let (samples, checksum) = Self.timeBrowse(index, keys: files.map(\.keys), passes: passCount,
                                                  typos: search.typos)
        let peak = System.peakResidentBytes()
        func report(_ samples: [UInt64], keys: Int) -> Report {
            Report(queries: keys, passes: passCount, samples: samples, openNanoseconds: openNanoseconds,
                   cacheBytes: index.fileSize, peakResidentBytes: peak, checksum: checksum)
        }
        let rows = zip(files, samples).map { file, samples in
            (name: file.path.description, report: report(samples, keys: file.keys.count))
        }
        let all = report(samples.flatMap { $0 }, keys: keyCount)
        if printsJSON {
            context.standardOutput.line(bytes: BenchReportJSON.browseObject(
                files: rows, all: all, columns: Self.browseColumns, screenRows: Self.browseRows).bytes)
        } else {
            BenchReportText.writeBrowse(files: rows, all: all, cache: cachePath, columns: Self.browseColumns,
                                        screenRows: Self.browseRows, to: context.standardOutput)
        }
    }
}

extension BenchCommand {
    /// `bench --details <id>`: times browse's details page of one movie at 80×24, in-process: opening it (Enter on
    /// its row: the page laid out, the frame drawn), then each ↓ down to its last screenful, each key from key to
    /// frame bytes. One untimed pass first, then `passCount` timed passes on fresh models. The figures of a movie
    /// with an overview of tens of thousands of characters show what laying a long text out costs a person.
    func runDetails(movieID: Int, _ context: CommandContext) throws {
        let index = try MovieIndex(path: cachePath)
        let movie = try index.movie(id: movieID)
        var opens: [UInt64] = [], keys: [UInt64] = []
        var checksum = 0
        for pass in 0...passCount {
            var model = BrowseModel(index: index, columns: Self.browseColumns, rows: Self.browseRows)
            var writer = FrameWriter(withColor: false)
            checksum &+= writer.frame(model.screen(columns: Self.browseColumns, rows: Self.browseRows)).count
            var start = ContinuousClock.now
            model.openDetails(movieID: movieID)
            var screen = model.screen(columns: Self.browseColumns, rows: Self.browseRows)
            checksum &+= writer.frame(screen).count
            if pass > 0 { opens.append(UInt64((ContinuousClock.now - start).wholeNanoseconds)) }
            // ↓ until the page stops scrolling (the screen no longer changes), at most 100,000 keys.
            for _ in 0..<100_000 {
                start = ContinuousClock.now
                _ = model.handle(.down)
                let next = model.screen(columns: Self.browseColumns, rows: Self.browseRows)
                let bytes = writer.frame(next).count
                if pass > 0 { keys.append(UInt64((ContinuousClock.now - start).wholeNanoseconds)) }
                checksum &+= bytes
                if next == screen { break }
                screen = next
            }
        }
        let openReport = Report(queries: 1, passes: passCount, samples: opens, openNanoseconds: 0,
                                cacheBytes: index.fileSize, peakResidentBytes: 0, checksum: checksum)
        let keyReport = Report(queries: keys.count / max(passCount, 1), passes: passCount, samples: keys,
                               openNanoseconds: 0, cacheBytes: index.fileSize, peakResidentBytes: 0, checksum: checksum)
        BenchReportText.writeDetails(movieID: movieID, title: movie.title, overviewCharacters: movie.overview?.count ?? 0,
                                     open: openReport, keys: keyReport, columns: Self.browseColumns,
                                     screenRows: Self.browseRows, to: context.standardOutput)
    }
}
