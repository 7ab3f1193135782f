import MovieSearchCommandLine
import MovieSearchFavorites
import MovieSearchPlatform
import MovieSearchQuery

/// `--favorites <file>` and `--no-save`, and where favorites are kept without them: in
/// `$XDG_DATA_HOME/moviesearch/favorites.json`, or `$HOME/.local/share/moviesearch/favorites.json` when
/// `XDG_DATA_HOME` is unset, empty or relative (the XDG base directory specification says to ignore a relative
/// value). Read from the command's environment (`CommandContext.environment`), so that in-process tests choose it.
///
/// Commands that only show favorites (`query`, `top`, `show`, `favorites list`) never fail because of them: no
/// file is no favorites, and a file they cannot read gives one warning and no marks. `favorites add` and `remove`
/// fail on a file they cannot read or understand. `browse` fails on such a file only when `--favorites` names
/// it; the default file in that state (or no location at all) gives a read-only session that says why on its
/// status line (`open`). A file that cannot be read or understood is never overwritten.
enum FavoritesLocation {
    static let option = Option<FilePath>(
        "favorites", valueName: "file",
        help: "The favorites file. Default: $XDG_DATA_HOME/moviesearch/favorites.json, or "
            + "~/.local/share/moviesearch/favorites.json when XDG_DATA_HOME is unset, empty or relative.")

    /// `--no-save` (browse): favorites changed in the session are not written.
    static let noSave = Flag(
        "no-save", help: "Keep favorite changes for this session only: read the favorites file, never write it.")

    static let dataHomeVariable = "XDG_DATA_HOME"
    /// The file's path under the data home.
    static let fileInDataHome = "moviesearch/favorites.json"

    /// Where the favorites are, and whether that is the default location (whose folders are created, mode 0700,
    /// on the first save; a folder named with `--favorites` must exist).
    struct Location: Equatable {
        var path: FilePath
        var isDefault: Bool

        /// The file, whose folders a save creates when it is the default location.
        var storage: FavoritesSession.Storage { .file(path, createsFolder: isDefault) }
    }

    /// The default file: under `XDG_DATA_HOME` when it is absolute, else under `$HOME/.local/share`; `nil` when
    /// neither is set.
    static func defaultPath(_ environment: Environment) -> FilePath? {
        if let dataHome = environment.path(dataHomeVariable), dataHome.isAbsolute {
            return folder(dataHome) + fileInDataHome
        }
        guard let home = environment.path("HOME") else { return nil }
        return folder(home) + ".local/share/" + fileInDataHome
    }

    /// `given`, else the default location; `nil` when there is none (no `HOME`).
    static func resolve(_ given: FilePath?, _ environment: Environment) -> Location? {
        if let given { return Location(path: given, isDefault: false) }
        return defaultPath(environment).map { Location(path: $0, isDefault: true) }
    }

    /// The location a command that changes favorites saves to. Throws `FavoritesError.noLocation` when there is
    /// none.
    static func forWriting(_ given: FilePath?, _ context: CommandContext) throws(FavoritesError) -> Location {
        guard let location = resolve(given, context.environment) else { throw .noLocation }
        return location
    }

    /// The ids of the favorites among `index`'s movies, for a command that marks them (`query`, `top`, `show`).
    /// No file, or no location at all, is no favorites; a file that cannot be read or understood gives one
    /// warning on standard error and no marks, and is left as it is. Throws only `CacheError`, when the cache is
    /// damaged where resolving reads it.
    static func favoriteIDs(_ given: FilePath?, index: MovieIndex, _ context: CommandContext) throws -> Set<Int> {
        guard let location = resolve(given, context.environment) else { return [] }
        let session = try FavoritesSession.open(location.storage, index: index, ifUnreadable: .readOnly)
        if let error = session.unreadable { context.warning("\(error); favorites are not marked") }
        return session.store.ids
    }

    /// Opens the favorites for a session that changes them (`browse`). A file named with `--favorites` (`given`)
    /// that cannot be read or understood is an error (thrown, `FavoritesError`: exit 1, the file left as it is);
    /// the default file in that state gives a read-only session, as does having no location at all. With
    /// `noSave`, the file is read and never written. Returns the session and, when changes are not saved for a
    /// reason the user did not choose (not for `--no-save`), why, one line for the status row. Throws
    /// `CacheError` when the cache is damaged where resolving reads it.
    static func open(_ given: FilePath?, noSave: Bool, index: MovieIndex, _ context: CommandContext) throws
        -> (session: FavoritesSession, readOnlyReason: String?)
    {
        guard let location = resolve(given, context.environment) else {
            return (try FavoritesSession.open(.memory(FavoriteList()), index: index, ifUnreadable: .fail),
                    noSave ? nil : FavoritesError.noLocation.description)
        }
        let session = try FavoritesSession.open(location.storage, index: index,
                                                ifUnreadable: location.isDefault ? .readOnly : .fail)
        var reason: String?
        if let error = session.unreadable { reason = "favorites are read-only: \(error)" }
        return (noSave ? session.inMemory() : session, reason)
    }

    /// `path` with a slash at the end, unless it has one.
    private static func folder(_ path: FilePath) -> FilePath {
        path.bytes.last == UInt8(ascii: "/") ? path : path + "/"
    }
}
