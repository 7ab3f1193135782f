import Synchronization

/// Bytes of an answer waiting in connections' output queues, shared rather than copied: the same large body sent to
/// several connections (from `EncodedBodyCache`) is one buffer, counted once in `AnswerMemory` however many
/// connections hold it.
final class AnswerBytes: Sendable {
    /// The bytes.
    let bytes: [UInt8]
    /// The output queues holding these bytes now.
    let holders = Atomic<Int>(0)

    /// These bytes, held by no queue yet.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The number of bytes.
    var count: Int { bytes.count }
}
