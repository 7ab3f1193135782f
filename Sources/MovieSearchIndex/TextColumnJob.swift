import Dispatch

/// A compressed text column (`TextColumnWriter`) laid out on another core while the caller goes on: `CacheSections`
/// starts the titles' and the names' columns before it builds the terms, and takes them once it is done (at 10
/// million titles, about 5 s of deflating that would otherwise come on top of the rest). The sections are the same
/// whatever the timing: the job makes them alone, and the caller puts them in their place in the file.
final class TextColumnJob: @unchecked Sendable {
    // @unchecked: `result` is written once by the job, before `group.leave()`, and read only after `group.wait()`,
    // which orders the two.
    private let group = DispatchGroup()
    private var result: Result<[CacheSections.Part], CacheError>?

    /// Starts laying out `column` for `count` texts, text `i` being `text(i)` (which must be safe to call from
    /// another thread: it reads values the caller no longer changes).
    init(_ column: CacheFormat.TextColumn, count: Int, text: @escaping @Sendable (Int) -> ArraySlice<UInt8>) {
        group.enter()
        DispatchQueue.global().async { [self] in
            result = Result { () throws(CacheError) in try TextColumnWriter.parts(column, count: count, text: text) }
            group.leave()
        }
    }

    /// The column's sections, once the job is done (waiting for it until then); what it threw.
    func parts() throws(CacheError) -> [CacheSections.Part] {
        group.wait()
        return try result!.get()
    }
}
