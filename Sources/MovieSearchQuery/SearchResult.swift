/// The answer to one query: matches grouped by year, newest year first (SPEC.md, "Ranking and grouping").
public struct SearchResult: Sendable, Equatable {
    /// The query text as given.
    public var query: String
    /// Matches over all years.
    public var total: Int
    /// Years with at least one match, newest first.
    public var years: YearMatchList
    /// Whether this is the exact answer or, the exact search having matched nothing, the typo-tolerant one.
    public var mode: SearchMode
    /// The genre facet when asked for (`MovieIndex.search(_:perYear:typos:filters:genreFacet:)`): per genre, the
    /// matches that have it, largest count first, then by folded name; `nil` when not asked for.
    public var genreFacet: [FacetCount]?

    /// Creates a result from its parts.
    public init(query: String, total: Int, years: [YearMatches], mode: SearchMode = .exact,
                genreFacet: [FacetCount]? = nil) {
        self.init(query: query, total: total, yearList: YearMatchList(years), mode: mode, genreFacet: genreFacet)
    }

    /// A result of years already in a `YearMatchList`.
    init(query: String, total: Int, yearList: YearMatchList, mode: SearchMode, genreFacet: [FacetCount]? = nil) {
        self.query = query
        self.total = total
        self.years = yearList
        self.mode = mode
        self.genreFacet = genreFacet
    }
}

/// The matches of one year: how many there are, and the ids of the best `perYear` of them in answer order
/// (in a typo answer fewer typos first; then rating descending, unrated last, lower id first on ties).
public struct YearMatches: Sendable, Equatable {
    /// The year.
    public var year: Int
    /// How many movies of this year matched, including those not listed in `movieIDs`.
    public var count: Int
    /// Ids of the listed movies, best first; at most `perYear` of them.
    public var movieIDs: MovieIDList
    /// The typo count of each listed movie, in the order of `movieIDs` (all 0 in an exact answer).
    public var typoCounts: TypoCountList

    /// Creates a year group from its parts; `typoCounts` (one per id) defaults to zeros, as in an exact answer.
    public init(year: Int, count: Int, movieIDs: MovieIDList, typoCounts: TypoCountList? = nil) {
        self.year = year
        self.count = count
        self.movieIDs = movieIDs
        precondition(typoCounts.map { $0.count == movieIDs.count } ?? true, "one typo count per listed movie")
        self.typoCounts = typoCounts ?? TypoCountList(zeros: movieIDs.count)
    }
}
