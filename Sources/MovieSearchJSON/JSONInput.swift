import MovieSearchInput
import MovieSearchPlatform

/// A JSON document read from a file or a stream, checked as it arrives when it is a stream.
///
/// A stream (a pipe, a FIFO, a device, standard input) need not end, and need not be JSON: `/dev/zero` would fill
/// memory before a decoder saw its first byte. So a stream is fed to `JSONStreamChecker` chunk by chunk as it is
/// read, and reading stops a few bytes after the first byte no JSON document could hold there; the decoder then
/// words the error from the bytes kept, which give the same error, at the same place, as the whole input would.
package struct JSONInput: Sendable {
    /// The whole input; or, when `badByte` is set, the input up to a few bytes past it.
    package var bytes: [UInt8]
    /// The offset of the first byte that no JSON document could hold where it is, if the read stopped there.
    /// Decoding `bytes` then reports the same malformed JSON, at the same place, as decoding the whole input
    /// would (see `JSONStreamChecker`).
    package var badByte: Int?

    package init(bytes: [UInt8], badByte: Int?) {
        self.bytes = bytes
        self.badByte = badByte
    }

    /// Why `badByte` is wrong, when the decoder words no error at or before it on the bytes kept (they may stop
    /// right after it, where the whole input has more).
    package static let badByteReason = "a byte that JSON does not allow here"

    /// Whether a decoder's error at `offset` is the one to report for this input: any, when it was read whole;
    /// one at or before `badByte` otherwise (past it, the error is about where the bytes kept end).
    package func reportsError(at offset: Int) -> Bool {
        badByte.map { offset <= $0 } ?? true
    }

    /// The line and column (from 1; the column in Unicode scalars) of the byte at `offset`.
    package func location(of offset: Int) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { LineCounter.location(of: offset, in: $0) }
    }

    /// The JSON at `path`. A regular file is read whole, in one allocation of its size, without the check;
    /// a file of any other kind (a character device, a FIFO) is a stream, read and checked as
    /// `read(descriptor:maximumBytes:)` does. Throws when a stream holds more than `maximumBytes`, or a regular
    /// file more than `maximumFileBytes` (by default the same; a catalog allows more: its size on disk is the user's
    /// choice, but an allocation of a size no memory holds, a sparse file's, must be refused, not attempted); when
    /// the path names a
    /// directory ("Is a directory") or something `open` refuses (a socket: "No such device or address").
    ///
    /// Skipping the check changes no outcome, only when reading stops: the decoder reports the same first fault
    /// in the whole file as in the prefix the check would have stopped at (see `JSONStreamChecker`), and a
    /// regular file holds a finite number of bytes already on disk, where `/dev/zero` or a pipe can produce
    /// bytes for ever. The check would cost a second pass over every byte of a large catalog for nothing.
    package static func read(path: FilePath, maximumBytes: Int, maximumFileBytes: Int? = nil,
                             waitingForAWriter: Bool = true) throws(FileFailure) -> JSONInput
    {
        let maximumFileBytes = maximumFileBytes ?? maximumBytes
        return try FileReader.withDescriptor(path: path, waitingForAWriter: waitingForAWriter) {
            (descriptor, status) throws(FileFailure) in
            guard status.kind == .regular else {
                return try read(descriptor: descriptor, maximumBytes: maximumBytes)
            }
            return JSONInput(bytes: try FileReader.readAll(descriptor: descriptor, size: status.size,
                                                           maximumBytes: maximumFileBytes), badByte: nil)
        }
    }

    /// The JSON of the regular file at `path`, read whole: a FIFO, a device, a socket or a folder is refused
    /// (`FileFailure.notARegularFile`) without waiting, for a file the tool finds by name rather than one
    /// a user hands it as a stream (a saved Flickr response in `--photos-dir`). Throws past `maximumBytes`.
    package static func readRegularFile(path: FilePath, maximumBytes: Int) throws(FileFailure) -> JSONInput {
        JSONInput(bytes: try FileReader.readRegularFile(path: path, maximumBytes: maximumBytes), badByte: nil)
    }

    /// JSON from `descriptor`, read in chunks and checked as it arrives (`JSONStreamChecker`): reading stops with
    /// the chunk that holds the first byte that is not JSON, so that a stream that never ends (`/dev/zero`) or a
    /// binary file costs no more than its first chunk, and a stream that pauses after a bad byte (a person typing
    /// at a terminal) fails at once instead of waiting for the bytes after it. Throws when the input, still JSON
    /// so far, holds more than `maximumBytes`, or when a read fails.
    package static func read(descriptor: Int32, maximumBytes: Int) throws(FileFailure) -> JSONInput {
        var source = DescriptorByteSource(descriptor)
        do {
            return try read(from: &source, maximumBytes: maximumBytes)
        } catch {
            switch error {
            case let .file(failure): throw failure
            case .corruptGzip: preconditionFailure("a descriptor's bytes are not decoded")
            }
        }
    }

    /// `read(descriptor:maximumBytes:)` for any source of bytes: a stream, or a gzip file decoded as it is read.
    package static func read(from source: inout some ByteSource, maximumBytes: Int) throws(InputError) -> JSONInput {
        var bytes: [UInt8] = []
        var checker = JSONStreamChecker()
        var badByte: Int?
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while badByte == nil {
            let count = try source.read(into: &chunk, count: chunk.count)
            if count == 0 { break }
            badByte = chunk.withUnsafeBufferPointer { checker.feed(UnsafeBufferPointer(rebasing: $0[..<count])) }
            if badByte == nil && bytes.count + count > maximumBytes { throw .tooLarge(maximumBytes) }
            bytes.append(contentsOf: chunk[..<count])
        }
        if let badByte, bytes.count > badByte + JSONStreamChecker.lookahead {
            bytes.removeSubrange((badByte + JSONStreamChecker.lookahead)...)
        }
        return JSONInput(bytes: bytes, badByte: badByte)
    }
}
