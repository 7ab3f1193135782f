/// What `stat` says about a file: the few fields this package reads, in Swift terms.
///
///     if case .success(let status) = Syscalls.status(ofDescriptor: descriptor), status.kind == .regular { … }
///
/// `Syscalls` fills it in, so that no other file needs `struct stat`, `mode_t` or the `S_IF…` bits.
package struct FileStatus: Sendable, Equatable {
    /// What kind of file a path or descriptor names.
    package enum Kind: Sendable, Equatable {
        case regular
        /// A symbolic link itself: only a status that does not follow links (`lstat`) says so.
        case symbolicLink
        /// A directory, a FIFO, a device, a socket: anything else, as `FileKind` names it.
        case notRegular(FileKind)
    }

    /// The file's kind.
    package var kind: Kind
    /// The file's size in bytes (meaningful for a regular file).
    package var size: Int
    /// The device and inode, which together tell whether two paths name one file.
    package var device: UInt64
    package var inode: UInt64
    /// The permission bits (`st_mode & 0o777`): what a file written in its place keeps (`AtomicFileWriter`).
    package var permissions: UInt32
    /// When the file's bytes last changed (`st_mtim`) and when its bytes or status did (`st_ctim`), in nanoseconds
    /// since 1970 (as precise as the file system keeps them): with the device, inode and size they tell a file
    /// rewritten in place (`cp`, a shell redirect) from the one that was there, which keeps its inode.
    package var modified: Int64
    package var changed: Int64

    package init(kind: Kind, size: Int, device: UInt64, inode: UInt64, permissions: UInt32, modified: Int64 = 0,
                 changed: Int64 = 0) {
        self.kind = kind
        self.size = size
        self.device = device
        self.inode = inode
        self.permissions = permissions
        self.modified = modified
        self.changed = changed
    }
}
