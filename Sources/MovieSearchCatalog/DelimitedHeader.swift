/// The column names of the header row of an IMDb TSV or CSV file, looked up as a user names them: ignoring ASCII
/// case and the spaces around a name (`primaryTitle`, `PrimaryTitle ` and `primarytitle` are one column).
struct DelimitedHeader {
    /// The names as written (text that is not UTF-8 repaired).
    let names: [String]
    /// The names lowercased and trimmed, for look-ups.
    private let keys: [String]

    /// The header that `records` holds as its current record.
    init(_ records: borrowing DelimitedRecordReader) {
        names = (0..<records.fieldCount).map { String(decoding: records.field($0), as: UTF8.self) }
        keys = names.map(Self.key)
    }

    /// How many columns there are.
    var count: Int { names.count }

    /// The first column named `name`, or `nil`.
    func index(of name: String) -> Int? {
        let wanted = Self.key(name)
        return keys.firstIndex(of: wanted)
    }

    /// How many columns are named `name`.
    func count(of name: String) -> Int {
        let wanted = Self.key(name)
        return keys.count { $0 == wanted }
    }

    /// `name` lowercased (ASCII letters only), without spaces and tabs at either end.
    private static func key(_ name: String) -> String {
        let text = DelimitedField.trimmed(Substring(name))
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.isASCII && scalar.properties.isUppercase ? Unicode.Scalar(scalar.value + 0x20)! : scalar
        }))
    }
}
