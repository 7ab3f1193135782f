/// The members of a JSON object, in document order.
///
/// ```swift
/// if case .object(let photo) = value, case .string(let id)? = photo["id"] { ... }
/// ```
///
/// Duplicate keys are kept (RFC 8259 allows them, `members` shows them all); the subscript returns the **first**
/// member with the key, so a later duplicate cannot override a value a reader has already seen. Lookup is a
/// linear scan: this type is for small documents (an API response, a settings file), not for catalogs.
package struct JSONObject: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    /// Every member, in document order, duplicates included.
    package var members: [(key: String, value: JSONValue)]

    /// An object with `members`, in that order.
    init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The value of the first member named `key`, or `nil` when there is none.
    package subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    /// The keys, in document order, duplicates included.
    package var keys: [String] { members.map(\.key) }

    /// How many members the object has, duplicates included.
    var count: Int { members.count }

    /// Equal when the members are equal in the same order: JSON gives member order no meaning, but a document
    /// model that keeps order should not call two different documents equal.
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
    }
}
