import MovieSearchCommandLine
import MovieSearchPlatform
import MovieSearchQuery

/// `--cache <file>`, and where commands find a cache without it: the file named by `MOVIESEARCH_CACHE`, else the
/// sample that ships in the package's `Data/`, so that `swift run moviesearch query dark` works in a fresh
/// checkout.
enum CacheLocation {
    static let option = Option<FilePath>(
        "cache", valueName: "file",
        help: "The cache to read, built by 'moviesearch index'. Default: the file named by MOVIESEARCH_CACHE, "
            + "else the sample catalog in Data/.")

    static let environmentVariable = "MOVIESEARCH_CACHE"

    /// The package's root folder, found from this source file's path
    /// (`<root>/Sources/MovieSearchCLI/Support/CacheLocation.swift`); meaningful wherever the package was built.
    static let packageRoot: String = {
        var path = #filePath
        for _ in 0..<4 {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            path = String(path[..<slash])
        }
        return path.isEmpty ? "/" : path
    }()

    /// The sample cache that ships with the package; see `Scripts/regenerate-sample-cache.sh`.
    static var samplePath: String { packageRoot + "/Data/sample-movies.mscache" }

    /// Opens the cache to read: `given`, else the environment's, else the sample (with a note saying so).
    static func open(_ given: FilePath?, _ context: CommandContext) throws -> MovieIndex {
        try MovieIndex(path: resolve(given, context))
    }

    /// The path of the cache to read; the environment's as its raw bytes, like a path given on the command line.
    static func resolve(_ given: FilePath?, _ context: CommandContext) throws(UsageError) -> FilePath {
        if let given { return given }
        if let named = context.environment.path(environmentVariable) { return named }
        let sample = FilePath(context.sampleCachePath ?? samplePath)
        guard Syscalls.isReadable(sample) else {
            throw UsageError("no cache to read: pass --cache <file> or set \(environmentVariable) "
                + "(build a cache with 'moviesearch index <catalog.json>')")
        }
        context.note("using the sample catalog \(sample) (pass --cache <file> or set \(environmentVariable))")
        return sample
    }
}
