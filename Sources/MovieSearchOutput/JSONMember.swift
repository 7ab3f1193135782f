/// A member of a JSON object the tool prints, declared beside the code that writes it: its name, a note for the
/// help on what its value is, and whether it is left out when the data has no value for it. The `--json` flags'
/// help lists these declarations (`helpList`), and tests check the writers against them, so that the help and the
/// output cannot drift apart.
package struct JSONMember: Sendable, Equatable {
    /// The key, as written.
    package var name: String
    /// What the value is, for the help (`null when unrated`); nil when the name says it.
    package var note: String?
    /// Whether the member is written only when the data has it (`overview`: only when the catalog gave one).
    package var isOptional: Bool

    package init(_ name: String, _ note: String? = nil, optional: Bool = false) {
        self.name = name
        self.note = note
        self.isOptional = optional
    }
}

extension [JSONMember] {
    /// The names in order, each with its note: `id, title, rating (null when unrated), then, only when the catalog
    /// gave them, overview and poster, then favorite`.
    package var helpList: String { helpList(optionalWhen: "the catalog gave them") }

    /// `helpList` with its own words for when the optional members are there (`the file kept them`).
    package func helpList(optionalWhen condition: String) -> String {
        var text = ""
        var index = startIndex
        while index < endIndex {
            let optional = self[index].isOptional
            var end = index
            while end < endIndex, self[end].isOptional == optional { end += 1 }
            let names = self[index..<end].map { member in member.note.map { "\(member.name) (\($0))" } ?? member.name }
            if index > startIndex { text += optional ? ", then, " : ", then " }
            text += optional ? "only when \(condition), " + Self.joinedWithAnd(names) : names.joined(separator: ", ")
            index = end
        }
        return text
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func joinedWithAnd(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
