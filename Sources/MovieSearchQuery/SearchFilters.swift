/// What a search or a top list keeps of the catalog before anything else (SEARCH-SPEC, "Filters and facets"):
/// matching, ranking, grouping, counts and the typo rule then behave as if the catalog held only the movies that
/// pass every filter.
///
///     var filters = SearchFilters()
///     filters.lowestYear = 1920; filters.highestYear = 1960
///     filters.genres = ["Drama"]
///     let result = try index.search("night", filters: filters, genreFacet: true)
///
/// Names (genres, cast) compare folded (`NameFolding`): `"  science   FICTION "` is `"Science Fiction"`. A name no
/// movie has is no error: nothing passes.
public struct SearchFilters: Sendable, Hashable {
    /// The earliest year kept (`A..`), `nil` for no bound.
    public var lowestYear: Int?
    /// The latest year kept (`..B`), `nil` for no bound.
    public var highestYear: Int?
    /// Genres the movie must each have.
    public var genres: [String]
    /// Names the movie's cast must each hold.
    public var cast: [String]
    /// The least users' rating kept; an unrated movie never passes.
    public var minimumRating: Double?
    /// The least critics' rating kept (0 to 10, as stored); a movie without one never passes.
    public var minimumCriticRating: Double?

    /// Filters that keep every movie, or those given.
    public init(lowestYear: Int? = nil, highestYear: Int? = nil, genres: [String] = [], cast: [String] = [],
                minimumRating: Double? = nil, minimumCriticRating: Double? = nil) {
        self.lowestYear = lowestYear
        self.highestYear = highestYear
        self.genres = genres
        self.cast = cast
        self.minimumRating = minimumRating
        self.minimumCriticRating = minimumCriticRating
    }

    /// Whether no filter is set: every movie passes.
    public var isEmpty: Bool {
        lowestYear == nil && highestYear == nil && genres.isEmpty && cast.isEmpty && minimumRating == nil
            && minimumCriticRating == nil
    }
}

/// One genre of a genre facet: its name as the catalog's lowest-id movie that has it spells it, and how many
/// matches have it.
public struct FacetCount: Sendable, Equatable {
    /// The genre's name.
    public var name: String
    /// Matching movies (all of them, not only those listed) that have the genre.
    public var count: Int

    /// A facet entry from its parts.
    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}
