import MovieSearch

/// Which file stands at a path now, and whether it was written since: its device, inode, size, and modification and
/// status-change times to the nanosecond, read with one `stat`. The cache is replaced by renaming a new file into
/// place (`AtomicFileWriter`), which puts a new inode at the path; an operator's `cp` or shell redirect over the file
/// keeps the inode and changes the size or times. Either way a changed identity is a new file to read. (The favorites
/// file is not watched by it: a rewrite of the same size within one tick of a coarse clock can look the same, so
/// `ServedFavorites` compares its bytes.)
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Int64
    var changed: Int64

    /// The identity in `status`.
    init(_ status: FileStatus) {
        device = status.device
        inode = status.inode
        size = status.size
        modified = status.modified
        changed = status.changed
    }

    /// Whether `other` is this file with the same bytes, as far as its status tells: the same device, inode, size
    /// and modification time (every `write` and `truncate` sets it). Not the change time, which also moves when the
    /// file is renamed over or unlinked (its link count changes) while its bytes stay as they were: a cache renamed
    /// away by a replacement is still intact for the requests that read it. (A `cp -p` over it in place that sets
    /// back the same size and modification time is seen only at the path, by `==`, which compares the change time
    /// too.)
    func hasSameBytes(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode && size == other.size && modified == other.modified
    }

    /// The identity of the file at `path`, links followed; nil when nothing is there (or it cannot be looked at).
    static func of(_ path: FilePath) -> FileIdentity? {
        guard case let .success(status) = Syscalls.status(ofPath: path, followingLinks: true) else { return nil }
        return FileIdentity(status)
    }
}
