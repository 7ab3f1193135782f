import MovieSearchJSON

/// Decodes TMDb API responses into movies, in one pass over the tokens of `JSONReader` (no `JSONValue` tree;
/// members it does not know are skipped without being decoded), as `MovieSearchJSONReader` does for moviesearch's
/// own JSON.
///
/// Three shapes are read:
/// - a `/search/movie` or `/discover/movie` page: `{"page":1,"results":[movie, …],"total_pages":…,…}`;
/// - an array of such pages (the responses of several requests, saved together);
/// - an array of TMDb movie objects.
/// An array is one or the other, as its first element shows (an object with a `results` member is a page): mixing
/// pages and movies in one array makes the document not a catalog.
///
/// A movie's id is its position among the movies of the whole document, counting from 0 across pages in file order;
/// invalid movies and duplicates keep their numbers, so the same file always gives the same ids. Its fields:
/// - `title`: TMDb's `title`, or `original_title` when `title` is missing, `null` or blank. A movie with neither is
///   invalid.
/// - `year`: the first four digits of `release_date`, which must be a date `YYYY-MM-DD`. A missing, `null` or empty
///   date makes the movie invalid ("release_date is empty"; TMDb gives one to movies not released yet), and so does
///   anything else that is not such a date.
/// - `rating`: `vote_average` when `vote_count` is more than 0; with `vote_count` 0 the movie is unrated, since TMDb
///   writes an average of 0 for a movie nobody voted on, and no votes is not a zero. A movie without `vote_count`
///   (or with a `null` one: a list written by hand rather than by TMDb) has its `vote_average` taken as it is.
/// - `genres`: the names of `genres`, an array of `{"id","name"}` objects as TMDb's movie details give (plain strings
///   are taken too), when it is present and not `null`; otherwise `genre_ids`, the ids a search or discover result
///   gives, mapped through TMDb's published list of movie genres (`GET /genre/movie/list`: 28 Action, 12 Adventure,
///   16 Animation, 35 Comedy, 80 Crime, 99 Documentary, 18 Drama, 10751 Family, 14 Fantasy, 36 History, 27 Horror,
///   10402 Music, 9648 Mystery, 10749 Romance, 878 Science Fiction, 10770 TV Movie, 53 Thriller, 10752 War,
///   37 Western). An id not on that list is skipped: TMDb may add genres, and a movie is not invalid for it.
/// - kept too: `tmdbID` (`id`, a whole number from 0 to 2147483647, or `null` for none), `originalTitle`
///   (`original_title`, only when it differs from the title), `overview` (when not blank), `posterPath`
///   (`poster_path`, when a non-empty string; `null` is none).
///
/// A TMDb id that a movie kept earlier already had (pages fetched while the ranking moved overlap) is a duplicate:
/// the first is kept, and the later one is counted (`CatalogBuilder.dropsRepeatedTMDbIDs`), its position left
/// unused. Only kept movies count: an invalid movie skipped with `--skip-invalid` does not make a later, valid copy
/// of it a duplicate.
///
/// It parses, and hands each movie to a `CatalogBuilder`, which checks what every format shares (`RecordChecks`:
/// a blank title, a `vote_average` that is not finite) and keeps the movie or the error.
///
/// Errors come in the same order as `MovieSearchJSONReader`'s, whatever their places in the input: malformed JSON
/// anywhere first, then a document that is not a catalog, then the first invalid movie (field named with TMDb's
/// member name, position as "(line L, column C)"). A member the reader uses given twice in one movie makes it invalid.
struct TMDbReader: BuilderFedReader {
    private var json = JSONReader(bytes: UnsafeBufferPointer(start: nil, count: 0))
    /// The caller's builder, moved in for the read (swapped, not copied) so that every step can hand it movies.
    var builder = CatalogBuilder.placeholder
    /// Set when the builder stopped the read (the record limit): the token loop is left by a syntax error that is
    /// not one, and this is thrown instead.
    var stop: CatalogError?
    /// Why the document is not a catalog, if it is not: the first reason found.
    private var notACatalog: String?

    /// The members the builder checks, as its messages name them: the title is `title` even when it was taken
    /// from `original_title`, and the year is never refused (four digits of a date).
    static let fieldNames = CatalogRecord.FieldNames(title: "title", year: "release_date",
                                                     rating: "vote_average")

    /// Decodes `bytes`, a whole JSON document, into `builder`, which must have been made with the same bytes
    /// (`CatalogBuilder.Layout.document`). Throws malformed JSON, a document that is not a catalog, and what the
    /// builder throws while reading (`tooManyRecords`); the first invalid movie is thrown by the builder's `finish`.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, into builder: inout CatalogBuilder) throws(CatalogError) {
        json = JSONReader(bytes: bytes)
        stop = nil
        notACatalog = nil
        swap(&self.builder, &builder)
        defer { swap(&self.builder, &builder) }
        self.builder.dropsRepeatedTMDbIDs = true
        do {
            try readTopLevel()
            let end = try json.next()  // `.end`, or an error for anything after the top-level value.
            assert(end == .end)
        } catch {
            if let stop { throw stop }
            throw .malformedJSON(source: self.builder.source, line: error.line, column: error.column,
                                 offset: error.offset, reason: error.reason)
        }
        if let notACatalog { throw .notACatalog(source: self.builder.source, reason: notACatalog) }
    }

    // MARK: - Pages

    private mutating func readTopLevel() throws(JSONSyntaxError) {
        let top = try json.next()
        switch top {
        case .beginObject:
            _ = try readObject(allowsPage: true, allowsMovie: false, element: nil)
        case .beginArray:
            try readTopLevelArray()
        default:
            refuse("expected a TMDb page (an object with a 'results' array), an array of pages or an array of "
                   + "movies, got \(json.describe(top))")
        }
    }

    /// Reads an array of pages or of movies whose `[` has been read, up to its `]`.
    private mutating func readTopLevelArray() throws(JSONSyntaxError) {
        var holdsPages: Bool?
        var element = 0
        while true {
            let first = try json.next()
            if case .endArray = first { return }
            if case .beginObject = first {
                let isPage = try readObject(allowsPage: holdsPages != false, allowsMovie: holdsPages != true,
                                            element: element)
                if holdsPages == nil { holdsPages = isPage }
            } else if holdsPages == true {
                refuse("element \(element) of the top-level array must be a page like the ones before it (an "
                       + "object with a 'results' array), got \(json.describe(first))")
                try json.skipValue(startingWith: first)
            } else {
                holdsPages = false
                try readMovie(first)
            }
            element += 1
        }
    }

    /// Reads the movies of a page's `results`, whose `[` has been read, up to its `]`.
    private mutating func readResults() throws(JSONSyntaxError) {
        while true {
            let first = try json.next()
            if case .endArray = first { return }
            try readMovie(first)
        }
    }

    /// Reads the movie that `first` begins.
    private mutating func readMovie(_ first: JSONToken) throws(JSONSyntaxError) {
        guard case .beginObject = first else {
            var draft = Draft(start: json.tokenStart)
            draft.fail("movie", "a movie must be an object, got \(json.describe(first))", at: json.tokenStart)
            try json.skipValue(startingWith: first)
            try finish(draft)
            return
        }
        _ = try readObject(allowsPage: false, allowsMovie: true, element: nil)
    }

    /// Reads an object whose `{` has just been read, up to its `}`, as a page or a movie as the flags allow; returns
    /// whether it was a page. `element` is its position in the top-level array, `nil` for the top-level object or a
    /// page's result. An object is a page when it has a `results` member; a movie of `results` has no such member
    /// that counts (it is skipped like any other unknown one).
    private mutating func readObject(allowsPage: Bool, allowsMovie: Bool, element: Int?) throws(JSONSyntaxError)
        -> Bool
    {
        let place = element.map { "element \($0) of the top-level array" } ?? "the top-level object"
        let depth = json.depth
        var draft = Draft(start: json.tokenStart)
        var results = 0
        var statusMessage: String?
        while case .key(let key) = try json.next() {
            let keyStart = json.tokenStart
            let value = try json.next()
            if allowsPage || element != nil, json.string(key, equals: "results") {
                results += 1
                if !allowsPage {
                    refuse("\(place) is a page (it has a 'results' member), but the array holds movies: an array "
                           + "must hold only pages or only movies")
                } else if results > 1 {
                    refuse("\(place) has more than one 'results' member")
                } else if case .beginArray = value {
                    try readResults()
                    continue
                } else {
                    refuse("'results' of \(place) must be an array of movies, got \(json.describe(value))")
                }
                try json.skipValue(startingWith: value)
                continue
            }
            if allowsPage, json.string(key, equals: "status_message"), case .string(let message) = value {
                statusMessage = json.string(message)
                continue
            }
            guard allowsMovie, draft.problem == nil, let field = Field(key: key, in: json) else {
                try json.skipValue(startingWith: value)
                continue
            }
            try read(field, value, keyStart: keyStart, into: &draft)
            // Leaves an array or object that was rejected at its first token.
            try json.skip(toDepth: depth)
        }
        if results > 0 { return true }
        if !allowsMovie {
            var reason = "\(place) has no 'results' member"
            if element != nil { reason += ", but the array holds pages" }
            if let statusMessage { reason += " (TMDb's status_message: \(statusMessage))" }
            refuse(reason)
            return false
        }
        try finish(draft)
        return false
    }

    /// Notes why the document is not a catalog; the first reason is the one reported.
    private mutating func refuse(_ reason: String) {
        if notACatalog == nil { notACatalog = reason }
    }

    // MARK: - Movies

    /// What is known of a movie while its members are read.
    private struct Draft {
        /// Offset of the movie's first token, where a missing member is reported.
        let start: Int
        /// The members read so far, one bit per `Field`.
        var seen: UInt16 = 0
        var id: Int?
        var title: String?
        var titleAt = 0
        var originalTitle: String?
        var originalTitleAt = 0
        var year: Int?
        var voteAverage: Double?
        var voteAverageAt = 0
        var voteAverageText = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var voteCount: Double?
        var genres: [String]?
        var genreIDs: [Int]?
        var overview: String?
        var posterPath: String?
        /// The movie's first problem, if any: the rest of the movie is then only checked as JSON.
        var problem: RecordProblem?

        init(start: Int) {
            self.start = start
        }

        /// Records the movie's first problem; later ones are not reported (the first is the one to fix first).
        mutating func fail(_ field: String, _ reason: String, at offset: Int) {
            if problem == nil { problem = RecordProblem(field: field, reason: reason, place: offset) }
        }
    }

    /// The members of a TMDb movie the reader uses.
    private enum Field: UInt16, JSONMemberField {
        case id, title, originalTitle, releaseDate, voteAverage, voteCount, genres, genreIDs, overview, posterPath

        var key: StaticString {
            switch self {
            case .id: "id"
            case .title: "title"
            case .originalTitle: "original_title"
            case .releaseDate: "release_date"
            case .voteAverage: "vote_average"
            case .voteCount: "vote_count"
            case .genres: "genres"
            case .genreIDs: "genre_ids"
            case .overview: "overview"
            case .posterPath: "poster_path"
            }
        }
    }

    /// Reads the member `field`, whose value `value` begins, into `draft`. An array or object may be left
    /// unfinished when it was rejected at its first token; the caller skips the rest.
    private mutating func read(_ field: Field, _ value: JSONToken, keyStart: Int, into draft: inout Draft)
        throws(JSONSyntaxError)
    {
        let bit: UInt16 = 1 << field.rawValue
        if draft.seen & bit != 0 {
            draft.fail(field.name, "\(field.name) is given twice", at: keyStart)
            try json.skipValue(startingWith: value)
            return
        }
        draft.seen |= bit
        let at = json.tokenStart
        switch field {
        case .id:
            draft.id = readID(value, into: &draft)
        case .title:
            draft.title = readText(value, field, into: &draft)
            draft.titleAt = at
        case .originalTitle:
            draft.originalTitle = readText(value, field, into: &draft)
            draft.originalTitleAt = at
        case .releaseDate:
            draft.year = readReleaseDate(value, into: &draft)
        case .voteAverage:
            // Infinite past `Double`'s range: the builder refuses that rating, as every format's.
            draft.voteAverage = readNumber(value, field, finite: false, into: &draft)
            draft.voteAverageAt = at
            if case .number(let token) = value { draft.voteAverageText = json.literal(token) }
        case .voteCount:
            draft.voteCount = readNumber(value, field, finite: true, into: &draft)
            if let count = draft.voteCount, count < 0 {
                draft.fail(field.name, "vote_count must not be negative, got \(json.describe(value))", at: at)
            }
        case .genres:
            draft.genres = try readGenres(value, into: &draft)
        case .genreIDs:
            draft.genreIDs = try readGenreIDs(value, into: &draft)
        case .overview:
            draft.overview = readText(value, field, into: &draft).flatMap { RecordChecks.isBlank($0) ? nil : $0 }
        case .posterPath:
            draft.posterPath = readText(value, field, into: &draft).flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// A string member's text, or `nil` for `null`.
    private mutating func readText(_ value: JSONToken, _ field: Field, into draft: inout Draft) -> String? {
        switch value {
        case .null:
            return nil
        case .string(let token):
            return json.string(token)
        default:
            draft.fail(field.name, "\(field.name) must be a string or null, got \(json.describe(value))",
                       at: json.tokenStart)
            return nil
        }
    }

    /// TMDb's id: a whole number that fits the 32 bits TMDb's ids have always fitted, or `null` for none.
    private mutating func readID(_ value: JSONToken, into draft: inout Draft) -> Int? {
        switch value {
        case .null:
            return nil
        case .number(let token):
            if case .value(let id) = JSONNumber.wholeValue(literal: json.literal(token)),
               Movie.tmdbIDRange.contains(id) {
                return id
            }
            draft.fail("id", "id must be a whole number from 0 to \(Movie.tmdbIDRange.upperBound), got \(json.describe(value))",
                       at: json.tokenStart)
        default:
            draft.fail("id", "id must be an integer, got \(json.describe(value))", at: json.tokenStart)
        }
        return nil
    }

    /// A number (a `finite` one, or infinite past `Double`'s range), or `nil` for `null`.
    private mutating func readNumber(_ value: JSONToken, _ field: Field, finite: Bool, into draft: inout Draft)
        -> Double?
    {
        switch value {
        case .null:
            return nil
        case .number(let token):
            let number = JSONNumber.nearestValue(literal: json.literal(token))
            if number.isFinite || !finite { return number }
            draft.fail(field.name, "\(field.name) must be a finite number, got \(json.describe(value))",
                       at: json.tokenStart)
        default:
            draft.fail(field.name, "\(field.name) must be a number or null, got \(json.describe(value))",
                       at: json.tokenStart)
        }
        return nil
    }

    /// The year of `release_date`.
    private mutating func readReleaseDate(_ value: JSONToken, into draft: inout Draft) -> Int? {
        let at = json.tokenStart
        switch value {
        case .null:
            draft.fail("release_date", "release_date is empty", at: at)
        case .string(let token) where token.start == token.end:
            draft.fail("release_date", "release_date is empty", at: at)
        case .string(let token):
            let year = token.hasEscapes
                ? Array(json.string(token).utf8).withUnsafeBufferPointer { Self.year(ofDate: $0) }
                : Self.year(ofDate: UnsafeBufferPointer(rebasing: json.bytes[token.start..<token.end]))
            if let year { return year }
            fallthrough
        default:
            draft.fail("release_date", "release_date must be a date YYYY-MM-DD, got \(json.describe(value))", at: at)
        }
        return nil
    }

    /// The year of a date written `YYYY-MM-DD` (month 01 to 12, day 01 to 31), or `nil` if `date` is not one.
    static func year(ofDate date: UnsafeBufferPointer<UInt8>) -> Int? {
        guard date.count == 10, date[4] == UInt8(ascii: "-"), date[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in date[range] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        return year
    }

    /// The genre names of `genres`, or `nil` for `null` (then `genre_ids` gives them). An object's `name` is taken,
    /// else its `id` mapped like `genre_ids`'s; an object with neither is passed over.
    private mutating func readGenres(_ value: JSONToken, into draft: inout Draft) throws(JSONSyntaxError) -> [String]? {
        switch value {
        case .null:
            return nil
        case .beginArray:
            var names: [String] = []
            var position = 0
            while true {
                let element = try json.next()
                switch element {
                case .endArray:
                    return names
                case .string(let token):
                    names.append(json.string(token))
                case .beginObject:
                    if let name = try readGenre(position, into: &draft) { names.append(name) }
                default:
                    draft.fail("genres", "genres[\(position)] must be an object with a name, got "
                               + json.describe(element), at: json.tokenStart)
                    try json.skipValue(startingWith: element)
                }
                position += 1
            }
        default:
            draft.fail("genres", "genres must be an array of {\"id\",\"name\"} objects or null, got "
                       + json.describe(value), at: json.tokenStart)
            return nil
        }
    }

    /// The name of the genre object at `position` of `genres`, whose `{` has been read, up to its `}`.
    private mutating func readGenre(_ position: Int, into draft: inout Draft) throws(JSONSyntaxError) -> String? {
        var name: String?
        var id: Int?
        while case .key(let key) = try json.next() {
            let value = try json.next()
            if json.string(key, equals: "name") {
                if case .string(let token) = value {
                    name = json.string(token)
                } else if value != .null {
                    draft.fail("genres", "genres[\(position)].name must be a string, got \(json.describe(value))",
                               at: json.tokenStart)
                }
            } else if json.string(key, equals: "id"), case .number(let token) = value {
                id = json.integer(token)
            }
            try json.skipValue(startingWith: value)
        }
        return name ?? id.flatMap(Self.genreName)
    }

    /// The ids of `genre_ids`, or `nil` for `null`.
    private mutating func readGenreIDs(_ value: JSONToken, into draft: inout Draft) throws(JSONSyntaxError) -> [Int]? {
        switch value {
        case .null:
            return nil
        case .beginArray:
            var ids: [Int] = []
            var position = 0
            while true {
                let element = try json.next()
                if case .endArray = element { return ids }
                if case .number(let token) = element, let id = json.integer(token) {
                    ids.append(id)
                } else {
                    draft.fail("genre_ids", "genre_ids[\(position)] must be an integer, got \(json.describe(element))",
                               at: json.tokenStart)
                    try json.skipValue(startingWith: element)
                }
                position += 1
            }
        default:
            draft.fail("genre_ids", "genre_ids must be an array of integers or null, got \(json.describe(value))",
                       at: json.tokenStart)
            return nil
        }
    }

    /// The name of a TMDb movie genre by its id, from TMDb's published list (`GET /genre/movie/list`, English).
    static func genreName(_ id: Int) -> String? {
        switch id {
        case 28: "Action"
        case 12: "Adventure"
        case 16: "Animation"
        case 35: "Comedy"
        case 80: "Crime"
        case 99: "Documentary"
        case 18: "Drama"
        case 10751: "Family"
        case 14: "Fantasy"
        case 36: "History"
        case 27: "Horror"
        case 10402: "Music"
        case 9648: "Mystery"
        case 10749: "Romance"
        case 878: "Science Fiction"
        case 10770: "TV Movie"
        case 53: "Thriller"
        case 10752: "War"
        case 37: "Western"
        default: nil
        }
    }

    /// Ends the movie: hands it to the builder, which takes it at the next position (keeps it, drops it as a
    /// duplicate, or files it as invalid).
    private mutating func finish(_ draft: Draft) throws(JSONSyntaxError) {
        var draft = draft
        let title = resolvedTitle(&draft)
        if draft.year == nil && draft.seen & (1 << Field.releaseDate.rawValue) == 0 {
            draft.fail("release_date", "release_date is empty", at: draft.start)
        }
        guard draft.problem == nil, let title, let year = draft.year else { return try handOver(draft.problem) }
        // No `vote_count` says nothing about votes: the average is then all there is (see the type's doc).
        let rating = (draft.voteCount ?? 1) > 0 ? draft.voteAverage : nil
        let originalTitle = draft.originalTitle.flatMap { $0 == title.text || RecordChecks.isBlank($0) ? nil : $0 }
        try handOver(CatalogRecord(
            title: title.text, year: .value(year), rating: rating,
            genres: draft.genres ?? draft.genreIDs?.compactMap(Self.genreName) ?? [],
            originalTitle: originalTitle, overview: draft.overview, posterPath: draft.posterPath, tmdbID: draft.id,
            titlePlace: title.at, yearPlace: draft.start, ratingPlace: draft.voteAverageAt,
            ratingText: draft.voteAverageText))
    }

    /// `title`, else `original_title` when `title` is missing, `null` or blank, with where it is; a blank `title` when
    /// `original_title` is no better (the builder refuses it); `nil` with a problem when there is neither.
    private func resolvedTitle(_ draft: inout Draft) -> (text: String, at: Int)? {
        if let title = draft.title, !RecordChecks.isBlank(title) { return (title, draft.titleAt) }
        if let original = draft.originalTitle, !RecordChecks.isBlank(original) {
            return (original, draft.originalTitleAt)
        }
        if let title = draft.title { return (title, draft.titleAt) }
        if let original = draft.originalTitle, let blankness = RecordChecks.blankness(of: original) {
            draft.fail("title", "title is missing and original_title is \(blankness.rawValue)",
                       at: draft.originalTitleAt)
        } else {
            draft.fail("title", "title is missing (and so is original_title)", at: draft.start)
        }
        return nil
    }

    var readingPosition: Int { json.position }
}
