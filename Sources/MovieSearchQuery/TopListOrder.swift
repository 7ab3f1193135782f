/// Which rating a top list ranks by (`MovieIndex.topRated(by:limit:)`, `moviesearch top --by`).
public enum TopListOrder: String, Sendable, CaseIterable {
    /// The users' rating (`Movie.rating`): every movie, unrated last.
    case rating
    /// The critics' rating (`Movie.criticRating`): only the movies that have one.
    case critic
}
