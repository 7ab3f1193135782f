// Fuzz target `query`: arbitrary bytes as a query (Scripts/fuzz.sh query <seconds>).
//
// The bytes become a `String` as the CLI makes one from its input (invalid UTF-8 repaired to U+FFFD), then:
// - `Tokenizer`: tokens are never empty, and the ASCII fast path agrees with the general path (the same text after
//   a non-ASCII word, which sends all of it down the general path, gives the same tokens after that word's).
// - `MovieIndex.search` on real caches, opened once per process: `$MOVIESEARCH_FUZZ_CACHE` (the decade catalog's,
//   built by the release binary) answering as the reference search of SEARCH-SPEC does on
//   `$MOVIESEARCH_FUZZ_CATALOG`, and the same for the sample catalog (`$MOVIESEARCH_FUZZ_SAMPLE_CACHE`,
//   `$MOVIESEARCH_FUZZ_SAMPLE_CATALOG`), each with several `perYear` values.

/// An opened cache and the catalog it was built from.
private struct Case: @unchecked Sendable {
    let index: MovieIndex
    let reference: ReferenceSearch

    init(cache: String, catalog: String) {
        do {
            index = try MovieIndex(path: Fuzz.required(cache))
            reference = ReferenceSearch(try CatalogDecoder.load(path: Fuzz.required(catalog), skipInvalid: true))
        } catch {
            fatalError("fuzz target: cannot open \(cache) / \(catalog): \(error)")
        }
    }
}

private let cases = [
    Case(cache: "MOVIESEARCH_FUZZ_CACHE", catalog: "MOVIESEARCH_FUZZ_CATALOG"),
    Case(cache: "MOVIESEARCH_FUZZ_SAMPLE_CACHE", catalog: "MOVIESEARCH_FUZZ_SAMPLE_CATALOG"),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let query = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    checkTokenizer(query)
    for test in cases {
        for perYear in fuzzPerYearValues {
            let answer: SearchResult
            do {
                answer = try test.index.search(query, perYear: perYear, typos: .off)
                try checkTypoAnswer(test.index, query, perYear: perYear, exact: answer)
            } catch {
                fatalError("search \(query.debugDescription) failed on an intact cache: \(error)")
            }
            let expected = test.reference.bruteForce(query, perYear: perYear)
            Fuzz.check(answer == expected, "search \(query.debugDescription) perYear \(perYear) on \(test.index.path): \(answer), expected \(expected)")
        }
    }
    return 0
}

private func checkTokenizer(_ query: String) {
    let tokens = Tokenizer.tokenBytes(in: query)
    Fuzz.check(!tokens.contains { $0.isEmpty }, "an empty token in \(query.debugDescription)")
    for token in tokens {
        Fuzz.check(String(validating: token, as: UTF8.self) != nil, "token \(token) of \(query.debugDescription) is not UTF-8")
    }
    // "é" folds to "e", and the space ends it; everything after goes down the general path.
    let general = Tokenizer.tokenBytes(in: "é " + query)
    Fuzz.check(general.first == Array("e".utf8) && Array(general.dropFirst()) == tokens,
               "fast and general paths disagree on \(query.debugDescription): \(tokens) vs \(general)")
}
