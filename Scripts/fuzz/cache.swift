// Fuzz target `cache`: arbitrary bytes opened as a cache file (Scripts/fuzz.sh cache <seconds>).
//
// The bytes go to one scratch file per process, opened with `MovieIndex(path:)`. If it opens: searches (fixed
// texts, and the titles of the first movies, each with several `perYear`), the same under filters (the catalog's
// genres, alone, two together and with a year range, a name no genre has) with the genre facet, the genres' counts,
// `movie(id:)` for every id and a few out of range, `topRated`, and `verify()`. Nothing may crash or hang, and every
// error must be a one-line `CacheError`.
//
// Every content block is XXH64-checked, so most mutations stop at a checksum. Built with `-D FUZZING_SKIP_CHECKSUMS`
// (`FUZZ_SKIP_CHECKSUMS=1 Scripts/fuzz.sh cache <seconds>`), the reader treats every checksum as matching, and the
// mutations reach the structural checks behind them.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = Fuzz.writeScratch(UnsafeRawBufferPointer(start: data, count: size))
    let index: MovieIndex
    do {
        index = try MovieIndex(path: path)
    } catch {
        checkCacheError(error)
        return 0
    }
    exercise(index)
    return 0
}

private let fixedQueries = ["", "dark", "d", "the", "dark kni", "t s", "zzz", "a b c", "2", "é", "Straße", "ß", "!!!", "darkenss", "godfahter", "spiderman", "theee darkk", "strasse"]

/// Runs every read the CLI can make, each on its own so that one error does not hide the next.
private func exercise(_ index: MovieIndex) {
    func attempt(_ body: () throws -> Void) {
        do { try body() } catch { checkCacheError(error) }
    }
    var titles: [String] = []
    for id in [0, 1, 2, 3] where id < index.movieCount {
        attempt { titles.append(try index.movie(id: id).title) }
    }
    // The years and their sizes, from a query without tokens (the year table, checked at open): no answer may
    // have a year outside it, or more matches in a year than it has movies.
    var yearSizes: [Int: Int]?
    attempt {
        let all = try index.search("", perYear: 0)
        yearSizes = Dictionary(all.years.map { ($0.year, $0.count) }, uniquingKeysWith: { a, _ in a })
    }
    for query in fixedQueries + titles {
        for perYear in fuzzPerYearValues {
            attempt {
                let result = try index.search(query, perYear: perYear)
                checkShape(result, perYear: perYear, movieCount: index.movieCount, yearSizes: yearSizes)
            }
        }
    }
    // The genre sections (`GNRO`, `GNRP`, `GNRR`, `GSET`, `GSTO`, `GSTG`): filters read each genre's coded list,
    // the facet each match's set.
    var genres: [String] = []
    attempt { genres = try index.genreNames() }
    attempt { _ = try index.genreCounts() }
    var filterSets = [SearchFilters(genres: ["no such genre"]), SearchFilters(lowestYear: 2000, highestYear: 2010)]
    for genre in genres.prefix(4) {
        filterSets.append(SearchFilters(genres: [genre]))
        filterSets.append(SearchFilters(lowestYear: 1990, highestYear: 2015, genres: [genre]))
    }
    if genres.count >= 2 { filterSets.append(SearchFilters(genres: Array(genres.prefix(2)))) }
    for filters in filterSets {
        for query in ["", "dark", "d", "the", "darkenss", "t s"] + titles.prefix(1) {
            attempt {
                let result = try index.search(query, perYear: 5, filters: filters, genreFacet: true)
                checkShape(result, perYear: 5, movieCount: index.movieCount, yearSizes: yearSizes)
            }
        }
        attempt { _ = try index.passingCount(filters) }
    }
    for id in 0..<index.movieCount { attempt { _ = try index.movie(id: id) } }
    for id in [-1, index.movieCount, index.movieCount + 1, Int(UInt32.max), Int.max, Int.min] {
        do {
            _ = try index.movie(id: id)
        } catch let error as CacheError {
            Fuzz.checkOneLine(error.description)
        } catch {
            Fuzz.check(false, "movie(id: \(id)) threw \(error)")
        }
    }
    for limit in [0, 1, 15, index.movieCount + 1, -1, Int.max] {
        attempt { _ = try index.topRated(limit: limit) }
    }
    attempt { try index.verify() }
}

/// What any answer must look like, however damaged the file: no crash is not enough if the answer is nonsense
/// that a caller would trip over (a count below the ids listed, more ids than asked for, more matches than movies).
private func checkShape(_ result: SearchResult, perYear: Int, movieCount: Int, yearSizes: [Int: Int]?) {
    var total = 0
    var previousYear: Int?
    for year in result.years {
        Fuzz.check(year.count > 0 && year.movieIDs.count <= min(year.count, max(perYear, 0)), "year \(year) with perYear \(perYear)")
        Fuzz.check(previousYear.map { year.year < $0 } ?? true, "year \(year.year) after \(previousYear!)")
        if let yearSizes {
            Fuzz.check(year.count <= yearSizes[year.year] ?? 0, "\(year.count) matches in \(year.year), which has \(yearSizes[year.year] ?? 0) movies")
        }
        previousYear = year.year
        total += year.count
    }
    Fuzz.check(total == result.total && total <= movieCount, "total \(result.total) for \(result.years.count) years, \(movieCount) movies")
}

private func checkCacheError(_ error: any Error) {
    guard let error = error as? CacheError else {
        Fuzz.check(false, "threw a \(type(of: error)), not a CacheError: \(error)")
        return
    }
    Fuzz.checkOneLine(error.description)
}
