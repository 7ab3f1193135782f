/// Parses a whole JSON document (RFC 8259, strictly: see `JSONReader`) into a `JSONValue` tree.
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"stat":"ok"}"#.utf8))
/// ```
///
/// Meant for small documents: a tree costs an allocation per string, array and object. A catalog is decoded
/// by `CatalogDecoder`, which reads the same tokens straight into movies.
package enum JSONParser {
    /// The document in `bytes`, which must hold exactly one JSON value (white space around it allowed).
    /// Throws `JSONSyntaxError` with the line, column and byte offset of the first error.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> JSONValue in
            var reader = JSONReader(bytes: buffer)
            return try parse(&reader)
        }
    }

    /// The document in `text`'s UTF-8.
    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Builds the tree without recursion: values wait on one flat stack, and a closing bracket gathers its
    /// container's elements from the top of it. Keys wait on their own stack, one per object member.
    private static func parse(_ reader: inout JSONReader) throws(JSONSyntaxError) -> JSONValue {
        var values: [JSONValue] = []
        var keys: [String] = []
        // Where each open container's elements (and, for an object, its keys) begin on those stacks.
        var openings: [(values: Int, keys: Int)] = []
        while true {
            let value: JSONValue
            switch try reader.next() {
            case .beginArray, .beginObject:
                openings.append((values.count, keys.count))
                continue
            case .key(let key):
                keys.append(reader.string(key))
                continue
            case .endArray:
                let start = openings.removeLast().values
                value = .array(Array(values[start...]))
                values.removeSubrange(start...)
            case .endObject:
                let start = openings.removeLast()
                let members = zip(keys[start.keys...], values[start.values...]).map { (key: $0, value: $1) }
                value = .object(JSONObject(members))
                values.removeSubrange(start.values...)
                keys.removeSubrange(start.keys...)
            case .string(let token): value = .string(reader.string(token))
            case .number(let token): value = .number(reader.number(token))
            case .bool(let bool): value = .bool(bool)
            case .null: value = .null
            case .end:
                // The reader returns `.end` only after a complete top-level value.
                return values.removeLast()
            }
            values.append(value)
        }
    }
}
