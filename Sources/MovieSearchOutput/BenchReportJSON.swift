import MovieSearchJSON

/// `bench --json`: the figures of a run of queries (`object(_:)`) or of browse's keys (`browseObject`), as one JSON
/// object. The members are declared here, and `bench --help` lists them from these declarations (`helpText`).
package enum BenchReportJSON {
    /// The members of a run of queries, in order (`slowest` apart: only with `--slowest`).
    package static let members = [
        JSONMember("queries"), JSONMember("passes"), JSONMember("samples"), JSONMember("p50_us"),
        JSONMember("p90_us"), JSONMember("p99_us"), JSONMember("max_us"), JSONMember("mean_us"), JSONMember("qps"),
        JSONMember("open_us"), JSONMember("cache_bytes"), JSONMember("peak_rss_bytes"), JSONMember("checksum"),
    ]
    /// The slowest queries, each `query` and `median_us`, after the others.
    package static let slowest = JSONMember("slowest", "with --slowest", optional: true)

    /// The figures of the keys of one file, or of all files, in a browse report.
    package static let figureMembers = [
        JSONMember("keys"), JSONMember("samples"), JSONMember("p50_us"), JSONMember("p90_us"), JSONMember("p99_us"),
        JSONMember("max_us"), JSONMember("mean_us"),
    ]
    /// The members of a browse report (`--browse`), in order.
    package static let browseMembers = [JSONMember("columns"), JSONMember("rows"), JSONMember("passes")]
        + figureMembers + [JSONMember("files", "each with file and the same figures"), JSONMember("open_us"),
                           JSONMember("cache_bytes"), JSONMember("peak_rss_bytes"), JSONMember("checksum")]

    /// What `--json` prints, for the help: `queries, passes, … (and slowest, with --slowest); with --browse: …`.
    package static var helpText: String {
        names(members) + " (and \(slowest.name), \(slowest.note ?? "")); with --browse: " + names(browseMembers)
    }

    private static func names(_ members: [JSONMember]) -> String {
        members.map { member in member.note.map { "\(member.name) (\($0))" } ?? member.name }
            .joined(separator: ", ")
    }

    /// The report of a run of queries.
    package static func object(_ report: BenchReport) -> JSONWriter {
        var writer = JSONWriter()
        writer.object { writer in
            writer.member("queries", report.queries)
            writer.member("passes", report.passes)
            timings(report, &writer)
            writer.member("qps", Int(report.queriesPerSecond.rounded()))
            writer.member("open_us", BenchReport.rounded(Double(report.openNanoseconds) / 1000))
            writer.member("cache_bytes", report.cacheBytes)
            writer.member("peak_rss_bytes", report.peakResidentBytes)
            writer.member("checksum", report.checksum)
            if !report.slowest.isEmpty {
                writer.key("slowest")
                writer.array { writer in
                    for entry in report.slowest {
                        writer.object { writer in
                            writer.member("query", entry.query)
                            writer.member("median_us", BenchReport.rounded(entry.medianMicroseconds))
                        }
                    }
                }
            }
        }
        return writer
    }

    /// `samples`, the percentiles, `max_us` and `mean_us`: the timing members of both reports, in their order.
    private static func timings(_ report: BenchReport, _ writer: inout JSONWriter) {
        writer.member("samples", report.samples.count)
        writer.member("p50_us", BenchReport.rounded(report.percentile(50)))
        writer.member("p90_us", BenchReport.rounded(report.percentile(90)))
        writer.member("p99_us", BenchReport.rounded(report.percentile(99)))
        writer.member("max_us", BenchReport.rounded(report.maximum))
        writer.member("mean_us", BenchReport.rounded(report.mean))
    }

    /// The report of `bench --browse`: the figures of `all` the keys, then each of `files`'; every frame was drawn
    /// at `columns` × `screenRows`.
    package static func browseObject(files: [(name: String, report: BenchReport)], all: BenchReport, columns: Int,
                                     screenRows: Int) -> JSONWriter
    {
        var writer = JSONWriter()
        func figures(_ report: BenchReport, _ writer: inout JSONWriter) {
            writer.member("keys", report.queries)
            timings(report, &writer)
        }
        writer.object { writer in
            writer.member("columns", columns)
            writer.member("rows", screenRows)
            writer.member("passes", all.passes)
            figures(all, &writer)
            writer.key("files")
            writer.array { writer in
                for (name, report) in files {
                    writer.object { writer in
                        writer.member("file", name)
                        figures(report, &writer)
                    }
                }
            }
            writer.member("open_us", BenchReport.rounded(Double(all.openNanoseconds) / 1000))
            writer.member("cache_bytes", all.cacheBytes)
            writer.member("peak_rss_bytes", all.peakResidentBytes)
            writer.member("checksum", all.checksum)
        }
        return writer
    }
}
