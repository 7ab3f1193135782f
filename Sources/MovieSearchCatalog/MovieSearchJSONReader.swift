import MovieSearchJSON

/// Decodes moviesearch's own JSON catalog format (`CatalogFormat.json`, SEARCH-SPEC "Input catalog": an array of
/// movies, or an object with a `movies` array) in one pass over the tokens of `JSONReader` (of the `MovieSearchJSON`
/// module, which reads any JSON), straight into `Movie` values: no `JSONValue` tree, and members it does not know
/// are skipped without being decoded.
///
/// It always reads to the end of the input, even after an invalid movie, so that the error a user sees does not
/// depend on where the decoder happened to stop: malformed JSON anywhere comes first, then a document that is not
/// a catalog, then the first invalid movie.
///
/// A member the catalog reads (`title`, `year`, `rating`, `cast`, `genres`) given twice in one movie makes the
/// movie invalid: either value may be the one the author meant, so neither is taken silently.
struct MovieSearchJSONReader {
    private var json: JSONReader
    private let source: String
    private var movies = MovieColumns()
    private var invalid: [CatalogError] = []
    /// Invalid movies in all (`invalid` keeps the first `Catalog.maximumSkippedKept`).
    private var invalidCount = 0
    /// Locates invalid movies for their messages; they come in document order, so it never rescans.
    private var lines: LineCounter
    /// The first problem of the movie being read, if any: the rest of the movie is then only checked as JSON.
    private var problem: Problem?
    /// Where `readStrings` gathers the elements of an array before it builds their strings, reused from one array
    /// to the next. Appending the strings themselves would grow each movie's arrays an allocation per doubling,
    /// and leave them up to twice the memory they need.
    private var elements: [JSONToken.StringToken] = []

    private struct Problem {
        var field: String
        var reason: String
        var offset: Int
    }

    /// The members of a movie the catalog reads.
    private enum Field: UInt8 {
        case title, year, rating, cast, genres

        var name: String {
            switch self {
            case .title: return "title"
            case .year: return "year"
            case .rating: return "rating"
            case .cast: return "cast"
            case .genres: return "genres"
            }
        }

        init?(key: JSONToken.StringToken, in json: JSONReader) {
            if json.string(key, equals: "title") { self = .title }
            else if json.string(key, equals: "year") { self = .year }
            else if json.string(key, equals: "rating") { self = .rating }
            else if json.string(key, equals: "cast") { self = .cast }
            else if json.string(key, equals: "genres") { self = .genres }
            else { return nil }
        }
    }

    /// Told the count of movies read every `CatalogBuilder.progressInterval` movies.
    private let progress: IndexingProgressHandler?

    /// Prepares to decode `bytes`, naming them `source` in errors.
    init(bytes: UnsafeBufferPointer<UInt8>, source: String, progress: IndexingProgressHandler? = nil,
         maximumRecords: Int = CatalogOptions.defaultMaximumRecords) {
        json = JSONReader(bytes: bytes)
        lines = LineCounter(bytes: bytes)
        self.source = source
        self.progress = progress
        self.maximumRecords = maximumRecords
    }

    /// The most movies read (`CatalogOptions.maximumRecords`).
    private let maximumRecords: Int
    /// Set when the movies passed `maximumRecords`: the read stopped there, by a syntax error that is not one.
    private var isOverLimit = false

    /// The catalog. With `skipInvalid`, invalid movies are listed in `Catalog.skipped`; without it, the first
    /// one is thrown.
    mutating func read(skipInvalid: Bool) throws(CatalogError) -> Catalog {
        let notACatalog: String?
        do {
            notACatalog = try readTopLevel()
            let end = try json.next()  // `.end`, or an error for anything after the top-level value.
            assert(end == .end)
        } catch {
            if isOverLimit { throw .tooManyRecords(source: source, limit: maximumRecords) }
            throw .malformedJSON(source: source, line: error.line, column: error.column, offset: error.offset,
                                 reason: error.reason)
        }
        if let notACatalog { throw .notACatalog(source: source, reason: notACatalog) }
        if !skipInvalid, let first = invalid.first { throw first }
        return Catalog(columns: movies, skipped: invalid, skippedCount: invalidCount)
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
        var index = 0
        while true {
            let first = try json.next()
            if case .endArray = first { return }
            if index >= maximumRecords {
                isOverLimit = true
                throw JSONSyntaxError(line: 0, column: 0, offset: json.position, reason: "too many movies")
            }
            if let movie = try readMovie(first, index: index) { movies.append(movie) }
            index += 1
            if index == Self.sampleSize { reserveRoomForTheRest(sampleStart: start) }
            if index & (CatalogBuilder.progressInterval - 1) == 0, let progress {
                progress(IndexingProgress(phase: .reading, records: index))
            }
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
        movies.reserveCapacity(movies.count + estimate)
    }

    /// Reads the movie at `index` that `first` begins; `nil` (and an entry in `invalid`) when it is invalid.
    private mutating func readMovie(_ first: JSONToken, index: Int) throws(JSONSyntaxError) -> Movie? {
        let start = json.tokenStart
        problem = nil
        guard case .beginObject = first else {
            fail("movie", "a movie must be an object, got \(json.describe(first))", at: start)
            try json.skipValue(startingWith: first)
            return reject(index: index)
        }
        var title: String?
        var year: Int?
        var rating: Double?
        var cast: [String] = []
        var genres: [String] = []
        var seen: UInt8 = 0
        let depth = json.depth
        while case .key(let key) = try json.next() {
            let field = Field(key: key, in: json)
            let keyStart = json.tokenStart
            let value = try json.next()
            guard problem == nil, let field else {
                try json.skipValue(startingWith: value)
                continue
            }
            let bit: UInt8 = 1 << field.rawValue
            if seen & bit != 0 {
                fail(field.name, "\(field.name) is given twice", at: keyStart)
                try json.skipValue(startingWith: value)
                continue
            }
            seen |= bit
            switch field {
            case .title: title = readTitle(value)
            case .year: year = readYear(value)
            case .rating: rating = readRating(value)
            case .cast: cast = try readStrings(value, field: field)
            case .genres: genres = try readStrings(value, field: field)
            }
            // Leaves an array or object that was rejected at its first token.
            try json.skip(toDepth: depth)
        }
        if problem == nil {
            if title == nil { fail("title", "title is required", at: start) }
            else if year == nil { fail("year", "year is required", at: start) }
        }
        guard problem == nil, let title, let year else { return reject(index: index) }
        return Movie(id: index, title: title, year: year, rating: rating, cast: cast, genres: genres)
    }

    // MARK: - Fields

    private mutating func readTitle(_ value: JSONToken) -> String? {
        guard case .string(let token) = value else {
            fail("title", "title must be a string, got \(json.describe(value))", at: json.tokenStart)
            return nil
        }
        let title = json.string(token)
        if title.isEmpty {
            fail("title", "title is empty", at: json.tokenStart)
        } else if Self.isBlank(title) {
            fail("title", "title is only white space", at: json.tokenStart)
        } else {
            return title
        }
        return nil
    }

    /// Whether `text` is only Unicode white space. Most titles start with a printable ASCII character, which
    /// answers without a look-up in the Unicode tables.
    private static func isBlank(_ text: String) -> Bool {
        if let first = text.utf8.first, first > 0x20 && first < 0x80 { return false }
        return text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// A year: a number with a whole value (`2010`, `2010.0`, `2.01e3`) in the range of the cache's 32-bit years.
    private mutating func readYear(_ value: JSONToken) -> Int? {
        guard case .number(let token) = value else {
            fail("year", "year must be an integer, got \(json.describe(value))", at: json.tokenStart)
            return nil
        }
        // A plain integer literal, as nearly every catalog writes its years, is read without making a string.
        let whole: JSONNumber.WholeValue
        if token.isInteger {
            whole = json.integer(token).map { .value($0) } ?? .outOfRange
        } else {
            whole = json.number(token).wholeValue
        }
        switch whole {
        case .value(let year) where Int32(exactly: year) != nil:
            return year
        case .fraction:
            fail("year", "year must be a whole number, got \(json.describe(value))", at: json.tokenStart)
        case .value, .outOfRange:
            fail("year", "year \(json.describe(value)) is out of range (\(Int32.min) to \(Int32.max))", at: json.tokenStart)
        }
        return nil
    }

    private mutating func readRating(_ value: JSONToken) -> Double? {
        switch value {
        case .null:
            return nil
        case .number(let token):
            if let rating = json.double(token) { return rating }
            fail("rating", "rating must be a finite number, got \(json.describe(value))", at: json.tokenStart)
        default:
            fail("rating", "rating must be a number or null, got \(json.describe(value))", at: json.tokenStart)
        }
        return nil
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

    // MARK: - Problems

    /// Records the movie's first problem; later ones are not reported (the first is the one to fix first).
    private mutating func fail(_ field: String, _ reason: String, at offset: Int) {
        if problem == nil { problem = Problem(field: field, reason: reason, offset: offset) }
    }

    /// Files the movie at `index` as invalid, with its problem located; returns `nil` for the caller to return.
    private mutating func reject(index: Int) -> Movie? {
        guard let problem else { return nil }
        let (line, column) = lines.advance(to: problem.offset, in: json.bytes)
        invalidCount += 1
        guard invalid.count < Catalog.maximumSkippedKept else { return nil }
        invalid.append(.invalidMovie(source: source, index: index, field: problem.field,
                                     reason: "\(problem.reason) (line \(line), column \(column))"))
        return nil
    }
}
