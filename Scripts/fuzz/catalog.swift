// Fuzz target `catalog`: arbitrary bytes as a JSON document and as a movie catalog (Scripts/fuzz.sh catalog <seconds>).
//
// Nothing may crash, and the readers must agree with themselves:
// - `JSONParser.parse`: a document it accepts, written back by `JSONWriter`, parses to the same value.
// - `CatalogDecoder.decode` with and without `skipInvalid`: the same verdict on malformed JSON and on documents that
//   are not catalogs; strict decoding throws exactly the first movie that lenient decoding skips; the movies decoded
//   obey SEARCH-SPEC (ids ascending, titles not blank, years in Int32, finite ratings); every message is one line.
// - A small catalog that decodes is written as a cache (`CacheWriter`), opened, verified, and read back: every
//   movie comes back whole, and `search` answers like the reference search of SEARCH-SPEC, for the movie's own
//   title and a few fixed queries.
// - The Flickr response reader (another reader of untrusted JSON) takes the same bytes.
// - So does the TMDb reader (`CatalogDecoder.load` with `--format tmdb`), held to the catalog decoder's rules: the
//   same verdicts with and without `skipInvalid`; ids ascending; titles not blank; years of four digits; TMDb ids
//   unique among the movies kept.
// - So do the IMDb TSV and CSV readers, held to the same rules (same verdicts with and without `skipInvalid`, ids
//   ascending, titles not blank, one-line messages), with the same bytes as the ratings file for IMDb too.
// - Bytes that start like gzip decode, or fail with `InputError`, within a bound: never a trap or a hang.
// - `JSONStreamChecker` (how streams are read): its verdict does not depend on how the bytes are cut into chunks;
//   a byte it flags is one past which no JSON document goes on, so the parser fails on the whole input, and on the
//   input cut a few bytes after that byte it fails with the very same error.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    checkJSONParser(bytes)
    checkStreamChecker(bytes)
    checkFlickrResponse(bytes)
    checkTMDbReader(bytes)
    checkDelimitedReaders(bytes)
    checkGzipInput(bytes)
    if let catalog = checkCatalogDecoder(bytes), catalog.movies.count <= 64 {
        checkCacheRoundTrip(catalog)
    }
    return 0
}

private func checkJSONParser(_ bytes: [UInt8]) {
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes)
    } catch {
        Fuzz.checkOneLine(error.description)
        Fuzz.check(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside the input")
        return
    }
    var writer = JSONWriter()
    writer.value(value)
    do {
        let again = try JSONParser.parse(writer.bytes)
        Fuzz.check(again == value, "JSONWriter output parses to a different value: \(writer.text.debugDescription)")
    } catch {
        Fuzz.check(false, "JSONWriter output does not parse (\(error)): \(writer.text.debugDescription)")
    }
}

private func checkStreamChecker(_ bytes: [UInt8]) {
    func flagged(cuttingAt cut: Int) -> Int? {
        var checker = JSONStreamChecker()
        return bytes.withUnsafeBufferPointer { all -> Int? in
            let first = checker.feed(UnsafeBufferPointer(rebasing: all[..<cut]))
            return first ?? checker.feed(UnsafeBufferPointer(rebasing: all[cut...]))
        }
    }
    let whole = flagged(cuttingAt: bytes.count)
    // A cut that depends on the input, so that the fuzzer explores chunk boundaries too.
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    Fuzz.check(flagged(cuttingAt: cut) == whole, "the stream checker's verdict depends on the chunks (cut at \(cut))")
    guard let bad = whole else { return }
    Fuzz.check(bad < bytes.count, "flagged byte \(bad) outside the input")
    let wholeError: JSONSyntaxError
    do {
        _ = try JSONParser.parse(bytes)
        Fuzz.check(false, "the stream checker flagged byte \(bad) of a document the parser accepts")
        return
    } catch {
        wholeError = error
    }
    Fuzz.check(wholeError.offset <= bad, "the parser fails at \(wholeError.offset), after the flagged byte \(bad)")
    let kept = Array(bytes.prefix(bad + JSONStreamChecker.lookahead))
    do {
        _ = try JSONParser.parse(kept)
        Fuzz.check(false, "the bytes kept up to the flagged byte \(bad) parse")
    } catch {
        Fuzz.check(error == wholeError, "cut after the flagged byte: \(error), whole: \(wholeError)")
    }
}

private func checkFlickrResponse(_ bytes: [UInt8]) {
    do {
        let list = try FlickrPhotos.photos(fromResponse: bytes, source: "fuzz.json")
        _ = list
    } catch let error as FlickrError {
        Fuzz.checkOneLine(error.description)
    } catch {
        Fuzz.check(false, "FlickrPhotos threw a \(type(of: error)), not a FlickrError: \(error)")
    }
}

/// Reads `bytes` as TMDb JSON both ways and checks the two agree and the movies kept obey the reader's promises.
private func checkTMDbReader(_ bytes: [UInt8]) {
    func read(skipInvalid: Bool) -> Result<Catalog, CatalogError> {
        do {
            let catalog = try CatalogDecoder.load(CatalogInput(bytes: bytes), source: "fuzz.json",
                                                  options: CatalogOptions(format: .tmdb, skipInvalid: skipInvalid))
            return .success(catalog)
        } catch {
            Fuzz.checkOneLine(error.description)
            return .failure(error)
        }
    }
    let strict = read(skipInvalid: false)
    let lenient = read(skipInvalid: true)
    switch (strict, lenient) {
    case let (.success(a), .success(b)):
        Fuzz.check(a.movies == b.movies && a.skipped.isEmpty && b.skipped.isEmpty && a.duplicates == b.duplicates,
                   "TMDb: strict and lenient catalogs differ")
    case let (.failure(error), .success(b)):
        Fuzz.check(b.skipped.first == error, "TMDb: strict error \(error) is not the first skipped movie \(b.skipped.first as Any)")
    case let (.failure(a), .failure(b)):
        Fuzz.check(a == b, "TMDb: strict and lenient errors differ: \(a) / \(b)")
        if case .invalidMovie = a { Fuzz.check(false, "TMDb: lenient reading threw an invalid movie: \(a)") }
    case let (.success, .failure(error)):
        Fuzz.check(false, "TMDb: strict reading succeeded, lenient failed: \(error)")
    }
    guard case .success(let catalog) = lenient else { return }
    var previousID = -1
    var tmdbIDs = Set<Int>()
    for movie in catalog.movies {
        Fuzz.check(movie.id > previousID, "TMDb: movie ids not ascending: \(movie.id) after \(previousID)")
        previousID = movie.id
        Fuzz.check(!movie.title.unicodeScalars.allSatisfy(\.properties.isWhitespace), "TMDb: blank title")
        Fuzz.check((0...9999).contains(movie.year), "TMDb: year \(movie.year) not of four digits")
        Fuzz.check(movie.rating?.isFinite ?? true, "TMDb: rating \(movie.rating!) not finite")
        if let id = movie.tmdbID { Fuzz.check(tmdbIDs.insert(id).inserted, "TMDb: id \(id) kept twice") }
    }
}

private func checkDelimitedReaders(_ bytes: [UInt8]) {
    for format in [CatalogFormat.imdb, .csv] {
        func read(skipInvalid: Bool) -> Result<Catalog, CatalogError> {
            do {
                let options = CatalogOptions(format: format, skipInvalid: skipInvalid, titleTypes: nil)
                var reader = CatalogInput(bytes: bytes)
                if format == .imdb {
                    // The same bytes as the ratings file: its reader meets every shape the basics reader does.
                    _ = try? CatalogDecoder.load(reader, source: "fuzz.tsv", options: options,
                                                 ratingsPath: nil)
                    reader = CatalogInput(bytes: bytes)
                }
                return .success(try CatalogDecoder.load(reader, source: "fuzz", options: options))
            } catch {
                Fuzz.checkOneLine(error.description)
                return .failure(error)
            }
        }
        let strict = read(skipInvalid: false), lenient = read(skipInvalid: true)
        switch (strict, lenient) {
        case let (.success(a), .success(b)):
            Fuzz.check(a.movies == b.movies && a.skippedCount == 0 && b.skippedCount == 0,
                       "\(format): strict and lenient catalogs differ")
        case let (.failure(error), .success(b)):
            Fuzz.check(b.skipped.first == error, "\(format): strict error \(error) is not the first skipped record")
        case let (.failure(a), .failure(b)):
            Fuzz.check(a == b || { if case .invalidMovie = a { return true } else { return false } }(),
                       "\(format): strict and lenient errors differ: \(a) / \(b)")
        case let (.success, .failure(error)):
            Fuzz.check(false, "\(format): strict reading succeeded, lenient failed: \(error)")
        }
        guard case .success(let catalog) = lenient else { continue }
        var previousID = -1
        for movie in catalog.movies {
            Fuzz.check(movie.id > previousID, "\(format): ids not ascending: \(movie.id) after \(previousID)")
            previousID = movie.id
            Fuzz.check(!movie.title.isEmpty, "\(format): empty title")
            Fuzz.check(movie.rating?.isFinite ?? true, "\(format): rating not finite")
        }
    }
}

private func checkGzipInput(_ bytes: [UInt8]) {
    let input = CatalogInput(bytes: bytes)
    do {
        let decoded = try input.readAll(maximumBytes: 1 << 24)
        if !input.isGzip { Fuzz.check(decoded == bytes, "plain bytes read back changed") }
    } catch {
        Fuzz.checkOneLine(error.description)
    }
}

/// Decodes both ways, checks they agree; returns the lenient catalog if the document is a catalog.
private func checkCatalogDecoder(_ bytes: [UInt8]) -> Catalog? {
    func decode(skipInvalid: Bool) -> Result<Catalog, CatalogError> {
        do {
            return .success(try CatalogDecoder.decode(bytes, source: "fuzz.json", skipInvalid: skipInvalid))
        } catch let error as CatalogError {
            Fuzz.checkOneLine(error.description)
            return .failure(error)
        } catch {
            fatalError("CatalogDecoder threw a \(type(of: error)), not a CatalogError: \(error)")
        }
    }
    let strict = decode(skipInvalid: false)
    let lenient = decode(skipInvalid: true)
    switch (strict, lenient) {
    case let (.success(a), .success(b)):
        Fuzz.check(a.movies == b.movies && a.skipped.isEmpty && b.skipped.isEmpty, "strict and lenient catalogs differ")
    case let (.failure(error), .success(b)):
        Fuzz.check(b.skipped.first == error, "strict error \(error) is not the first skipped movie \(b.skipped.first as Any)")
    case let (.failure(a), .failure(b)):
        Fuzz.check(a == b, "strict and lenient errors differ: \(a) / \(b)")
        if case .invalidMovie = a { Fuzz.check(false, "lenient decoding threw an invalid movie: \(a)") }
    case let (.success, .failure(error)):
        Fuzz.check(false, "strict decoding succeeded, lenient failed: \(error)")
    }
    guard case .success(let catalog) = lenient else { return nil }
    var previousID = -1
    for movie in catalog.movies {
        Fuzz.check(movie.id > previousID, "movie ids not ascending: \(movie.id) after \(previousID)")
        previousID = movie.id
        Fuzz.check(!movie.title.unicodeScalars.allSatisfy(\.properties.isWhitespace), "blank title \(movie.title.debugDescription)")
        Fuzz.check(Int32(exactly: movie.year) != nil, "year \(movie.year) outside Int32")
        Fuzz.check(movie.rating?.isFinite ?? true, "rating \(movie.rating!) not finite")
    }
    for case .invalidMovie(_, let index, _, _) in catalog.skipped {
        Fuzz.check(!catalog.movies.contains { $0.id == index }, "movie \(index) both decoded and skipped")
    }
    return catalog
}

/// Writes `catalog` as a cache, opens it and reads every movie and a few searches back.
private func checkCacheRoundTrip(_ catalog: Catalog) {
    let bytes: [UInt8]
    do {
        bytes = try CacheWriter.encode(catalog)
    } catch {
        fatalError("CacheWriter refused a decoded catalog: \(error)")
    }
    let path = bytes.withUnsafeBytes { Fuzz.writeScratch($0) }
    do {
        let index = try MovieIndex(path: path)
        try index.verify()
        Fuzz.check(index.movieCount == catalog.movies.count, "cache holds \(index.movieCount) movies, catalog \(catalog.movies.count)")
        for movie in catalog.movies {
            let stored = try index.movie(id: movie.id)
            Fuzz.check(stored.id == movie.id && stored.title.utf8.elementsEqual(movie.title.utf8) && stored.year == movie.year
                       && stored.rating == movie.rating && stored.cast.map { Array($0.utf8) } == movie.cast.map { Array($0.utf8) }
                       && stored.genres.map { Array($0.utf8) } == movie.genres.map { Array($0.utf8) },
                       "movie \(movie.id) reads back as \(stored), was \(movie)")
        }
        let reference = ReferenceSearch(catalog)
        let queries = catalog.movies.prefix(8).map(\.title) + ["", "a", "the", "dark kni", "é", "1"]
        for query in queries {
            for perYear in fuzzPerYearValues {
                let answer = try index.search(query, perYear: perYear, typos: .off)
                try checkTypoAnswer(index, query, perYear: perYear, exact: answer)
                let expected = reference.bruteForce(query, perYear: perYear)
                Fuzz.check(answer == expected, "search \(query.debugDescription) perYear \(perYear): \(answer), expected \(expected)")
            }
        }
    } catch {
        fatalError("the cache of a decoded catalog does not read back: \(error)")
    }
}
