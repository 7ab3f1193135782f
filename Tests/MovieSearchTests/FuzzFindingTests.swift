import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchPhotos
import TestSupport
import XCTest

/// Every input that crashed a fuzz target (`Scripts/fuzz.sh`), now answered cleanly. One test per finding, named
/// after it; each says which target found it.
final class FuzzFindingTests: XCTestCase {
    /// catalog and query targets, first run: `search` with `perYear: Int.max` overflowed `first + perYear` (a query
    /// without tokens) and `position + perYear` (any query matching more than one year): a trap, and so a crash of
    /// `moviesearch query --per-year 9223372036854775807`. A limit above the matches means "all of them".
    func testPerYearIntMaxListsEveryMatch() throws {
        let index = try Fixtures.index(Fixtures.small, self)
        for query in ["", "dark", "dark the", "d", "kni"] {
            let all = try index.search(query, perYear: Int.max)
            XCTAssertEqual(all, try index.search(query, perYear: Fixtures.small.movies.count), "query \(query.debugDescription)")
            XCTAssertEqual(all.years.map(\.count), all.years.map(\.movieIDs.count), "query \(query.debugDescription)")
        }
        XCTAssertEqual(try index.search("", perYear: Int.max).total, Fixtures.small.movies.count)

        // The catalog target's input: two valid movies in two years, then two invalid ones (skipped).
        let input = #"[{"title":"N","year":2147483647,"rating":1e308},{"title":"M","year":0,"rating":-1E-400},"#
            + #"{"title":"O","year":-0,"rating":1e999},{"title":"P","year":99999999999999999999}]"#
        let catalog = try CatalogDecoder.decode(Array(input.utf8), source: "crash.json", skipInvalid: true)
        let result = try Fixtures.index(catalog, self).search("", perYear: Int.max)
        XCTAssertEqual(result.years.map(\.year), [2_147_483_647, 0])
        XCTAssertEqual(result.years.map(\.movieIDs), [[0], [1]])
    }

    /// cache target built with FUZZING_SKIP_CHECKSUMS, 339,405 executions in (format version 1, replayed here on
    /// version 2's `TPST`): one posting offset of the cache of
    /// 30 decade movies raised from 15 to 47, so that the list of `dark` ran on over the lists of the terms after it
    /// (unsorted, with repeats). With the checksums recomputed, `moviesearch query dark` answered 31 matches in 2009,
    /// a year of 4 movies, listing movies of other years and some twice. Now a corrupt-cache error. Here the same
    /// edit runs the list of `summer` (one rare term, so its posting list is read: a frequent term such as `knight`
    /// is answered from its bitmap) over every list after it. Since version 11 the lists are coded and found from
    /// their counts, so every term whose list shares `summer`'s block of 16 is corrupt too; a term of another block
    /// still answers.
    func testPostingListOutOfOrderIsCorruptNotAWrongAnswer() throws {
        var cache = try ForgedCache(Fixtures.small)
        let summer = cache.termID("summer")
        let termCount = Int(cache.u32(at: CacheFormat.HeaderField.termCount))
        let postingCount = cache.packed(.postingOffsets, termCount)  // entry T: all the postings
        cache.setPacked(.postingOffsets, summer + 1, to: postingCount)
        let index = try cache.opened(in: self)
        for perYear in [0, 5, 100] {
            XCTAssertThrowsError(try index.search("summer", perYear: perYear), "perYear \(perYear)") { error in
                guard case .corrupt? = error as? CacheError else { return XCTFail("\(error)") }
            }
        }
        let block = EliasFanoList.listsPerStart
        let elsewhere = try XCTUnwrap((0..<termCount).first { $0 / block != summer / block && $0 < summer / block * block })
        XCTAssertNoThrow(try index.search(cache.termText(elsewhere)))
    }

    /// Found by review of the typo pass, which sizes a buffer by the cardinalities of the sets it reads: a forged
    /// bitmap cardinality larger than the movie count (up to 2³² − 1 in a file) asked for gigabytes. Such a set is
    /// now corrupt, for exact and typo queries alike.
    func testForgedBitmapCardinalityIsCorruptNotAHugeAllocation() throws {
        let movies = (0..<200).map { Movie(id: $0, title: "Darkness \($0)", year: 2000 + $0 % 3, rating: nil) }
        var cache = try ForgedCache(Catalog(movies: movies))
        let (width, count, _) = cache.entry(of: .bitmapCardinalities)
        XCTAssertGreaterThan(count, 0, "the fixture must have a bitmap set")
        let forged = UInt32((UInt64(1) << UInt64(width)) - 1)
        XCTAssertGreaterThan(Int(forged), movies.count)
        for set in 0..<count { cache.setPacked(.bitmapCardinalities, set, to: forged) }
        let index = try cache.opened(in: self)
        for query in ["darkness", "darknes", "darkenss"] {
            XCTAssertThrowsError(try index.search(query), query) { error in
                guard case .corrupt? = error as? CacheError else { return XCTFail("\(query): \(error)") }
            }
        }
    }

    /// Found by reading the cache writer while writing the catalog target (whose round trip then trapped on this
    /// input), not by the fuzzer itself: names were collected in a `Set<String>`, where "Zoë" precomposed and
    /// "Zoe" + U+0308 are equal, then looked up by their bytes, so the second spelling found no id and
    /// `moviesearch index` trapped on a force unwrap. Each spelling is now a name of its own and reads back as given.
    func testCanonicallyEquivalentNamesKeepTheirBytes() throws {
        // The last genres are equivalent spellings of one length (5 bytes): only their bytes tell them apart.
        let input = #"[{"title":"A","year":2010,"cast":["Zo\u00eb"],"genres":["Caf\u00e9","\u1e0d\u0307"]},"#
            + #"{"title":"B","year":2011,"cast":["Zoe\u0308","Zo\u00eb"],"genres":["Cafe\u0301","\u1e0b\u0323"]}]"#
        let catalog = try CatalogDecoder.decode(Array(input.utf8), source: "names.json")
        let index = try Fixtures.index(catalog, self)
        for movie in catalog.movies {
            let stored = try index.movie(id: movie.id)
            XCTAssertEqual(stored.cast.map { Array($0.utf8) }, movie.cast.map { Array($0.utf8) })
            XCTAssertEqual(stored.genres.map { Array($0.utf8) }, movie.genres.map { Array($0.utf8) })
        }
        XCTAssertEqual(try index.movie(id: 1).cast.map { $0.unicodeScalars.count }, [4, 3])
        // As the input spells them, not as the first of an equivalent pair does.
        XCTAssertEqual(try index.movie(id: 0).genres.map { Array($0.unicodeScalars) },
                       [["C", "a", "f", "\u{E9}"], ["\u{1E0D}", "\u{307}"]])
        XCTAssertEqual(try index.movie(id: 1).genres.map { Array($0.unicodeScalars) },
                       [["C", "a", "f", "e", "\u{301}"], ["\u{1E0B}", "\u{323}"]])
    }

    /// catalog target, 26,884 executions into a run on 2026-11-22 (the finding predates that day's changes): a
    /// response whose `stat` is `"\nok"` gave a `FlickrError` of two lines, the value pasted into the message as it
    /// was; so did a `stat: fail` whose message or a missing code's message held a line break. Values from the
    /// response are now quoted as JSON strings, and Flickr's own message is when it holds a control character.
    func testFlickrErrorsQuotingResponseValuesStayOneLine() {
        let responses = [
            #"{"photos":{"page":1,"photo":[]},"stat":"\nok"}"#,
            #"{"stat":"fail","message":"bad\nkey"}"#,
            #"{"stat":"fail","code":100,"message":"Invalid API Key\r\n(Key has invalid format)"}"#,
        ]
        let expected = [
            #"fuzz.json: not a Flickr photos.search response: "stat" is "\nok", not "ok" or "fail""#,
            #"fuzz.json: not a Flickr photos.search response: "stat" is "fail" without an integer "code" (message: "bad\nkey")"#,
            #"fuzz.json: Flickr refused the request: error 100, "Invalid API Key\r\n(Key has invalid format)" (check the Flickr API key)"#,
        ]
        for (response, message) in zip(responses, expected) {
            XCTAssertThrowsError(try FlickrPhotos.photos(fromResponse: Array(response.utf8), source: "fuzz.json")) { error in
                XCTAssertEqual(String(describing: error), message)
            }
        }
    }
}
