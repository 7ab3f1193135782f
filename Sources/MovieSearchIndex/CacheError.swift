import MovieSearchPlatform

/// Why a cache file could not be written, opened or read. Every case names the file; the messages tell the user
/// what to do (usually: rebuild the cache with `moviesearch index`).
public enum CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened, mapped, written or renamed.
    case io(path: String, operation: String, reason: String)
    /// The path names a FIFO, a device, a directory or a socket: a cache is always a regular file. Checked before
    /// anything is read, so that a FIFO cannot block the reader and `/dev/zero` is not read as an empty cache.
    case notARegularFile(path: String, kind: FileKind)
    /// The file does not start with the cache magic number: it is not a moviesearch cache.
    case notACache(path: String)
    /// A cache of a format version this build cannot read.
    case unsupportedVersion(path: String, found: UInt32, supported: UInt32)
    /// The file is shorter than its header says (a cut-off copy), or too short to hold a header while its first
    /// bytes are a cache's. A file longer than its header says is `corrupt`.
    case truncated(path: String, expectedBytes: Int, actualBytes: Int)
    /// A part of the file does not match its checksum.
    case checksumMismatch(path: String, region: String)
    /// The checksums match but a structure is inconsistent (a bug in the writer, or deliberate tampering).
    case corrupt(path: String, detail: String)
    /// No movie with this id. `ids` are the first and last ids the cache holds (`nil` when it holds none); with
    /// fewer than `last - first + 1` movies, the ids of skipped invalid movies are missing in between.
    case noSuchMovie(id: Int, movieCount: Int, ids: ClosedRange<Int>?)
    /// The catalog exceeds a limit of the format (a section of 4 GiB or more).
    case catalogTooLarge(detail: String)
    /// A catalog built in memory (not decoded from JSON) has an id the format cannot store: repeated, or negative.
    case invalidMovieID(id: Int, reason: String)
    /// A catalog built in memory has a movie whose `field` the format cannot store: a year outside 32 bits, a
    /// rating that is not a finite number. `reason` says what is wrong with the value.
    case invalidMovieField(id: Int, field: String, reason: String)

    public var description: String {
        switch self {
        case let .io(path, operation, reason):
            return "cannot \(operation) \(path): \(reason)"
        case let .notARegularFile(path, kind):
            let what = kind == .other ? "is not a regular file, so not a cache file" : "is \(kind), not a cache file"
            return "\(path) \(what); give --cache a file built by 'moviesearch index <catalog.json>'"
        case let .notACache(path):
            // No `-o <path>` advice here: the file may be the user's catalog, passed as a cache by mistake.
            return "\(path) is not a moviesearch cache; give --cache a file built by 'moviesearch index <catalog.json>'"
        case let .unsupportedVersion(path, found, supported):
            return "\(path) is a cache of format version \(found), this moviesearch reads version \(supported); rebuild it with 'moviesearch index'"
        case let .truncated(path, expected, actual):
            return "\(path) is truncated (\(actual) bytes, expected \(expected)); rebuild it with 'moviesearch index'"
        case let .checksumMismatch(path, region):
            return "\(path) is corrupted (checksum mismatch in \(region)); rebuild it with 'moviesearch index'"
        case let .corrupt(path, detail):
            return "\(path) is corrupted (\(detail)); rebuild it with 'moviesearch index'"
        case let .catalogTooLarge(detail):
            return "the catalog is too large for one cache file: \(detail)"
        case let .invalidMovieID(id, reason):
            return "cannot store movie \(id): \(reason); give each movie its own id, from 0"
        case let .invalidMovieField(id, field, reason):
            return "cannot store movie \(id): its \(field) \(reason)"
        case let .noSuchMovie(id, count, ids):
            guard let ids, count > 0 else { return "no movie with id \(id): the cache holds no movies" }
            let missing = ids.count - count
            return "no movie with id \(id): ids run from \(ids.lowerBound) to \(ids.upperBound)"
                + (missing > 0 ? ", with \(missing) missing" : "")
        }
    }
}
