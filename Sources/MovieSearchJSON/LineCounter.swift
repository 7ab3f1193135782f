/// Turns byte offsets into the line and column an editor shows.
///
/// Only error paths use it, so it rescans rather than tracking lines while parsing, which would tax every
/// byte of every valid document. It moves forward only: a caller reporting many positions in increasing order
/// (the catalog decoder skipping invalid movies) pays for one pass over the input in all, not one per position.
package struct LineCounter {
    /// Byte offset reached so far.
    private(set) var offset = 0
    /// Line (from 1) at `offset`.
    private(set) var line = 1
    /// Column (from 1, in Unicode scalars) at `offset`.
    private(set) var column = 1

    /// Starts at the beginning of `bytes`, past a UTF-8 byte order mark, which editors do not show.
    package init(bytes: UnsafeBufferPointer<UInt8>) {
        offset = JSONReader.byteOrderMarkLength(bytes)
    }

    /// Moves to `target` (clamped to `bytes.count`) and returns its line and column. A target behind the current
    /// offset is answered with the current position, which callers avoid by asking in increasing order.
    package mutating func advance(to target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let end = min(target, bytes.count)
        while offset < end {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                // CR LF is one line break, counted at its LF.
                if offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "\n") {
                    column += 1
                } else {
                    line += 1
                    column = 1
                }
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes belong to the scalar their lead byte already counted.
                column += 1
            }
            offset += 1
        }
        return (line, column)
    }

    /// The line and column of `offset` in `bytes`, counted from the start.
    static func location(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var counter = LineCounter(bytes: bytes)
        return counter.advance(to: offset, in: bytes)
    }
}
