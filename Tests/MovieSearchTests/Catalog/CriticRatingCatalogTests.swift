import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchInput
import TestSupport
import XCTest

/// Critics' ratings and the optional fields as catalogs give them: moviesearch JSON (`critic_rating`, and the
/// fields TMDb and CSV input already had), and CSV (`critic_rating` on 0–10, `metascore` on 0–100, a mapped column
/// with its scale); empty cells and `null` are none, values out of range are invalid movies.
final class CriticRatingCatalogTests: XCTestCase {
    private func load(_ text: String, format: CatalogFormat, columns: [String: String] = [:], scale: Int? = nil,
                      skipInvalid: Bool = false) throws -> Catalog {
        var options = CatalogOptions(format: format, skipInvalid: skipInvalid, columns: columns)
        options.criticScale = scale
        return try CatalogDecoder.load(CatalogInput(bytes: Array(text.utf8)), source: "movies", options: options)
    }

    private func loadError(_ text: String, format: CatalogFormat, columns: [String: String] = [:],
                           scale: Int? = nil) -> String {
        do {
            _ = try load(text, format: format, columns: columns, scale: scale)
            XCTFail("expected an error")
            return ""
        } catch {
            return "\(error)"
        }
    }

    func testOurJSONReadsEveryOptionalField() throws {
        let catalog = try load("""
            [{"title":"Heat","year":1995,"rating":8.3,"critic_rating":7.6,"overview":"A heist.",
              "poster_path":"/heat.jpg","tmdb_id":949,"imdb_id":"tt0113277","original_title":"Heat II"},
             {"title":"Same","year":2000,"original_title":"Same","critic_rating":null,"overview":"  ",
              "poster_path":"","tmdb_id":null,"imdb_id":null},
             {"title":"Bare","year":2001}]
            """, format: .json)
        XCTAssertEqual(catalog.movies, [
            Movie(id: 0, title: "Heat", year: 1995, rating: 8.3, originalTitle: "Heat II", overview: "A heist.",
                  posterPath: "/heat.jpg", tmdbID: 949, imdbID: "tt0113277", criticRating: 7.6),
            // As TMDb and CSV input: an original title that is the title, a blank overview and an empty poster
            // path are none.
            Movie(id: 1, title: "Same", year: 2000, rating: nil),
            Movie(id: 2, title: "Bare", year: 2001, rating: nil),
        ])
    }

    func testOurJSONRefusesCriticRatingsOutOfRangeAndFieldsOfTheWrongKind() {
        XCTAssertEqual(loadError(#"[{"title":"A","year":1,"critic_rating":10.5}]"#, format: .json),
                       "movies: movie 0: critic_rating must be from 0 to 10, got 10.5 (line 1, column 40)")
        XCTAssertEqual(loadError(#"[{"title":"A","year":1,"critic_rating":-1}]"#, format: .json),
                       "movies: movie 0: critic_rating must be from 0 to 10, got -1 (line 1, column 40)")
        XCTAssertTrue(loadError(#"[{"title":"A","year":1,"critic_rating":"8"}]"#, format: .json)
            .contains("critic_rating must be a number or null, got a string"))
        XCTAssertTrue(loadError(#"[{"title":"A","year":1,"tmdb_id":-3}]"#, format: .json)
            .contains("tmdb_id must be a whole number from 0 to 2147483647, got"))
        XCTAssertTrue(loadError(#"[{"title":"A","year":1,"overview":7}]"#, format: .json)
            .contains("overview must be a string or null, got"))
        XCTAssertTrue(loadError(#"[{"title":"A","year":1,"critic_rating":1,"critic_rating":2}]"#, format: .json)
            .contains("critic_rating is given twice"))
        // The range is inclusive.
        XCTAssertEqual(try load(#"[{"title":"A","year":1,"critic_rating":0},{"title":"B","year":1,"critic_rating":10}]"#,
                                format: .json).movies.map(\.criticRating), [0, 10])
    }

    func testCSVMetascoreIsDividedByTenAndCriticRatingIsNot() throws {
        let metascores = try load("title,year,Metascore\nA,2001,83\nB,2002,\nC,2003,NA\nD,2004,100\n", format: .csv)
        XCTAssertEqual(metascores.movies.map(\.criticRating), [8.3, nil, nil, 10])
        let critics = try load("title,year,critic_rating\nA,2001,8.3\nB,2002,0\n", format: .csv)
        XCTAssertEqual(critics.movies.map(\.criticRating), [8.3, 0])
        // By header name, case aside; a critic_rating column wins over a metascore one.
        let both = try load("title,year,METASCORE,Critic_Rating\nA,2001,90,4.5\n", format: .csv)
        XCTAssertEqual(both.movies.map(\.criticRating), [4.5])
    }

    func testCSVMappedColumnTakesTheScaleItIsGiven() throws {
        let text = "title,year,score\nA,2001,83\nB,2002,7\n"
        XCTAssertEqual(try load(text, format: .csv, columns: ["critic_rating": "score"], scale: 100)
            .movies.map(\.criticRating), [8.3, 0.7])
        XCTAssertEqual(loadError(text, format: .csv, columns: ["critic_rating": "score"]),
                       #"movies: movie 0: score must be from 0 to 10, got "83" (line 2)"#)
        // A metascore told to be on 0–10 is read as such.
        XCTAssertEqual(try load("title,year,metascore\nA,2001,8\n", format: .csv, scale: 10).movies.map(\.criticRating),
                       [8])
    }

    func testCSVValuesOutOfRangeOrNotNumbersAreInvalidRows() throws {
        XCTAssertEqual(loadError("title,year,metascore\nA,2001,101\n", format: .csv),
                       #"movies: movie 0: metascore must be from 0 to 100, got "101" (line 2)"#)
        XCTAssertEqual(loadError("title,year,critic_rating\nA,2001,-0.5\n", format: .csv),
                       #"movies: movie 0: critic_rating must be from 0 to 10, got "-0.5" (line 2)"#)
        XCTAssertTrue(loadError("title,year,critic_rating\nA,2001,good\n", format: .csv)
            .contains("critic_rating must be a number"))
        let skipped = try load("title,year,metascore\nA,2001,101\nB,2002,55\n", format: .csv, skipInvalid: true)
        XCTAssertEqual(skipped.movies.map(\.title), ["B"])
        XCTAssertEqual(skipped.movies.map(\.criticRating), [5.5])
    }
}
