/// Why favorites could not be read or saved. Each case names the file, and its `description` is one line that
/// says what is wrong, what to do, and that the file was left as it was: a favorites file that this program does
/// not understand is never overwritten, so that a person's list is never lost to a bug or to a newer version.
///
///     do {
///         let list = try FavoritesFile.read(path: path)
///     } catch {
///         print("moviesearch: \(error)")   // "…/favorites.json: not a valid favorites file: malformed JSON …"
///     }
public enum FavoritesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is damaged: malformed JSON (the reason gives its line and column), or a favorites file whose
    /// content is not what its version allows (an entry without a title, a member that version does not know).
    case corrupt(path: String, reason: String)
    /// The file is JSON but not a favorites file: not an object, or without `version` and `favorites`.
    case foreign(path: String, reason: String)
    /// A favorites file of a version this program does not read (a newer program wrote it).
    case unsupportedVersion(path: String, version: String)
    /// The file could not be read: a folder, a FIFO or a device, no permission, larger than 16 MiB.
    case unreadable(path: String, reason: String)
    /// The file could not be saved: the folder is missing or read-only, the disk is full. `operation` is the step
    /// that failed, as a message says it ("create a temporary file beside", "create the folder").
    case unwritable(path: String, operation: String, reason: String)
    /// Another process kept the favorites locked (`FavoritesFile.withLock`) for longer than a change waits: a
    /// change of its own that did not finish, or a process stopped while saving.
    case busy(path: String)
    /// There is no default place for favorites: neither `XDG_DATA_HOME` (absolute) nor `HOME` is set.
    case noLocation

    /// One line for the user, naming the file: `"/home/ana/.local/share/moviesearch/favorites.json: not a
    /// favorites file (…); it was left as it is"`.
    public var description: String {
        switch self {
        case let .corrupt(path, reason):
            return "\(path): not a valid favorites file: \(reason); it was left as it is (fix it, or move it away "
                + "to start a new list)"
        case let .foreign(path, reason):
            return "\(path): not a moviesearch favorites file (\(reason)); it was left as it is (name another file "
                + "with --favorites <file>)"
        case let .unsupportedVersion(path, version):
            return "\(path): favorites file version \(version) is not supported (this moviesearch reads versions 1 "
                + "and 2; a newer one wrote it?); it was left as it is"
        case let .unreadable(path, reason):
            return "cannot read favorites \(path): \(reason); it was left as it is"
        case let .unwritable(path, operation, reason):
            return "cannot save favorites: cannot \(operation) \(path): \(reason); the favorites file was left as it was"
        case let .busy(path):
            return "cannot save favorites \(path): another moviesearch has been changing them for over "
                + "\(FavoritesFile.lockWaitMilliseconds / 1000) s (a stopped process?); nothing was changed, try again"
        case .noLocation:
            return "no place to keep favorites: set HOME or XDG_DATA_HOME, or pass --favorites <file>"
        }
    }
}
