/// A regular file mapped read-only into memory, unmapped when the object goes away.
///
///     let file = try MappedFile(path: FilePath("movies.mscache"))
///     guard let header = file.bytes(0..<64) else { … }   // nil when the file is shorter
///
/// Opening never blocks and never maps what is not a regular file (`RegularFile.openForReading`: a FIFO cannot hang
/// it, `/dev/zero` is refused). The descriptor is closed once the file is mapped; the mapping stays valid for the
/// object's lifetime even if the file is replaced or deleted meanwhile. It is not valid if the file is truncated in
/// place (the pages past the new end raise SIGBUS): every writer of this package renames a new file into place.
/// An empty file is not mapped (`mmap` refuses a length of 0): its `bytes` are empty.
///
/// Owning the mapping here, with `deinit` as the one place that unmaps, lets a reader throw at any point of its
/// checks without cleaning up by hand.
package final class MappedFile: @unchecked Sendable {
    // @unchecked: the mapping is read-only and never changes after `init`.

    /// Why a file could not be mapped.
    package enum Failure: Error, Equatable, Sendable {
        /// `open` or `fstat` failed.
        case open(SystemError)
        /// The path names something else than a regular file: a FIFO, a device, a directory, a socket.
        case notARegularFile(FileKind)
        /// `mmap` failed (out of address space, or a file system that cannot map).
        case map(SystemError)
    }

    /// The whole file. Valid while this object lives: never let it, or a pointer into it, outlive the object.
    package let bytes: UnsafeRawBufferPointer

    /// Opens and maps the regular file at `path`.
    package init(path: FilePath) throws(Failure) {
        let descriptor: Int32, size: Int
        switch RegularFile.openForReading(path) {
        case let .success(opened): (descriptor, size) = opened
        case let .failure(.system(error)): throw .open(error)
        case let .failure(.notARegularFile(kind)): throw .notARegularFile(kind)
        }
        defer { _ = Syscalls.closeDescriptor(descriptor) }
        if size == 0 {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        switch Syscalls.mapReadOnly(descriptor, size: size) {
        case let .success(base): bytes = UnsafeRawBufferPointer(start: base, count: size)
        case let .failure(error): throw .map(error)
        }
    }

    deinit {
        if let base = bytes.baseAddress { Syscalls.unmap(base, size: bytes.count) }
    }

    /// The file's size in bytes.
    package var size: Int { bytes.count }

    /// The bytes `range`, or `nil` when the range does not lie inside the file.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[range])
    }
}
