/// The shapes of catalog `index` reads. `detect(_:)` tells them apart from an input's first bytes; a user may name
/// one instead (`index --format`).
public enum CatalogFormat: String, CaseIterable, Sendable {
    /// moviesearch's own JSON (SEARCH-SPEC, "Input catalog"): an array of movies, or an object with a `movies` array.
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
    /// JSON starts with `{` or `[` (after a byte-order mark and white space); it is TMDb's when the first object
    /// member names found are TMDb's (`results`, `page`, `release_date`, `vote_average`, `original_title`,
    /// `poster_path`), else the catalog's own. (For a stream not yet complete it says `.json`, and
    /// `CatalogDecoder` tells the kind from the whole document.) Text whose first line holds a tab and a `tconst` column is IMDb's
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
        if firstLine.contains(UInt8(ascii: ",")) || ["title", "primarytitle", "original_title"].contains(header.trimmingSpace()) {
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

    /// Whether JSON that starts with `json` reads as TMDb's: one of TMDb's member names comes before any of the
    /// catalog's own (`movies`, `year`, `rating`, `cast`). Only the first bytes are seen, so a name is looked for as
    /// a quoted key followed by a colon.
    private static func looksLikeTMDb(_ json: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: json.prefix(1 << 16), as: UTF8.self)
        let tmdb = ["\"results\"", "\"release_date\"", "\"vote_average\"", "\"original_title\"", "\"poster_path\"",
                    "\"total_pages\""]
        let own = ["\"movies\"", "\"year\"", "\"rating\"", "\"cast\""]
        func firstKey(_ names: [String]) -> String.Index? {
            names.compactMap { name in text.firstRange(ofKey: name)?.lowerBound }.min()
        }
        guard let tmdbAt = firstKey(tmdb) else { return false }
        guard let ownAt = firstKey(own) else { return true }
        return tmdbAt < ownAt
    }
}

private extension Substring {
    func trimmingSpace() -> String {
        String(drop { $0 == " " || $0 == "\r" || $0 == "\"" }.reversed().drop { $0 == " " || $0 == "\r" || $0 == "\"" }.reversed())
    }
}

private extension String {
    func trimmingSpace() -> String { self[...].trimmingSpace() }

    /// The range of `key` (a quoted name) where a colon follows it, white space allowed between.
    func firstRange(ofKey key: String) -> Range<String.Index>? {
        var searchStart = startIndex
        while let found = self[searchStart...].firstRange(of: key) {
            let after = self[found.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
            if after.first == ":" { return found }
            searchStart = found.upperBound
        }
        return nil
    }
}
