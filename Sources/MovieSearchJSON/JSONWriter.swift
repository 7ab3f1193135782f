/// Writes compact JSON (RFC 8259) into a byte buffer, commas included.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.member("query", "dark")
/// json.member("total", 30)
/// json.key("genres")
/// json.value(["Action", "Drama"])
/// json.endObject()
/// print(json.text)  // {"query":"dark","total":30,"genres":["Action","Drama"]}
/// ```
///
/// Strings are escaped as RFC 8259 requires and no more: `"` and `\` with a backslash, control characters as
/// `\n`, `\t`, … or `\u001f`; everything else, `/` and non-ASCII included, is written as its UTF-8.
///
/// The writer places commas itself and trusts its caller for the rest: a key outside an object, or an unclosed
/// array, stops a debug build with an assertion and gives invalid JSON in a release build.
///
/// Package access: the command line writes its `--json` output with it, and the library's interface speaks of
/// movies, not of JSON.
///
/// Cost: appending is amortized O(1) per byte; numbers and strings are formatted without intermediate `String`s,
/// except doubles with a fraction, which go through the standard library's shortest round-trip `description`.
package struct JSONWriter: Sendable {
    /// The JSON written so far, as UTF-8.
    package private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows a sibling and so needs a comma.
    private var needsComma = false
    /// The open containers, innermost last (`true` for an object), kept to catch misuse in debug builds.
    private var containers: [Bool] = []
    /// Whether a key was just written, so that a value must come next.
    private var expectsMemberValue = false

    /// An empty writer; `capacity` is the number of bytes to reserve up front.
    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// A writer holding one complete value written elsewhere (`AnswerJSON` writes its large answers with a writer
    /// of its own, and hands them on as a `JSONWriter` like every other output).
    package init(complete bytes: [UInt8]) {
        self.bytes = bytes
        needsComma = true
    }

    /// The JSON written so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - Structure

    /// Opens an object: `{`.
    package mutating func beginObject() {
        begin(object: true)
    }

    /// Closes the innermost object: `}`.
    package mutating func endObject() {
        assert(containers.last == true && !expectsMemberValue, "endObject() without an open object, or after a key")
        end()
    }

    /// Opens an array: `[`.
    package mutating func beginArray() {
        begin(object: false)
    }

    /// Closes the innermost array: `]`.
    package mutating func endArray() {
        assert(containers.last == false, "endArray() without an open array")
        end()
    }

    /// Writes an object member's key and its `:`; the member's value comes next.
    package mutating func key(_ name: String) {
        assert(containers.last == true && !expectsMemberValue, "key(_:) outside an object, or twice in a row")
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
        expectsMemberValue = true
    }

    /// Writes an object of the members that `body` writes: `json.object { $0.member("id", 1) }`.
    package mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        beginObject()
        try body(&self)
        endObject()
    }

    /// Writes an array of the elements that `body` writes.
    package mutating func array(_ body: (inout JSONWriter) throws -> Void) rethrows {
        beginArray()
        try body(&self)
        endArray()
    }

    /// `string` as a JSON string literal, quotes included (`"a\"b\n"`): how a message quotes a value from the data,
    /// so that the message stays one line whatever the value holds.
    package static func quoted(_ string: String) -> String {
        String(decoding: quotedBytes(string), as: UTF8.self)
    }

    /// `string` as a JSON string literal's bytes, quotes included.
    package static func quotedBytes(_ string: String) -> [UInt8] {
        var writer = JSONWriter(capacity: string.utf8.count + 2)
        writer.value(string)
        return writer.bytes
    }

    // MARK: - Values

    /// Writes a string, escaped.
    package mutating func value(_ string: String) {
        startValue()
        appendString(string)
        needsComma = true
    }

    /// Writes an integer.
    package mutating func value(_ integer: Int) {
        startValue()
        appendInteger(integer)
        needsComma = true
    }

    /// Writes a number in its shortest form that reads back as the same `Double`: `5.0` as `5`, `4.5` as `4.5`,
    /// `1e-7` as `1e-07`. JSON has no infinity or NaN: those are written as `null`, as JavaScript does.
    package mutating func value(_ double: Double) {
        startValue()
        if !double.isFinite {
            appendASCII("null")
        } else if double.rounded(.towardZero) == double && double.magnitude < 0x1p53 {
            // Integral and exact as an `Int`: write the digits, without the `.0` of `description`.
            appendInteger(Int(double))
        } else {
            // `description` gives the shortest round-trip digits, but keeps a `.0` on integral values up to 1e16.
            let text = double.description
            appendASCII(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
        }
        needsComma = true
    }

    /// Writes `true` or `false`.
    package mutating func value(_ bool: Bool) {
        startValue()
        appendASCII(bool ? "true" : "false")
        needsComma = true
    }

    /// Writes an array of strings.
    package mutating func value(_ strings: [String]) {
        beginArray()
        for string in strings { value(string) }
        endArray()
    }

    /// Writes `null`.
    package mutating func null() {
        startValue()
        appendASCII("null")
        needsComma = true
    }

    /// Writes a parsed document back, compactly; numbers keep their literal.
    mutating func value(_ json: JSONValue) {
        switch json {
        case .null: null()
        case .bool(let bool): value(bool)
        case .number(let number):
            startValue()
            appendASCII(number.text)
            needsComma = true
        case .string(let string): value(string)
        case .array(let elements):
            beginArray()
            for element in elements { value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for (key, member) in object.members {
                self.key(key)
                value(member)
            }
            endObject()
        }
    }

    // MARK: - Members

    /// A type with one JSON form, written by the `value(_:)` of its type: `String`, `Int`, `Double`, `Bool` and
    /// `[String]`. It lets one `member(_:_:)` serve them all.
    package protocol Writable {
        /// Writes `self` as one JSON value.
        func appendJSON(to json: inout JSONWriter)
    }

    /// Writes a member: its key, then its value as `value(_:)` writes it (`json.member("total", 30)`).
    package mutating func member(_ key: String, _ value: some Writable) {
        self.key(key)
        value.appendJSON(to: &self)
    }

    /// Writes members that another writer rendered (the bytes between an object's braces, `"id":1,"title":"…"`) into
    /// the object open here, after the members written so far: for members rendered once and written into many
    /// answers (`MovieJSON.leadingMembers`).
    package mutating func rawMembers(_ members: [UInt8]) {
        assert(containers.last == true && !expectsMemberValue, "rawMembers(_:) outside an object, or after a key")
        guard !members.isEmpty else { return }
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: members)
        needsComma = true
    }

    // MARK: - Formatting

    /// The comma before a value that follows a sibling, and the debug check that a value may come here.
    private mutating func startValue() {
        assert(containers.last != true || expectsMemberValue, "a value in an object needs a key(_:) first")
        assert(!containers.isEmpty || bytes.isEmpty, "a second top-level value")
        if needsComma && !expectsMemberValue { bytes.append(UInt8(ascii: ",")) }
        expectsMemberValue = false
    }

    /// `{` or `[`, as a value in its place.
    private mutating func begin(object: Bool) {
        startValue()
        bytes.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        containers.append(object)
        needsComma = false
    }

    /// `}` or `]`, whichever closes the innermost container (which the caller has checked in debug builds).
    private mutating func end() {
        bytes.append(containers.removeLast() ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        needsComma = true
    }

    private mutating func appendASCII(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func appendInteger(_ integer: Int) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        // 20 digits hold UInt64.max; digits are produced last to first.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            bytes.append(contentsOf: digits[start...])
        }
    }

    private mutating func appendString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            // Copy runs of bytes that need no escape in one go, as buffers (a memcpy), not as slices.
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            // Only control characters get here: `\u00` and two hexadecimal digits, the first 0 or 1.
            let low = byte & 0xF
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      UInt8(ascii: "0") + (byte >> 4),
                                      low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10])
        }
    }
}

extension String: JSONWriter.Writable {
    package func appendJSON(to json: inout JSONWriter) { json.value(self) }
}

extension Int: JSONWriter.Writable {
    package func appendJSON(to json: inout JSONWriter) { json.value(self) }
}

extension Double: JSONWriter.Writable {
    package func appendJSON(to json: inout JSONWriter) { json.value(self) }
}

extension Bool: JSONWriter.Writable {
    package func appendJSON(to json: inout JSONWriter) { json.value(self) }
}

extension Array: JSONWriter.Writable where Element == String {
    package func appendJSON(to json: inout JSONWriter) { json.value(self) }
}
