import MovieSearch
import TestSupport

/// Filters and the genre facet by the spec's words alone, movie by movie, over a catalog whose genres and cast are
/// folded once (`NameFolding`): the brute force `FilterReferenceTests` compares the engine with, run round after
/// round, so that folding every name of every movie again each round does not make most of its time.
struct FilterBruteForce {
    /// The catalog's movies, in its order.
    let movies: [Movie]
    /// The folded genres and cast of `movies[i]`.
    private let genres: [Set<String>], cast: [Set<String>]
    /// The position in `movies` of each id.
    private let positions: [Int: Int]
    /// Each folded genre as the lowest-id movie spells it (the facet shows that spelling).
    private let spellings: [String: String]

    init(_ catalog: Catalog) {
        movies = catalog.movies
        genres = movies.map { Set($0.genres.map(NameFolding.fold)) }
        cast = movies.map { Set($0.cast.map(NameFolding.fold)) }
        positions = Dictionary(uniqueKeysWithValues: movies.enumerated().map { ($0.element.id, $0.offset) })
        var spellings: [String: String] = [:]
        for movie in movies.sorted(by: { $0.id < $1.id }) {
            for genre in movie.genres where spellings[NameFolding.fold(genre)] == nil {
                spellings[NameFolding.fold(genre)] = genre
            }
        }
        self.spellings = spellings
    }

    /// The movies that pass `filters`, in the catalog's order.
    func passing(_ filters: SearchFilters) -> [Movie] {
        movies.indices.filter { passes(at: $0, filters) }.map { movies[$0] }
    }

    /// Whether the movie `id` (which the catalog must hold) passes `filters`.
    func passes(id: Int, _ filters: SearchFilters) -> Bool {
        passes(at: positions[id]!, filters)
    }

    /// Whether `movies[position]` passes `filters`: within the years, every genre and cast name among its own
    /// (folded), and each minimum rating met by a rating it has.
    private func passes(at position: Int, _ filters: SearchFilters) -> Bool {
        let movie = movies[position]
        if let low = filters.lowestYear, movie.year < low { return false }
        if let high = filters.highestYear, movie.year > high { return false }
        for genre in filters.genres where !genres[position].contains(NameFolding.fold(genre)) { return false }
        for name in filters.cast where !cast[position].contains(NameFolding.fold(name)) { return false }
        if let minimum = filters.minimumRating { guard let rating = movie.rating, rating >= minimum else { return false } }
        if let minimum = filters.minimumCriticRating {
            guard let rating = movie.criticRating, rating >= minimum else { return false }
        }
        return true
    }

    /// The facet of the movies `ids`: each folded genre counted once per movie, most first, then by the folded
    /// name's scalars, spelled as the lowest-id movie of the catalog spells it.
    func facet(_ ids: [Int]) -> [FacetCount] {
        var counts: [String: Int] = [:]
        for id in ids { for genre in genres[positions[id]!] { counts[genre, default: 0] += 1 } }
        return counts.sorted {
            $0.value != $1.value ? $0.value > $1.value
                : Array($0.key.unicodeScalars.map(\.value)).lexicographicallyPrecedes($1.key.unicodeScalars.map(\.value))
        }.map { FacetCount(name: spellings[$0.key]!, count: $0.value) }
    }
}
