// Describing: a value as an error message shows it.
extension JSONReader {
    /// A value as a message shows it: `a string "2010"`, `2010.5`, `true`, `null`, `an array`, `an object`.
    /// Long strings and literals are cut, so that a message stays one line.
    package func describe(_ token: JSONToken) -> String {
        switch token {
        case .string(let string):
            var writer = JSONWriter()
            writer.value(Self.shortened(self.string(string)))
            return "a string " + writer.text
        case .number(let number): return Self.describe(numberLiteral: literal(number))
        case .bool(let bool): return bool ? "true" : "false"
        case .null: return "null"
        case .beginArray: return "an array"
        case .beginObject: return "an object"
        case .endArray, .endObject, .key, .end: return "nothing"  // Never a value; `JSONReader` sees to that.
        }
    }

    /// A number's literal as a message shows it: `2010.5`, cut as `describe(_:)` cuts it.
    package static func describe(numberLiteral literal: UnsafeBufferPointer<UInt8>) -> String {
        shortened(String(decoding: literal, as: UTF8.self))
    }

    private static func shortened(_ text: String, to limit: Int = 40) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
