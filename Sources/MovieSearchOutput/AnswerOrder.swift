import MovieSearchCatalog

/// The order of an answer, applied to movies a list holds outside the cache (favorites): newest year first, then
/// rating descending with unrated movies last, then lower id first, the order of a query's years and of the movies
/// inside a year (SPEC.md, Ranking). `favorites list` and browse's Favorites view both list in it.
///
/// Cost: O(n log n) comparisons; ratings compare as numbers, so `-0.0` and `0.0` tie and fall to the id.
package enum AnswerOrder {
    /// `movies` sorted in answer order.
    package static func sorted(_ movies: [Movie]) -> [Movie] {
        movies.sorted(by: precedes)
    }

    /// Whether `left` comes before `right` in an answer.
    package static func precedes(_ left: Movie, _ right: Movie) -> Bool {
        if left.year != right.year { return left.year > right.year }
        switch (left.rating, right.rating) {
        case let (l?, r?) where l != r: return l > r
        case (.some, nil): return true
        case (nil, .some): return false
        default: return left.id < right.id
        }
    }
}
