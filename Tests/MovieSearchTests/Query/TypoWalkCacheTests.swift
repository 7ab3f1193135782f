import Foundation
import MovieSearch
@testable import MovieSearchQuery
import XCTest

/// `TypoWalkCache` keeps the walks of the most recently used words: a stored word's walk is returned without
/// walking again, a full cache drops the least recently used word (a look-up counts as a use), and a walk that
/// throws stores nothing.
final class TypoWalkCacheTests: XCTestCase {
    private func word(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A walk that names its word: the term range's lower bound is the word's length, its distance its first byte.
    private func walk(_ text: String) -> TypoWalkCache.Walk { [(text.utf8.count..<(text.utf8.count + 1), Int(text.utf8.first ?? 0))] }

    private func same(_ a: TypoWalkCache.Walk, _ b: TypoWalkCache.Walk) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.terms == $1.terms && $0.distance == $1.distance }
    }

    func testAStoredWordIsNotWalkedAgain() {
        let cache = TypoWalkCache(capacity: 4)
        var walks = 0
        for text in ["darkenss", "godfahter", "darkenss", "darkenss", "godfahter"] {
            let found = cache.walk(for: word(text)) { () -> TypoWalkCache.Walk in
                walks += 1
                return walk(text)
            }
            XCTAssertTrue(same(found, walk(text)), text)
        }
        XCTAssertEqual(walks, 2, "one walk per distinct word")
        XCTAssertEqual(cache.keys, [word("darkenss"), word("godfahter")])
    }

    func testAFullCacheDropsTheLeastRecentlyUsedWord() {
        let cache = TypoWalkCache(capacity: 3)
        var walked: [String] = []
        func look(_ text: String) {
            let found = cache.walk(for: word(text)) { () -> TypoWalkCache.Walk in
                walked.append(text)
                return walk(text)
            }
            XCTAssertTrue(same(found, walk(text)), text)
        }
        for text in ["alpha", "bravo", "charlie"] { look(text) }
        look("alpha")  // now the most recently used: bravo is the oldest
        look("delta")  // drops bravo
        XCTAssertEqual(cache.keys, [word("charlie"), word("alpha"), word("delta")])
        look("alpha")
        look("charlie")
        XCTAssertEqual(walked, ["alpha", "bravo", "charlie", "delta"], "alpha and charlie were kept")
        look("bravo")  // walked again, and drops delta, now the oldest
        XCTAssertEqual(walked.last, "bravo")
        XCTAssertEqual(cache.keys, [word("alpha"), word("charlie"), word("bravo")])
    }

    /// Words that differ in a byte, in length, or only in order are different keys, even where a digest of their
    /// bytes could meet.
    func testWordsOfOtherBytesAreOtherEntries() {
        let texts = ["", "a", "b", "ab", "ba", "abc", "abd", "caf\u{E9}", "cafe\u{301}"]
        let cache = TypoWalkCache(capacity: texts.count)
        for text in texts { _ = cache.walk(for: word(text)) { walk(text) } }
        for text in texts {
            let found = cache.walk(for: word(text)) { () -> TypoWalkCache.Walk in
                XCTFail("\(text) walked twice")
                return []
            }
            XCTAssertTrue(same(found, walk(text)), text)
        }
    }

    func testAWalkThatThrowsStoresNothing() {
        struct Failure: Error {}
        let cache = TypoWalkCache(capacity: 2)
        XCTAssertThrowsError(try cache.walk(for: word("darkenss")) { () throws(Failure) -> TypoWalkCache.Walk in
            throw Failure()
        })
        XCTAssertEqual(cache.keys, [])
        var walks = 0
        _ = cache.walk(for: word("darkenss")) { () -> TypoWalkCache.Walk in
            walks += 1
            return walk("darkenss")
        }
        XCTAssertEqual(walks, 1)
    }

    /// Threads that miss one word at once all walk it, but the first walk stored is the one every thread gets,
    /// and the word is stored once: each walk waits until all threads have missed, then names its thread.
    func testThreadsThatMissOneWordAtOnceAllGetTheFirstWalkStored() {
        final class Shared: @unchecked Sendable {
            let condition = NSCondition()
            var waiting = 0
            var results: [TypoWalkCache.Walk]
            init(_ threads: Int) { results = Array(repeating: [], count: threads) }
        }
        let cache = TypoWalkCache(capacity: 4)
        let threads = 6
        let shared = Shared(threads)
        let key = word("darkenss")
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                let found = cache.walk(for: key) { () -> TypoWalkCache.Walk in
                    shared.condition.lock()
                    shared.waiting += 1
                    shared.condition.broadcast()
                    let deadline = Date().addingTimeInterval(10)
                    while shared.waiting < threads, shared.condition.wait(until: deadline) {}
                    shared.condition.unlock()
                    return [(thread..<(thread + 1), 1)]
                }
                shared.condition.lock()
                shared.results[thread] = found
                shared.condition.unlock()
                done.leave()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(shared.waiting, threads, "every thread missed")
        XCTAssertEqual(cache.keys, [key], "stored once")
        let first = shared.results[0]
        XCTAssertTrue(shared.results.allSatisfy { $0.count == 1 && $0[0].terms == first[0].terms }, "one walk for all: \(shared.results)")
    }
}
