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
        do {
            return try FavoriteStore(list: FavoritesFile.read(location.path), index: index).ids
        } catch let error as FavoritesError {
            context.warning("\(error); favorites are not marked")
            return []
        }
    }

    /// The favorites a session that changes them starts with (`browse`), and where it saves them.
    struct Opened {
        /// The favorites, resolved against the cache (empty when the file could not be read).
        var store: FavoriteStore
        /// Where to save after each change; `nil` when changes must not be saved: `--no-save`, no location at
        /// all, or a default file that could not be read or understood (never overwritten).
        var saveTo: Location?
        /// Why changes are not saved, one line for the status row, when they are not saved for a reason the
        /// user did not choose (not for `--no-save`).
        var readOnlyReason: String?

        /// Saves `store` to `saveTo`, atomically (creating the default location's folders, mode 0700); nothing
        /// when there is nowhere to save. Throws `FavoritesError.unwritable`, the file then as it was.
        func save(_ store: FavoriteStore) throws(FavoritesError) {
            guard let saveTo else { return }
            try FavoritesFile.write(store.list, to: saveTo.path, creatingFolder: saveTo.isDefault)
        }
    }

    /// Opens the favorites for a session that changes them. A file named with `--favorites` (`given`) that
    /// cannot be read or understood is an error (thrown, `FavoritesError`: exit 1, the file left as it is); the
    /// default file in that state gives a read-only session with the error as `readOnlyReason`, as does having
    /// no location at all. With `noSave`, the file is read and never written. Throws `CacheError` when the
    /// cache is damaged where resolving reads it.
    static func open(_ given: FilePath?, noSave: Bool, index: MovieIndex, _ context: CommandContext) throws -> Opened {
        guard let location = resolve(given, context.environment) else {
            return Opened(store: try FavoriteStore(list: FavoriteList(), index: index), saveTo: nil,
                          readOnlyReason: noSave ? nil : FavoritesError.noLocation.description)
        }
        do {
            let store = try FavoriteStore(list: FavoritesFile.read(location.path), index: index)
            return Opened(store: store, saveTo: noSave ? nil : location, readOnlyReason: nil)
        } catch let error as FavoritesError where !location.isDefault {
            throw error
        } catch let error as FavoritesError {
            return Opened(store: try FavoriteStore(list: FavoriteList(), index: index), saveTo: nil,
                          readOnlyReason: "favorites are read-only: \(error)")
        }
    }

    /// `path` with a slash at the end, unless it has one.
    private static func folder(_ path: FilePath) -> FilePath {
        path.bytes.last == UInt8(ascii: "/") ? path : path + "/"
    }
}
