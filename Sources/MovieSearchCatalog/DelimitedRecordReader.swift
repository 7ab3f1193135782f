import MovieSearchInput
import MovieSearchPlatform

/// Splits delimited text into records and their fields: IMDb's TSV (tab-separated, no quoting) and RFC 4180 CSV
/// (comma-separated; a field may be quoted, with `""` for a quote and line breaks inside).
///
/// ```swift
/// var records = DelimitedRecordReader(source: "movies.csv", separator: UInt8(ascii: ","), quoting: true)
/// while try records.next(from: &input) {
///     let title = records.field(0)  // bytes, valid until the next call to `next`
/// }
/// ```
///
/// Bytes are pulled from a `ByteSource` into one buffer, 1 MiB to start with, that grows only for a record that
/// does not fit (up to `maximumRecordBytes`, then an error: `/dev/zero` read as CSV fails there instead of eating
/// memory). A record is handed out as the bounds of its fields inside that buffer, so splitting allocates nothing
/// per record or field; the caller builds a `String` only for the text it keeps. A quoted field is unquoted in
/// place once its record is complete.
///
/// Records end at a line feed, which a carriage return may precede (CRLF); the last one may end at the end of the
/// input instead. Empty lines are skipped: they are no record (and so take no id), though they count as lines. A
/// UTF-8 byte-order mark at the very start is skipped. In CSV a quote only opens a quoted field at the start of
/// the field; elsewhere it is a character, as are the bytes after a closing quote up to the separator (`"a"b` is
/// `ab`), as most CSV readers take them.
///
/// Cost: one pass over the bytes (a record cut by the end of the buffer is scanned again from its start once the
/// buffer is refilled), plus one copy of that partial record at each refill.
struct DelimitedRecordReader: ~Copyable {
    /// The buffer's first size, and so about the most bytes asked of the source at once while records are short.
    static let chunkBytes = 1 << 20
    /// The longest record read, by default: far beyond any real row, small enough to hold in memory.
    static let defaultMaximumRecordBytes = 16 << 20
    /// The most fields a record may have.
    static let maximumFields = 1 << 16

    private let source: String
    private let separator: UInt8
    private let quoting: Bool
    private let maximumRecordBytes: Int

    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// `buffer[start..<end]` holds the bytes read and not yet handed out.
    private var start = 0
    private var end = 0
    /// Whether the source has ended.
    private var sourceEnded = false
    private var startChecked = false
    /// The line the next record starts on.
    private var nextLine = 1

    /// The current record's fields, as `start, end` pairs of offsets into `buffer`.
    private var bounds: UnsafeMutablePointer<Int>
    private var boundsCapacity = 64
    /// Bit `i` (for the first 64 fields) or `quotedBeyond` says field `i` was quoted and needs unquoting.
    private var quotedFields: UInt64 = 0
    private var quotedBeyond = false

    /// How many fields the current record has (at least 1).
    private(set) var fieldCount = 0
    /// The line the current record starts on, counting from 1 (a record with a quoted line break spans several).
    private(set) var line = 0

    /// Reads records separated by `separator` (a tab or a comma); `quoting` for CSV's quoted fields. `source`
    /// names the input in errors. A record longer than `maximumRecordBytes` is an error.
    init(source: String, separator: UInt8, quoting: Bool, maximumRecordBytes: Int = defaultMaximumRecordBytes) {
        self.source = source
        self.separator = separator
        self.quoting = quoting
        self.maximumRecordBytes = max(1, maximumRecordBytes)
        capacity = min(Self.chunkBytes, self.maximumRecordBytes + 1)
        buffer = .allocate(capacity: capacity)
        bounds = .allocate(capacity: 2 * boundsCapacity)
    }

    deinit {
        buffer.deallocate()
        bounds.deallocate()
    }

    /// The bytes of field `index` (less than `fieldCount`) of the current record, unquoted, without the CR of a
    /// CRLF. Valid until the next call to `next`.
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(index >= 0 && index < fieldCount, "field \(index) of a record of \(fieldCount)")
        let fieldStart = bounds[2 * index]
        return UnsafeBufferPointer(start: buffer + fieldStart, count: bounds[2 * index + 1] - fieldStart)
    }

    /// Moves to the next record; `false` at the end of the input. Throws `CatalogError.unreadable` when the
    /// source fails, `notACatalog` for a quoted field still open at the end of the input or a record longer than
    /// the limit.
    mutating func next(from input: inout some ByteSource) throws(CatalogError) -> Bool {
        if !startChecked { try skipByteOrderMark(input: &input) }
        while true {
            if try split() { return true }
            if sourceEnded { return false }
            try refill(from: &input)
        }
    }

    // MARK: - Splitting

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    /// Splits the record at `start` into fields: `true` when it is complete; `false` when the bytes read end
    /// before it does and the source has not ended (or nothing is left at all). Skips empty lines.
    private mutating func split() throws(CatalogError) -> Bool {
        let bytes = buffer
        let separator = separator
        let end = end
        while start < end {
            var position = start
            fieldCount = 0
            quotedFields = 0
            quotedBeyond = false
            var lineBreaks = 0
            while true {
                let fieldStart = position
                var quoted = false
                if quoting && position < end && bytes[position] == Self.quote {
                    quoted = true
                    position += 1
                    while true {
                        if position == end {
                            guard sourceEnded else { return false }
                            throw .notACatalog(source: source, reason: "a quoted field on line \(nextLine) is "
                                + "not closed before the end of the file")
                        }
                        let byte = bytes[position]
                        if byte == Self.quote {
                            if position + 1 < end {
                                if bytes[position + 1] == Self.quote {
                                    position += 2  // A doubled quote: still inside.
                                    continue
                                }
                                position += 1
                                break
                            }
                            guard sourceEnded else { return false }
                            position += 1
                            break
                        }
                        if byte == Self.lineFeed { lineBreaks += 1 }
                        position += 1
                    }
                }
                // The field, or what follows its closing quote, runs to a separator or the end of the line.
                position = Self.nextDelimiter(in: bytes, from: position, to: end, separator: separator)
                if position == end && !sourceEnded { return false }
                let endsRecord = position == end || bytes[position] == Self.lineFeed
                var fieldEnd = position
                if endsRecord && fieldEnd > fieldStart && bytes[fieldEnd - 1] == Self.carriageReturn {
                    fieldEnd -= 1
                }
                try append(fieldStart, fieldEnd, quoted: quoted)
                if !endsRecord {
                    position += 1
                    continue
                }
                line = nextLine
                nextLine += 1 + lineBreaks
                start = position == end ? end : position + 1
                if fieldCount == 1 && fieldEnd == fieldStart && !quoted { break }  // An empty line: skipped.
                if quotedFields != 0 || quotedBeyond { unquoteFields() }
                return true
            }
        }
        return false
    }

    /// The position of the first separator or line feed in `bytes[position..<end]`, or `end`.
    ///
    /// Eight bytes at a time (SWAR): a byte of `word ^ pattern` is zero where `word` has the pattern's byte, and
    /// `(x - 0x01…01) & ~x & 0x80…80` sets the top bit of the lowest zero byte of `x` (bits above it may be set
    /// wrongly by the borrow, never bits below), so the lowest set bit of either test is the first delimiter.
    @inline(__always)
    private static func nextDelimiter(in bytes: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int,
                                      separator: UInt8) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let separators = ones &* UInt64(separator)
        let lineFeeds = ones &* UInt64(lineFeed)
        var position = start
        while end - position >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
            let x = word ^ separators
            let y = word ^ lineFeeds
            let found = ((x &- ones) & ~x | (y &- ones) & ~y) & highs
            if found != 0 { return position + found.trailingZeroBitCount / 8 }
            position += 8
        }
        while position < end {
            let byte = bytes[position]
            if byte == separator || byte == lineFeed { return position }
            position += 1
        }
        return end
    }

    /// Records the field `buffer[fieldStart..<fieldEnd]`.
    @inline(__always)
    private mutating func append(_ fieldStart: Int, _ fieldEnd: Int, quoted: Bool) throws(CatalogError) {
        if fieldCount == boundsCapacity { try growBounds() }
        bounds[2 * fieldCount] = fieldStart
        bounds[2 * fieldCount + 1] = fieldEnd
        if quoted {
            if fieldCount < 64 { quotedFields |= 1 << UInt64(fieldCount) } else { quotedBeyond = true }
        }
        fieldCount += 1
    }

    private mutating func growBounds() throws(CatalogError) {
        guard boundsCapacity < Self.maximumFields else {
            throw .notACatalog(source: source, reason: "the record on line \(nextLine) has more than "
                + "\(Self.maximumFields) fields")
        }
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: 4 * boundsCapacity)
        grown.update(from: bounds, count: 2 * boundsCapacity)
        bounds.deallocate()
        bounds = grown
        boundsCapacity *= 2
    }

    /// Unquotes the quoted fields of a complete record in place: drops the opening and closing quotes and turns
    /// each `""` between them into `"`; bytes after the closing quote are kept as they are.
    private mutating func unquoteFields() {
        for index in 0..<fieldCount {
            let fieldStart = bounds[2 * index]
            let fieldEnd = bounds[2 * index + 1]
            // Past the first 64 fields, a quoted field is told by its first byte: in CSV only a quoted field starts
            // with a quote.
            guard index < 64 ? quotedFields & (1 << UInt64(index)) != 0
                : fieldEnd > fieldStart && buffer[fieldStart] == Self.quote else { continue }
            var read = fieldStart + 1
            var write = fieldStart
            var inside = true
            while read < fieldEnd {
                let byte = buffer[read]
                if inside && byte == Self.quote {
                    if read + 1 < fieldEnd && buffer[read + 1] == Self.quote {
                        buffer[write] = Self.quote
                        write += 1
                        read += 2
                    } else {
                        inside = false
                        read += 1
                    }
                    continue
                }
                buffer[write] = byte
                write += 1
                read += 1
            }
            bounds[2 * index + 1] = write
        }
    }

    // MARK: - Reading

    /// Skips a UTF-8 byte-order mark at the start of the input.
    private mutating func skipByteOrderMark(input: inout some ByteSource) throws(CatalogError) {
        startChecked = true
        while end < 3 && !sourceEnded { try refill(from: &input) }
        if end >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { start = 3 }
    }

    /// Moves the bytes not handed out to the front of the buffer, grows it when they fill most of it, and reads
    /// more after them. Throws when the record they begin is already longer than the limit.
    private mutating func refill(from input: inout some ByteSource) throws(CatalogError) {
        if start > 0 {
            if end > start { buffer.update(from: buffer + start, count: end - start) }
            end -= start
            start = 0
        }
        if end > maximumRecordBytes {
            let hint = quoting ? " (is a quote not closed?)" : ""
            throw .notACatalog(source: source, reason: "the record on line \(nextLine) is longer than "
                + "\(FileReader.byteLimitDescription(maximumRecordBytes))\(hint)")
        }
        if capacity - end < capacity / 4 {
            let grown = min(2 * capacity, maximumRecordBytes + Self.chunkBytes)
            if grown > capacity {
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
                bigger.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = bigger
                capacity = grown
            }
        }
        // Fills the free room (a pipe hands out 64 KiB at a time), so that a record cut by the end of the bytes is
        // scanned again once per buffer, not once per read.
        let target = capacity
        while end < target {
            let room = UnsafeMutableRawBufferPointer(start: buffer + end, count: target - end)
            let count: Int
            do {
                count = try input.read(into: room)
            } catch {
                throw .unreadable(source: source, reason: error.reason)
            }
            if count == 0 {
                sourceEnded = true
                return
            }
            end += count
        }
    }
}
