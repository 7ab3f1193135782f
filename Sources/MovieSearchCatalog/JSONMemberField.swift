import MovieSearchJSON

/// The members of a movie object that a JSON catalog reader reads (`MovieSearchJSONReader`, `TMDbReader`), each
/// named once, by `key`: the reader finds a member's field from its key token, and errors show that same name.
protocol JSONMemberField: CaseIterable {
    /// The member's name, as the catalog writes it.
    var key: StaticString { get }
}

extension JSONMemberField {
    /// The member's name, as errors show it.
    var name: String { "\(key)" }

    /// The field whose key `token` is, compared in place (no string is made); `nil` for a member not read.
    init?(key token: JSONToken.StringToken, in json: JSONReader) {
        for field in Self.allCases where json.string(token, equals: field.key) {
            self = field
            return
        }
        return nil
    }
}
