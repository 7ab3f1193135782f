import MovieSearchPlatform

/// `bench` as text for a person: the figures of a run of queries, of browse's keys (`--browse`) or of a details
/// page (`--details`), each a title line then one row per figure.
///
///     Benchmark of Data/movies.mscache with ../shared/queries/decade-typing.txt
///       queries      1,322 × 5 passes (6,610 timed calls)
///       p50          12.40 µs
package enum BenchReportText {
    /// A run of queries from `queriesFile` on the cache at `cache`, and its slowest queries when it has them.
    package static func write(_ report: BenchReport, cache: FilePath, queriesFile: FilePath, to out: TextOutput) {
        func us(_ value: Double) -> String { BenchReport.fixed(value, digits: 2) + " µs" }
        let rows: [(String, String)] = [
            ("queries", "\(TextLayout.grouped(report.queries)) × \(TextLayout.count(report.passes, "pass", "passes")) "
                + "(\(TextLayout.count(report.samples.count, "timed call", "timed calls")))"),
            ("p50", us(report.percentile(50))), ("p90", us(report.percentile(90))),
            ("p99", us(report.percentile(99))), ("max", us(report.maximum)), ("mean", us(report.mean)),
            ("throughput", "\(TextLayout.grouped(Int(report.queriesPerSecond.rounded()))) queries/s"),
            ("open", us(Double(report.openNanoseconds) / 1000)),
            ("cache size", "\(TextLayout.grouped(report.cacheBytes)) bytes"),
            ("peak memory", "\(TextLayout.grouped(report.peakResidentBytes / 1024)) KiB resident"),
        ]
        out.line("Benchmark of \(TerminalSafeText.escaped(cache)) with \(TerminalSafeText.escaped(queriesFile))")
        for (label, value) in rows { out.line("  " + TextLayout.padRight(label, 12) + " " + value) }
        if !report.slowest.isEmpty {
            out.line("  slowest queries (median over the passes):")
            for entry in report.slowest {
                out.line("    " + TextLayout.padLeft(us(entry.medianMicroseconds), 12) + "  "
                    + TerminalSafeText.quoted(entry.query))
            }
        }
    }

    /// `bench --browse`: the report of each of `files`, then `all` of them on a row named "all"; every frame was
    /// drawn at `columns` × `screenRows`.
    package static func writeBrowse(files: [(name: String, report: BenchReport)], all: BenchReport, cache: FilePath,
                                    columns: Int, screenRows: Int, to out: TextOutput) {
        func us(_ value: Double) -> String { TextLayout.padLeft(BenchReport.fixed(value, digits: 1) + " µs", 11) }
        let rows = files + [(name: "all", report: all)]
        out.line("Browse benchmark of \(TerminalSafeText.escaped(cache)): per key, handle + screen + frame bytes at "
            + "\(columns)×\(screenRows), \(TextLayout.count(all.passes, "pass", "passes"))")
        let nameWidth = max(5, rows.map { DisplayWidth.columns(of: TerminalSafeText.escaped($0.name)) }.max() ?? 0)
        out.line("  " + TextLayout.padRight("keys of", nameWidth) + "  " + TextLayout.padLeft("keys", 9)
            + ["p50", "p90", "p99", "max"].map { TextLayout.padLeft($0, 11) }.joined())
        for (name, report) in rows {
            out.line("  " + TextLayout.padRight(TerminalSafeText.escaped(name), nameWidth) + "  "
                + TextLayout.padLeft(TextLayout.grouped(report.queries), 9)
                + us(report.percentile(50)) + us(report.percentile(90)) + us(report.percentile(99))
                + us(report.maximum))
        }
        out.line("  open \(BenchReport.fixed(Double(all.openNanoseconds) / 1000, digits: 1)) µs, "
            + "cache \(TextLayout.grouped(all.cacheBytes)) bytes, "
            + "peak memory \(TextLayout.grouped(all.peakResidentBytes / 1024)) KiB, checksum \(all.checksum)")
    }

    /// `bench --details <id>`: opening the page of movie `movieID` (titled `title`, with an overview of
    /// `overviewCharacters`) and each ↓ down its length (`keys`: `queries` is the keys of one pass), at
    /// `columns` × `screenRows`.
    package static func writeDetails(movieID: Int, title: String, overviewCharacters: Int, open: BenchReport,
                                     keys: BenchReport, columns: Int, screenRows: Int, to out: TextOutput) {
        func ms(_ microseconds: Double) -> String { BenchReport.fixed(microseconds / 1000, digits: 3) + " ms" }
        let title = TerminalSafeText.escaped(DisplayWidth.truncated(title, toColumns: 40))
        out.line("Details page of movie \(movieID) (\(title), "
            + "overview \(TextLayout.grouped(overviewCharacters)) characters) at "
            + "\(columns)×\(screenRows), \(TextLayout.count(open.passes, "pass", "passes")):")
        out.line("  open       p50 \(ms(open.percentile(50)))  max \(ms(open.maximum))")
        out.line("  ↓ (\(TextLayout.count(keys.queries, "key", "keys")) a pass)  "
            + "p50 \(ms(keys.percentile(50)))  p99 \(ms(keys.percentile(99)))  max \(ms(keys.maximum))")
        out.line("  checksum \(keys.checksum)")
    }
}
