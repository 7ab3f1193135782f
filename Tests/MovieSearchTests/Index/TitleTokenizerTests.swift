import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchIndex
@testable import MovieSearchInput
import Synchronization
import TestSupport
import XCTest

/// Titles tokenized while a catalog is read (`CatalogOptions.titlesRead`, `TitleTokenizer`): every title handed
/// over once, in order, and the cache the same, byte for byte, as when the builder tokenizes them itself (the
/// committed sample cache, `SampleCacheTests`, anchors that path to the files earlier versions wrote).
final class TitleTokenizerTests: XCTestCase {
    /// A CSV catalog of `count` movies whose ratings put them in another order than their ids, with words shared
    /// between titles, repeated within one, joined (`Spider-Man`), accented and with apostrophes.
    private func csv(count: Int, words: [String] = TitleTokenizerTests.words) -> [UInt8] {
        var text = "title,year,rating\n"
        for index in 0..<count {
            let title = [words[index % words.count], words[index / words.count % words.count],
                         words[index % 7 % words.count], String(index % 13)].joined(separator: " ")
            text += "\"\(title)\",\(1950 + index % 70),\(Double(index * 37 % 100) / 10)\n"
        }
        return Array(text.utf8)
    }

    private static let words = ["Dark", "night", "Knight", "star", "Wars", "l'amour", "Spider-Man", "été", "the",
                                "of", "Æon", "x"]

    /// The catalog of `bytes` (CSV), and its titles as a tokenizer took them while it was read.
    private func read(_ bytes: [UInt8]) throws -> (Catalog, TokenizedTitles) {
        let tokenizer = TitleTokenizer()
        var options = CatalogOptions(format: .csv)
        options.titlesRead = tokenizer.handler
        let catalog = try CatalogDecoder.load(CatalogInput(bytes: bytes), source: "c.csv", options: options)
        return (catalog, tokenizer.finish())
    }

    func testTheBuilderHandsOverEveryTitleOnceInOrder() throws {
        // Two full batches and a part of one.
        let count = 2 * CatalogBuilder.titleBatchSize + 1_000
        let batches = Mutex<[TextColumn]>([])
        var options = CatalogOptions(format: .csv)
        options.titlesRead = { batch in batches.withLock { $0.append(batch) } }
        let catalog = try CatalogDecoder.load(CatalogInput(bytes: csv(count: count)), source: "c.csv",
                                              options: options)
        let handed = batches.withLock { $0 }
        XCTAssertEqual(handed.map(\.count), [CatalogBuilder.titleBatchSize, CatalogBuilder.titleBatchSize, 1_000])
        let titles = handed.flatMap { batch in
            (0..<batch.count).map { batch[$0] }
        }
        XCTAssertEqual(titles, (0..<catalog.movieCount).map { catalog.columns.titles[$0] })
    }

    func testTitlesTokenizedAsReadGiveTheSameCache() throws {
        for count in [1, 40, CatalogBuilder.titleBatchSize + 500] {
            let (catalog, titles) = try read(csv(count: count))
            XCTAssertEqual(titles.count, count)
            let tokenizedAsRead = try CacheWriter.encodeWithStatistics(catalog, titles: titles).bytes
            XCTAssertEqual(tokenizedAsRead, try CacheWriter.encode(catalog), "\(count) movies")
        }
    }

    func testTheTitlesGivenAreTheOnesIndexed() throws {
        // Another catalog's titles, as many: the cache is built from them, so a search finds their words. (The
        // caller hands over the titles of the catalog it writes; this shows they are not tokenized again.)
        let (catalog, _) = try read(csv(count: 300))
        let (_, others) = try read(csv(count: 300, words: ["zebra", "quokka", "narwhal"]))
        let bytes = try CacheWriter.encodeWithStatistics(catalog, titles: others).bytes
        let index = try MovieIndex(bytes: bytes, self)
        XCTAssertGreaterThan(try index.search("quokka", typos: .off).total, 0)
        XCTAssertEqual(try index.search("knight", typos: .off).total, 0)
    }

    func testTitlesThatDoNotFitAreTokenizedAgain() throws {
        let (catalog, titles) = try read(csv(count: 300))
        // Fewer titles than movies: left aside.
        let (_, fewer) = try read(csv(count: 299))
        XCTAssertEqual(try CacheWriter.encodeWithStatistics(catalog, titles: fewer).bytes,
                       try CacheWriter.encode(catalog))
        // A catalog whose ids do not ascend as its movies come (built in memory): titles by movie are not by slot.
        let reordered = Catalog(movies: catalog.movies.reversed())
        XCTAssertEqual(try CacheWriter.encodeWithStatistics(reordered, titles: titles).bytes,
                       try CacheWriter.encode(reordered))
        XCTAssertEqual(try CacheWriter.encode(reordered), try CacheWriter.encode(catalog))
    }
}
