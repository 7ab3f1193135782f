import MovieSearchPlatform

/// Which file stands at a path now: its device, inode and size, read with one `stat`. The cache and the favorites
/// file are replaced by renaming a new file into place (`AtomicFileWriter`), which puts a new inode at the path, so
/// a changed identity is a new file to read.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int

    /// The identity of the file at `path`, links followed; nil when nothing is there (or it cannot be looked at).
    static func of(_ path: FilePath) -> FileIdentity? {
        guard case let .success(status) = Syscalls.status(ofPath: path, followingLinks: true) else { return nil }
        return FileIdentity(device: status.device, inode: status.inode, size: status.size)
    }
}
