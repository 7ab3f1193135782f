import MovieSearchCommandLine
import MovieSearchIndex

extension ValueRule where Value == Int {
    /// A movie id: 0 up to the largest id the cache format can store (`CacheFormat.movieIDRange`). Whether the
    /// movie exists is for the cache to say (`no movie with id …`, exit 1).
    static var movieID: ValueRule { inRange(CacheFormat.movieIDRange) }
}
