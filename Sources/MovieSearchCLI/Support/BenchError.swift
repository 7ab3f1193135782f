import MovieSearchOutput

/// Why `bench` timed nothing.
enum BenchError: Error, Equatable, CustomStringConvertible {
    /// The queries file has no query: it is empty, or holds only blank lines (a benchmark of nothing would print
    /// percentiles of 0 µs that look measured).
    case noQueries(file: String, lines: Int)
    /// Queries × passes is more than the timed calls one run keeps (`BenchCommand.maximumSamples`), checked before
    /// the samples are allocated.
    case tooManySamples(file: String, queries: Int, passes: Int)

    var description: String {
        switch self {
        case let .noQueries(file, lines):
            return lines == 0 ? "no queries in \(file): the file is empty; give one query per line"
                : "no queries in \(file): its \(TextLayout.count(lines, "line is", "lines are")) blank; give one query per line"
        case let .tooManySamples(file, queries, passes):
            return "\(TextLayout.count(queries, "query", "queries")) in \(file) × \(TextLayout.count(passes, "pass", "passes")) "
                + "is more than the \(TextLayout.grouped(BenchCommand.maximumSamples)) timed calls a run keeps; "
                + "use fewer --passes or fewer queries"
        }
    }
}
