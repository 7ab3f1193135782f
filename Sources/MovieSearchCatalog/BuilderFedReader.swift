import MovieSearchJSON

/// A reader of a JSON catalog (`MovieSearchJSONReader`, `TMDbReader`) that hands each movie to a `CatalogBuilder`
/// from inside its token loop. The builder may stop the read (the record limit); the loop is then left by a syntax
/// error that is not one, and the reader throws `stop` instead. This is that hand-over, written once for both.
protocol BuilderFedReader {
    /// The caller's builder, moved in for the read (swapped, not copied).
    var builder: CatalogBuilder { get set }
    /// Set when the builder stopped the read.
    var stop: CatalogError? { get set }
    /// The byte offset the reader has reached, for the syntax error that leaves the token loop.
    var readingPosition: Int { get }
    /// The members the builder checks, as its messages name them.
    static var fieldNames: CatalogRecord.FieldNames { get }
}

extension BuilderFedReader {
    /// Hands the movie just read to the builder. Leaves the read when the builder stops it.
    mutating func handOver(_ record: CatalogRecord) throws(JSONSyntaxError) {
        do {
            try builder.add(record, names: Self.fieldNames)
        } catch {
            throw stopped(by: error)
        }
    }

    /// Hands the movie just read to the builder as invalid, for `problem` (nothing when there is none). Leaves the
    /// read when the builder stops it.
    mutating func handOver(_ problem: RecordProblem?) throws(JSONSyntaxError) {
        guard let problem else { return }
        do {
            try builder.reject(problem)
        } catch {
            throw stopped(by: error)
        }
    }

    /// Keeps `error`, thrown by the builder, for the read to throw, and returns the syntax error with which the
    /// token loop is left.
    private mutating func stopped(by error: CatalogError) -> JSONSyntaxError {
        stop = error
        return JSONSyntaxError(line: 0, column: 0, offset: readingPosition, reason: "stopped: \(error)")
    }
}
