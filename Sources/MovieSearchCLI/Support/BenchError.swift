/// Why `bench` timed nothing.
enum BenchError: Error, Equatable, CustomStringConvertible {
    /// The queries file has no query: it is empty, or holds only blank lines (a benchmark of nothing would print
    /// percentiles of 0 µs that look measured).
    case noQueries(file: String, lines: Int)

    var description: String {
        switch self {
        case let .noQueries(file, lines):
            return lines == 0 ? "no queries in \(file): the file is empty; give one query per line"
                : "no queries in \(file): its \(TextLayout.count(lines, "line is", "lines are")) blank; give one query per line"
        }
    }
}
