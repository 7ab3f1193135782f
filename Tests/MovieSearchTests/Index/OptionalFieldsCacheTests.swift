import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The optional fields of a movie (original title, overview, poster path, TMDb id, IMDb id) through the cache:
/// written by `CacheSections.OptionalFieldWriter`, read by `MovieRecords` (`CacheFormat`, "Optional sections").
final class OptionalFieldsCacheTests: XCTestCase {
    /// Every field present, absent, empty; IMDb ids of the packed form and of others; Unicode and control
    /// characters; ids with gaps, so that slots differ from ids.
    static let mixed = Catalog(movies: [
        Movie(id: 0, title: "Everything", year: 1994, rating: 9.3, cast: ["Tim Robbins"], genres: ["Drama"],
              originalTitle: "Rita Hayworth and Shawshank Redemption", overview: "Two imprisoned men bond.",
              posterPath: "/q6y0Go1tsGEsmtFryDOJo3dEmqu.jpg", tmdbID: 278, imdbID: "tt0111161",
              criticRating: 8.0),
        Movie(id: 1, title: "Nothing", year: 2001, rating: nil),
        Movie(id: 3, title: "Empty texts", year: 2001, rating: 1, originalTitle: "", overview: "", posterPath: "",
              tmdbID: 0, imdbID: ""),
        Movie(id: 4, title: "Unicode", year: 2002, rating: nil,
              originalTitle: "千と千尋の神隠し", overview: "Zoe\u{308} \u{1F3AC} — «ça»\nsecond line\u{1B}[31m\t\\",
              imdbID: "tt10872600"),
        Movie(id: 7, title: "Odd IMDb ids", year: 2003, rating: 2, imdbID: "tt00111161", criticRating: 8.0),
        Movie(id: 8, title: "Short IMDb id", year: 2003, rating: 2, tmdbID: 4_294_967_294, imdbID: "tt123456"),
        Movie(id: 9, title: "Name id", year: 2004, rating: nil, imdbID: "nm0000001"),
        Movie(id: 10, title: "Largest packed", year: 2004, rating: nil, imdbID: "tt4294967294"),
        Movie(id: 11, title: "Too large to pack", year: 2004, rating: nil, imdbID: "tt4294967295"),
        Movie(id: 12, title: "Zero", year: 2004, rating: nil, imdbID: "tt0000000"),
        Movie(id: 13, title: "Digits with a letter", year: 2004, rating: nil, imdbID: "tt01111a1"),
        Movie(id: 14, title: "Only a poster", year: 2005, rating: nil, posterPath: "/p.jpg"),
        Movie(id: 15, title: "Only a TMDb id", year: 2005, rating: nil, tmdbID: 1),
        Movie(id: 16, title: "Only critics", year: 2005, rating: nil, criticRating: 0),
        Movie(id: 17, title: "Top critics", year: 2006, rating: nil, criticRating: 10),
    ])

    private func tags(_ bytes: [UInt8]) -> Set<String> {
        let count = Int(bytes.u32(at: CacheFormat.HeaderField.sectionCount))
        return Set((0..<count).map { entry in
            let tag = bytes.u32(at: CacheFormat.headerSize + entry * CacheFormat.directoryEntrySize)
            return String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * UInt32($0))) }, as: UTF8.self)
        })
    }

    private func assertSameMovies(_ index: MovieIndex, _ catalog: Catalog, file: StaticString = #filePath, line: UInt = #line) throws {
        for movie in catalog.movies {
            let stored = try index.movie(id: movie.id)
            XCTAssertEqual(stored, movie, "movie \(movie.id)", file: file, line: line)
            // Equal strings may differ in bytes (canonical equivalence): the bytes must come back as given.
            for (read, written) in [(stored.originalTitle, movie.originalTitle), (stored.overview, movie.overview),
                                    (stored.posterPath, movie.posterPath), (stored.imdbID, movie.imdbID)] {
                XCTAssertEqual(read.map { Array($0.utf8) }, written.map { Array($0.utf8) }, "movie \(movie.id)", file: file, line: line)
            }
        }
    }

    func testEveryFieldRoundTrips() throws {
        let index = try Fixtures.index(Self.mixed, self)
        try assertSameMovies(index, Self.mixed)
        XCTAssertEqual(try index.movie(id: 1).overview, nil)
        XCTAssertEqual(try index.movie(id: 3).overview, "")
        XCTAssertEqual(try index.movie(id: 3).imdbID, "")
        XCTAssertEqual(try index.movie(id: 3).tmdbID, 0)
        XCTAssertEqual(try index.movie(id: 12).imdbID, "tt0000000")
        // Searching is unchanged by the fields: only titles are searched.
        XCTAssertEqual(try index.search("shawshank").total, 0)
        XCTAssertEqual(try index.search("everything").years.flatMap(\.movieIDs), [0])
    }

    func testEachFieldAloneRoundTrips() throws {
        let fields: [(String, (inout Movie) -> Void)] = [
            ("original title", { $0.originalTitle = "Original" }), ("overview", { $0.overview = "Plot." }),
            ("poster", { $0.posterPath = "/x.jpg" }), ("tmdb", { $0.tmdbID = 603 }), ("imdb", { $0.imdbID = "tt0133093" }),
            ("odd imdb", { $0.imdbID = "ev0000001" }), ("empty overview", { $0.overview = "" }),
        ]
        for (name, set) in fields {
            for slot in [0, 2] {
                var movies = (0..<3).map { Movie(id: $0, title: "Movie \($0)", year: 2000, rating: nil) }
                set(&movies[slot])
                let catalog = Catalog(movies: movies)
                try assertSameMovies(try Fixtures.index(catalog, self), catalog)
                XCTAssertNotEqual(try CacheWriter.encode(catalog), try CacheWriter.encode(Catalog(movies: movies.map {
                    Movie(id: $0.id, title: $0.title, year: $0.year, rating: $0.rating)
                })), "\(name) in slot \(slot) must be stored")
            }
        }
    }

    /// Sections are there only for the fields some movie has; the empty-text flags only when a text is empty; an
    /// IMDb id of the packed form needs no text.
    func testSectionsOnlyForFieldsSomeMovieHas() throws {
        let required = Set(CacheFormat.Tag.required.map(\.rawValue))
        XCTAssertEqual(tags(try CacheWriter.encode(Fixtures.small)), required)
        func movies(_ set: (inout Movie) -> Void) -> Catalog {
            var movies = (0..<4).map { Movie(id: $0, title: "Movie \($0)", year: 2000 + $0, rating: nil) }
            set(&movies[1])
            return Catalog(movies: movies)
        }
        let cases: [(Set<String>, (inout Movie) -> Void)] = [
            (["OVWO", "OVWT", "OVWL", "OVWD"], { $0.overview = "Plot." }),
            (["OVWO", "OVWT", "OVWL", "OVWD", "OVWE"], { $0.overview = "" }),
            (["OTLO", "OTLT", "OTLL", "OTLD"], { $0.originalTitle = "O" }),
            (["PSTO", "PSTT", "PSTL", "PSTD"], { $0.posterPath = "/p.jpg" }),
            (["TMDB"], { $0.tmdbID = 11 }),
            (["IMDB", "BIMN"], { $0.imdbID = "tt0076759" }),
            (["IMDO", "IMDT", "IMDL", "IMDD"], { $0.imdbID = "tt076759" }),
            (["IMDO", "IMDT", "IMDL", "IMDD", "IMDE"], { $0.imdbID = "" }),
            (["CRIT", "CRTV", "TOPC"], { $0.criticRating = 7.5 }),
        ]
        for (extra, set) in cases {
            XCTAssertEqual(tags(try CacheWriter.encode(movies(set))), required.union(extra), "\(extra)")
        }
        // Every optional field's sections; the counts and first ids of long lists (`YCRG`, `YCNT`, `YCID`) and their
        // counts met with bitmaps (`LBPR`, `LBPC`) only come with large catalogs (ListYearCountTests).
        XCTAssertEqual(tags(try CacheWriter.encode(Self.mixed)),
                       Set(CacheFormat.Tag.allCases.map(\.rawValue))
                           .subtracting(["YCRG", "YCNT", "YCID", "LBPR", "LBPC", "LBPW", "LBPO"]))
    }

    /// The same catalog gives the same bytes, and so does the catalog read back from its cache.
    func testReencodingGivesByteIdenticalCaches() throws {
        let bytes = try CacheWriter.encode(Self.mixed)
        XCTAssertEqual(try CacheWriter.encode(Self.mixed), bytes)
        let index = try Fixtures.index(Self.mixed, self)
        let readBack = Catalog(movies: try Self.mixed.movies.map { try index.movie(id: $0.id) })
        XCTAssertEqual(try CacheWriter.encode(readBack), bytes)
    }

    func testIMDbIDsOfThePackedForm() {
        let packed: [(String, UInt32)] = [("tt0111161", 111_161), ("tt10872600", 10_872_600), ("tt0000000", 0),
                                          ("tt9999999", 9_999_999), ("tt4294967294", 4_294_967_294), ("tt1000000000", 1_000_000_000)]
        for (id, number) in packed {
            XCTAssertEqual(CacheFormat.imdbNumber(id), number, id)
            XCTAssertEqual(CacheFormat.imdbID(number: number), id)
        }
        for id in ["", "tt", "tt123456", "tt00111161", "tt4294967295", "tt99999999999", "TT0111161", "nm0000001",
                   "tt011116x", "tt０１１１１６１", " tt0111161", "tt0111161 ", "tt-111161"] {
            XCTAssertNil(CacheFormat.imdbNumber(id), id)
        }
    }

    /// At 10M titles every movie has an IMDb id: each must cost a packed number, not text.
    func testIMDbIDsCostAPackedNumberEach() throws {
        let count = 2000
        let plain = (0..<count).map { Movie(id: $0, title: "Movie \($0)", year: 1900 + $0 % 100, rating: nil) }
        var withIDs = plain
        for index in withIDs.indices { withIDs[index].imdbID = CacheFormat.imdbID(number: UInt32(9_000_000 + index * 4001)) }
        let cache = ForgedCache(try CacheWriter.encode(Catalog(movies: withIDs)))
        // A blocked section: each entry the number less its block's smallest, 63 steps of 4,001 at most (18 bits,
        // where the numbers themselves take 24), and a base of 24 bits per 64 entries.
        let width = cache.entry(of: .imdbNumbers).width
        XCTAssertEqual(width, CacheFormat.width(of: UInt32(63 * 4001)))
        let bases = cache.entry(of: .imdbNumberBases)
        XCTAssertEqual(bases.count, (count + 63) / 64)
        XCTAssertEqual(bases.width, CacheFormat.width(of: UInt32(9_000_000 + (count - 1) / 64 * 64 * 4001 + 1)))
        let extra = cache.bytes.count - (try CacheWriter.encode(Catalog(movies: plain))).count
        // The sections with their padding and directory entries, and the block checksums (8 bytes a block) that
        // cover them.
        let sections = (count * width + 7) / 8 + 8 + (bases.count * bases.width + 7) / 8 + 8
        let blockTable = 8 * (sections / CacheFormat.smallBlockSize + 2)
        XCTAssertLessThanOrEqual(extra, sections + 2 * (CacheFormat.directoryEntrySize + 8) + blockTable)
        XCTAssertFalse(tags(cache.bytes).contains("IMDT"))
    }

    func testTMDbIDsOutsideTheStorableRangeAreRefused() {
        for id in [-1, Int(UInt32.max), Int.max] {
            let catalog = Catalog(movies: [Movie(id: 0, title: "A", year: 2000, rating: nil),
                                           Movie(id: 5, title: "B", year: 2000, rating: nil, tmdbID: id)])
            XCTAssertThrowsError(try CacheWriter.encode(catalog)) { error in
                XCTAssertEqual(error as? CacheError, .invalidMovieField(
                    id: 5, field: "tmdb_id", reason: "\(id) is outside 0...4294967294, the TMDb ids a cache can store"))
            }
        }
    }
}
