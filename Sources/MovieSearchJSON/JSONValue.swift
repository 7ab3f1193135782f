/// A parsed JSON document, for small documents such as an API response (`JSONParser.parse`).
///
/// ```swift
/// let response = try JSONParser.parse(bytes)
/// let photos = response["photos"]?["photo"]?.arrayValue ?? []
/// ```
///
/// Numbers keep their literal (`JSONNumber`): the caller decides whether it needs an `Int` or a `Double`.
///
/// The JSON types are internal: the library's interface speaks of movies, and a general JSON library is not
/// something it should promise to keep stable. `JSONWriter`, which the command line needs, has package access.
package enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its literal.
    case number(JSONNumber)
    /// A string, escapes resolved.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object, members in document order.
    case object(JSONObject)

    /// For an object, the value of its first member named `key`; `nil` for a missing member or for any other
    /// kind of value, so that lookups chain: `value["photos"]?["photo"]`.
    package subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, if this is a string.
    package var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, if this is a number.
    var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The Boolean, if this is `true` or `false`.
    var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements, if this is an array.
    var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The members, if this is an object.
    var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Whether this is `null`.
    var isNull: Bool { self == .null }

    /// The kind of value, with an article, for messages: "a string", "an array", "null".
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

// Literals, so that tests and callers can write expected documents as Swift.
extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    package init(nilLiteral: ()) { self = .null }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}
