@_spi(Engine) import MovieSearchIndex

/// Ascending ranks, read one at a time: a posting list or prefix set in the file, or matches in memory.
protocol RankSequence {
    var count: Int { get }
    subscript(position: Int) -> UInt32 { get }
    /// Entry `position`, which the caller has checked is below `count`: for the inner loops of the intersection
    /// kernels (`BitKernels`), whose ranges are checked once for the loop.
    subscript(unchecked position: Int) -> UInt32 { get }
}

extension PackedView: RankSequence {}
extension BytePackedView: RankSequence {}

extension Array: RankSequence where Element == UInt32 {
    @inline(__always)
    subscript(unchecked position: Int) -> UInt32 {
        withUnsafeBufferPointer { $0[position] }
    }
}
