import MovieSearchJSON

/// Decodes moviesearch's own JSON catalog format (`CatalogFormat.json`, SPEC.md "Catalogs": an array of
/// movies, or an object with a `movies` array) in one pass over the tokens of `JSONReader` (of the `MovieSearchJSON`
/// module, which reads any JSON), straight into `Movie` values: no `JSONValue` tree, and members it does not know
/// are skipped without being decoded.
///
/// It always reads to the end of the input, even after an invalid movie, so that the error a user sees does not
/// depend on where the decoder happened to stop: malformed JSON anywhere comes first, then a document that is not
/// a catalog, then the first invalid movie (which `CatalogBuilder.finish(format:)` throws).
///
/// It parses, and hands each movie to a `CatalogBuilder`: a member of the wrong kind, and a `title` or `year` that
/// is missing, are its problems to report; an empty or blank title, a year that is not a whole number a cache can
/// store, and a rating that is not finite are the builder's (`RecordChecks`).
///
/// The members it reads: `title`, `year`, `rating` (users', a number or `null`), `cast` and `genres` (arrays of
/// strings or `null`), and, with the meaning they have in TMDb and CSV input, `critic_rating` (0 to 10, or `null`),
/// `overview` (kept when not blank), `poster_path` (kept when not empty), `tmdb_id` (a whole number from 0 to
/// 2,147,483,647), `imdb_id` and `original_title` (kept when it is not the title); each optional one may be `null`
/// or absent. A member the catalog reads given twice in one movie makes the movie invalid: either value may be the
/// one the author meant, so neither is taken silently.
struct MovieSearchJSONReader: BuilderFedReader {
    private var json: JSONReader
    /// The caller's builder, moved in for the read (swapped, not copied) so that every step can hand it movies.
    var builder = CatalogBuilder.placeholder
    /// Set when the builder stopped the read (the record limit): the token loop is left by a syntax error that is
    /// not one, and this is thrown instead.
    var stop: CatalogError?
    /// The first problem of the movie being read, if any: the rest of the movie is then only checked as JSON.
    private var problem: RecordProblem?
    /// Where `readStrings` gathers the elements of an array before it builds their strings, reused from one array
    /// to the next. Appending the strings themselves would grow each movie's arrays an allocation per doubling,
    /// and leave them up to twice the memory they need.
    private var elements: [JSONToken.StringToken] = []

    /// The members the builder checks, as its messages name them.
    static let fieldNames = CatalogRecord.FieldNames(title: "title", year: "year", rating: "rating")

    /// The members of a movie the catalog reads.
    private enum Field: UInt16, JSONMemberField {
        case title, year, rating, cast, genres, criticRating, overview, posterPath, tmdbID, imdbID, originalTitle

        var key: StaticString {
            switch self {
            case .title: "title"
            case .year: "year"
            case .rating: "rating"
            case .cast: "cast"
            case .genres: "genres"
            case .criticRating: "critic_rating"
            case .overview: "overview"
            case .posterPath: "poster_path"
            case .tmdbID: "tmdb_id"
            case .imdbID: "imdb_id"
            case .originalTitle: "original_title"
            }
        }
    }

    /// Prepares to decode `bytes`, the document a `CatalogBuilder` of layout `.document(bytes)` is given.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        json = JSONReader(bytes: bytes)
    }

    /// Decodes the document into `builder`. Throws malformed JSON, a document that is not a catalog, and what the
    /// builder throws while reading (`tooManyRecords`); the first invalid movie is thrown by the builder's `finish`.
    mutating func read(into builder: inout CatalogBuilder) throws(CatalogError) {
        swap(&self.builder, &builder)
        defer { swap(&self.builder, &builder) }
        let notACatalog: String?
        do {
            notACatalog = try readTopLevel()
            let end = try json.next()  // `.end`, or an error for anything after the top-level value.
            assert(end == .end)
        } catch {
            if let stop { throw stop }
            throw .malformedJSON(source: self.builder.source, line: error.line, column: error.column,
                                 offset: error.offset, reason: error.reason)
        }
        if let notACatalog { throw .notACatalog(source: self.builder.source, reason: notACatalog) }
    }

    /// Reads the top-level value, decoding the movies it holds; returns why it is not a catalog, if it is not.
    private mutating func readTopLevel() throws(JSONSyntaxError) -> String? {
        let top = try json.next()
        switch top {
        case .beginArray:
            try readMovies()
            return nil
        case .beginObject:
            var found = false
            var wrongMovies: String?
            while case .key(let key) = try json.next() {
                let value = try json.next()
                let isMovies = json.string(key, equals: "movies")
                if isMovies && found && wrongMovies == nil {
                    wrongMovies = "the top-level object has more than one 'movies' member"
                }
                guard isMovies && !found else {
                    try json.skipValue(startingWith: value)
                    continue
                }
                found = true
                if case .beginArray = value {
                    try readMovies()
                } else {
                    wrongMovies = "'movies' must be an array of movies, got \(json.describe(value))"
                    try json.skipValue(startingWith: value)
                }
            }
            return found ? wrongMovies : "the top-level object has no 'movies' member"
        default:
            return "expected an array of movies or an object with a 'movies' array, got \(json.describe(top))"
        }
    }

    /// Reads the elements of a movie array whose `[` has been read, up to its `]`.
    private mutating func readMovies() throws(JSONSyntaxError) {
        let start = json.position
        var count = 0
        while true {
            let first = try json.next()
            if case .endArray = first { return }
            try readMovie(first)
            count += 1
            if count == Self.sampleSize { reserveRoomForTheRest(sampleStart: start) }
        }
    }

    /// How many movies `reserveRoomForTheRest` measures.
    private static let sampleSize = 1000

    /// Reserves room for as many more movies as the rest of the input holds if they are the size of the ones
    /// read since `sampleStart`, plus a margin. Growing by doublings instead copies every movie read so far
    /// at each one and touches twice the memory the array ends up with: for a million movies, 5% of the
    /// decoding time. Room reserved for movies that never come is address space the program never touches.
    private mutating func reserveRoomForTheRest(sampleStart: Int) {
        let bytesPerMovie = max(1, (json.position - sampleStart) / Self.sampleSize)
        let rest = json.bytes.count - json.position
        // The smallest valid movie and its comma, `{"title":"x","year":1},`, bound the count whatever the sample.
        let estimate = min(rest / bytesPerMovie + rest / bytesPerMovie / 16, rest / 23)
        builder.reserveCapacity(builder.movieCount + estimate)
    }

    /// Reads the movie that `first` begins, and hands it to the builder.
    private mutating func readMovie(_ first: JSONToken) throws(JSONSyntaxError) {
        let start = json.tokenStart
        problem = nil
        guard case .beginObject = first else {
            fail("movie", "a movie must be an object, got \(json.describe(first))", at: start)
            try json.skipValue(startingWith: first)
            return try handOver(problem)
        }
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var title: String?
        var year: JSONNumber.WholeValue?
        var rating: Double?
        var cast: [String] = []
        var genres: [String] = []
        var critic: Double?
        var fields = OptionalFields()
        var (titleAt, yearAt, ratingAt, criticAt) = (start, start, start, start)
        var (yearText, ratingText, criticText) = (none, none, none)
        var seen: UInt16 = 0
        let depth = json.depth
        while case .key(let key) = try json.next() {
            let field = Field(key: key, in: json)
            let keyStart = json.tokenStart
            let value = try json.next()
            guard problem == nil, let field else {
                try json.skipValue(startingWith: value)
                continue
            }
            let bit: UInt16 = 1 << field.rawValue
            if seen & bit != 0 {
                fail(field.name, "\(field.name) is given twice", at: keyStart)
                try json.skipValue(startingWith: value)
                continue
            }
            seen |= bit
            let at = json.tokenStart
            switch field {
            case .title: (title, titleAt) = (readTitle(value), at)
            case .year: (year, yearAt, yearText) = (readYear(value), at, literal(of: value))
            case .rating: (rating, ratingAt, ratingText) = (readRating(value), at, literal(of: value))
            case .cast: cast = try readStrings(value, field: field)
            case .genres: genres = try readStrings(value, field: field)
            case .criticRating: (critic, criticAt, criticText) = (readRating(value, field), at, literal(of: value))
            case .overview: fields.overview = readText(value, field).flatMap { RecordChecks.isBlank($0) ? nil : $0 }
            case .posterPath: fields.posterPath = readText(value, field).flatMap { $0.isEmpty ? nil : $0 }
            case .tmdbID: fields.tmdbID = readTMDbID(value)
            case .imdbID: fields.imdbID = readText(value, field)
            case .originalTitle: fields.originalTitle = readText(value, field)
            }
            // Leaves an array or object that was rejected at its first token.
            try json.skip(toDepth: depth)
        }
        if problem == nil {
            if title == nil { fail("title", "title is required", at: start) }
            else if year == nil { fail("year", "year is required", at: start) }
        }
        guard problem == nil, let title, let year else { return try handOver(problem) }
        // As in TMDb and CSV input: an original title only when it is not the title.
        if fields.originalTitle == title { fields.originalTitle = nil }
        try handOver(CatalogRecord(title: title, year: year, rating: rating, criticRating: critic, cast: cast,
                                   genres: genres, originalTitle: fields.originalTitle, overview: fields.overview,
                                   posterPath: fields.posterPath, tmdbID: fields.tmdbID, imdbID: fields.imdbID,
                                   titlePlace: titleAt, yearPlace: yearAt, ratingPlace: ratingAt,
                                   yearText: yearText, ratingText: ratingText, criticRatingPlace: criticAt,
                                   criticRatingText: criticText))
    }

    // MARK: - Fields

    /// A string's text; the builder checks that it is a title.
    private mutating func readTitle(_ value: JSONToken) -> String? {
        guard case .string(let token) = value else {
            fail("title", "title must be a string, got \(json.describe(value))", at: json.tokenStart)
            return nil
        }
        return json.string(token)
    }

    /// A number's value as a whole number (`2010`, `2010.0`, `2.01e3`), or why it is none; the builder checks that
    /// it is a year.
    private mutating func readYear(_ value: JSONToken) -> JSONNumber.WholeValue? {
        guard case .number(let token) = value else {
            fail("year", "year must be an integer, got \(json.describe(value))", at: json.tokenStart)
            return nil
        }
        // A plain integer literal, as nearly every catalog writes its years, is read without making a string.
        if token.isInteger { return json.integer(token).map { .value($0) } ?? .outOfRange }
        return json.number(token).wholeValue
    }

    /// A number's nearest `Double` (infinite past its range, which the builder refuses), or `nil` for `null`:
    /// `rating` or `critic_rating`.
    private mutating func readRating(_ value: JSONToken, _ field: Field = .rating) -> Double? {
        switch value {
        case .null:
            return nil
        case .number(let token):
            return JSONNumber.nearestValue(literal: json.literal(token))
        default:
            fail(field.name, "\(field.name) must be a number or null, got \(json.describe(value))",
                 at: json.tokenStart)
            return nil
        }
    }

    /// A string's text, or `nil` for `null`: the optional texts (`overview`, `poster_path`, `imdb_id`,
    /// `original_title`).
    private mutating func readText(_ value: JSONToken, _ field: Field) -> String? {
        switch value {
        case .null:
            return nil
        case .string(let token):
            return json.string(token)
        default:
            fail(field.name, "\(field.name) must be a string or null, got \(json.describe(value))",
                 at: json.tokenStart)
            return nil
        }
    }

    /// `tmdb_id`: a whole number from 0 to 2,147,483,647 (TMDb's ids are 32-bit, as TMDb and CSV input read
    /// them), or `nil` for `null`.
    private mutating func readTMDbID(_ value: JSONToken) -> Int? {
        switch value {
        case .null:
            return nil
        case .number(let token):
            if case .value(let id) = json.number(token).wholeValue, Movie.tmdbIDRange.contains(id) { return id }
            fail("tmdb_id", "tmdb_id must be a whole number from 0 to \(Movie.tmdbIDRange.upperBound), got \(json.describe(value))",
                 at: json.tokenStart)
            return nil
        default:
            fail("tmdb_id", "tmdb_id must be a whole number or null, got \(json.describe(value))", at: json.tokenStart)
            return nil
        }
    }

    /// A number token's literal, for a message that refuses its value; empty for any other token.
    private func literal(of value: JSONToken) -> UnsafeBufferPointer<UInt8> {
        if case .number(let token) = value { return json.literal(token) }
        return UnsafeBufferPointer(start: nil, count: 0)
    }

    /// Reads `cast` or `genres`: an array of strings, or `null` for none. After an element that is not a string,
    /// the rest of the array is only checked as JSON.
    private mutating func readStrings(_ value: JSONToken, field: Field) throws(JSONSyntaxError) -> [String] {
        switch value {
        case .null:
            return []
        case .beginArray:
            elements.removeAll(keepingCapacity: true)
            var position = 0
            while true {
                let element = try json.next()
                if case .endArray = element { return problem == nil ? strings(of: elements) : [] }
                if case .string(let token) = element, problem == nil {
                    elements.append(token)
                } else if problem == nil {
                    fail(field.name, "\(field.name)[\(position)] must be a string, got \(json.describe(element))",
                         at: json.tokenStart)
                }
                try json.skipValue(startingWith: element)
                position += 1
            }
        default:
            fail(field.name, "\(field.name) must be an array of strings or null, got \(json.describe(value))",
                 at: json.tokenStart)
            return []
        }
    }

    /// The texts of string tokens, in an array of exactly their count.
    private func strings(of tokens: [JSONToken.StringToken]) -> [String] {
        if tokens.isEmpty { return [] }
        var strings: [String] = []
        strings.reserveCapacity(tokens.count)
        for token in tokens { strings.append(json.string(token)) }
        return strings
    }

    /// The optional fields of the movie being read, as TMDb and CSV input give them.
    private struct OptionalFields {
        var overview: String?
        var posterPath: String?
        var tmdbID: Int?
        var imdbID: String?
        var originalTitle: String?
    }

    // MARK: - Problems

    /// Records the movie's first problem; later ones are not reported (the first is the one to fix first).
    private mutating func fail(_ field: String, _ reason: String, at offset: Int) {
        if problem == nil { problem = RecordProblem(field: field, reason: reason, place: offset) }
    }

    var readingPosition: Int { json.position }
}
