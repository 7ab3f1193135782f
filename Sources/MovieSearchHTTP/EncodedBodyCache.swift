import MovieSearchPlatform
import Synchronization

/// The large answer bodies sent lately, plain and gzipped, by entity tag: identical large answers (a hundred clients
/// asking for the whole catalog) share one buffer in the output queues, and are gzipped once. Bounded by bytes,
/// least recently used first out. Keyed by the body's own tag and checked byte for byte, so that it can never send
/// one answer's bytes for another's, whatever changed in between (a reload, a favorite).
final class EncodedBodyCache: Sendable {
    /// What gzip made of a body.
    private enum Gzipped {
        /// Not tried yet.
        case unknown
        /// Not smaller than the body (or zlib failed): sent plain.
        case notSmaller
        /// These bytes.
        case bytes(AnswerBytes)
    }

    private struct Entry {
        var tag: EntityTag
        var plain: AnswerBytes
        var gzipped: Gzipped
        var bytes: Int {
            if case let .bytes(compressed) = gzipped { return plain.count + compressed.count }
            return plain.count
        }
    }

    /// Bodies smaller than this are not kept (they cost little to gzip, and little to hold twice).
    let minimumBytes: Int
    /// The most bytes kept, plain and gzipped together.
    let capacity: Int
    /// Most recently used last.
    private let entries = Mutex<[Entry]>([])

    /// A cache of at most `capacity` bytes, of bodies of `minimumBytes` or more.
    init(capacity: Int, minimumBytes: Int = 64 * 1024) {
        self.capacity = capacity
        self.minimumBytes = minimumBytes
    }

    /// The bytes to send for `body` (whose tag is `tag`): gzipped when `gzip` and it saves bytes. Returns the shared
    /// buffers of an identical body sent before, if any.
    func encode(_ body: [UInt8], tag: EntityTag, gzip: Bool) -> (bytes: AnswerBytes, isGzipped: Bool) {
        guard body.count >= minimumBytes, capacity > 0 else {
            if gzip, let compressed = GzipEncoder.compress(body), compressed.count < body.count {
                return (AnswerBytes(compressed), true)
            }
            return (AnswerBytes(body), false)
        }
        // The byte comparison runs outside the lock (milliseconds for megabytes); the entry's buffers are immutable.
        let found = entries.withLock { entries in
            entries.firstIndex { $0.tag == tag && $0.plain.count == body.count }.map { entries.remove(at: $0) }
        }
        var entry: Entry
        if let found, Self.equal(found.plain.bytes, body) {
            entry = found
        } else {
            entry = Entry(tag: tag, plain: AnswerBytes(body), gzipped: .unknown)
        }
        if gzip, case .unknown = entry.gzipped {
            if let compressed = GzipEncoder.compress(entry.plain.bytes), compressed.count < body.count {
                entry.gzipped = .bytes(AnswerBytes(compressed))
            } else {
                entry.gzipped = .notSmaller
            }
        }
        if entry.bytes <= capacity {
            entry = entries.withLock { entries in
                // Another worker may have kept the same body meanwhile (both made it at once): its buffers win, so
                // that every connection holds one.
                if let index = entries.firstIndex(where: { $0.tag == tag && $0.plain.count == body.count }),
                   Self.equal(entries[index].plain.bytes, body) {
                    var kept = entries.remove(at: index)
                    if case .unknown = kept.gzipped { kept.gzipped = entry.gzipped }
                    entry = kept
                }
                entries.append(entry)
                var total = entries.reduce(0) { $0 + $1.bytes }
                while total > capacity, let oldest = entries.first {
                    total -= oldest.bytes
                    entries.removeFirst()
                }
                return entry
            }
        }
        if gzip, case let .bytes(compressed) = entry.gzipped { return (compressed, true) }
        return (entry.plain, false)
    }

    /// Whether two buffers hold the same bytes (`Syscalls.sameBytes`: an element-wise `==` takes far longer on
    /// megabytes in a debug build).
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in Syscalls.sameBytes(x, y) } }
    }
}
