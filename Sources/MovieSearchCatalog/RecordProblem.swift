/// Why a record is invalid, before `CatalogBuilder.reject(_:)` numbers, locates and words it as a
/// `CatalogError.invalidMovie`: found by the record's reader (a value of the wrong kind, a field missing, text that
/// is not UTF-8) or by `RecordChecks` (a blank title, a year a cache cannot store, a rating that is not finite).
struct RecordProblem: Error, Equatable {
    /// The field at fault, as the format names it (`title`, `release_date`, `primaryTitle`, a CSV column), or the
    /// record as a whole (`movie` in JSON, `row` in TSV and CSV).
    var field: String
    /// What is wrong, naming the field: `year must be an integer, got a string "2010"`.
    var reason: String
    /// Where: in a JSON document the byte offset of the value at fault (of the record, for a missing field); in TSV
    /// and CSV the line the row starts on, the header being line 1.
    var place: Int
}
