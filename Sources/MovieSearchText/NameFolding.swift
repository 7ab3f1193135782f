/// The folded form of a genre or cast name, as SEARCH-SPEC "Filters and facets" compares them: steps 1–4 of
/// "Tokens" on the whole name (NFKD without nonspacing marks, full case folding, NFKD again, apostrophes deleted),
/// then every run of white space made one space and the ends trimmed.
///
///     NameFolding.fold("  science   FICTION ")   // "science fiction"
///     NameFolding.fold("Sci-Fi")                 // "sci-fi", not "sci fi": punctuation stays
///
/// Unlike a title, a name is not cut into tokens: two names are the same filter value exactly when their folded
/// forms are equal.
public enum NameFolding {
    /// `name` folded.
    public static func fold(_ name: String) -> String {
        var sink = NameSink()
        var folding = TextFolding()
        for scalar in name.unicodeScalars { folding.append(scalar.value, to: &sink) }
        folding.finish(to: &sink)
        return String(String.UnicodeScalarView(sink.scalars))
    }

    /// Collects the folded scalars, less apostrophes, with white space collapsed and trimmed.
    private struct NameSink: FoldedScalarSink {
        var scalars: [Unicode.Scalar] = []
        /// White space seen since the last other scalar, to be written as one space before the next.
        var pendingSpace = false

        mutating func accept(_ scalar: UInt32, word: UInt32) {
            if UnicodeProperties.scalarClass(of: word) == .apostrophe { return }
            guard let value = Unicode.Scalar(scalar) else { return }
            if value.properties.isWhitespace {
                pendingSpace = !scalars.isEmpty
                return
            }
            if pendingSpace { scalars.append(" ") }
            pendingSpace = false
            scalars.append(value)
        }
    }
}
