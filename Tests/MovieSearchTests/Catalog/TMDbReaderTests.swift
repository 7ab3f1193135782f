import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchInput
import TestSupport
import XCTest

/// TMDb JSON (`TMDbReader`, and its detection by `CatalogFormat.detect`), read the way `index` reads it: through
/// `CatalogDecoder.load`, the format detected unless a test names it.
final class TMDbReaderTests: XCTestCase {
    // MARK: - Shapes

    func testASearchPageWithTMDbsAwkwardCases() throws {
        let catalog = try load(Self.searchPage)
        XCTAssertEqual(catalog.format, .tmdb)
        XCTAssertEqual(catalog.movies, [
            Movie(id: 0, title: "Fight Club", year: 1999, rating: 8.4, genres: ["Drama", "Thriller"],
                  overview: "A ticking-time-bomb insomniac and a slippery soap salesman…",
                  posterPath: "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg", tmdbID: 550),
            // A null poster_path is none; vote_count 0 leaves the movie unrated despite its vote_average of 0.
            Movie(id: 1, title: "Fight Club: Members Only", year: 2006, rating: nil, genres: ["Comedy"],
                  tmdbID: 345_940),
            // original_title is kept when it differs; an empty overview is none; unknown genre ids are passed over.
            Movie(id: 2, title: "Amélie", year: 2001, rating: 7.9, genres: ["Comedy", "Romance"],
                  originalTitle: "Le Fabuleux Destin d'Amélie Poulain", posterPath: "/nSxDa3M9aMvGVLoItzWTepQ5h5d.jpg",
                  tmdbID: 194),
        ])
        XCTAssertEqual(catalog.skipped, [])
        XCTAssertEqual(catalog.duplicates, 0)
    }

    func testAnEmptyReleaseDateMakesTheMovieInvalidAndSkippingKeepsPositions() throws {
        let page = """
        {"page":1,"results":[
          {"id":1,"title":"Kept","release_date":"2001-02-03"},
          {"id":2,"title":"Coming Soon","release_date":""},
          {"id":3,"title":"Null Date","release_date":null},
          {"id":4,"title":"No Date"},
          {"id":5,"title":"Also Kept","release_date":"2002-01-01"}
        ],"total_pages":1,"total_results":5}
        """
        assertError(page, .invalidMovie(source: "tmdb.json", index: 1, field: "release_date",
                                        reason: "release_date is empty (line 3, column 48)"))
        let catalog = try load(page, skipInvalid: true)
        XCTAssertEqual(catalog.movies.map(\.id), [0, 4])
        XCTAssertEqual(catalog.movies.map(\.title), ["Kept", "Also Kept"])
        XCTAssertEqual(catalog.skipped, [
            .invalidMovie(source: "tmdb.json", index: 1, field: "release_date",
                          reason: "release_date is empty (line 3, column 48)"),
            .invalidMovie(source: "tmdb.json", index: 2, field: "release_date",
                          reason: "release_date is empty (line 4, column 46)"),
            // A missing date is reported at the movie.
            .invalidMovie(source: "tmdb.json", index: 3, field: "release_date",
                          reason: "release_date is empty (line 5, column 3)"),
        ])
    }

    func testOnlyTheFirstThousandSkippedMoviesKeepTheirErrorsButAllAreCounted() throws {
        let undated = Array(repeating: #"{"title":"A","release_date":""}"#, count: Catalog.maximumSkippedKept + 5)
        let catalog = try load("[" + (undated + [#"{"title":"B","release_date":"2000-01-01"}"#]).joined(separator: ",\n")
                               + "]", skipInvalid: true)
        XCTAssertEqual(catalog.movies.map(\.id), [Catalog.maximumSkippedKept + 5])
        XCTAssertEqual(catalog.skipped.count, Catalog.maximumSkippedKept)
        XCTAssertEqual(catalog.skippedCount, Catalog.maximumSkippedKept + 5)
        XCTAssertEqual(catalog.skipped.last, .invalidMovie(source: "tmdb.json", index: Catalog.maximumSkippedKept - 1,
                                                           field: "release_date",
                                                           reason: "release_date is empty (line 1000, column 29)"))
    }

    func testAMalformedReleaseDateNamesWhatWasFound() {
        let cases: [(String, String)] = [
            (#""2010""#, #"a string "2010""#),
            (#""2010-13-01""#, #"a string "2010-13-01""#),
            (#""2010-01-01T00:00""#, #"a string "2010-01-01T00:00""#),
            (#""  2010-01-01""#, #"a string "  2010-01-01""#),
            ("2010", "2010"),
            ("[]", "an array"),
        ]
        for (date, found) in cases {
            let json = #"[{"id":9,"title":"A","release_date":\#(date)}]"#
            assertError(json, .invalidMovie(source: "tmdb.json", index: 0, field: "release_date",
                                            reason: "release_date must be a date YYYY-MM-DD, got \(found) (line 1, column 37)"))
        }
        // Escapes are resolved before the date is read.
        XCTAssertEqual(try load(#"[{"title":"A","release_date":"\u0032010-05-06"}]"#).movies.map(\.year), [2010])
    }

    func testVoteCountDecidesWhetherTheAverageIsARating() throws {
        let catalog = try load("""
        [{"title":"Voted","release_date":"2000-01-01","vote_average":6.5,"vote_count":12},
         {"title":"No votes","release_date":"2000-01-01","vote_average":0,"vote_count":0},
         {"title":"No votes but an average","release_date":"2000-01-01","vote_average":7.5,"vote_count":0},
         {"title":"No count","release_date":"2000-01-01","vote_average":5.5},
         {"title":"Null count","release_date":"2000-01-01","vote_average":4,"vote_count":null},
         {"title":"Null average","release_date":"2000-01-01","vote_average":null,"vote_count":3},
         {"title":"Nothing","release_date":"2000-01-01"}]
        """)
        XCTAssertEqual(catalog.movies.map(\.rating), [6.5, nil, nil, 5.5, 4, nil, nil])
        assertError(#"[{"title":"A","release_date":"2000-01-01","vote_count":-1}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "vote_count",
            reason: "vote_count must not be negative, got -1 (line 1, column 56)"))
        assertError(#"[{"title":"A","release_date":"2000-01-01","vote_average":"8"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "vote_average",
            reason: #"vote_average must be a number or null, got a string "8" (line 1, column 58)"#))
    }

    func testADuplicatedIdAcrossTwoPagesKeepsTheFirst() throws {
        let pages = """
        [{"page":1,"results":[
            {"id":10,"title":"First","release_date":"2001-01-01","vote_average":7,"vote_count":3},
            {"id":11,"title":"Second","release_date":"2002-01-01"}],
          "total_pages":2,"total_results":4},
         {"page":2,"results":[
            {"id":11,"title":"Second, again","release_date":"2002-01-01"},
            {"id":12,"title":"Third","release_date":"2003-01-01"}],
          "total_pages":2,"total_results":4}]
        """
        let catalog = try load(pages)
        XCTAssertEqual(catalog.format, .tmdb)
        // Ids count results across pages; the duplicate keeps its position (2), unused.
        XCTAssertEqual(catalog.movies.map(\.id), [0, 1, 3])
        XCTAssertEqual(catalog.movies.map(\.title), ["First", "Second", "Third"])
        XCTAssertEqual(catalog.movies.map(\.tmdbID), [10, 11, 12])
        XCTAssertEqual(catalog.duplicates, 1)
        XCTAssertEqual(catalog.skipped, [])
    }

    func testOnlyKeptMoviesMakeLaterOnesDuplicates() throws {
        let catalog = try load("""
        [{"id":7,"title":"Undated","release_date":""},
         {"id":7,"title":"Dated","release_date":"2004-01-01"},
         {"id":7,"title":"Dated","release_date":"2004-01-01"}]
        """, skipInvalid: true)
        XCTAssertEqual(catalog.movies.map(\.id), [1])
        XCTAssertEqual(catalog.skipped.count, 1)
        XCTAssertEqual(catalog.duplicates, 1)
    }

    func testAnArrayOfPagesMayHoldEmptyPages() throws {
        let catalog = try load("""
        [{"page":1,"results":[{"title":"A","release_date":"1990-01-01"}]},
         {"page":2,"results":[]},
         {"results":[{"title":"B","release_date":"1991-01-01"}],"page":3}]
        """)
        XCTAssertEqual(catalog.movies, [Movie(id: 0, title: "A", year: 1990, rating: nil),
                                        Movie(id: 1, title: "B", year: 1991, rating: nil)])
    }

    func testABareArrayOfMovies() throws {
        let catalog = try load("""
        [{"adult":false,"backdrop_path":null,"genre_ids":[16,10751],"id":862,"original_language":"en",
          "original_title":"Toy Story","overview":"Led by Woody, Andy's toys live happily in his room.",
          "popularity":100.5,"poster_path":"/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg","release_date":"1995-10-30",
          "title":"Toy Story","video":false,"vote_average":7.97,"vote_count":18000},
         {"id":13,"title":"Forrest Gump","release_date":"1994-06-23","genre_ids":[]}]
        """)
        XCTAssertEqual(catalog.format, .tmdb)
        XCTAssertEqual(catalog.movies, [
            Movie(id: 0, title: "Toy Story", year: 1995, rating: 7.97, genres: ["Animation", "Family"],
                  overview: "Led by Woody, Andy's toys live happily in his room.",
                  posterPath: "/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg", tmdbID: 862),
            Movie(id: 1, title: "Forrest Gump", year: 1994, rating: nil, tmdbID: 13),
        ])
        XCTAssertEqual(try load("[]", format: .tmdb).movies, [])
    }

    func testGenreObjectsWinOverGenreIDs() throws {
        let catalog = try load("""
        [{"title":"Objects","release_date":"2000-01-01","genre_ids":[28],
          "genres":[{"id":18,"name":"Drama"},{"id":10749,"name":"Romance"}]},
         {"title":"Ids","release_date":"2000-01-01","genres":null,"genre_ids":[878,53,99999,12]},
         {"title":"Names by id","release_date":"2000-01-01","genres":[{"id":37},{"id":123456},{"name":"Noir"},"Epic"]},
         {"title":"Empty genres","release_date":"2000-01-01","genres":[],"genre_ids":[28]}]
        """)
        XCTAssertEqual(catalog.movies.map(\.genres), [
            ["Drama", "Romance"],
            ["Science Fiction", "Thriller", "Adventure"],
            ["Western", "Noir", "Epic"],
            [],
        ])
        assertError(#"[{"title":"A","release_date":"2000-01-01","genre_ids":[28,"35"]}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "genre_ids",
            reason: #"genre_ids[1] must be an integer, got a string "35" (line 1, column 59)"#))
        assertError(#"[{"title":"A","release_date":"2000-01-01","genres":[{"name":5}]}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "genres",
            reason: "genres[0].name must be a string, got 5 (line 1, column 61)"))
    }

    func testEveryTMDbGenreIdHasItsName() {
        let published = [28: "Action", 12: "Adventure", 16: "Animation", 35: "Comedy", 80: "Crime", 99: "Documentary",
                         18: "Drama", 10751: "Family", 14: "Fantasy", 36: "History", 27: "Horror", 10402: "Music",
                         9648: "Mystery", 10749: "Romance", 878: "Science Fiction", 10770: "TV Movie",
                         53: "Thriller", 10752: "War", 37: "Western"]
        for (id, name) in published { XCTAssertEqual(TMDbReader.genreName(id), name) }
        XCTAssertNil(TMDbReader.genreName(0))
        XCTAssertNil(TMDbReader.genreName(10_769))
    }

    func testTitleFallsBackToOriginalTitle() throws {
        let catalog = try load("""
        [{"original_title":"Only Original","release_date":"2000-01-01"},
         {"title":null,"original_title":"Null Title","release_date":"2000-01-01"},
         {"title":"  ","original_title":"Blank Title","release_date":"2000-01-01"},
         {"title":"Same","original_title":"Same","release_date":"2000-01-01"},
         {"title":"Differs","original_title":" ","release_date":"2000-01-01"}]
        """)
        XCTAssertEqual(catalog.movies.map(\.title), ["Only Original", "Null Title", "Blank Title", "Same", "Differs"])
        XCTAssertEqual(catalog.movies.map(\.originalTitle), [nil, nil, nil, nil, nil])
        assertError(#"[{"release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "title",
            reason: "title is missing (and so is original_title) (line 1, column 2)"))
        assertError(#"[{"title":"","release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "title", reason: "title is empty (line 1, column 11)"))
        assertError(#"[{"title":" \t","release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "title", reason: "title is only white space (line 1, column 11)"))
        assertError(#"[{"original_title":"","release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "title",
            reason: "title is missing and original_title is empty (line 1, column 20)"))
        assertError(#"[{"title":42,"release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "title",
            reason: "title must be a string or null, got 42 (line 1, column 11)"))
    }

    func testTheIdMustBeAnInteger() throws {
        assertError(#"[{"id":"550","title":"A","release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "id", reason: #"id must be an integer, got a string "550" (line 1, column 8)"#))
        assertError(#"[{"id":1.5,"title":"A","release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "id",
            reason: "id must be a whole number from 0 to 2147483647, got 1.5 (line 1, column 8)"))
        assertError(#"[{"id":-3,"title":"A","release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "id",
            reason: "id must be a whole number from 0 to 2147483647, got -3 (line 1, column 8)"))
        let catalog = try load(#"[{"id":null,"title":"A","release_date":"2000-01-01"},{"id":5.0,"title":"B","release_date":"2000-01-01"}]"#)
        XCTAssertEqual(catalog.movies.map(\.tmdbID), [nil, 5])
    }

    func testOtherFieldsMustHaveTheirTypes() {
        assertError(#"[{"title":"A","release_date":"2000-01-01","poster_path":5}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "poster_path",
            reason: "poster_path must be a string or null, got 5 (line 1, column 57)"))
        assertError(#"[{"title":"A","release_date":"2000-01-01","overview":{}}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "overview",
            reason: "overview must be a string or null, got an object (line 1, column 54)"))
        assertError(#"[{"title":"A","release_date":"2000-01-01","title":"B"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "title", reason: "title is given twice (line 1, column 43)"))
        assertError(#"[{"title":"A","release_date":"2000-01-01"},7]"#, .invalidMovie(
            source: "tmdb.json", index: 1, field: "movie", reason: "a movie must be an object, got 7 (line 1, column 44)"))
    }

    // MARK: - Errors and their order

    func testMalformedJSONComesFirstThenNotACatalogThenTheFirstInvalidMovie() {
        // An invalid movie, then malformed JSON: the malformed JSON is reported.
        assertError(#"{"results":[{"title":"A","release_date":""}],"page":1,}"#, .malformedJSON(
            source: "tmdb.json", line: 1, column: 55, offset: 54,
            reason: "a trailing comma is not allowed: expected a string key after ','"), skipInvalid: false)
        assertError(#"{"results":[{"title":"A","release_date":""}],"page":1,}"#, .malformedJSON(
            source: "tmdb.json", line: 1, column: 55, offset: 54,
            reason: "a trailing comma is not allowed: expected a string key after ','"), skipInvalid: true)
        // An invalid movie, then an element that is no page: not a catalog.
        assertError(#"[{"results":[{"title":"A","release_date":""}]},{"page":2}]"#, .notACatalog(
            source: "tmdb.json",
            reason: "element 1 of the top-level array has no 'results' member, but the array holds pages"))
        // Two invalid movies: the first.
        assertError(#"[{"title":"A","release_date":""},{"title":"","release_date":"2000-01-01"}]"#, .invalidMovie(
            source: "tmdb.json", index: 0, field: "release_date", reason: "release_date is empty (line 1, column 30)"))
    }

    func testDocumentsThatAreNoTMDbCatalog() {
        let cases: [(String, String)] = [
            (#"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#,
             "the top-level object has no 'results' member (TMDb's status_message: Invalid API key: You must be "
             + "granted a valid key.)"),
            (#"{"page":1,"results":{"title":"A"}}"#,
             "'results' of the top-level object must be an array of movies, got an object"),
            (#"{"results":[],"results":[]}"#, "the top-level object has more than one 'results' member"),
            (#"[{"title":"A","release_date":"2000-01-01"},{"page":1,"results":[]}]"#,
             "element 1 of the top-level array is a page (it has a 'results' member), but the array holds movies: "
             + "an array must hold only pages or only movies"),
            (#"[{"results":[]},[1]]"#,
             "element 1 of the top-level array must be a page like the ones before it (an object with a 'results' "
             + "array), got an array"),
            ("42", "expected a TMDb page (an object with a 'results' array), an array of pages or an array of movies, "
             + "got 42"),
            (#"{"movies":[]}"#, "the top-level object has no 'results' member"),
        ]
        for (json, reason) in cases {
            assertError(json, .notACatalog(source: "tmdb.json", reason: reason), format: .tmdb)
        }
    }

    func testAMovieOfAPageMayHaveAResultsMember() throws {
        let catalog = try load(#"{"results":[{"title":"A","release_date":"2000-01-01","results":[1]}]}"#)
        XCTAssertEqual(catalog.movies.map(\.title), ["A"])
    }

    func testByteOrderMarkAndCRLFPositions() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array("{\r\n\"results\": [\r\n{\"title\": \"A\", \"release_date\": \"\"}\r\n]}".utf8)
        XCTAssertThrowsError(try CatalogDecoder.load(CatalogInput(bytes: bytes), source: "tmdb.json",
                                                     options: CatalogOptions())) { error in
            XCTAssertEqual(error as? CatalogError, .invalidMovie(source: "tmdb.json", index: 0, field: "release_date",
                                                                 reason: "release_date is empty (line 3, column 32)"))
        }
    }

    /// Mutated fixtures (bytes replaced, inserted, deleted; documents cut short) never trap, and reading with and
    /// without skipping agree: the same error for a document that is not a catalog, and otherwise strict reading
    /// throws exactly the first movie that lenient reading skips. The movies kept obey what the reader promises.
    func testMutatedDocumentsNeverTrapAndStrictAndLenientReadingAgree() throws {
        let seeds = [Self.searchPage, #"[{"page":1,"results":[{"id":1,"title":"A","release_date":"2000-01-01"}]},"#
                     + #"{"page":2,"results":[{"id":1,"title":"B","release_date":"","genres":[{"id":28}]}]}]"#]
        let alphabet = Array(#"{}[],:"0123456789-.eE tnulfrsaeiy\#u{e9}"#.utf8)
        var random = SplitMix64(seed: 11)
        for round in 0..<1500 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0...random.below(4) {
                let at = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[at] = alphabet[random.below(alphabet.count)]
                case 1: bytes.insert(alphabet[random.below(alphabet.count)], at: at)
                case 2: bytes.remove(at: at)
                default: bytes.removeLast(random.below(min(bytes.count, 8)))
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "[")] }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            func read(skipInvalid: Bool) -> Result<Catalog, CatalogError> {
                Result { () throws(CatalogError) in
                    try CatalogDecoder.load(CatalogInput(bytes: bytes), source: "m.json",
                                            options: CatalogOptions(format: .tmdb, skipInvalid: skipInvalid))
                }
            }
            switch (read(skipInvalid: false), read(skipInvalid: true)) {
            case let (.success(strict), .success(lenient)):
                XCTAssertEqual(strict.movies, lenient.movies, text)
                XCTAssertEqual(lenient.skipped, [], text)
            case let (.failure(error), .success(lenient)):
                XCTAssertEqual(lenient.skipped.first, error, text)
            case let (.failure(strict), .failure(lenient)):
                XCTAssertEqual(strict, lenient, text)
            case let (.success, .failure(error)):
                XCTFail("strict reading succeeded, lenient failed with \(error): \(text)")
            }
            guard case .success(let catalog) = read(skipInvalid: true) else { continue }
            XCTAssertEqual(catalog.movies.map(\.id), catalog.movies.map(\.id).sorted(), text)
            let tmdbIDs = catalog.movies.compactMap(\.tmdbID)
            XCTAssertEqual(Set(tmdbIDs).count, tmdbIDs.count, text)
            for movie in catalog.movies {
                XCTAssertFalse(movie.title.allSatisfy(\.isWhitespace), text)
                XCTAssertTrue((0...9999).contains(movie.year), text)
            }
        }
    }

    // MARK: - Detection

    func testEachTMDbShapeIsDetected() {
        let shapes = [
            Self.searchPage,
            #"{"page":1,"total_pages":0,"total_results":0,"results":[]}"#,
            #"{"status_code":34,"status_message":"The resource you requested could not be found."}"#,
            "[\(Self.searchPage),\(Self.searchPage)]",
            #"[{"page":2,"results":[]}]"#,
            #"[{"id":1,"title":"A","release_date":"2000-01-01"}]"#,
            #"[{"title":"A","vote_average":5}]"#,
            #"  [ null, {"unknown":1}, {"original_title":"A"}]"#,
            "\u{FEFF}\n{\"results\":[]}",
        ]
        for shape in shapes {
            XCTAssertEqual(try? CatalogFormat.detect(Array(shape.utf8)).get(), .tmdb, shape)
        }
    }

    func testTheCatalogsOwnJSONIsNeverTakenForTMDb() {
        let shapes = [
            #"{"movies":[]}"#,
            #"{"version":2,"movies":[{"title":"A","year":1}]}"#,
            #"{"movies":[{"title":"A","year":1}],"page":1}"#,
            #"{"results":[],"movies":[]}"#,
            #"[{"title":"A","year":2000,"rating":4}]"#,
            // Movies that carry TMDb's members besides their year are the catalog's.
            #"[{"title":"A","release_date":"2000-01-01","poster_path":"/a.jpg","year":2000}]"#,
            #"[{"title":"A","page":3,"year":2000}]"#,
            #"[{"title":"A"},{"title":"B","year":2}]"#,
            #"[{"title":"A","cast":[{"release_date":1}],"genres":["results"]}]"#,
            "[]", "[1,2]", "{}", #"{"x":{"results":[]}}"#, "[{", "{\"resu",
        ]
        for shape in shapes {
            XCTAssertEqual(try? CatalogFormat.detect(Array(shape.utf8)).get(), .json, shape)
        }
    }

    func testAPrefixThatEndsInsideTheFirstValueStillTells() {
        let longOverview = String(repeating: "word ", count: 20_000)
        let tmdb = #"{"page":1,"results":[{"id":1,"title":"A","overview":"\#(longOverview)"}]}"#
        let own = #"[{"title":"A","year":1,"cast":["\#(longOverview)"]}]"#
        XCTAssertEqual(try? CatalogFormat.detect(Array(tmdb.utf8.prefix(1 << 16))).get(), .tmdb)
        XCTAssertEqual(try? CatalogFormat.detect(Array(own.utf8.prefix(1 << 16))).get(), .json)
        XCTAssertEqual(try? CatalogFormat.detect(Array(#"[{"vote_count":3,"title":"\#(longOverview)"#.utf8)).get(),
                       .tmdb)
    }

    func testTheShippedAndSharedCatalogsAreDetectedAsTheCatalogsOwn() throws {
        let sample = TestPaths.packageRoot.appendingPathComponent("Data/sample-movies.json").path
        var paths = [sample]
        for name in ["movies.json", "century-movies.json"] { paths.append(try Requirement.sharedData("data/\(name)")) }
        for path in paths {
            let prefix = try XCTUnwrap(FileHandle(forReadingAtPath: path)).readData(ofLength: 1 << 16)
            XCTAssertEqual(try CatalogFormat.detect(Array(prefix)).get(), .json, path)
        }
    }

    func testTheFormatMayBeNamed() throws {
        // A TMDb page read as the catalog's own JSON: no 'movies' member.
        XCTAssertThrowsError(try load(Self.searchPage, format: .json))
        XCTAssertEqual(try load(Self.searchPage, format: .tmdb).movies.count, 3)
    }

    // MARK: - Fixtures and helpers

    /// A `/search/movie` page as TMDb returns it (trimmed), with a null `poster_path`, `vote_count` 0, an
    /// `original_title` that differs, an empty `overview` and an unknown genre id.
    static let searchPage = """
    {
      "page": 1,
      "results": [
        {
          "adult": false,
          "backdrop_path": "/hZkgoQYus5vegHoetLkCJzb17zJ.jpg",
          "genre_ids": [18, 53],
          "id": 550,
          "original_language": "en",
          "original_title": "Fight Club",
          "overview": "A ticking-time-bomb insomniac and a slippery soap salesman…",
          "popularity": 73.433,
          "poster_path": "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg",
          "release_date": "1999-10-15",
          "title": "Fight Club",
          "video": false,
          "vote_average": 8.4,
          "vote_count": 30000
        },
        {
          "adult": false,
          "backdrop_path": null,
          "genre_ids": [35],
          "id": 345940,
          "original_language": "en",
          "original_title": "Fight Club: Members Only",
          "overview": "",
          "popularity": 1.2,
          "poster_path": null,
          "release_date": "2006-02-17",
          "title": "Fight Club: Members Only",
          "video": false,
          "vote_average": 0.0,
          "vote_count": 0
        },
        {
          "genre_ids": [35, 10749, 424242],
          "id": 194,
          "original_language": "fr",
          "original_title": "Le Fabuleux Destin d'Amélie Poulain",
          "overview": " ",
          "poster_path": "/nSxDa3M9aMvGVLoItzWTepQ5h5d.jpg",
          "release_date": "2001-04-25",
          "title": "Amélie",
          "vote_average": 7.9,
          "vote_count": 11000
        }
      ],
      "total_pages": 1,
      "total_results": 3
    }
    """

    private func load(_ json: String, skipInvalid: Bool = false, format: CatalogFormat? = nil) throws -> Catalog {
        try CatalogDecoder.load(CatalogInput(bytes: Array(json.utf8)), source: "tmdb.json",
                                options: CatalogOptions(format: format, skipInvalid: skipInvalid))
    }

    /// Checks that `json` fails to load with `expected`, or loads when `expected` is `nil`.
    private func assertError(_ json: String, _ expected: CatalogError?, skipInvalid: Bool = false,
                             format: CatalogFormat? = nil, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try load(json, skipInvalid: skipInvalid, format: format)
            if let expected { XCTFail("expected \(expected)", file: file, line: line) }
        } catch {
            XCTAssertEqual(error as? CatalogError, expected, json, file: file, line: line)
        }
    }
}
