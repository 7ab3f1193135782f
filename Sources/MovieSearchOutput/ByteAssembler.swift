/// A growable run of bytes in memory of its own, for writing a large answer fast: appends are a bounds check and a
/// copy, without the uniqueness check and the generic paths an `Array` append takes (a century search's answer is
/// 30 KB in about a thousand pieces, and `AnswerJSON` writes one per keystroke a server receives).
///
/// Not copyable: exactly one owner, which frees the memory (`deinit`) or takes the bytes (`finish()`).
struct ByteAssembler: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    /// An empty run with room for `capacity` bytes (it grows as needed).
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes, as an array (one copy), with room for one more byte: the line end that the CLI and the server put
    /// after an answer, appended without copying the answer again.
    consuming func finish() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 1)
        bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        return bytes
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    /// Moves the bytes to memory of at least twice the size.
    private mutating func grow(_ needed: Int) {
        let grown = max(capacity * 2, needed)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = grown
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let source = buffer.baseAddress else { return }
            reserve(buffer.count)
            (base + count).update(from: source, count: buffer.count)
            count += buffer.count
        }
    }

    /// Appends an ASCII literal: `","`, `"match":[`.
    mutating func append(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    /// Appends an integer in decimal, as JSON writes it.
    mutating func append(integer: Int) {
        reserve(20)
        if integer < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = integer.magnitude
        var digits = 0
        var probe = magnitude
        repeat {
            digits += 1
            probe /= 10
        } while probe != 0
        var position = count + digits
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude != 0
        count += digits
    }
}
