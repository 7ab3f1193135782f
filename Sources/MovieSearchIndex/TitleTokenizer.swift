import Dispatch
import MovieSearchCatalog

/// Tokenizes a catalog's titles on another thread while the catalog is read: `handler` is what
/// `CatalogOptions.titlesRead` is given, and `finish()` the terms of every title, by movie, for `CacheWriter`.
///
/// Reading a large catalog keeps one core parsing and leaves the other mostly idle (it inflates the gzip at about
/// 40 %), while the titles, tokenized afterwards, took the builder's thread beside the compressed columns' two
/// jobs on two cores. Tokenized here, a batch at a time as the builder keeps them, that work fills the idle time
/// (at 20M titles, 60 to 95 % of a core for the 21 s of reading), and the builder only places each title's terms
/// by rank (PERFORMANCE.md, "All of IMDb"). The cache is byte for byte the one the titles tokenized after the
/// reading give: a term's final number follows its bytes, whatever order its provisional one was given in.
///
///     let tokenizer = TitleTokenizer()
///     options.titlesRead = tokenizer.handler
///     let catalog = try CatalogDecoder.load(input, source: name, options: options, …)
///     try CacheWriter.write(consume catalog, to: path, titles: tokenizer.finish())
package final class TitleTokenizer: @unchecked Sendable {
    // @unchecked: `titles` is touched only by the work items of `queue`, one at a time, and by `finish()` through
    // `queue.sync`, which waits for them all.
    private let queue = DispatchQueue(label: "moviesearch.index.titles")
    private var titles = TokenizedTitles()

    package init() {}

    /// Takes a batch of titles (the next ones, in order) to tokenize on the tokenizer's thread; returns at once.
    package var handler: @Sendable (TextColumn) -> Void {
        { [self] batch in queue.async { self.titles.append(batch) } }
    }

    /// Every title's terms, once the batches handed over so far are tokenized (waiting for them).
    package func finish() -> TokenizedTitles {
        queue.sync {
            let finished = titles.finished()
            titles = TokenizedTitles()
            return finished
        }
    }
}
