import MovieSearch

/// An answer in the shape tests compare: the mode, the total, and per year its count, listed ids, their typo counts
/// and their match spans (UTF-16 offsets). `SpecReference` gives one; `init(_:titles:)` turns the engine's
/// `SearchResult` and its highlighter's spans into one.
package struct SpecAnswer: Equatable, Sendable, CustomStringConvertible {
    /// One year of an answer.
    package struct Year: Equatable, Sendable {
        package var year: Int
        package var count: Int
        package var ids: [Int]
        package var typos: [Int]
        /// The spans of each listed title, in the order of `ids`.
        package var spans: [[Range<Int>]]

        package init(year: Int, count: Int, ids: [Int], typos: [Int], spans: [[Range<Int>]]) {
            self.year = year
            self.count = count
            self.ids = ids
            self.typos = typos
            self.spans = spans
        }
    }

    package var mode: SearchMode
    package var total: Int
    package var years: [Year]

    package init(mode: SearchMode, total: Int, years: [Year]) {
        self.mode = mode
        self.total = total
        self.years = years
    }

    /// The engine's answer, with the spans its highlighter gives for the title of each listed movie.
    package init(_ result: SearchResult, titles: (Int) throws -> String) rethrows {
        let highlighter = result.highlighter
        mode = result.mode
        total = result.total
        years = try result.years.map { year in
            Year(year: year.year, count: year.count, ids: Array(year.movieIDs), typos: Array(year.typoCounts),
                 spans: try year.movieIDs.map { highlighter.utf16Ranges(in: try titles($0)) })
        }
    }

    /// Spans as `[[start, end], …]`, the way the JSON output and the spec write them.
    package static func pairs(_ spans: [Range<Int>]) -> [[Int]] {
        spans.map { [$0.lowerBound, $0.upperBound] }
    }

    package var description: String {
        let shown = years.prefix(6).map { year in
            let movies = year.ids.indices.map { "\(year.ids[$0]) t\(year.typos[$0]) \(Self.pairs(year.spans[$0]))" }
            return "\(year.year)×\(year.count) [\(movies.joined(separator: ", "))]"
        }
        return "\(mode.rawValue) total \(total) in \(years.count) years: \(shown.joined(separator: "; "))"
            + (years.count > 6 ? "; …" : "")
    }

    /// Where `self` and `other` first differ, in a line (empty when they are equal).
    package func firstDifference(from other: SpecAnswer) -> String {
        if mode != other.mode { return "mode \(mode.rawValue) vs \(other.mode.rawValue)" }
        if total != other.total { return "total \(total) vs \(other.total)" }
        if years.count != other.years.count { return "\(years.count) years vs \(other.years.count)" }
        for (mine, theirs) in zip(years, other.years) where mine != theirs {
            if mine.year != theirs.year || mine.count != theirs.count {
                return "year \(mine.year)×\(mine.count) vs \(theirs.year)×\(theirs.count)"
            }
            if mine.ids != theirs.ids { return "year \(mine.year): ids \(mine.ids) vs \(theirs.ids)" }
            if mine.typos != theirs.typos { return "year \(mine.year) ids \(mine.ids): typos \(mine.typos) vs \(theirs.typos)" }
            for (position, id) in mine.ids.enumerated() where mine.spans[position] != theirs.spans[position] {
                return "id \(id) (year \(mine.year)): spans \(Self.pairs(mine.spans[position])) vs \(Self.pairs(theirs.spans[position]))"
            }
        }
        return ""
    }
}
