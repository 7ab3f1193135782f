import MovieSearchPlatform

/// Reads and saves the favorites file.
///
///     var list = try FavoritesFile.read(path: path)          // a missing file is an empty list
///     list.entries.append(Favorite(movie))
///     try FavoritesFile.write(list, to: path, creatingFolder: true)
///
/// Reading never waits: the file is opened without blocking, and anything but a regular file (a folder, a FIFO
/// no one writes to, a device) is refused before a byte is read, as is a file larger than `maximumBytes`.
///
/// Saving goes through the writer `index` uses (`AtomicFileWriter`): the list is written whole to a temporary
/// file beside the destination, flushed to disk and renamed onto it, so that a crash or a kill at any moment
/// leaves the previous file or the new one, never a torn one; a failed save leaves the previous file as it was.
public enum FavoritesFile {
    /// The largest favorites file read: about 200,000 favorites, far more than a person marks, and little enough
    /// memory that a wrong path (a disk image) is refused rather than read.
    public static let maximumBytes = 16 << 20

    /// The mode of a folder `write(_:to:creatingFolder:)` creates: only its owner may list or enter it, as the XDG
    /// base directory specification asks of the folders it names (favorites say something about a person).
    public static let folderMode: UInt32 = 0o700

    /// The list in the file at `path`; an empty list when nothing is there.
    ///
    /// - Throws: `FavoritesError.unreadable` (a folder, a FIFO, a device, no permission, larger than
    ///   `maximumBytes`), or the errors of `FavoriteList(jsonBytes:source:)`.
    ///
    /// Cost: O(n) in the file's size.
    public static func read(path: String) throws(FavoritesError) -> FavoriteList {
        try read(FilePath(path))
    }

    /// `read(path:)` for a path of raw bytes, which need not be valid UTF-8.
    package static func read(_ path: FilePath) throws(FavoritesError) -> FavoriteList {
        try list(contents(path)?.bytes, path: path)
    }

    /// The list the bytes of the file at `path` hold (`contents(_:)`): an empty list for no file.
    package static func list(_ bytes: [UInt8]?, path: FilePath) throws(FavoritesError) -> FavoriteList {
        guard let bytes else { return FavoriteList() }
        return try FavoriteList(jsonBytes: bytes, source: path.description)
    }

    /// The bytes of the file at `path`, with the status of the file they were read from (`fstat` of the
    /// descriptor read, so that the two describe one file); nil when nothing is there. Refused as `read(_:)`
    /// refuses: anything but a regular file, before a byte is read, and a file larger than `maximumBytes`.
    package static func contents(_ path: FilePath) throws(FavoritesError) -> (bytes: [UInt8], status: FileStatus)? {
        let name = path.description
        do {
            return try FileReader.readRegularFileAndStatus(path: path, maximumBytes: maximumBytes)
        } catch {
            switch error {
            case let .system(failure) where failure.isNoSuchFile: return nil
            case .notARegularFile(.directory): throw .unreadable(path: name, reason: "it is a folder; give a file path")
            case .notARegularFile: throw .unreadable(path: name, reason: error.reason + "; give a file path")
            case .system, .tooLarge: throw .unreadable(path: name, reason: error.reason)
            }
        }
    }

    /// Saves `list` to the file at `path`, atomically (see the type's discussion).
    ///
    /// - Parameters:
    ///   - list: The favorites to save.
    ///   - path: The file to replace or create. A symbolic link is followed, and stays a link.
    ///   - creatingFolder: Whether to create the file's missing folders first, each with mode `folderMode` (0700),
    ///     as for the default location; otherwise a missing folder is an error.
    /// - Throws: `FavoritesError.unwritable`, naming the step that failed; the file is then as it was.
    public static func write(_ list: FavoriteList, to path: String, creatingFolder: Bool) throws(FavoritesError) {
        try write(list, to: FilePath(path), creatingFolder: creatingFolder)
    }

    /// `write(_:to:creatingFolder:)` for a path of raw bytes, which need not be valid UTF-8.
    package static func write(_ list: FavoriteList, to path: FilePath, creatingFolder: Bool) throws(FavoritesError) {
        if creatingFolder { try makeFolders(above: path) }
        do {
            try AtomicFileWriter.replaceFile(at: path, with: [list.jsonBytes()])
        } catch {
            throw .unwritable(path: path.description, operation: error.operation, reason: error.error.reason)
        }
    }

    /// How long `withLock` waits for another process's change to the same favorites before giving up.
    public static let lockWaitMilliseconds = 5_000

    /// Runs `body`, a change of the favorites at `path` (read, change, save), while holding the lock of the
    /// file's folder, so that two processes changing the same favorites at once (two `favorites add`, an add
    /// while `browse` toggles) each read the other's change and keep it, rather than the last save dropping it.
    ///
    /// The lock is the `flock` of the folder the file is saved in (through symbolic links, the target's folder, so
    /// that every name of the file shares it): the file itself cannot carry it, as each save renames a new file onto
    /// it, and a lock file of its own would be left beside the favorites. It is advisory (only moviesearch takes
    /// it), and the system lets it go when the process ends in any way, so a killed process never leaves it
    /// taken. A change waits for another to finish for up to `lockWaitMilliseconds`, polling, then throws
    /// `FavoritesError.busy` with nothing read or changed.
    ///
    /// With `creatingFolder` (pass what the save will pass to `write(_:to:creatingFolder:)`), the file's missing
    /// folders are made first, as the save would make them, so that the very first changes of a new data home are
    /// one at a time too: a missing folder has no lock, and two first saves at once would each rename a file
    /// holding only its own change. Without it, or when the folder cannot be opened (no permission) or the file
    /// system has no locks, `body` runs without the lock; a save into a missing folder then fails, losing nothing.
    ///
    /// - Throws: `FavoritesError.busy`, `FavoritesError.unwritable` when a folder cannot be made, or what `body`
    ///   throws.
    public static func withLock<Value>(path: String, creatingFolder: Bool = false,
                                       _ body: () throws -> Value) throws -> Value {
        try withLock(FilePath(path), creatingFolder: creatingFolder, body)
    }

    /// `withLock(path:creatingFolder:_:)` for a path of raw bytes, which need not be valid UTF-8;
    /// `waitMilliseconds` is for tests.
    package static func withLock<Value>(_ path: FilePath, creatingFolder: Bool = false,
                                        waitMilliseconds: Int = lockWaitMilliseconds,
                                        _ body: () throws -> Value) throws -> Value {
        if creatingFolder { try makeFolders(above: path) }
        // The folder of the file a save really replaces: through a symbolic link, the target's folder, where the
        // save renames its new file. Every name of one file (the link, the target, a link to the link) then takes
        // one lock; the link's own folder would give each name a lock of its own, and two changes through two
        // names would each save over the other's. A path the save would refuse (a folder, a loop) is locked as
        // given: the save fails anyway, changing nothing.
        let folder = ((try? AtomicFileWriter.destination(of: path)) ?? path).split.folder
        guard case let .success(descriptor) = Syscalls.openFolder(folder.isEmpty ? FilePath(".") : folder) else {
            return try body()
        }
        defer { Syscalls.closeDescriptor(descriptor) }
        var waited = 0
        while true {
            switch Syscalls.tryLockExclusively(descriptor) {
            case .success(true), .failure: return try body()
            case .success(false):
                guard waited < waitMilliseconds else { throw FavoritesError.busy(path: path.description) }
                Syscalls.sleep(milliseconds: 5)
                waited += 5
            }
        }
    }

    /// Creates each missing folder on the way to `path`'s file, outermost first, with mode `folderMode`
    /// (`mkdir -p -m 0700`, except that folders already there keep their mode).
    static func makeFolders(above path: FilePath) throws(FavoritesError) {
        let folder = path.split.folder.bytes
        var end = folder.startIndex
        while end < folder.endIndex {
            end = folder[(end + 1)...].firstIndex(of: UInt8(ascii: "/")) ?? folder.endIndex
            let prefix = FilePath(bytes: folder[..<end])
            guard !prefix.isEmpty, prefix.bytes.last != UInt8(ascii: "/") else { continue }
            switch Syscalls.status(ofPath: prefix, followingLinks: true) {
            case let .success(status):
                guard status.kind == .notRegular(.directory) else {
                    throw .unwritable(path: prefix.description, operation: "create the folder",
                                      reason: "a file is there, not a folder")
                }
            case .failure:
                if case let .failure(error) = Syscalls.makeFolder(prefix, mode: folderMode),
                   error.code != Syscalls.Errno.fileExists {
                    throw .unwritable(path: prefix.description, operation: "create the folder", reason: error.reason)
                }
            }
        }
    }
}
