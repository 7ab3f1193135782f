import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchInput
import TestSupport
import XCTest

/// IMDb's `title.basics.tsv` joined with `title.ratings.tsv`: columns by name, `\N`, no quoting, title types,
/// ids that stay row positions, and the errors of bad rows and headers.
final class IMDbReaderTests: XCTestCase {
    private static let header = "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\t"
        + "runtimeMinutes\tgenres\n"

    /// Rows of every kind: a rated movie, a title of another type, `\N` everywhere, a title with quotes, a movie
    /// with no rating, a foreign title with its original, a movie with no genres.
    private static let basics = header + """
    tt0000001\tmovie\tThe Shawshank Redemption\tThe Shawshank Redemption\t0\t1994\t\\N\t142\tDrama
    tt0000002\ttvEpisode\tEpisode #1.1\tEpisode #1.1\t0\t2001\t\\N\t30\tComedy,Drama
    tt0000003\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N
    tt0000004\tmovie\t"Quoted" and a lone " quote\t"Quoted" and a lone " quote\t0\t2004\t\\N\t90\tComedy,Romance
    tt0000005\ttvMovie\tUnrated Film\tUnrated Film\t0\t1999\t\\N\t\\N\tHorror,Mystery,Thriller
    tt0000006\tmovie\tAmélie\tLe Fabuleux Destin d'Amélie Poulain\t0\t2001\t\\N\t122\tComedy,Romance
    tt0000007\tmovie\tNo Genres\tNo Genres\t0\t1950\t\\N\t\\N\t\\N

    """

    /// Ratings sorted by tconst as IMDb writes them, one for a title the basics do not have (tt0000099).
    private static let ratings = "tconst\taverageRating\tnumVotes\n"
        + "tt0000001\t9.3\t2900000\ntt0000002\t7.1\t12\ntt0000004\t6.5\t300\ntt0000006\t8.3\t800000\n"
        + "tt0000099\t1.0\t5\n"

    private func load(_ text: String, ratings: String? = nil, titleTypes: Set<String>? = ["movie"],
                      skipInvalid: Bool = false) throws -> Catalog {
        var options = CatalogOptions(format: .imdb, skipInvalid: skipInvalid, titleTypes: titleTypes)
        if let ratings { options.ratingsPath = try temporaryFile("title.ratings.tsv", ratings) }
        return try CatalogDecoder.load(CatalogInput(bytes: Array(text.utf8)), source: "title.basics.tsv",
                                       options: options)
    }

    private func loadError(_ text: String, ratings: String? = nil, titleTypes: Set<String>? = nil) -> CatalogError? {
        do {
            _ = try load(text, ratings: ratings, titleTypes: titleTypes)
            XCTFail("expected an error")
            return nil
        } catch {
            return error as? CatalogError
        }
    }

    func testMoviesJoinedWithTheirRatings() throws {
        let catalog = try load(Self.basics, ratings: Self.ratings, skipInvalid: true)
        XCTAssertEqual(catalog.format, .imdb)
        XCTAssertEqual(catalog.movies, [
            Movie(id: 0, title: "The Shawshank Redemption", year: 1994, rating: 9.3, genres: ["Drama"],
                  imdbID: "tt0000001"),
            Movie(id: 3, title: #""Quoted" and a lone " quote"#, year: 2004, rating: 6.5,
                  genres: ["Comedy", "Romance"], imdbID: "tt0000004"),
            Movie(id: 5, title: "Amélie", year: 2001, rating: 8.3, genres: ["Comedy", "Romance"],
                  originalTitle: "Le Fabuleux Destin d'Amélie Poulain", imdbID: "tt0000006"),
            Movie(id: 6, title: "No Genres", year: 1950, rating: nil, imdbID: "tt0000007"),
        ])
        // The tvEpisode, the `\N` row (no title type) and the tvMovie are left out, not invalid.
        XCTAssertEqual(catalog.filteredOut, 3)
        XCTAssertEqual(catalog.skipped, [])
    }

    func testEveryTitleTypeKeepsItsRowPosition() throws {
        let catalog = try load(Self.basics, ratings: Self.ratings, titleTypes: nil, skipInvalid: true)
        XCTAssertEqual(catalog.movies.map(\.id), [0, 1, 3, 4, 5, 6])
        XCTAssertEqual(catalog.movies[1], Movie(id: 1, title: "Episode #1.1", year: 2001, rating: 7.1,
                                                genres: ["Comedy", "Drama"], imdbID: "tt0000002"))
        // A tconst with no ratings row is unrated.
        XCTAssertEqual(catalog.movies[3], Movie(id: 4, title: "Unrated Film", year: 1999, rating: nil,
                                                genres: ["Horror", "Mystery", "Thriller"], imdbID: "tt0000005"))
        XCTAssertEqual(catalog.filteredOut, 0)
        // The `\N` row: its title is missing, which is checked first.
        XCTAssertEqual(catalog.skipped, [.invalidMovie(source: "title.basics.tsv", index: 2, field: "primaryTitle",
                                                       reason: "primaryTitle is missing (\\N) (line 4)")])

        let some = try load(Self.basics, titleTypes: ["tvMovie", "tvEpisode"])
        XCTAssertEqual(some.movies.map(\.id), [1, 4])
        XCTAssertEqual(some.movies.map(\.rating), [nil, nil])  // No ratings file: all unrated.
        XCTAssertEqual(some.filteredOut, 5)
    }

    func testInvalidRowsStopTheReadWithTheirLine() {
        let noYear = Self.header + "tt1\tmovie\tA\tA\t0\t1990\t\\N\t1\t\\N\ntt2\tmovie\tB\tB\t0\t\\N\t\\N\t1\t\\N\n"
        XCTAssertEqual(loadError(noYear), .invalidMovie(source: "title.basics.tsv", index: 1, field: "startYear",
                                                        reason: "startYear is missing (\\N) (line 3)"))
        let badYear = Self.header + "tt1\tmovie\tA\tA\t0\t199x\t\\N\t1\t\\N\n"
        XCTAssertEqual(loadError(badYear), .invalidMovie(
            source: "title.basics.tsv", index: 0, field: "startYear",
            reason: #"startYear must be an integer year, got "199x" (line 2)"#))
        let emptyTitle = Self.header + "tt1\tmovie\t\tA\t0\t1990\t\\N\t1\t\\N\n"
        XCTAssertEqual(loadError(emptyTitle), .invalidMovie(source: "title.basics.tsv", index: 0,
                                                            field: "primaryTitle",
                                                            reason: "primaryTitle is empty (line 2)"))
        let shortRow = Self.header + "tt1\tmovie\tA\tA\t0\t1990\n"
        XCTAssertEqual(loadError(shortRow), .invalidMovie(source: "title.basics.tsv", index: 0, field: "row",
                                                          reason: "the row has 6 fields, the header 9 (line 2)"))
        let notUTF8 = Array((Self.header + "tt1\tmovie\tA").utf8) + [0xFF] + Array("\tA\t0\t1990\t\\N\t1\t\\N\n".utf8)
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: notUTF8), source: "title.basics.tsv",
                                                     options: CatalogOptions(format: .imdb))) { error in
            XCTAssertEqual(error as? CatalogError, .invalidMovie(source: "title.basics.tsv", index: 0,
                                                                 field: "primaryTitle",
                                                                 reason: "primaryTitle is not valid UTF-8 (line 2)"))
        }
    }

    func testSkippedRowsAreCountedAndLaterIdsKeepTheirPositions() throws {
        let text = Self.header + """
        tt1\tmovie\tA\tA\t0\t\\N\t\\N\t1\t\\N
        tt2\tmovie\tB\tB\t0\t1990
        tt3\tmovie\tC\tC\t0\t1991\t\\N\t1\tDrama

        """
        let catalog = try load(text, skipInvalid: true)
        XCTAssertEqual(catalog.movies, [Movie(id: 2, title: "C", year: 1991, rating: nil, genres: ["Drama"],
                                              imdbID: "tt3")])
        XCTAssertEqual(catalog.skipped.count, 2)
        XCTAssertEqual(catalog.skipped.last, .invalidMovie(source: "title.basics.tsv", index: 1, field: "row",
                                                           reason: "the row has 6 fields, the header 9 (line 3)"))
    }

    func testColumnsAreFoundByNameInAnyOrder() throws {
        let text = "startYear\tgenres\tprimaryTitle\ttconst\ttitleType\r\n1999\tSci-Fi\tThe Matrix\ttt0133093\tmovie\r\n"
        let catalog = try load(text)
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "The Matrix", year: 1999, rating: nil,
                                              genres: ["Sci-Fi"], imdbID: "tt0133093")])
    }

    func testAHeaderWithoutANeededColumnIsNotACatalog() {
        XCTAssertEqual(loadError("tconst\ttitleType\tstartYear\ntt1\tmovie\t1990\n"),
                       .notACatalog(source: "title.basics.tsv", reason: "no 'primaryTitle' column in the header"))
        XCTAssertEqual(loadError("tconst\tprimaryTitle\ntt1\tA\n"),
                       .notACatalog(source: "title.basics.tsv", reason: "no 'startYear' column in the header"))
        // Title types asked for need the titleType column; all of them do not.
        XCTAssertEqual(loadError("tconst\tprimaryTitle\tstartYear\ntt1\tA\t1990\n", titleTypes: ["movie"]),
                       .notACatalog(source: "title.basics.tsv", reason: "no 'titleType' column in the header"))
        XCTAssertEqual(try load("tconst\tprimaryTitle\tstartYear\ntt1\tA\t1990\n", titleTypes: nil).movies.count, 1)
    }

    func testAMalformedRatingsRowNamesTheRatingsFileAndLine() throws {
        let ratingsPath = try temporaryFile("title.ratings.tsv", "tconst\taverageRating\tnumVotes\ntt1\t7.0\t3\n"
            + "tt2\tseven\t3\n")
        var options = CatalogOptions(format: .imdb, ratingsPath: ratingsPath)
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: Array(Self.basics.utf8)), source: "b",
                                                     options: options)) { error in
            XCTAssertEqual(error as? CatalogError, .invalidRatings(
                source: ratingsPath, reason: #"a malformed row at line 3: averageRating must be a number, got "seven""#))
        }
        let withoutRatings = try temporaryFile("r2.tsv", "tconst\tnumVotes\ntt1\t3\n")
        options.ratingsPath = withoutRatings
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: Array(Self.basics.utf8)), source: "b",
                                                     options: options)) { error in
            XCTAssertEqual(error as? CatalogError, .invalidRatings(
                source: withoutRatings, reason: "no 'averageRating' column in the header"))
        }
        let swapped = try temporaryFile("swapped.tsv", Self.basics)
        options.ratingsPath = swapped
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: Array(Self.basics.utf8)), source: "b",
                                                     options: options)) { error in
            XCTAssertEqual(error as? CatalogError, .invalidRatings(
                source: swapped, reason: "no 'averageRating' column in the header (this is "
                    + "title.basics.tsv: give title.ratings.tsv with --ratings)"))
        }
        let badID = try temporaryFile("r3.tsv", "tconst\taverageRating\nnm0000001\t7.0\n")
        options.ratingsPath = badID
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: Array(Self.basics.utf8)), source: "b",
                                                     options: options)) { error in
            XCTAssertEqual(error as? CatalogError, .invalidRatings(
                source: badID, reason: #"a malformed row at line 2: tconst must be tt and digits, got "nm0000001""#))
        }
    }

    /// Every error of the ratings names the ratings, as "ratings <file>", never "catalog": one that cannot be
    /// opened, and one that is damaged gzip.
    func testRatingsThatCannotBeReadAreNamedAsRatings() throws {
        let missing = "/nonexistent-moviesearch/title.ratings.tsv"
        let options = CatalogOptions(format: .imdb, ratingsPath: missing)
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: Array(Self.basics.utf8)), source: "b",
                                                     options: options)) { error in
            XCTAssertEqual(error as? CatalogError, .unreadableRatings(source: missing, reason: "No such file or directory"))
            XCTAssertEqual("\(error)", "cannot read ratings \(missing): No such file or directory")
        }
        let cut = Gzip.compress(Array("tconst\taverageRating\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 5_000))
        let ratings = (input: CatalogInput(bytes: Array(cut[..<(cut.count / 2)])), name: "<stdin>")
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: Array(Self.basics.utf8)), source: "b",
                                                     options: CatalogOptions(format: .imdb), ratings: ratings)) { error in
            guard case let .unreadableRatings(source, reason)? = error as? CatalogError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, "<stdin>")
            XCTAssertTrue(reason.hasPrefix("not valid gzip data"), reason)
        }
    }

    func testRatingsOutOfOrderAreJoinedAllTheSame() throws {
        let ratings = "tconst\taverageRating\ntt0000006\t8.3\ntt0000001\t9.3\ntt0000004\t6.5\ntt0000001\t1.0\n"
        let catalog = try load(Self.basics, ratings: ratings, skipInvalid: true)
        XCTAssertEqual(catalog.movies.map(\.rating), [9.3, 6.5, 8.3, nil])
    }

    func testRowsCutAcrossReadsGiveTheSameMovies() throws {
        let whole = try load(Self.basics, titleTypes: nil, skipInvalid: true)
        for step in [1, 2, 3, 7, 64] {
            var input = TrickleByteSource(Self.basics, step: step)
            var reader = IMDbReader(source: "title.basics.tsv", options: CatalogOptions(titleTypes: nil))
            var builder = CatalogBuilder(source: "title.basics.tsv", options: CatalogOptions(skipInvalid: true),
                                         layout: .rows)
            try reader.read(&input, into: &builder)
            let catalog = try builder.finish(format: .imdb)
            XCTAssertEqual(catalog.movies, whole.movies, "step \(step)")
            XCTAssertEqual(catalog.skipped, whole.skipped, "step \(step)")
        }
    }

    func testFormatDetection() {
        XCTAssertEqual(try CatalogFormat.detect(Array(Self.basics.utf8)).get(), .imdb)
        XCTAssertEqual(CatalogFormat.detect(Array(Self.ratings.utf8)), .failure(.imdbRatingsFile))
    }

    /// A title of a type not asked for is left out whatever else is wrong with its row; a row too short to hold a
    /// type is invalid.
    func testATitleOfAnotherTypeIsLeftOutEvenWhenItsRowIsBad() throws {
        let text = Self.header + "tt0000001\ttvEpisode\tToo short\n" + "tt0000002\tmovie\tKept\tKept\t0\t2001\t\\N\t\\N\t\\N\n"
        let catalog = try load(text)
        XCTAssertEqual(catalog.movies.map(\.id), [1])
        XCTAssertEqual(catalog.filteredOut, 1)
        XCTAssertEqual(loadError(Self.header + "tt0000001\n", titleTypes: ["movie"]), .invalidMovie(
            source: "title.basics.tsv", index: 0, field: "row", reason: "the row has 1 fields, the header 9 (line 2)"))
    }
}
