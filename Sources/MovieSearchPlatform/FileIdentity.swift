/// Which file stands at a path now, and whether it was written since: its device, inode, size, and modification and
/// status-change times to the nanosecond, read with one `stat`. The package's one identity of a file: the server's
/// cache reload (`ServedCache`) and favorites marks (`ServedFavorites`), and the command line's check that `index`
/// does not write over its input, all compare these.
///
/// The cache is replaced by renaming a new file into place (`AtomicFileWriter`), which puts a new inode at the path;
/// an operator's `cp` or shell redirect over the file keeps the inode and changes the size or times. Either way a
/// changed identity (`==`) is a new file to read. Two paths name one file when their device and inode are equal
/// (`isSameFile`), whatever its bytes.
package struct FileIdentity: Equatable, Sendable {
    /// The device and inode, which together tell whether two paths name one file.
    package var device: UInt64
    package var inode: UInt64
    /// The size in bytes.
    package var size: Int
    /// When the bytes last changed (`st_mtim`) and when the bytes or status did (`st_ctim`), in nanoseconds since
    /// 1970.
    package var modified: Int64
    package var changed: Int64

    /// The identity in `status`.
    package init(_ status: FileStatus) {
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
    package func hasSameBytes(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode && size == other.size && modified == other.modified
    }

    /// Whether `other` is the same file (the same device and inode: a hard or symbolic link to it, or the file
    /// itself), whatever was written to it in between.
    package func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }

    /// The identity of the file at `path`, links followed (so a symbolic or hard link to a file gives that file's);
    /// nil when nothing is there (or it cannot be looked at).
    package static func of(_ path: FilePath) -> FileIdentity? {
        guard case let .success(status) = Syscalls.status(ofPath: path, followingLinks: true) else { return nil }
        return FileIdentity(status)
    }

    /// The identity of the file open on `descriptor` (standard input redirected from a file); nil when `fstat`
    /// fails.
    package static func of(descriptor: Int32) -> FileIdentity? {
        guard case let .success(status) = Syscalls.status(ofDescriptor: descriptor) else { return nil }
        return FileIdentity(status)
    }
}
