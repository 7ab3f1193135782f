import MovieSearch
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// The `--json` help lists the members the output layer declares (`JSONMember`); these tests hold the writers to
/// those declarations: the keys each writes, in order, are the declared ones (the optional ones when the data has
/// them, none of them when it does not).
final class JSONMemberTests: XCTestCase {
    private let fullMovie = Movie(id: 7, title: "Heat", year: 1995, rating: 8.3, cast: ["Al Pacino"],
                                  genres: ["Crime"], originalTitle: "Heat", overview: "A heist.",
                                  posterPath: "/heat.jpg", tmdbID: 949, imdbID: "tt0113277", criticRating: 7.6)
    private let bareMovie = Movie(id: 8, title: "Untitled", year: 2001, rating: nil)

    /// The keys of a JSON object, in the order written.
    private func keys(_ json: JSONWriter) throws -> [String] {
        guard case .object(let object) = try JSONParser.parse(json.bytes) else {
            XCTFail("not an object: \(json.text)")
            return []
        }
        return object.members.map(\.key)
    }

    private func keys(_ value: JSONValue) -> [String] {
        guard case .object(let object) = value else { return [] }
        return object.members.map(\.key)
    }

    func testAMovieWritesTheDeclaredMembersInOrder() throws {
        let full = try keys(MovieJSON.object(fullMovie, scales: .tenPoint, posterSize: .w500, favorite: true))
        XCTAssertEqual(full, MovieJSON.members.map(\.name))
        let bare = try keys(MovieJSON.object(bareMovie, scales: .tenPoint, posterSize: .w500, favorite: false))
        XCTAssertEqual(bare, MovieJSON.members.filter { !$0.isOptional }.map(\.name))
    }

    func testAnAnswerWritesTheDeclaredMembersAtEveryLevel() throws {
        let result = SearchResult(query: "heat", total: 1,
                                  years: [YearMatches(year: 1995, count: 1, movieIDs: [7])])
        let json = try AnswerJSON.object(result, movie: { _ in self.fullMovie }, scales: .tenPoint)
        guard case .object(let answer) = try JSONParser.parse(json.bytes) else { return XCTFail(json.text) }
        XCTAssertEqual(answer.members.map(\.key), AnswerJSON.members.filter { !$0.isOptional }.map(\.name))
        // Under filters and with the facet, the optional members too, in order.
        var faceted = result
        faceted.genreFacet = [FacetCount(name: "Crime", count: 1)]
        let full = try AnswerJSON.object(faceted, movie: { _ in self.fullMovie }, scales: .tenPoint,
                                         filters: SearchFilters(genres: ["Crime"]))
        XCTAssertEqual(try keys(full), AnswerJSON.members.map(\.name))
        guard case .array(let years)? = answer.members.first(where: { $0.key == "years" })?.value,
              case .object(let year)? = years.first else { return XCTFail(json.text) }
        XCTAssertEqual(year.members.map(\.key), AnswerJSON.yearMembers.map(\.name))
        guard case .array(let movies)? = year.members.first(where: { $0.key == "movies" })?.value,
              let movie = movies.first else { return XCTFail(json.text) }
        XCTAssertEqual(keys(movie), (MovieJSON.members + AnswerJSON.movieMembers).map(\.name))
    }

    func testATopListWritesTheDeclaredMembers() throws {
        for order in TopListOrder.allCases {
            let json = TopListJSON.object([fullMovie, bareMovie], by: order, scales: .tenPoint, favorites: [7])
            guard case .object(let list) = try JSONParser.parse(json.bytes) else { return XCTFail(json.text) }
            XCTAssertEqual(list.members.map(\.key), TopListJSON.members.map(\.name))
            guard case .array(let movies)? = list.members.first(where: { $0.key == "movies" })?.value else {
                return XCTFail(json.text)
            }
            XCTAssertEqual(movies.map(keys), [MovieJSON.members.map(\.name),
                                              MovieJSON.members.filter { !$0.isOptional }.map(\.name)])
            XCTAssertTrue(json.text.hasPrefix(#"{"by":"\#(order.rawValue)","movies":[{"id":7,"#), json.text)
            XCTAssertTrue(json.text.contains(#""critic_rating":7.6,"critic_rating_scale":10,"#) && json.text.contains(#""favorite":true"#))
        }
    }

    func testPhotosWriteTheDeclaredMembers() throws {
        let json = PhotosOutput.json(fullMovie, request: "https://api.flickr.com/…", photos: nil)
        XCTAssertEqual(try keys(json), PhotosOutput.members.map(\.name))
    }

    func testTheHelpListsNotesAndTheOptionalRun() {
        let members = [JSONMember("id"), JSONMember("rating", "null when unrated"),
                       JSONMember("overview", optional: true), JSONMember("poster", optional: true),
                       JSONMember("favorite")]
        XCTAssertEqual(members.helpList, "id, rating (null when unrated), then, only when the catalog gave them, "
                       + "overview and poster, then favorite")
        XCTAssertEqual([JSONMember("a"), JSONMember("b", optional: true)].helpList(optionalWhen: "it has one"),
                       "a, then, only when it has one, b")
    }

    func testACacheLayoutWritesTheDeclaredMembersAtEveryLevel() throws {
        let layout = try Fixtures.index(Fixtures.small, self).layout
        let json = CacheLayoutJSON.object(layout)
        guard case .object(let object) = try JSONParser.parse(json.bytes) else { return XCTFail(json.text) }
        XCTAssertEqual(object.members.map(\.key), CacheLayoutJSON.members.map(\.name))
        guard case .array(let sections)? = object.members.first(where: { $0.key == "sections" })?.value else {
            return XCTFail(json.text)
        }
        XCTAssertEqual(sections.count, layout.sections.count)
        for section in sections {
            XCTAssertEqual(keys(section), CacheLayoutJSON.sectionMembers.map(\.name))
        }
        XCTAssertEqual(keys(try XCTUnwrap(object.members.first { $0.key == "groups" }?.value)),
                       CacheLayoutJSON.groupKeys)
    }
}
