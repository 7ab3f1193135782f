import MovieSearchCommandLine

extension ValueRule where Value == Int {
    /// A movie id: 0 up to the largest id the cache format can store (ids are 32-bit). Whether the movie exists
    /// is for the cache to say (`no movie with id …`, exit 1).
    static var movieID: ValueRule { inRange(0...Int(UInt32.max)) }
}
