@_spi(Engine) import MovieSearchText
import MovieSearchCatalog

/// The terms of a catalog's titles, by movie in the catalog's order: each title's distinct tokens as provisional ids
/// of `table` (in order of first appearance), those of movie i `terms[starts[i] ..< starts[i + 1]]`. Made a batch of
/// titles at a time, by `TitleTokenizer` while the catalog is read, or at once by `CacheSections` when it was not.
package struct TokenizedTitles: Sendable {
    private(set) var table = ByteStringTable(capacity: 1 << 16)
    private(set) var terms: [Int32] = []
    private(set) var starts: [UInt32] = [0]
    /// The last title each provisional id was listed for: a term repeated in a title is listed once, however many
    /// words the title has (a scan of the title's terms so far made a long title quadratic).
    private var lastTitle: [UInt32] = []

    /// The number of titles.
    package var count: Int { starts.count - 1 }

    /// Adds the terms of `titles`, the movies after those added so far.
    mutating func append(_ titles: TextColumn) {
        titles.bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<titles.count {
                let title = UInt32(count)
                Tokenizer.forEachToken(inUTF8: UnsafeBufferPointer(rebasing: bytes[titles.range(index)]),
                                       joiningWords: true) { token in
                    let id = table.id(of: UnsafeRawBufferPointer(token))
                    if id == lastTitle.count {
                        lastTitle.append(title)  // Ids are given in order: a new id is new to this title too.
                    } else if lastTitle[id] != title {
                        lastTitle[id] = title
                    } else {
                        return
                    }
                    terms.append(Int32(id))
                }
                starts.append(UInt32(terms.count))
            }
        }
    }

    /// The titles' terms, without the scratch space that `append(_:)` needs for more.
    consuming func finished() -> TokenizedTitles {
        lastTitle = []
        return self
    }
}
