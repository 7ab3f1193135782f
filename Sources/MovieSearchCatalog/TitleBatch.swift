/// The titles of consecutive movies of a catalog being read, handed over as they are kept
/// (`CatalogOptions.titlesRead`): an indexer tokenizes them on another core while the reader goes on, instead of
/// after the whole catalog is read. Title `i` of the batch is `bytes[ends[i − 1] ..< ends[i]]` (from 0 for the first),
/// UTF-8 as the catalog's `TextColumn` holds it.
package struct TitleBatch: Sendable {
    /// The titles' bytes, end to end.
    package let bytes: [UInt8]
    /// Where each title ends in `bytes`.
    package let ends: [Int]

    /// The number of titles.
    package var count: Int { ends.count }

    /// The byte range of title `index`.
    package func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }
}
