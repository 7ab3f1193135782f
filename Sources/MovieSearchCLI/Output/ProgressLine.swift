import MovieSearchCatalog
import MovieSearchOutput

/// The one-line progress display of `index` on standard error: phase, records, rate, elapsed time.
///
/// Drawn only when standard error is a terminal, and only once the run has taken `delay` (a small catalog
/// indexes with no flicker); redrawn at most every `interval`; erased at the end, so that what stays on the screen
/// is the summary. A pipe or a log file gets nothing. Redrawing is a carriage return, the text cut to the
/// terminal's width, and "erase to the end of the line".
final class ProgressLine: @unchecked Sendable {
    // @unchecked: used from the one thread that indexes; the handler it gives out is called there.
    private let output: TextOutput
    private let width: Int
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var shown = false
    /// How much of the input has been read (0...1), when that is known: a regular file's bytes read so far over
    /// its size (compressed bytes, for gzip).
    var readFraction: (() -> Double?)?

    /// How long a run goes before the display appears.
    static let delay = Duration.milliseconds(500)
    /// The shortest time between two redraws.
    static let interval = Duration.milliseconds(100)

    /// A display on `output` (standard error on a terminal) of `width` columns.
    init(output: TextOutput, width: Int) {
        self.output = output
        self.width = width
    }

    /// The handler to pass to the library.
    var handler: IndexingProgressHandler { { [self] progress in update(progress) } }

    /// Redraws with `progress`, if it is time to.
    func update(_ progress: IndexingProgress) {
        let now = ContinuousClock.now
        let elapsed = now - start
        guard elapsed >= Self.delay else { return }
        if let lastDraw, now - lastDraw < Self.interval, progress.phase == .reading { return }
        lastDraw = now
        shown = true
        let fraction = progress.phase == .reading ? readFraction?() : nil
        output.write("\r" + String(Self.text(progress, elapsed: elapsed, fraction: fraction).prefix(width - 1))
            + "\u{1B}[K")
        output.flush()
    }

    /// Erases the display, if it was drawn.
    func finish() {
        guard shown else { return }
        output.write("\r\u{1B}[K")
        output.flush()
        shown = false
    }

    /// `reading · 45% · 1,234,567 records · 612,000/s · 2.0 s`, or `indexing: terms · 10,000,000 movies · 31.2 s`.
    static func text(_ progress: IndexingProgress, elapsed: Duration, fraction: Double? = nil) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let time = TextLayout.duration(nanoseconds: UInt64(max(0, seconds) * 1e9))
        switch progress.phase {
        case .reading:
            let rate = seconds > 0 ? Int(Double(progress.records) / seconds) : 0
            let share = fraction.map { " \(Int(min(max($0, 0), 1) * 100))% ·" } ?? ""
            return "reading ·\(share) \(TextLayout.grouped(progress.records)) records · \(TextLayout.grouped(rate))/s · \(time)"
        case .ranking, .terms, .prefixSets, .writing:
            return "indexing: \(progress.phase.rawValue) · \(TextLayout.grouped(progress.records)) movies · \(time)"
        }
    }
}
