import Dispatch

/// A part of building a cache run on another core while the builder goes on, then waited for: the compressed
/// columns of titles, name lists and names (`TextColumnWriter`) and the optional fields' sections, started before the
/// terms are built, the genre sections, the coded posting lists, the second half of a large catalog's prefix sets,
/// the coded list sets, and the counts of the pairs of bitmaps and of the long lists met with them (`BMPP`, `LBPC`)
/// of the later years. Each job computes its value alone from values no one changes meanwhile, and the builder puts
/// it in its place: the file is the same whatever the timing.
final class IndexingJob<Value>: @unchecked Sendable {
    // @unchecked: `result` is written once by the job, before `group.leave()`, and read only after `group.wait()`,
    // which orders the two; `Value` is handed from the job's thread to the waiting one once, never shared.
    private let group = DispatchGroup()
    private var result: Result<Value, CacheError>?

    /// Starts `work` on another thread.
    init(_ work: @escaping @Sendable () throws(CacheError) -> Value) {
        group.enter()
        DispatchQueue.global().async { [self] in
            result = Result { () throws(CacheError) in try work() }
            group.leave()
        }
    }

    /// The job's value, once it is done (waiting for it until then), or what it threw.
    func value() throws(CacheError) -> Value {
        group.wait()
        return try result!.get()
    }
}
