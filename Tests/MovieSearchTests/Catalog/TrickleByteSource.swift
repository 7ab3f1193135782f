import MovieSearch
@testable import MovieSearchInput

/// Bytes handed out at most `step` at a time, as a slow pipe would: a record then arrives in pieces, cut anywhere
/// (inside a field, between a quote and the next, between a CR and its LF).
struct TrickleByteSource: ByteSource {
    private let bytes: [UInt8]
    private let step: Int
    private var position = 0

    init(_ text: String, step: Int) {
        bytes = Array(text.utf8)
        self.step = step
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(step, buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        for offset in 0..<count { buffer[offset] = bytes[position + offset] }
        position += count
        return count
    }
}
