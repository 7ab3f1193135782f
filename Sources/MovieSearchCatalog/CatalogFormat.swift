import MovieSearchJSON

/// The shapes of catalog `index` reads. `detect(_:)` tells them apart from an input's first bytes; a user may name
/// one instead (`index --format`).
///
/// `allCases` is the list of formats, and a case's raw value its name: the word `index --format` takes, which its
/// help and the shell completions offer.
public enum CatalogFormat: String, CaseIterable, Sendable {
    /// moviesearch's own JSON (SPEC.md, "Catalogs"): an array of movies, or an object with a `movies` array.
    case json
    /// TMDb API responses: a `/search/movie` or `/discover/movie` page, an array of pages, or an array of movies.
    case tmdb
    /// IMDb's `title.basics.tsv` (tab-separated, a header row of column names), with `title.ratings.tsv` beside it.
    case imdb
    /// RFC 4180 comma-separated values with a header row of column names.
    case csv

    /// How the summary of `index` names the format.
    public var displayName: String {
        switch self {
        case .json: "moviesearch JSON"
        case .tmdb: "TMDb JSON"
        case .imdb: "IMDb TSV"
        case .csv: "CSV"
        }
    }

    /// The format of an input whose first bytes (decoded, for gzip) are `prefix`, or the reason it is none of them;
    /// `nil` when `prefix` does not yet tell and more can come (`isComplete` false: a stream that has not shown its
    /// first line). JSON and binary input are told from their first bytes, so that a stream is never waited for
    /// past a byte that decides.
    ///
    /// JSON starts with `{` or `[` (after a byte-order mark and white space); it is TMDb's when its structure is
    /// (a page with `results`, or an array of pages or of TMDb movies without `year`: see `looksLikeTMDb`), else the
    /// catalog's own. (For a stream not yet complete it says `.json`, and `CatalogDecoder` tells the kind from the
    /// whole document.) Text whose first line holds a tab and a `tconst` column is IMDb's
    /// TSV; text whose first line holds a comma, or a title-like column name, is CSV.
    public static func detect(_ prefix: [UInt8], isComplete: Bool = true) -> Result<CatalogFormat?, DetectionFailure> {
        var start = 0
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[start]) { start += 1 }
        guard start < prefix.count else { return isComplete ? .failure(.empty) : .success(nil) }
        let body = prefix[start...]
        if body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "[") {
            // JSON of some kind: which kind is told from the whole document once it has been read
            // (`jsonFormat(of:)`), so that a stream is never waited for here.
            return .success(isComplete ? Self.jsonFormat(of: prefix) : .json)
        }
        let firstLine = body.prefix { $0 != 0x0A }
        if firstLine.contains(0) { return .failure(.binary) }
        if firstLine.count == body.count && !isComplete { return .success(nil) }
        let header = String(decoding: firstLine, as: UTF8.self).lowercased()
        if firstLine.contains(0x09) {
            let columns = header.split(separator: "\t").map { $0.trimmingSpace() }
            if columns.contains("tconst") {
                if !columns.contains("primarytitle") && columns.contains("averagerating") {
                    return .failure(.imdbRatingsFile)
                }
                return .success(.imdb)
            }
        }
        if firstLine.contains(UInt8(ascii: ","))
            || ["title", "primarytitle", "original_title"].contains(header.trimmingSpace()) {
            return .success(.csv)
        }
        return .failure(.unknown)
    }

    /// `.tmdb` or `.json`, for a JSON document that starts with `document`'s bytes (its first 64 KiB are looked at).
    static func jsonFormat(of document: some Collection<UInt8>) -> CatalogFormat {
        looksLikeTMDb(ArraySlice(document.prefix(1 << 16))) ? .tmdb : .json
    }

    /// Why `detect` found no format.
    public enum DetectionFailure: Error, Equatable, Sendable, CustomStringConvertible {
        /// No byte but white space.
        case empty
        /// A NUL byte in the first line: not text.
        case binary
        /// IMDb's `title.ratings.tsv`, given where `title.basics.tsv` belongs.
        case imdbRatingsFile
        /// Text, but neither JSON, IMDb TSV nor CSV.
        case unknown

        public var description: String {
            switch self {
            case .empty: "it is empty"
            case .binary: "it is binary, not text (a NUL byte near its start)"
            case .imdbRatingsFile:
                "this is IMDb's title.ratings.tsv: index title.basics.tsv and give this file with --ratings"
            case .unknown:
                "its format is none of JSON, TMDb JSON, IMDb TSV or CSV (name one with --format)"
            }
        }
    }

    /// Whether JSON that starts with `json` reads as TMDb's, judged on its structure as far as its first 64 KiB go
    /// (it may end inside a value: the verdict is then the one reached so far):
    /// - a top-level object is a TMDb page when one of its own members is a page's (`results`, `page`,
    ///   `total_pages`, `total_results`, or `status_message` / `status_code` of an error response) and none is
    ///   `movies`;
    /// - a top-level array holds TMDb pages or movies when its first object element that tells has a page's member
    ///   or a member only TMDb movies have (`release_date`, `vote_average`, `vote_count`, `original_title`,
    ///   `poster_path`, `backdrop_path`, `genre_ids`, `original_language`, `popularity`) and no `year`, which every
    ///   movie of the catalog's own JSON has and no TMDb movie does. Elements with none of these are passed over.
    ///
    /// Members of nested values are never looked at, so a catalog whose movies carry TMDb's members besides their
    /// `year` (`poster_path`, `results`) stays the catalog's, and so does anything that is not JSON.
    private static func looksLikeTMDb(_ json: ArraySlice<UInt8>) -> Bool {
        json.prefix(1 << 16).withUnsafeBufferPointer { bytes in
            var verdict = TMDbVerdict()
            var reader = JSONReader(bytes: bytes)
            do {
                try verdict.judge(&reader)
            } catch {
                // The prefix ended inside a value, or is not JSON: the verdict stands as reached.
            }
            return verdict.isTMDb
        }
    }
}

/// What `CatalogFormat.looksLikeTMDb` has found: `isTMDb` is its answer at any point of the reading.
private struct TMDbVerdict {
    private(set) var isTMDb = false

    /// A page's members, at the top level or in an element of the top-level array.
    private static let pageMembers: [StaticString] = ["results", "page", "total_pages", "total_results",
                                                      "status_message", "status_code"]
    /// Members a TMDb movie has and a movie of the catalog's own JSON has no use for.
    private static let movieMembers: [StaticString] = ["release_date", "vote_average", "vote_count", "original_title",
                                                       "poster_path", "backdrop_path", "genre_ids",
                                                       "original_language", "popularity"]

    /// Reads the document's start until the verdict is certain or the document ends.
    mutating func judge(_ reader: inout JSONReader) throws(JSONSyntaxError) {
        switch try reader.next() {
        case .beginObject:
            while case .key(let key) = try reader.next() {
                if reader.string(key, equals: "movies") {
                    isTMDb = false
                    return
                }
                if Self.pageMembers.contains(where: { reader.string(key, equals: $0) }) { isTMDb = true }
                try reader.skipValue(startingWith: reader.next())
            }
        case .beginArray:
            while true {
                let element = try reader.next()
                if case .endArray = element { return }
                guard case .beginObject = element else {
                    try reader.skipValue(startingWith: element)
                    continue
                }
                var year = false
                var tmdb = false
                while case .key(let key) = try reader.next() {
                    if reader.string(key, equals: "year") {
                        year = true
                    } else if Self.pageMembers.contains(where: { reader.string(key, equals: $0) })
                                || Self.movieMembers.contains(where: { reader.string(key, equals: $0) }) {
                        tmdb = true
                    }
                    isTMDb = tmdb && !year
                    try reader.skipValue(startingWith: reader.next())
                }
                if year || tmdb { return }
            }
        default:
            return
        }
    }
}

private extension Substring {
    func trimmingSpace() -> String {
        func isSpace(_ character: Character) -> Bool { character == " " || character == "\r" || character == "\"" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

private extension String {
    func trimmingSpace() -> String { self[...].trimmingSpace() }
}
