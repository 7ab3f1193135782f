import Foundation
import MovieSearch
@testable import MovieSearchFavorites
@testable import MovieSearchIndex
@testable import MovieSearchOutput
import XCTest

/// The renderers the commands print through (`FavoriteChangeText`, `IndexSummaryText`, `BenchReportText` and
/// `BenchReportJSON`, `MovieDetailsLines`, `AnswerText.counts`), on values built in memory.
final class OutputRendererTests: XCTestCase {
    private let heat = Movie(id: 7, title: "Heat\u{1B}]0;x\u{07}", year: 1995, rating: 8.3)
    private let fullMovie = Movie(id: 7, title: "Heat", year: 1995, rating: 8.3, cast: ["Al Pacino", "Robert De Niro"],
                                  genres: ["Crime"], originalTitle: "Heat", overview: "A heist goes wrong in a city "
                                      + "that never sleeps, https://example.com/a/very/long/address/that/never/breaks",
                                  posterPath: "/heat.jpg", tmdbID: 949, imdbID: "tt0113277", criticRating: 7.6)

    private func text(_ write: (TextOutput) -> Void) -> String {
        let out = TextOutput(.memory)
        write(out)
        out.flush()
        return out.capturedText
    }

    // MARK: Favorites

    func testFavoriteChangeTextSaysWhatChangedAndEscapesTitles() {
        let escapedTitle = TerminalSafeText.escaped(heat.title)
        XCTAssertNotEqual(escapedTitle, heat.title)
        let cases: [(FavoriteChange, String)] = [
            (FavoriteChange(action: .add, id: 7, movie: heat, entry: Favorite(heat)),
             "Added 7 \(escapedTitle) (1995) to the favorites (f.json).\n"),
            (FavoriteChange(action: .add, id: 7, movie: heat, entry: nil),
             "7 \(escapedTitle) (1995) is a favorite already (f.json).\n"),
            (FavoriteChange(action: .remove, id: 7, movie: heat, entry: Favorite(heat)),
             "Removed 7 \(escapedTitle) (1995) from the favorites (f.json).\n"),
            (FavoriteChange(action: .remove, id: 7, movie: heat, entry: nil),
             "No favorite has id 7 (f.json): nothing to remove.\n"),
            (FavoriteChange(action: .remove, id: 99, movie: nil, entry: nil),
             "No favorite has id 99 (f.json): nothing to remove.\n"),
        ]
        for (change, expected) in cases {
            XCTAssertEqual(text { FavoriteChangeText.write(change, path: "f.json", to: $0) }, expected)
        }
        let missing = [FavoriteStore.Missing(favorite: Favorite(heat), reason: "gone"),
                       FavoriteStore.Missing(favorite: Favorite(id: 3, title: "Amelia", year: 2009), reason: "gone")]
        XCTAssertEqual(text { FavoriteChangeText.writeRemoved(missing, path: "f.json", to: $0) },
                       "Removed 2 missing favorites (f.json):\n  1995  \(escapedTitle)\n  2009  Amelia\n")
        XCTAssertEqual(text { FavoriteChangeText.writeRemoved([], path: "f\u{1B}.json", to: $0) },
                       "No favorite is missing from this cache (\(TerminalSafeText.escaped("f\u{1B}.json"))): "
                           + "nothing to remove.\n")
    }

    func testAChangeAsJSONIsTheMovieWithItsStateOrTheIDAlone() {
        let scales = RatingScales(rating: .ten, critic: nil)
        let added = FavoriteChange(action: .add, id: 7, movie: heat, entry: nil)
        XCTAssertEqual(FavoritesOutput.changeJSON(added, scales: scales).text,
                       FavoritesOutput.changeJSON(heat, scales: scales, favorite: true, changed: ("added", false)).text)
        let removed = FavoriteChange(action: .remove, id: 7, movie: heat, entry: Favorite(heat))
        XCTAssertTrue(FavoritesOutput.changeJSON(removed, scales: scales).text.hasSuffix(#""favorite":false,"removed":true}"#))
        let noMovie = FavoriteChange(action: .remove, id: 99, movie: nil, entry: nil)
        XCTAssertEqual(FavoritesOutput.changeJSON(noMovie, scales: scales).text,
                       #"{"id":99,"favorite":false,"removed":false}"#)
    }

    // MARK: index

    func testIndexSummaryRowsAlignAndTheOptionalOnesFollowMovies() {
        var summary = IndexSummaryText.Summary(
            catalog: .label("<stdin>"), cache: FilePath("out.mscache"), format: "CSV", formatDetected: true,
            gzip: true, statistics: CacheWriter.Statistics(movies: 12_345, distinctTokens: 999, bytes: 999),
            skipped: nil, filteredOut: 0, elapsedNanoseconds: 1_500_000)
        let plain = text { IndexSummaryText.write(summary, to: $0) }.split(separator: "\n").map(String.init)
        XCTAssertEqual(plain.first, "Indexed <stdin> into out.mscache")
        XCTAssertEqual(plain.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" },
                       ["format", "movies", "distinct", "file", "time"])
        XCTAssertEqual(plain[1], "  format           CSV (detected, gzip)")
        XCTAssertEqual(plain[2], "  movies           12,345")
        XCTAssertEqual(plain[4], "  file size        \(TextLayout.byteSize(999))", "no byte count under 1000 bytes")
        summary.catalog = .path(FilePath("a\u{1B}.csv"))
        summary.formatDetected = false
        summary.skipped = 3
        summary.filteredOut = 4
        summary.statistics.bytes = 2_000
        let full = text { IndexSummaryText.write(summary, to: $0) }.split(separator: "\n").map(String.init)
        XCTAssertEqual(full.first, "Indexed \(TerminalSafeText.escaped(FilePath("a\u{1B}.csv"))) into out.mscache")
        XCTAssertEqual(Array(full[1...4]), ["  format           CSV (gzip)", "  movies           12,345",
                                            "  skipped          3 invalid", "  left out         4 of other title types"])
        XCTAssertTrue(full[6].hasSuffix("(2,000 bytes)"), full[6])
    }

    // MARK: bench

    private var report: BenchReport {
        var report = BenchReport(queries: 3, passes: 2, samples: [1000, 2000, 3000, 4000, 5000, 6000],
                                 openNanoseconds: 1234, cacheBytes: 5000, peakResidentBytes: 4096, checksum: 42)
        report.slowest = [("dark", 6), ("the", 5)]
        return report
    }

    /// The keys of a JSON object, in the order written.
    private func keys(_ value: JSONValue) -> [String] {
        guard case .object(let object) = value else { return [] }
        return object.members.map(\.key)
    }

    func testBenchJSONWritesTheDeclaredMembers() throws {
        var plain = report
        plain.slowest = []
        XCTAssertEqual(keys(try JSONParser.parse(BenchReportJSON.object(plain).bytes)),
                       BenchReportJSON.members.map(\.name))
        let withSlowest = try JSONParser.parse(BenchReportJSON.object(report).bytes)
        XCTAssertEqual(keys(withSlowest), (BenchReportJSON.members + [BenchReportJSON.slowest]).map(\.name))
        let browse = try JSONParser.parse(BenchReportJSON.browseObject(files: [("a.txt", plain)], all: plain,
                                                                       columns: 80, screenRows: 24).bytes)
        XCTAssertEqual(keys(browse), BenchReportJSON.browseMembers.map(\.name))
        guard case .object(let object) = browse, case .array(let files)? = object["files"] else {
            return XCTFail("no files")
        }
        XCTAssertEqual(files.map(keys), [["file"] + BenchReportJSON.figureMembers.map(\.name)])
        // The help names each member, from the same declarations.
        for member in BenchReportJSON.members + BenchReportJSON.browseMembers + [BenchReportJSON.slowest] {
            XCTAssertTrue(BenchReportJSON.helpText.contains(member.name), member.name)
        }
        XCTAssertTrue(BenchReportJSON.helpText.contains("files (each with file and the same figures)"))
    }

    func testBenchTextListsEveryFigureAndTheSlowestQueries() {
        let lines = text {
            BenchReportText.write(report, cache: FilePath("c.mscache"), queriesFile: FilePath("q.txt"), to: $0)
        }.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Benchmark of c.mscache with q.txt")
        XCTAssertEqual(lines[1], "  queries      3 × 2 passes (6 timed calls)")
        XCTAssertEqual(lines[2], "  p50          3.00 µs")
        XCTAssertEqual(lines.count, 1 + 10 + 1 + 2)
        XCTAssertEqual(lines.last, "    " + "     5.00 µs" + "  \"the\"", "indented, the time right-aligned in 12")
        let browse = text {
            BenchReportText.writeBrowse(files: [("a.txt", report)], all: report, cache: FilePath("c.mscache"),
                                        columns: 80, screenRows: 24, to: $0)
        }.split(separator: "\n").map(String.init)
        XCTAssertEqual(browse.count, 5)
        XCTAssertTrue(browse[0].hasSuffix("at 80×24, 2 passes"), browse[0])
        XCTAssertEqual(browse[4], "  open 1.2 µs, cache 5,000 bytes, peak memory 4 KiB, checksum 42")
    }

    // MARK: details

    func testDetailRowsAreInOrderAndFitAsAsked() {
        let rows = MovieDetailsLines.fieldRows(fullMovie, scales: RatingScales(rating: .ten, critic: .ten),
                                               posterSize: .w500)
        XCTAssertEqual(rows.map(\.label), ["year", "rating", "critics", "genres", "cast", "original title",
                                           "overview", "poster", "tmdb", "imdb"])
        XCTAssertEqual(MovieDetailsLines.fieldRows(fullMovie, scales: .tenPoint, posterSize: .w500,
                                                   originalTitleLabel: "original")[5].label, "original")
        let overview = rows[6]
        XCTAssertEqual(MovieDetailsLines.lines(overview, labelWidth: 8, fit: .unwrapped),
                       ["  overview  " + overview.value])
        // A terminal: the text wraps under itself, the URL stays whole (wider than the terminal).
        let terminal = MovieDetailsLines.lines(overview, labelWidth: 8, fit: .terminal(columns: 40))
        XCTAssertGreaterThan(terminal.count, 2)
        XCTAssertTrue(terminal.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 12)) })
        XCTAssertTrue(terminal.contains { $0.hasSuffix("https://example.com/a/very/long/address/that/never/breaks") })
        XCTAssertEqual(MovieDetailsLines.lines(rows[7], labelWidth: 8, fit: .terminal(columns: 20)).count, 1,
                       "a URL row stays whole on a terminal")
        // A screen: nothing is wider than it, the URL cut too.
        let screen = MovieDetailsLines.lines(overview, labelWidth: 8, fit: .screen(columns: 40))
        XCTAssertTrue(screen.allSatisfy { DisplayWidth.columns(of: $0) <= 40 })
        XCTAssertGreaterThan(screen.count, terminal.count)
        // Too narrow for a value column: the value under its label (a screen truncates the label, and a row
        // without a label has none).
        let narrow = MovieDetailsLines.lines(rows[4], labelWidth: 8, fit: .terminal(columns: 15))
        XCTAssertEqual(narrow.first, "  cast")
        XCTAssertEqual(MovieDetailsLines.lines(MovieDetailsLines.Row("photos", "a b", wraps: true), labelWidth: 8,
                                               fit: .screen(columns: 4)), ["pho" + DisplayWidth.ellipsis, "a b"])
        XCTAssertEqual(MovieDetailsLines.lines(MovieDetailsLines.Row("", "x", wraps: true), labelWidth: 8,
                                               fit: .screen(columns: 10)), ["x"])
    }

    // MARK: answers

    func testTheSummaryIsTheQuotedQueryAndTheCounts() {
        let exact = SearchResult(query: "dark", total: 7, years: [YearMatches(year: 2018, count: 7, movieIDs: [])])
        XCTAssertEqual(AnswerText.counts(exact), "7 matches in 1 year")
        XCTAssertEqual(AnswerText.summary(exact), "\"dark\": 7 matches in 1 year")
        let typo = SearchResult(query: "drak", total: 1, years: [YearMatches(year: 2018, count: 1, movieIDs: [])],
                                mode: .typo)
        XCTAssertEqual(AnswerText.counts(typo), "no exact match; 1 match with typos in 1 year")
    }
}
