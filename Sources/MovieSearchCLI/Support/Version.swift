import MovieSearchQuery

/// The tool's version: the one place that defines it. `moviesearch --version`, `moviesearch version` and the man
/// page's footer print it.
enum Version {
    /// The release, as semantic versioning spells it. Bumped by hand with each release.
    static let release = "0.1.0"

    /// The version of the Swift compiler this binary was built with, as far as `#if compiler(>=…)` can tell
    /// (major.minor; there is no compile-time check of the patch level). Read at compile time, so that nothing
    /// is asked of the running system.
    static var swiftCompiler: String {
        #if compiler(>=7.0)
        return "7.0 or later"
        #elseif compiler(>=6.5)
        return "6.5"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }

    /// What `--version` prints: the release, the cache format version, and the compiler, one per line.
    static var description: String {
        """
        moviesearch \(release)
        cache format version \(MovieIndex.cacheFormatVersion) (the only one it reads and writes)
        built with Swift \(swiftCompiler)

        """
    }
}
