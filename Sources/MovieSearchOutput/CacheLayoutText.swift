import MovieSearchIndex

/// A cache's layout as text (`info`): a header with the file's version, size, block size and counts, one row per
/// section, largest first, then the bytes of each group, which add up to the file's size.
///
///     movies.mscache: format version 9, 193,000 bytes (193.0 KB), checksum blocks of 4,096 bytes
///     2,272 movies, 2,706 terms, 10 years
///     section  kind    width  entries   bytes     %  holds
///     NMSZ     bytes       -   46,000  46,000  23.8  the cast and genre names, most named first, 64 a block, deflated
///     TTLZ     bytes       -   36,984  36,984  19.2  the titles, 64 a block, each block deflated with TTLD
///     …
///
///     search: 67,190 bytes (34.8 %)
///     records: 120,512 bytes (62.4 %)
///     top lists: 3,416 bytes (1.8 %)
///     file structure: 1,882 bytes (1.0 %): header 64, directory 1,312, padding 130, checksums 376
///
/// A line `unknown sections: …` follows when the file has sections of tags this version does not know.
package enum CacheLayoutText {
    /// Writes `layout`, the layout of the cache at `path` (as `MovieIndex.path` gives it), to `out`. Nothing of
    /// the file reaches the terminal raw: the path is escaped, and an unknown tag is already (`CacheLayout`).
    package static func write(_ layout: CacheLayout, path: String, to out: TextOutput) {
        let file = layout.fileLength
        out.line("\(TerminalSafeText.escapedMessage(path)): format version \(layout.formatVersion), "
            + "\(TextLayout.grouped(file)) bytes (\(TextLayout.byteSize(file))), checksum blocks of "
            + "\(TextLayout.grouped(layout.blockSize)) bytes")
        out.line("\(TextLayout.count(layout.movieCount, "movie", "movies")), "
            + "\(TextLayout.count(layout.termCount, "term", "terms")), "
            + "\(TextLayout.count(layout.yearCount, "year", "years"))")
        let sections = layout.sections.sorted { ($0.length, $1.offset) > ($1.length, $0.offset) }
        let header = ["section", "kind", "width", "entries", "bytes", "%"]
        let rows = sections.map { section in
            [TerminalSafeText.escapedMessage(section.tag), section.kind.rawValue,
             section.kind == .packed ? String(section.width) : "-", TextLayout.grouped(section.count),
             TextLayout.grouped(section.length), percent(section.length, of: file)]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        for (index, row) in ([header] + rows).enumerated() {
            var line = ""
            for column in row.indices {
                // The tag and kind are text, aligned left; the numbers are aligned right.
                line += column < 2 ? TextLayout.padRight(row[column], widths[column])
                    : TextLayout.padLeft(row[column], widths[column])
                line += "  "
            }
            out.line(line + (index == 0 ? "holds" : sections[index - 1].summary))
        }
        out.line("")
        for group in CacheLayout.Group.allCases {
            let bytes = layout.bytes(in: group)
            if group == .unknown, !layout.sections.contains(where: { $0.group == .unknown }) { continue }
            var line = "\(group.name): \(TextLayout.grouped(bytes)) bytes (\(percent(bytes, of: file)) %)"
            if group == .structure {
                line += ": header \(TextLayout.grouped(layout.headerLength)), "
                    + "directory \(TextLayout.grouped(layout.directoryLength)), "
                    + "padding \(TextLayout.grouped(layout.paddingLength)), "
                    + "checksums \(TextLayout.grouped(layout.checksumLength))"
            }
            out.line(line)
        }
    }

    /// `part` as a percentage of `whole`, with one decimal: `30.8`.
    static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "0.0" }
        let tenths = (part * 1000 + whole / 2) / whole
        return "\(tenths / 10).\(tenths % 10)"
    }
}
