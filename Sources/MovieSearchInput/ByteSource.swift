import MovieSearchPlatform

/// Bytes read in pieces, from the start of an input to its end: a file, a stream, or what a gzip member decodes
/// to. Readers of line-based catalogs (IMDb TSV, CSV) pull from one, so that a catalog of any size is read with a
/// buffer of bounded size and never whole in memory.
package protocol ByteSource {
    /// Reads the next bytes into the start of `buffer` (not empty) and returns how many: at least one while any are
    /// left, 0 only at the end of the input. Throws `InputError`.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
}

extension ByteSource {
    /// Reads the next bytes into the start of `chunk`, at most `count` of them (not more than `chunk.count`), and
    /// returns how many: 0 only at the end of the input.
    package mutating func read(into chunk: inout [UInt8], count: Int) throws(InputError) -> Int {
        try chunk.withUnsafeMutableBytes { buffer in
            Result { () throws(InputError) in try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])) }
        }.get()
    }
}

/// Bytes already in memory, as a `ByteSource`: for tests, and for input given as bytes.
package struct BufferByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + count)]))
        }
        position += count
        return count
    }
}

/// An open descriptor (standard input, a pipe, a file) as a `ByteSource`. It does not close the descriptor.
package struct DescriptorByteSource: ByteSource {
    private let descriptor: Int32

    package init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        try Syscalls.readSome(descriptor, into: buffer).mapError(InputError.system).get()
    }
}
