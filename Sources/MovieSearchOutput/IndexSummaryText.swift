import MovieSearchIndex
import MovieSearchPlatform

/// What `index` prints when it has written a cache: the catalog and the cache, then one labelled row per figure.
///
///     Indexed Data/movies.json into Data/movies.mscache
///       format           JSON (detected)
///       movies           2,272
///       distinct tokens  3,120
///       file size        1.2 MB (1,234,567 bytes)
///       time             41 ms
///
/// `skipped` (with `--skip-invalid`) and `left out` (titles of other types, IMDb) follow `movies` when they apply.
package enum IndexSummaryText {
    /// How the summary names a catalog or a cache.
    package enum Name: Sendable {
        /// A file, its path escaped (`TerminalSafeText`).
        case path(FilePath)
        /// A name of the tool's own, as it is (`<stdin>`).
        case label(String)
    }

    /// What one run of `index` did.
    package struct Summary: Sendable {
        package var catalog: Name
        package var cache: FilePath
        /// The catalog's format, as `CatalogFormat.displayName` says it.
        package var format: String
        /// Whether the format was told from the first bytes (no `--format`).
        package var formatDetected: Bool
        package var gzip: Bool
        package var statistics: CacheWriter.Statistics
        /// Movies left out as invalid, with `--skip-invalid`; nil without it.
        package var skipped: Int?
        /// Titles of other types left out (`--title-types`).
        package var filteredOut: Int
        package var elapsedNanoseconds: UInt64

        package init(catalog: Name, cache: FilePath, format: String, formatDetected: Bool, gzip: Bool,
                     statistics: CacheWriter.Statistics, skipped: Int?, filteredOut: Int, elapsedNanoseconds: UInt64) {
            self.catalog = catalog
            self.cache = cache
            self.format = format
            self.formatDetected = formatDetected
            self.gzip = gzip
            self.statistics = statistics
            self.skipped = skipped
            self.filteredOut = filteredOut
            self.elapsedNanoseconds = elapsedNanoseconds
        }
    }

    /// Writes `summary` (see the type's discussion).
    package static func write(_ summary: Summary, to out: TextOutput) {
        let catalog = switch summary.catalog {
        case let .path(path): TerminalSafeText.escaped(path)
        case let .label(label): label
        }
        out.line("Indexed \(catalog) into \(TerminalSafeText.escaped(summary.cache))")
        let bytes = summary.statistics.bytes
        let how = summary.formatDetected ? (summary.gzip ? " (detected, gzip)" : " (detected)")
            : summary.gzip ? " (gzip)" : ""
        var rows = [
            ("format", summary.format + how),
            ("movies", TextLayout.grouped(summary.statistics.movies)),
            ("distinct tokens", TextLayout.grouped(summary.statistics.distinctTokens)),
            ("file size", bytes < 1000 ? TextLayout.byteSize(bytes)
                : "\(TextLayout.byteSize(bytes)) (\(TextLayout.count(bytes, "byte", "bytes")))"),
            ("time", TextLayout.duration(nanoseconds: summary.elapsedNanoseconds)),
        ]
        var extra = 2
        if let skipped = summary.skipped {
            rows.insert(("skipped", "\(TextLayout.grouped(skipped)) invalid"), at: extra)
            extra += 1
        }
        if summary.filteredOut > 0 {
            rows.insert(("left out", "\(TextLayout.grouped(summary.filteredOut)) of other title types"), at: extra)
        }
        let labelWidth = rows.map(\.0.count).max()!
        for (label, value) in rows { out.line("  \(TextLayout.padRight(label, labelWidth))  \(value)") }
    }
}
