import Synchronization

/// Writes whole files atomically, through `Syscalls` (the engine needs no Foundation). Reading files is
/// `FileReader`'s job, mapping them `MappedCacheFile`'s.
///
/// A file is written whole to a temporary file beside its destination, `.<name>.tmp-<pid>-<n>`, then renamed onto
/// it, so that the destination always holds either the previous file or the new one, complete:
///
/// - A failed write (full disk, file size limit, read-only folder) removes its temporary file and leaves the
///   destination as it was.
/// - A process killed while writing (SIGKILL, power loss) leaves its temporary file behind; the next write of the
///   same destination removes it (`removeStaleTemporaries(beside:)`).
/// - Readers that mapped the previous file keep their mapping: the old file is renamed over, never truncated.
/// - The new file keeps the permission bits of the file it replaces (a favorites file or cache made 0600 stays
///   0600), set on the temporary file before anything is written to it; a new file gets 0644 less the umask
///   (`Syscalls.OpenMode.creatingNew`). Set-id and sticky bits are not carried over, nor the owner.
/// - Only a regular file is ever replaced (`destination(of:)`): renaming onto `/dev/null` or a named pipe would
///   replace the device or pipe itself, for every program on the machine (a write as root once did:
///   `index -o /dev/null`). A symbolic link is followed, so that the link stays a link.
///
/// A process that exceeds its file size limit (`ulimit -f`) gets SIGXFSZ, which kills it by default: ignore that
/// signal (as the command line does) to get an error instead.
package enum AtomicFileWriter {
    /// Writes `chunks`, one after the other, to a new temporary file beside the file `path` names
    /// (`destination(of:)`), flushes it to disk, then renames it onto that file. On any failure the temporary file
    /// is removed and whatever was there is left as it was.
    ///
    /// First removes the temporary files of that file that killed writers left behind (which also frees their
    /// space on a full disk).
    static func replaceFile(at path: String, with chunks: [[UInt8]]) throws(AtomicWriteError) {
        try replaceFile(at: FilePath(path), with: chunks)
    }

    /// `replaceFile(at:with:)` for a path of raw bytes, which need not be valid UTF-8: the destination, its
    /// temporary file and the links followed are named by the same bytes.
    package static func replaceFile(at path: FilePath, with chunks: [[UInt8]]) throws(AtomicWriteError) {
        let path = try destination(of: path)
        removeStaleTemporaries(beside: path)
        // The mode of the file replaced, if any: the temporary file gets it before it holds a byte, so the data
        // is never readable by more users than the file it replaces was.
        var keptPermissions: UInt32?
        if case let .success(status) = Syscalls.status(ofPath: path, followingLinks: true), status.kind == .regular {
            keptPermissions = status.permissions
        }
        let temporary = temporaryPath(beside: path)
        let descriptor: Int32
        switch Syscalls.openFile(temporary, for: .creatingNew) {
        case let .success(opened): descriptor = opened
        case let .failure(error): throw AtomicWriteError(operation: "create a temporary file beside", error: error)
        }
        var failure: AtomicWriteError?
        if let keptPermissions, case let .failure(error) = Syscalls.changeMode(descriptor, to: keptPermissions) {
            failure = AtomicWriteError(operation: "copy the permissions to", error: error)
        }
        for chunk in chunks where failure == nil {
            if case let .failure(error) = chunk.withUnsafeBytes({ Syscalls.writeAll(descriptor, $0) }) {
                failure = AtomicWriteError(operation: "write", error: error)
                break
            }
        }
        if failure == nil, case let .failure(error) = Syscalls.flushToDisk(descriptor) {
            failure = AtomicWriteError(operation: "flush", error: error)
        }
        if case let .failure(error) = Syscalls.closeDescriptor(descriptor), failure == nil {
            failure = AtomicWriteError(operation: "write", error: error)
        }
        if failure == nil, case let .failure(error) = Syscalls.renameFile(temporary, to: path) {
            failure = AtomicWriteError(operation: "replace", error: error)
        }
        if let failure {
            Syscalls.removeFile(temporary)
            throw failure
        }
        syncFolder(of: path)
    }

    /// The file that writing `path` replaces: `path` itself, or the end of the chain of symbolic links that starts
    /// there (at most 32, as `open` would follow them), so that a link stays a link. The first path of the chain
    /// where nothing is, or nothing this process may look at, is returned as it is: a dangling link names the
    /// file to create, and the write itself reports what else is wrong.
    ///
    /// Throws (operation "replace") when the chain ends at a folder, at anything but a regular file, or does not
    /// end (a loop).
    package static func destination(of path: FilePath) throws(AtomicWriteError) -> FilePath {
        var target = path
        var kind = FileStatus.Kind.regular
        for _ in 0..<32 {
            guard case let .success(status) = Syscalls.status(ofPath: target, followingLinks: false) else { return target }
            kind = status.kind
            guard kind == .symbolicLink, let next = linkTarget(target) else { break }
            target = next
        }
        switch kind {
        case .regular:
            return target
        case .notRegular(.directory):
            throw AtomicWriteError(operation: "replace", error: SystemError(
                code: Syscalls.Errno.isADirectory, reason: "it is a folder; give a file path"))
        case .symbolicLink:
            throw AtomicWriteError(operation: "replace", error: SystemError(
                code: Syscalls.Errno.tooManySymbolicLinks, reason: "its symbolic links go round in a loop"))
        case let .notRegular(kind):
            // A device, pipe or socket is never replaced by a file (`index -o /dev/null` as root once turned
            // /dev/null into one); said in `FileFailure`'s words, as a read of it would say.
            throw AtomicWriteError(operation: "replace", error: SystemError(
                code: Syscalls.Errno.invalidArgument,
                reason: FileFailure.notARegularFile(kind).reason + "; give a file path"))
        }
    }

    /// Where the symbolic link at `path` points, relative targets taken from the link's folder; the link's bytes
    /// as they are.
    private static func linkTarget(_ path: FilePath) -> FilePath? {
        guard let target = Syscalls.linkTarget(path) else { return nil }
        return target.isAbsolute ? target : path.split.folder + target
    }

    /// A failed atomic write: which step failed and why.
    package struct AtomicWriteError: Error {
        /// The step, as a message says it: "create a temporary file beside", "copy the permissions to", "write",
        /// "flush" or "replace".
        package var operation: String
        package var error: SystemError
    }

    /// `folder/.name.tmp-PID-N`, hidden, unique per process and call, in the same folder (so rename is atomic).
    static func temporaryPath(beside path: String) -> String {
        temporaryPath(beside: FilePath(path)).description
    }

    /// `temporaryPath(beside:)` on raw bytes: the name's bytes are kept as they are.
    static func temporaryPath(beside path: FilePath) -> FilePath {
        let (folder, name) = path.split
        let serial = temporaryCounter.add(1, ordering: .relaxed).newValue
        return folder + "." + name + ".tmp-\(Syscalls.processID())-\(serial)"
    }

    /// Removes the temporary files of `path` (`.name.tmp-PID-N` in its folder) whose writing process no longer
    /// exists: those of writers killed before they could rename or remove them. Returns how many it removed.
    ///
    /// A temporary file is removed only when `kill(PID, 0)` fails with `ESRCH`, so a live writer's (in this
    /// process or another, of any user) is never touched. Best effort: a folder that cannot be listed, or a file
    /// that cannot be removed, is left as it is.
    ///
    /// Limits: a file whose PID has been reused by an unrelated process stays until that process ends. On a folder
    /// shared across PID namespaces or machines, a live writer elsewhere may look dead and lose its temporary file;
    /// its rename then fails and it reports an error, and the destination is never damaged.
    @discardableResult
    static func removeStaleTemporaries(beside path: String) -> Int {
        removeStaleTemporaries(beside: FilePath(path))
    }

    /// `removeStaleTemporaries(beside:)` on raw bytes: entries are compared and removed by their bytes.
    @discardableResult
    static func removeStaleTemporaries(beside path: FilePath) -> Int {
        let (folder, name) = path.split
        guard let entries = Syscalls.folderEntries(folder.isEmpty ? FilePath(".") : folder) else { return 0 }
        let stale = entries.filter { entry in
            guard let owner = temporaryOwner(entry.bytes, of: name.bytes) else { return false }
            return Syscalls.processIsGone(owner)
        }
        return stale.count { entry in
            guard case .success = Syscalls.removeFile(folder + entry) else { return false }
            return true
        }
    }

    /// The writer's PID when `entry` is a temporary file of the file named `name` (`.name.tmp-PID-N`, both numbers
    /// positive decimals as `temporaryPath` writes them), else `nil`.
    static func temporaryOwner(_ entry: String, of name: String) -> Int32? {
        temporaryOwner(Array(entry.utf8), of: Array(name.utf8))
    }

    /// `temporaryOwner(_:of:)` on the raw bytes of the names.
    static func temporaryOwner(_ entry: [UInt8], of name: [UInt8]) -> Int32? {
        let prefix = [UInt8(ascii: ".")] + name + Array(".tmp-".utf8)
        guard !name.isEmpty, entry.starts(with: prefix) else { return nil }
        let numbers = entry.dropFirst(prefix.count)
            .split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy(isCanonicalPositiveDecimal),
              let pid = Int32(String(decoding: numbers[0], as: UTF8.self))
        else { return nil }
        return pid
    }

    /// Digits only, no leading zero, not zero.
    private static func isCanonicalPositiveDecimal(_ digits: ArraySlice<UInt8>) -> Bool {
        guard let first = digits.first, first != UInt8(ascii: "0") else { return false }
        return digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static let temporaryCounter = Atomic<Int>(0)

    /// Makes the rename itself durable; best effort (not every file system lets a folder be opened and synced).
    private static func syncFolder(of path: FilePath) {
        let folder = path.split.folder
        guard case let .success(descriptor) = Syscalls.openFile(folder.isEmpty ? FilePath(".") : folder, for: .reading)
        else { return }
        _ = Syscalls.flushToDisk(descriptor)
        Syscalls.closeDescriptor(descriptor)
    }
}
