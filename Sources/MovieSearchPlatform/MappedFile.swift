import CMappingGuard

/// A regular file mapped read-only into memory, unmapped when the object goes away.
///
///     let file = try MappedFile(path: FilePath("movies.mscache"))
///     guard let header = file.bytes(0..<64) else { … }   // nil when the file is shorter
///
/// Opening never blocks and never maps what is not a regular file (`RegularFile.openForReading`: a FIFO cannot hang
/// it, `/dev/zero` is refused). The descriptor is closed once the file is mapped; the mapping stays valid for the
/// object's lifetime even if the file is replaced or deleted meanwhile. It is not valid if the file is truncated in
/// place (the pages past the new end raise SIGBUS, which ends the process) or rewritten in place (the mapping
/// shows the new bytes): every writer of this package renames a new file into place, but an operator's `cp` or
/// `truncate` does not.
///
/// A long-lived reader (the server) opens the file `guarded`: a SIGBUS in the mapping then maps zero pages over it
/// and sets `isDamaged` instead of ending the process (`CMappingGuard`), and the descriptor stays open so that
/// `currentStatus()` (one `fstat`) tells whether the file mapped was changed since it was opened. A reader that
/// sees either throws its answer away. Unguarded (the default: a one-shot `query`, which pays for no signal
/// handler), a truncation still ends the process with SIGBUS.
///
/// An empty file is not mapped (`mmap` refuses a length of 0): its `bytes` are empty.
///
/// Owning the mapping here, with `deinit` as the one place that unmaps, lets a reader throw at any point of its
/// checks without cleaning up by hand.
package final class MappedFile: @unchecked Sendable {
    // @unchecked: the mapping is read-only and never changes after `init`.

    /// The whole file. Valid while this object lives: never let it, or a pointer into it, outlive the object.
    package let bytes: UnsafeRawBufferPointer
    /// The open descriptor of a guarded file (for `currentStatus()`), -1 otherwise.
    private let descriptor: Int32
    /// The mapping's slot in the SIGBUS guard's table, -1 when it is not guarded (not asked, an empty file, or
    /// the table full: `MAPPING_GUARD_CAPACITY` mappings guarded at once).
    private let guardSlot: Int32

    /// Opens and maps the regular file at `path`; `guarded`: survives the file's truncation (see the type).
    /// Throws `FileFailure.system` when `open` or `fstat` fails, or `mmap` (out of address space, or a file system
    /// that cannot map: the error's `call` is `mmap`), and `.notARegularFile` for a FIFO, a device, a directory or
    /// a socket.
    package init(path: FilePath, guarded: Bool = false) throws(FileFailure) {
        let (descriptor, size) = try RegularFile.openForReading(path).get()
        if size == 0 {
            _ = Syscalls.closeDescriptor(descriptor)
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            self.descriptor = -1
            guardSlot = -1
            return
        }
        switch Syscalls.mapReadOnly(descriptor, size: size) {
        case let .success(base): bytes = UnsafeRawBufferPointer(start: base, count: size)
        case let .failure(error):
            _ = Syscalls.closeDescriptor(descriptor)
            throw .system(error)
        }
        if guarded {
            self.descriptor = descriptor
            guardSlot = mapping_guard_register(bytes.baseAddress!, size)
        } else {
            _ = Syscalls.closeDescriptor(descriptor)
            self.descriptor = -1
            guardSlot = -1
        }
    }

    deinit {
        // Unguarded first: a fault at these addresses after the unmap is not this file's.
        if guardSlot >= 0 { mapping_guard_unregister(guardSlot) }
        if let base = bytes.baseAddress { Syscalls.unmap(base, size: bytes.count) }
        if descriptor >= 0 { _ = Syscalls.closeDescriptor(descriptor) }
    }

    /// Whether the mapping is guarded against SIGBUS (asked for, and a slot of the guard's table was free).
    package var isGuarded: Bool { guardSlot >= 0 }

    /// Whether a read of the mapping faulted because the file was cut short (guarded files only): its bytes are
    /// zeros now, not the file's, and nothing read from them may be trusted.
    package var isDamaged: Bool { guardSlot >= 0 && mapping_guard_is_damaged(guardSlot) }

    /// Marks the mapping damaged as a fault would (for tests of what reads `isDamaged`).
    package func markDamaged() {
        if guardSlot >= 0 { mapping_guard_mark_damaged(guardSlot) }
    }

    /// What `fstat` says of the file mapped, now (a guarded file's open descriptor follows the file, not its
    /// path: a file renamed away is still the one mapped); nil for an unguarded or empty file, or when `fstat`
    /// fails. One system call, about a microsecond.
    package func currentStatus() -> FileStatus? {
        guard descriptor >= 0, case let .success(status) = Syscalls.status(ofDescriptor: descriptor) else { return nil }
        return status
    }

    /// The file's size in bytes.
    package var size: Int { bytes.count }

    /// The bytes `range`, or `nil` when the range does not lie inside the file.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[range])
    }
}
