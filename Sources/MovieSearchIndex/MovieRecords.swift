import MovieSearchCatalog

/// Reads the movie records that `CacheSections` lays out (`MIDS`, `MYRS`, `MRAT`, `RATE`, `TOPR`, the compressed
/// columns of titles, name lists and names; `CacheFormat`, "Sections"; and the sections of the fields only some
/// catalogs
/// have, "Optional sections"): the slot of an id, the movie in a slot, the ids by rating. Every offset read from
/// the file is checked before it is followed.
package struct MovieRecords {
    private let file: MappedCacheFile
    private let sections: MappedSections

    package init(file: MappedCacheFile, sections: MappedSections) {
        self.file = file
        self.sections = sections
    }

    /// The first `count` (at most the movie count) movie ids by rating over all years: rating descending, unrated
    /// last, lower id first on ties. The unrated ones are found by a pass over `MRAT` from the first slot, as far
    /// as `count` asks.
    package func topRatedIDs(_ count: Int) throws(CacheError) -> [Int] {
        let rated = min(count, sections.topRated.count)
        let top = try file.packed(sections.topRated, 0..<rated)
        var ids = (0..<rated).map { Int(top[$0]) }
        // The unrated movies follow, in id order: `TOPR` lists only the rated ones (`CacheFormat`, "Sections").
        let unrated = UInt32(sections.ratings.length / 8)
        var slot = 0
        while ids.count < count, slot < file.movieCount {
            if try file.packed(sections.movieRatings, slot) == unrated { ids.append(try id(slot: slot)) }
            slot += 1
        }
        return ids
    }

    /// The first `limit` of `candidates` (movie ids) in the order of `topRatedIDs`: `TOPR` read from its start only
    /// until they are found, then the unrated ones among them (those `TOPR` does not list), in id order. Nothing the
    /// size of the catalog is made, so a filtered top list costs the candidates and the part of `TOPR` read.
    package func topRatedIDs(among candidates: Set<Int>, limit: Int) throws(CacheError) -> [Int] {
        let wanted = min(max(limit, 0), candidates.count)
        guard wanted > 0 else { return [] }
        let top = try file.packed(sections.topRated, 0..<sections.topRated.count)
        var ids: [Int] = []
        var rated = Set<Int>()
        var position = 0
        while ids.count < wanted, rated.count < candidates.count, position < top.count {
            let id = Int(top[position])
            if candidates.contains(id), rated.insert(id).inserted { ids.append(id) }
            position += 1
        }
        if ids.count < wanted, rated.count < candidates.count {
            // What `TOPR` did not list is unrated (it lists every rated movie); slots are in id order.
            ids += candidates.subtracting(rated).sorted().prefix(wanted - ids.count)
        }
        return ids
    }

    /// The first and last ids the cache holds (slots are in id order), or `nil` when it holds none. The ids in
    /// between are not all there when invalid movies were skipped.
    package func idRange() throws(CacheError) -> ClosedRange<Int>? {
        guard file.movieCount > 0 else { return nil }
        let first = try id(slot: 0)
        let last = try id(slot: file.movieCount - 1)
        guard first <= last else { throw .corrupt(path: file.path, detail: "movie ids out of order") }
        return first...last
    }

    /// The slot of movie `id`: `id` itself unless invalid movies were skipped, else a binary search.
    package func slot(of id: Int) throws(CacheError) -> Int? {
        guard id >= 0, file.movieCount > 0 else { return nil }
        if id < file.movieCount, try self.id(slot: id) == id { return id }
        var low = 0, high = min(id, file.movieCount)
        while low < high {
            let middle = (low + high) / 2
            if try self.id(slot: middle) < id { low = middle + 1 } else { high = middle }
        }
        guard low < file.movieCount else { return nil }
        return try self.id(slot: low) == id ? low : nil
    }

    /// The id of slot `slot`: `MIDS` holds it less the slot (`CacheFormat`, "Sections").
    package func id(slot: Int) throws(CacheError) -> Int {
        try file.blocked(sections.movieIDs, slot) + slot
    }

    /// The movie in slot `slot` (below the movie count).
    package func movie(slot: Int) throws(CacheError) -> Movie {
        let id = try id(slot: slot)
        let title = try title(slot: slot)
        let years = try YearTable(file: file, years: sections.years)
        let yearNumber = try file.blocked(sections.movieYears, slot)
        guard yearNumber < years.count else { throw .corrupt(path: file.path, detail: "a movie's year is not in the year table") }
        let rating = try rating(slot: slot)
        let (castCount, names) = try nameList(slot: slot)
        var cast: [String] = [], genres: [String] = []
        cast.reserveCapacity(castCount)
        genres.reserveCapacity(names.count - castCount)
        // The blocks of names this movie's names lie in, each inflated once.
        var blocks: [Int: CompressedTextColumn.Block] = [:]
        for (index, name) in names.enumerated() {
            let number = name / CacheFormat.textBlockEntries
            let block: CompressedTextColumn.Block
            if let known = blocks[number] {
                block = known
            } else {
                block = try sections.names.block(holding: name, in: file)
                blocks[number] = block
            }
            guard block.holds(name) else {
                throw .corrupt(path: file.path, detail: "a reference points outside its section")
            }
            let value = String(decoding: block.text(name), as: UTF8.self)
            if index < castCount { cast.append(value) } else { genres.append(value) }
        }
        var movie = Movie(id: id, title: title, year: years.year(yearNumber), rating: rating, cast: cast, genres: genres)
        try readOptionalFields(slot: slot, into: &movie)
        return movie
    }

    /// Slot `slot`'s name list (`CST*`): how many of its names are cast, and the numbers of its names in `NMS*`,
    /// cast first.
    private func nameList(slot: Int) throws(CacheError) -> (castCount: Int, names: [Int]) {
        let bytes = try sections.nameLists.text(slot, in: file)
        var position = 0
        func varint() throws(CacheError) -> Int {
            guard let value = LEB128.read(bytes, at: &position) else {
                throw .corrupt(path: file.path, detail: "a movie's cast and genre list is malformed")
            }
            return value
        }
        guard !bytes.isEmpty else {
            throw .corrupt(path: file.path, detail: "a movie's cast and genre list is malformed")
        }
        let castCount = try varint()
        var names: [Int] = []
        while position < bytes.count { names.append(try varint()) }
        guard castCount <= names.count else {
            throw .corrupt(path: file.path, detail: "a movie's cast and genre list is malformed")
        }
        return (castCount, names)
    }

    /// The numbers in `NMS*` of slot `slot`'s cast (for a cast filter, `SearchFilters`).
    package func castNumbers(slot: Int) throws(CacheError) -> ArraySlice<Int> {
        let (castCount, names) = try nameList(slot: slot)
        return names[0..<castCount]
    }

    /// Calls `body` with the number and bytes of every cast and genre name (`NMS*`), block by block.
    package func forEachName(_ body: (Int, ArraySlice<UInt8>) throws(CacheError) -> Void) throws(CacheError) {
        for number in 0..<sections.names.blockCount {
            let block = try sections.names.block(holding: number * CacheFormat.textBlockEntries, in: file)
            for index in block.first..<(block.first + block.starts.count - 1) { try body(index, block.text(index)) }
        }
    }

    /// The users' rating number of slot `slot` (`MRAT`): its place among the distinct ratings, descending; the
    /// count of distinct ratings for an unrated movie.
    package func ratingNumber(slot: Int) throws(CacheError) -> Int {
        Int(try file.packed(sections.movieRatings, slot))
    }

    /// How many of the distinct users' ratings (`RATE`, descending) are at least `minimum`: a movie passes
    /// `min_rating` exactly when its rating number is below this.
    package func ratingCut(atLeast minimum: Double) throws(CacheError) -> Int {
        try cut(sections.ratings, atLeast: minimum)
    }

    /// The critics' rating number of slot `slot` (`CRIT`), `nil` when no movie has a critics' rating.
    package func criticNumber(slot: Int) throws(CacheError) -> Int? {
        guard let numbers = sections.criticRatingNumbers else { return nil }
        return Int(try file.packed(numbers, slot))
    }

    /// How many of the distinct critics' ratings (`CRTV`) are at least `minimum`: 0 when no movie has one.
    package func criticCut(atLeast minimum: Double) throws(CacheError) -> Int {
        guard let values = sections.criticRatingValues else { return 0 }
        return try cut(values, atLeast: minimum)
    }

    /// Entries of the descending table of f64 ratings `table` that are at least `minimum`.
    private func cut(_ table: MappedCacheFile.Section, atLeast minimum: Double) throws(CacheError) -> Int {
        var count = 0
        while count < table.length / 8, let value = try rating(number: count, in: table), value >= minimum {
            count += 1
        }
        return count
    }

    /// The id, title and rating of the movie in slot `slot` (below the movie count), read and checked as
    /// `movie(slot:)` reads them, and nothing else of its record.
    package func listing(slot: Int) throws(CacheError) -> MovieListing {
        MovieListing(id: try id(slot: slot), title: try title(slot: slot),
                     rating: try rating(slot: slot))
    }

    /// What tells the movie in slot `slot` (below the movie count) apart from others of its title, read without
    /// its title, lists or texts: its id, year, TMDb id and IMDb id. For a pass over every movie (`FavoriteStore`
    /// finding favorites again after a rebuild), so each field is read from its own column.
    package func identity(slot: Int, years: YearTable) throws(CacheError) -> MovieIdentity {
        let id = try id(slot: slot)
        let yearNumber = try file.blocked(sections.movieYears, slot)
        guard yearNumber < years.count else {
            throw .corrupt(path: file.path, detail: "a movie's year is not in the year table")
        }
        var identity = MovieIdentity(id: id, year: years.year(yearNumber))
        if let tmdbIDs = sections.tmdbIDs {
            let stored = try file.packed(tmdbIDs, slot)
            identity.tmdbID = stored == 0 ? nil : Int(stored - 1)
        }
        if let imdbNumbers = sections.imdbNumbers {
            let stored = try imdbNumber(imdbNumbers, slot: slot)
            if stored != 0 { identity.imdbNumber = stored - 1 }
        }
        if identity.imdbNumber == nil { identity.imdbText = try optionalText(sections.imdbTexts, slot: slot) }
        return identity
    }

    /// Slot `slot`'s entry of `IMDB` (its IMDb number plus 1, or 0): a base and an entry that add up past 32 bits
    /// are a forged file's.
    private func imdbNumber(_ numbers: MappedCacheFile.BlockedSection, slot: Int) throws(CacheError) -> UInt32 {
        guard let stored = UInt32(exactly: try file.blocked(numbers, slot)) else {
            throw .corrupt(path: file.path, detail: "an IMDb number is out of range")
        }
        return stored
    }

    /// The year table, for `identity(slot:years:)`.
    package func yearTable() throws(CacheError) -> YearTable {
        try YearTable(file: file, years: sections.years)
    }

    /// `FNV1a.digest(of:)` of the UTF-8 bytes of slot `slot`'s title, read where they lie: a pass over every
    /// movie compares titles by digest first, and decodes a title only when its digest is one it looks for.
    package func titleDigest(slot: Int) throws(CacheError) -> UInt64 {
        FNV1a.digest(of: try sections.titles.text(slot, in: file))
    }

    /// The title of slot `slot`.
    package func title(slot: Int) throws(CacheError) -> String {
        String(decoding: try sections.titles.text(slot, in: file), as: UTF8.self)
    }

    /// The rating of slot `slot`: `nil` for the number one past the rating table (unrated).
    private func rating(slot: Int) throws(CacheError) -> Double? {
        try rating(number: Int(try file.packed(sections.movieRatings, slot)), in: sections.ratings)
    }

    /// Entry `number` of a table of f64 ratings (`RATE`, `CRTV`): `nil` for the number one past its end (none).
    private func rating(number: Int, in table: MappedCacheFile.Section) throws(CacheError) -> Double? {
        if number < table.length / 8 {
            let bits = try file.bytes(table, (number * 8)..<(number * 8 + 8))
            return Double(bitPattern: UInt64(littleEndian: bits.loadUnaligned(as: UInt64.self)))
        } else if number > table.length / 8 {
            throw .corrupt(path: file.path, detail: "a movie's rating is not in its rating table")
        }
        return nil
    }

    /// How many movies have a critics' rating (the length of the critics' list).
    package var criticRatedCount: Int { sections.topCriticRated?.count ?? 0 }

    /// The ids of the first `count` movies of the critics' list (`TOPC`): critics' rating descending, id ascending.
    package func topCriticIDs(_ count: Int) throws(CacheError) -> [Int] {
        guard let top = sections.topCriticRated else { return [] }
        let view = try file.packed(top, 0..<count)
        return (0..<count).map { Int(view[$0]) }
    }

    /// The fields of the optional sections (`CacheFormat`, "Optional sections") that slot `slot` has.
    private func readOptionalFields(slot: Int, into movie: inout Movie) throws(CacheError) {
        movie.originalTitle = try optionalText(sections.originalTitles, slot: slot)
        movie.overview = try optionalText(sections.overviews, slot: slot)
        movie.posterPath = try optionalText(sections.posterPaths, slot: slot)
        if let tmdbIDs = sections.tmdbIDs {
            let stored = try file.packed(tmdbIDs, slot)
            movie.tmdbID = stored == 0 ? nil : Int(stored - 1)
        }
        if let imdbNumbers = sections.imdbNumbers {
            let stored = try imdbNumber(imdbNumbers, slot: slot)
            if stored != 0 { movie.imdbID = CacheFormat.imdbID(number: stored - 1) }
        }
        if let numbers = sections.criticRatingNumbers, let values = sections.criticRatingValues {
            movie.criticRating = try rating(number: Int(try file.packed(numbers, slot)), in: values)
        }
        if movie.imdbID == nil { movie.imdbID = try optionalText(sections.imdbTexts, slot: slot) }
    }

    /// Slot `slot`'s text in a text field: its text when not empty, else `""` when its flag says it has the empty
    /// text, else `nil`.
    private func optionalText(_ field: MappedSections.TextField?, slot: Int) throws(CacheError) -> String? {
        guard let field else { return nil }
        let text = try field.texts.text(slot, in: file)
        if text.isEmpty {
            guard let empty = field.empty, try file.packed(empty, slot) != 0 else { return nil }
            return ""
        }
        return String(decoding: text, as: UTF8.self)
    }
}
