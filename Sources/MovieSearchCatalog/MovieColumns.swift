/// The movies of a catalog held column by column: the form `CatalogBuilder` fills and `CacheSections` reads.
///
/// An array of `Movie` costs 144 bytes a movie before its strings (each title over 15 bytes, each cast or genre
/// array, is an allocation of its own): 2 GB or more for IMDb's 10 million titles. Here a movie costs its title's
/// bytes and a few integers; a cast or genre name is stored once for the whole catalog and listed by number, and an
/// optional field costs nothing until some movie has it.
package struct MovieColumns: Sendable {
    package private(set) var ids: [Int] = []
    package private(set) var years: [Int] = []
    /// Ratings, with `unrated` for an unrated movie.
    private(set) var ratings: [Double] = []
    /// A NaN of a payload of its own: stands for "unrated", so that any other value, a NaN a catalog built in
    /// memory holds included, reaches `CacheSections`, which refuses it.
    static let unrated = Double(bitPattern: 0x7FF8_0000_DEAD_0001)
    package private(set) var titles = TextColumn()
    /// The distinct cast and genre names, numbered in order of first appearance.
    package private(set) var names: [String] = []
    private var nameNumbers: [String: UInt32] = [:]
    /// Names that a `String` key would merge with another of other bytes (`é` and `e` + U+0301 are equal
    /// strings): numbered by their bytes, since a cache keeps the bytes a catalog gave.
    private var equivalentNames: [[UInt8]: UInt32] = [:]
    /// Each movie's cast, then its genres, as name numbers: movie `i`'s are
    /// `lists[listStarts[i] ..< listStarts[i + 1]]`.
    package private(set) var lists: [UInt32] = []
    package private(set) var listStarts: [Int] = [0]
    /// How many of each movie's names are cast.
    package private(set) var castCounts: [Int32] = []
    package private(set) var originalTitles = OptionalTextColumn()
    package private(set) var overviews = OptionalTextColumn()
    package private(set) var posterPaths = OptionalTextColumn()
    package private(set) var imdbIDs = OptionalTextColumn()
    /// TMDb ids, empty until some movie has one; `nil` for a movie without.
    package private(set) var tmdbIDs: [Int?] = []
    /// The critics' ratings, up to the last movie that has one (empty when none has).
    package private(set) var criticRatings: [Double?] = []

    /// No movies: where a builder starts, and what an indexer puts in the place of columns it is done with.
    package init() {}

    /// Movies held.
    package var count: Int { ids.count }

    /// These movies without their titles: what a job that reads only the other columns holds, so that the titles,
    /// the largest column, go when the jobs that read them end (`CacheSections`).
    package func withoutTitles() -> MovieColumns {
        var copy = self
        copy.titles = TextColumn()
        return copy
    }

    mutating func reserveCapacity(_ count: Int) {
        ids.reserveCapacity(count)
        years.reserveCapacity(count)
        ratings.reserveCapacity(count)
        castCounts.reserveCapacity(count)
        listStarts.reserveCapacity(count + 1)
        titles.reserveCapacity(count)
    }

    mutating func append(_ movie: Movie) {
        append(id: movie.id, title: movie.title, year: movie.year, rating: movie.rating, cast: movie.cast,
               genres: movie.genres, originalTitle: movie.originalTitle, overview: movie.overview,
               posterPath: movie.posterPath, tmdbID: movie.tmdbID, imdbID: movie.imdbID,
               criticRating: movie.criticRating)
    }

    /// Appends the movie `record` stands for, at `id`, of `year` (`CatalogBuilder`, once it has checked the record):
    /// its fields taken as they are, without a `Movie` made of them first.
    mutating func append(_ record: borrowing CatalogRecord, id: Int, year: Int) {
        append(id: id, title: record.title, year: year, rating: record.rating, cast: record.cast,
               genres: record.genres, originalTitle: record.originalTitle, overview: record.overview,
               posterPath: record.posterPath, tmdbID: record.tmdbID, imdbID: record.imdbID,
               criticRating: record.criticRating)
    }

    @inline(__always)
    private mutating func append(id: Int, title: String, year: Int, rating: Double?, cast: [String], genres: [String],
                                 originalTitle: String?, overview: String?, posterPath: String?, tmdbID: Int?,
                                 imdbID: String?, criticRating: Double?) {
        let index = ids.count
        ids.append(id)
        years.append(year)
        ratings.append(rating ?? Self.unrated)
        titles.append(title)
        for name in cast { lists.append(number(of: name)) }
        for name in genres { lists.append(number(of: name)) }
        listStarts.append(lists.count)
        castCounts.append(Int32(clamping: cast.count))
        originalTitles.append(originalTitle, at: index)
        overviews.append(overview, at: index)
        posterPaths.append(posterPath, at: index)
        imdbIDs.append(imdbID, at: index)
        if let tmdbID {
            if tmdbIDs.count < index { tmdbIDs.append(contentsOf: repeatElement(nil, count: index - tmdbIDs.count)) }
            tmdbIDs.append(tmdbID)
        }
        if let criticRating {
            if criticRatings.count < index {
                criticRatings.append(contentsOf: repeatElement(nil, count: index - criticRatings.count))
            }
            criticRatings.append(criticRating)
        }
    }

    /// The number of `name`, given it if it is new.
    private mutating func number(of name: String) -> UInt32 {
        if let number = nameNumbers[name] {
            if Self.sameBytes(names[Int(number)], name) { return number }
            let bytes = Array(name.utf8)
            if let other = equivalentNames[bytes] { return other }
            let new = UInt32(names.count)
            names.append(name)
            equivalentNames[bytes] = new
            return new
        }
        let number = UInt32(names.count)
        names.append(name)
        nameNumbers[name] = number
        return number
    }

    /// Whether `a` and `b` are the same UTF-8 bytes, not merely equal strings: compared as contiguous bytes, where
    /// `a.utf8.elementsEqual(b.utf8)` stepped through two views a byte at a time (7 % of reading the 10M IMDb pair).
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        let same = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                guard x.count == y.count else { return false }
                if x.baseAddress == y.baseAddress { return true }
                for index in x.indices where x[index] != y[index] { return false }
                return true
            }
        }
        return same.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8)
    }

    /// The rating of movie `index`, `nil` when unrated.
    package func rating(_ index: Int) -> Double? {
        ratings[index].bitPattern == Self.unrated.bitPattern ? nil : ratings[index]
    }

    /// The TMDb id of movie `index`.
    package func tmdbID(_ index: Int) -> Int? {
        index < tmdbIDs.count ? tmdbIDs[index] : nil
    }

    /// The critics' rating of movie `index`.
    package func criticRating(_ index: Int) -> Double? {
        index < criticRatings.count ? criticRatings[index] : nil
    }

    /// Movie `index` as a value.
    func movie(_ index: Int) -> Movie {
        let names = lists[listStarts[index]..<listStarts[index + 1]].map { self.names[Int($0)] }
        let castCount = Int(castCounts[index])
        return Movie(id: ids[index], title: titles[index], year: years[index], rating: rating(index),
                     cast: Array(names[..<castCount]), genres: Array(names[castCount...]),
                     originalTitle: originalTitles[index], overview: overviews[index], posterPath: posterPaths[index],
                     tmdbID: tmdbID(index), imdbID: imdbIDs[index], criticRating: criticRating(index))
    }

    /// Whether the ids ascend, movie after movie: a catalog's builder keeps them so (`sortedByID()` is then the
    /// columns as they are).
    package var isSortedByID: Bool { zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 } }

    /// A copy with the movies in ascending id order (a catalog built in memory may list them in any order).
    package func sortedByID() -> MovieColumns {
        if isSortedByID { return self }
        var sorted = MovieColumns()
        sorted.reserveCapacity(count)
        for index in ids.indices.sorted(by: { ids[$0] < ids[$1] }) { sorted.append(movie(index)) }
        return sorted
    }
}

/// Texts, one per movie, in one buffer of UTF-8 bytes.
package struct TextColumn: Sendable {
    package private(set) var bytes: [UInt8] = []
    /// Text `i` is `bytes[ends[i - 1] ..< ends[i]]` (from 0 for the first).
    @usableFromInline private(set) var ends: [Int] = []

    mutating func reserveCapacity(_ count: Int) {
        ends.reserveCapacity(count)
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
        ends.append(bytes.count)
    }

    /// The number of texts.
    package var count: Int { ends.count }

    /// Texts `range`, copied into a column of their own (`CatalogOptions.titlesRead`'s batches).
    package func slice(_ range: Range<Int>) -> TextColumn {
        let start = range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]
        var slice = TextColumn()
        slice.bytes = Array(bytes[start..<(range.isEmpty ? start : ends[range.upperBound - 1])])
        slice.ends = ends[range].map { $0 - start }
        return slice
    }

    /// The byte range of text `index`. Inlinable: the indexer asks it for every movie on every pass over the
    /// titles, from another module (3.6 % of indexing 10 million titles went to the call).
    @inlinable package func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

    subscript(index: Int) -> String {
        String(decoding: bytes[range(index)], as: UTF8.self)
    }
}

/// An optional text per movie, costing nothing until some movie has one.
package struct OptionalTextColumn: Sendable {
    private(set) var texts = TextColumn()
    /// Whether each movie has the text, from the first that has one (empty until then).
    private(set) var present: [Bool] = []

    /// Whether no movie has the text.
    package var isEmpty: Bool { present.isEmpty }

    /// Adds movie `index`'s text (indices ascend by one from call to call).
    mutating func append(_ text: String?, at index: Int) {
        if text == nil && present.isEmpty { return }
        while present.count < index {
            present.append(false)
            texts.append("")
        }
        present.append(text != nil)
        texts.append(text ?? "")
    }

    subscript(index: Int) -> String? {
        index < present.count && present[index] ? texts[index] : nil
    }

    /// The UTF-8 bytes of movie `index`'s text, `nil` when it has none.
    package func bytes(_ index: Int) -> ArraySlice<UInt8>? {
        index < present.count && present[index] ? texts.bytes[texts.range(index)] : nil
    }
}
