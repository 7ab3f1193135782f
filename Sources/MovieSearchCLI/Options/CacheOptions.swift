import MovieSearchCommandLine
import MovieSearchPlatform
import MovieSearchQuery

/// `--cache <file>` and `--favorites <file>`: the cache a command reads and the favorites it marks or changes, for
/// `query`, `show`, `top`, `favorites` and `browse`. Each is resolved when the command runs (`CacheLocation`,
/// `FavoritesLocation`), against the command's environment.
struct CacheOptions: OptionGroup {
    static var arguments: [any ArgumentDeclaration] { [CacheLocation.option, FavoritesLocation.option] }

    /// `--cache`, if given.
    var cache: FilePath?
    /// `--favorites`, if given.
    var favorites: FilePath?

    init(_ arguments: ParsedArguments) {
        cache = arguments[CacheLocation.option]
        favorites = arguments[FavoritesLocation.option]
    }

    /// The cache to read (`CacheLocation.open(_:_:)`).
    func openCache(_ context: CommandContext) throws -> MovieIndex {
        try CacheLocation.open(cache, context)
    }

    /// The ids of the favorites, resolved against `index` (`FavoritesLocation.favoriteIDs(_:index:_:)`).
    func favoriteIDs(index: MovieIndex, _ context: CommandContext) throws -> Set<Int> {
        try FavoritesLocation.favoriteIDs(favorites, index: index, context)
    }
}
