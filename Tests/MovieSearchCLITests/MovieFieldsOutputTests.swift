import Foundation
import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// The optional movie fields (original title, overview, poster, TMDb and IMDb ids) in `show`, `show --json` and
/// `query --json`, run in-process on a cache the library writes.
final class MovieFieldsOutputTests: XCTestCase {
    static let catalog = Catalog(movies: [
        Movie(id: 0, title: "Spirited Away", year: 2001, rating: 8.5, cast: ["Rumi Hiiragi", "Miyu Irino"],
              genres: ["Animation", "Fantasy"], originalTitle: "千と千尋の神隠し",
              overview: "A young girl, Chihiro, becomes trapped in a strange new world of spirits. When her parents "
                + "undergo a mysterious transformation, she must call upon the courage she never knew she had.",
              posterPath: "/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg", tmdbID: 129, imdbID: "tt0245429"),
        Movie(id: 1, title: "Spirit Bare", year: 2001, rating: nil),
        Movie(id: 2, title: "Spirit Hostile", year: 2002, rating: 1, originalTitle: "Orig\rinal",
              overview: "Line one\nLine two \u{1B}]0;pwned\u{07} \u{202E}desrever \u{9B}2J \\e",
              posterPath: "/a\u{1B}[31m.jpg", imdbID: "tt\u{1B}1"),
        Movie(id: 3, title: "Spirit Empty", year: 2003, rating: 2, originalTitle: "", overview: "", posterPath: "",
              tmdbID: 0, imdbID: ""),
        Movie(id: 4, title: "Spirit Odd", year: 2004, rating: 3, posterPath: "no-slash.jpg", imdbID: "tt00245429"),
        Movie(id: 5, title: "東京物語", year: 1953, rating: 8.2,
              cast: ["笠智衆", "東山千栄子", "原節子", "杉村春子", "山村聰", "三宅邦子", "香川京子", "東野英治郎", "中村伸郎",
                     "大坂志郎"],
              overview: String(repeating: "老夫婦が東京に住む子供たちを訪ねるが、", count: 12)
                + " https://www.example.com/a/very/long/path/to/the/tokyo-story/page/that/is/longer/than/a/line "
                + String(repeating: "尾道へ帰る。", count: 10)),
    ])

    private var cache = ""

    override func setUpWithError() throws {
        cache = try TestPaths.temporaryFolder(self).appendingPathComponent("fields.mscache").path
        _ = try CacheWriter.write(Self.catalog, to: cache)
    }

    private func run(_ arguments: [String], terminalWidth: Int? = nil, input: String = "")
        -> (status: Int32, standardOutput: String, standardError: String) {
        MovieSearchCommand.run(arguments: arguments + ["--cache", cache], standardInput: Array(input.utf8),
                               terminalWidth: terminalWidth)
    }

    private func flickr(_ id: Int) -> String {
        FlickrPhotos.searchURL(title: Self.catalog.movies[id].title, apiKey: "k")
    }

    /// The overview of the catalog's movie `id`, as the catalog gives it back.
    private func overviewOfMovie(_ id: Int) throws -> String {
        try XCTUnwrap(Self.catalog.movies[id].overview, "movie \(id) has no overview")
    }

    // MARK: show

    func testShowPrintsEveryFieldPresent() throws {
        let overview = try overviewOfMovie(0)
        let result = run(["show", "0", "--flickr-key", "k"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, """
            Spirited Away
              id              0
              year            2001
              rating          8.5/10
              genres          Animation, Fantasy
              cast            Rumi Hiiragi, Miyu Irino
              original title  千と千尋の神隠し
              overview        \(overview)
              poster          https://image.tmdb.org/t/p/w500/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg
              tmdb            129  https://www.themoviedb.org/movie/129
              imdb            tt0245429  https://www.imdb.com/title/tt0245429/
              flickr          \(flickr(0))

            """)
    }

    func testShowOfAMovieWithoutTheFieldsIsUnchanged() {
        let result = run(["show", "1", "--flickr-key", "k"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, """
            Spirit Bare
              id      1
              year    2001
              rating  unrated
              genres  none listed
              cast    none listed
              flickr  \(flickr(1))

            """)
    }

    /// Empty texts show nothing (an empty poster path names no image); a TMDb id of 0 is still an id.
    func testShowLeavesOutEmptyTexts() {
        let result = run(["show", "3", "--flickr-key", "k"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, """
            Spirit Empty
              id      3
              year    2003
              rating  2/10
              genres  none listed
              cast    none listed
              tmdb    0  https://www.themoviedb.org/movie/0
              flickr  \(flickr(3))

            """)
    }

    func testShowEscapesEveryField() {
        for width in [nil, 30] {
            let result = run(["show", "2", "--flickr-key", "k"], terminalWidth: width)
            XCTAssertEqual(result.status, 0, result.standardError)
            let unsafe = result.standardOutput.unicodeScalars.filter { $0 != "\n" && TerminalSafeText.isUnsafe($0) }
            XCTAssertTrue(unsafe.isEmpty, "raw control characters in \(result.standardOutput.debugDescription)")
            // Wrapped to 30 columns, long words cut too: compared without the breaks and the spaces.
            let joined = result.standardOutput.replacingOccurrences(of: "\n                  ", with: "")
                .replacingOccurrences(of: " ", with: "")
            XCTAssertTrue(joined.contains(#"overviewLineone\nLinetwo\e]0;pwned\x07\u{202E}desrever\x9B2J\\e"#),
                          result.standardOutput)
            XCTAssertTrue(result.standardOutput.contains(#"  original title  Orig\rinal"#), result.standardOutput)
            XCTAssertTrue(result.standardOutput.contains(#"  poster          https://image.tmdb.org/t/p/w500/a\e[31m.jpg"#),
                          result.standardOutput)
            XCTAssertTrue(result.standardOutput.contains(#"  imdb            tt\e1  https://www.imdb.com/title/tt\e1/"#),
                          result.standardOutput)
        }
    }

    /// On a terminal the overview wraps under itself like the cast; in a pipe it is one line.
    func testShowWrapsTheOverviewOnATerminalOnly() throws {
        let overview = try overviewOfMovie(0)
        let piped = run(["show", "0", "--flickr-key", "k"]).standardOutput
        XCTAssertTrue(piped.contains("\n  overview        \(overview)\n"), piped)

        let result = run(["show", "0", "--flickr-key", "k"], terminalWidth: 50)
        XCTAssertEqual(result.status, 0, result.standardError)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  overview        ") })
        var wrapped = [String(lines[start].dropFirst(18))]
        for line in lines[(start + 1)...] where line.hasPrefix(String(repeating: " ", count: 18)) {
            wrapped.append(String(line.dropFirst(18)))
        }
        XCTAssertGreaterThan(wrapped.count, 3)
        XCTAssertEqual(wrapped.joined(separator: " "), overview)
        for line in lines where !line.contains("https://") { XCTAssertLessThanOrEqual(line.count, 50, line) }
        // URLs are never broken: the poster line stays whole.
        XCTAssertTrue(lines.contains("  poster          https://image.tmdb.org/t/p/w500/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg"))
    }

    func testPosterSizeNamesTheURL() {
        for size in PosterSize.allCases {
            let result = run(["show", "0", "--flickr-key", "k", "--poster-size", size.rawValue])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertTrue(result.standardOutput.contains(
                "\n  poster          https://image.tmdb.org/t/p/\(size.rawValue)/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg\n"),
                result.standardOutput)
            let json = run(["show", "0", "--json", "--poster-size=\(size.rawValue)"]).standardOutput
            XCTAssertTrue(json.contains(#""poster":"https://image.tmdb.org/t/p/\#(size.rawValue)/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg""#), json)
        }
        XCTAssertTrue(run(["show", "4", "--flickr-key", "k", "--poster-size", "w92"]).standardOutput
            .contains("\n  poster  https://image.tmdb.org/t/p/w92/no-slash.jpg\n  imdb    tt00245429  https://www.imdb.com/title/tt00245429/\n"))
    }

    func testPosterURLs() {
        XCTAssertEqual(PosterSize.w500.url(posterPath: "/abc.jpg"), "https://image.tmdb.org/t/p/w500/abc.jpg")
        XCTAssertEqual(PosterSize.original.url(posterPath: "/abc.jpg"), "https://image.tmdb.org/t/p/original/abc.jpg")
        XCTAssertEqual(PosterSize.w92.url(posterPath: "abc.jpg"), "https://image.tmdb.org/t/p/w92/abc.jpg")
        XCTAssertNil(PosterSize.w92.url(posterPath: ""))
        XCTAssertEqual(PosterSize.w92.url(posterPath: "https://example.com/p.jpg"), "https://example.com/p.jpg")
        XCTAssertEqual(PosterSize.defaultSize, .w500)
        XCTAssertEqual(PosterSize.allCases.map(\.rawValue), ["w92", "w154", "w185", "w342", "w500", "w780", "original"])
    }

    // MARK: show --json

    func testShowJSONOfEveryField() throws {
        let overview = try overviewOfMovie(0)
        let result = run(["show", "0", "--json"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardError, "", "no Flickr key note: --json prints no request")
        XCTAssertEqual(result.standardOutput, """
            {"id":0,"title":"Spirited Away","year":2001,"rating":8.5,"rating_scale":10,"genres":["Animation","Fantasy"],\
            "cast":["Rumi Hiiragi","Miyu Irino"],"original_title":"千と千尋の神隠し",\
            "overview":"\(overview)",\
            "poster":"https://image.tmdb.org/t/p/w500/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg","tmdb_id":129,\
            "imdb_id":"tt0245429","favorite":false}

            """)
    }

    func testShowJSONOfAMovieWithoutTheFields() {
        XCTAssertEqual(run(["show", "1", "--json"]).standardOutput, """
            {"id":1,"title":"Spirit Bare","year":2001,"rating":null,"rating_scale":10,"genres":[],"cast":[],"favorite":false}

            """)
        // Present but empty: kept as "" (the data as given), except the poster, whose URL would name no image.
        XCTAssertEqual(run(["show", "3", "--json"]).standardOutput, """
            {"id":3,"title":"Spirit Empty","year":2003,"rating":2,"rating_scale":10,"genres":[],"cast":[],"original_title":"",\
            "overview":"","tmdb_id":0,"imdb_id":"","favorite":false}

            """)
    }

    /// JSON keeps the original strings, escaped by JSON's rules: parsed back, every field is as the catalog held it.
    func testShowJSONParsesBackToTheOriginalStrings() throws {
        for movie in Self.catalog.movies {
            let text = run(["show", String(movie.id), "--json"]).standardOutput
            XCTAssertEqual(text.filter { $0 == "\n" }.count, 1)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            XCTAssertEqual(object["original_title"] as? String, movie.originalTitle)
            XCTAssertEqual(object["overview"] as? String, movie.overview)
            XCTAssertEqual(object["tmdb_id"] as? Int, movie.tmdbID)
            XCTAssertEqual(object["imdb_id"] as? String, movie.imdbID)
            XCTAssertEqual(object["poster"] as? String, movie.posterPath.flatMap(PosterSize.w500.url(posterPath:)))
            XCTAssertTrue(Set(object.keys).isSubset(of: MovieJSON.members.map(\.name)), "\(object.keys)")
        }
    }

    // MARK: query --json

    /// A movie object of `query --json` is `show --json`'s (`favorite` included), then `typos` and `match`.
    func testQueryJSONMovieObjectsAreShowJSONPlusTyposAndMatch() throws {
        let result = run(["query", "spirit", "--json", "--per-year", "9", "--poster-size", "w185"])
        XCTAssertEqual(result.status, 0, result.standardError)
        for movie in Self.catalog.movies where movie.title.hasPrefix("Spirit") {
            var show = run(["show", String(movie.id), "--json", "--poster-size", "w185"]).standardOutput
            show.removeLast(2)  // `}` and the line feed
            XCTAssertTrue(result.standardOutput.contains(show + #","typos":0,"match":"#), "movie \(movie.id): \(show)")
        }
        XCTAssertTrue(result.standardOutput.contains("https://image.tmdb.org/t/p/w185/39wm"))
        XCTAssertFalse(result.standardOutput.contains("/w500/"))
    }

    func testQueryJSONKeysInOrder() throws {
        let overview = try overviewOfMovie(0)
        let result = run(["query", "spirited", "--json"])
        XCTAssertEqual(result.standardOutput, """
            {"query":"spirited","total":1,"mode":"exact","years":[{"year":2001,"count":1,"movies":[{"id":0,\
            "title":"Spirited Away","year":2001,"rating":8.5,"rating_scale":10,"genres":["Animation","Fantasy"],\
            "cast":["Rumi Hiiragi","Miyu Irino"],"original_title":"千と千尋の神隠し",\
            "overview":"\(overview)",\
            "poster":"https://image.tmdb.org/t/p/w500/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg","tmdb_id":129,\
            "imdb_id":"tt0245429","favorite":false,"typos":0,"match":[[0,8]]}]}]}

            """)
    }

    func testStdinQueriesGetTheFieldsAndThePosterSize() throws {
        let result = run(["query", "--stdin", "--poster-size", "original"], input: "spirited\nspirit bare\n")
        XCTAssertEqual(result.status, 0, result.standardError)
        let lines = result.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].contains(#""poster":"https://image.tmdb.org/t/p/original/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg","tmdb_id":129,"imdb_id":"tt0245429","favorite":false,"typos":0"#))
        XCTAssertTrue(lines[1].contains(#""genres":[],"cast":[],"favorite":false,"typos":0,"match""#), String(lines[1]))
    }

    /// A typo answer lists the fields too.
    func testTypoAnswerListsTheFields() throws {
        let result = run(["query", "spirted", "--json"])
        XCTAssertTrue(result.standardOutput.contains(#""mode":"typo""#), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains(#""imdb_id":"tt0245429","favorite":false,"typos":1,"#), result.standardOutput)
    }

    /// `show` on a terminal wraps by the columns characters take, as browse does: a Japanese cast list and an
    /// overview without a space fit 60 columns (a CJK character takes two), nothing is lost, and a URL in the
    /// overview is never broken (it may pass the width, on a line of its own).
    func testShowWrapsCJKByColumnsAndNeverBreaksAURL() throws {
        let url = "https://www.example.com/a/very/long/path/to/the/tokyo-story/page/that/is/longer/than/a/line"
        for width in [60, 41, 20] {
            let result = run(["show", "5", "--flickr-key", "k"], terminalWidth: width)
            XCTAssertEqual(result.status, 0, result.standardError)
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            for line in lines where !line.contains("https://") {
                XCTAssertLessThanOrEqual(DisplayWidth.columns(of: line), width, "\(line) at \(width)")
            }
            XCTAssertTrue(lines.contains { $0.hasSuffix(url) }, "the URL whole at \(width): \(result.standardOutput)")
            // Every character of the overview and the cast is there, in order.
            let text = lines.joined().replacingOccurrences(of: " ", with: "")
            let overview = try overviewOfMovie(5).replacingOccurrences(of: " ", with: "")
            XCTAssertTrue(text.contains(overview), "at \(width): \(result.standardOutput)")
            XCTAssertTrue(text.contains(Self.catalog.movies[5].cast.joined(separator: ",")), "at \(width)")
        }
    }
}
