/// The figures of one timed run of `bench`: the samples, in nanoseconds, and what the run opened and measured
/// around them. `BenchReportText` and `BenchReportJSON` print it.
package struct BenchReport: Sendable {
    /// The queries (or keys) timed in one pass.
    package var queries: Int
    package var passes: Int
    /// Each timed call, in nanoseconds, pass after pass.
    package var samples: [UInt64]
    package var openNanoseconds: UInt64
    package var cacheBytes: Int
    package var peakResidentBytes: Int
    /// Sum of answer sizes, printed so a reader can see two runs did the same work.
    package var checksum: Int
    /// The slowest queries (`--slowest`), slowest first.
    package var slowest: [(query: String, medianMicroseconds: Double)] = []

    package init(queries: Int, passes: Int, samples: [UInt64], openNanoseconds: UInt64, cacheBytes: Int,
                 peakResidentBytes: Int, checksum: Int) {
        self.queries = queries
        self.passes = passes
        self.samples = samples
        self.openNanoseconds = openNanoseconds
        self.cacheBytes = cacheBytes
        self.peakResidentBytes = peakResidentBytes
        self.checksum = checksum
    }

    private var sorted: [UInt64] { samples.sorted() }

    /// The nearest-rank percentile `p` (0–100) in microseconds.
    package func percentile(_ p: Double) -> Double {
        let sorted = self.sorted
        guard !sorted.isEmpty else { return 0 }
        let rank = max(1, Int((p / 100 * Double(sorted.count)).rounded(.up)))
        return Double(sorted[min(rank, sorted.count) - 1]) / 1000
    }

    /// The slowest sample, in microseconds.
    package var maximum: Double { Double(samples.max() ?? 0) / 1000 }
    /// The mean sample, in microseconds.
    package var mean: Double { samples.isEmpty ? 0 : Double(samples.reduce(0, +)) / Double(samples.count) / 1000 }
    package var queriesPerSecond: Double { mean > 0 ? 1_000_000 / mean : 0 }

    /// Two decimals: enough for microseconds, short in JSON.
    package static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// `value` with exactly `digits` decimals (`12.50`).
    package static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        let text = String(fraction)
        return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }
}
