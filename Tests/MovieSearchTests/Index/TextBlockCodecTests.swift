import Dispatch
import Synchronization
import TestSupport
@_spi(Engine) @testable import MovieSearchIndex
import XCTest

/// `TextBlockCodec.inflate`, which reuses one zlib stream from block to block: a block inflates to the same bytes
/// whatever the stream inflated before it (a damaged block, another dictionary, none), and threads that inflate at
/// once each get a stream of their own while one holds the kept stream.
final class TextBlockCodecTests: XCTestCase {
    /// Blocks of words deflated with `dictionary` (or none), with their texts.
    private func blocks(count: Int, dictionary: [UInt8], seed: Int) throws -> [(deflated: [UInt8], text: [UInt8])] {
        let words = ["the", "night", "of", "dark", "return", "king", "love", "star", "war", "city", "lost", "man"]
        var generator = SplitMix64(seed: UInt64(seed))
        return try (0..<count).map { _ in
            var text: [UInt8] = []
            for _ in 0..<(20 + Int(generator.next() % 200)) {
                text += Array(words[Int(generator.next() % UInt64(words.count))].utf8) + [0x20]
            }
            let deflater = try XCTUnwrap(TextBlockCodec.Deflater(dictionary: dictionary))
            return (try XCTUnwrap(deflater.deflate(text)), text)
        }
    }

    private static func inflate(_ block: [UInt8], dictionary: [UInt8], length: Int) -> [UInt8]? {
        block.withUnsafeBytes { input in
            dictionary.withUnsafeBytes { preset in
                TextBlockCodec.inflate(input, dictionary: preset, length: length)
            }
        }
    }

    func testBlocksInflateTheSameAfterDamagedOnesAndOtherDictionaries() throws {
        let dictionary = Array("the night of the dark king returns to the lost city ".utf8)
        let withDictionary = try blocks(count: 6, dictionary: dictionary, seed: 1)
        let without = try blocks(count: 6, dictionary: [], seed: 2)
        for round in 0..<3 {
            for index in 0..<6 {
                let coded = withDictionary[index], plain = without[index]
                XCTAssertEqual(Self.inflate(coded.deflated, dictionary: dictionary, length: coded.text.count), coded.text,
                               "round \(round), block \(index) with the dictionary")
                // A stream cut short, one with a flipped byte, and one read without its dictionary all fail, and
                // leave the kept stream fit for the next block.
                XCTAssertNil(Self.inflate(Array(coded.deflated.prefix(coded.deflated.count / 2)), dictionary: dictionary,
                                     length: coded.text.count))
                var flipped = coded.deflated
                flipped[flipped.count / 3] ^= 0x5A
                XCTAssertNotEqual(Self.inflate(flipped, dictionary: dictionary, length: coded.text.count), coded.text)
                XCTAssertNotEqual(Self.inflate(coded.deflated, dictionary: [], length: coded.text.count), coded.text)
                XCTAssertEqual(Self.inflate(plain.deflated, dictionary: [], length: plain.text.count), plain.text,
                               "round \(round), block \(index) without a dictionary")
                // The wrong length is refused, however well the stream inflates.
                XCTAssertNil(Self.inflate(plain.deflated, dictionary: [], length: plain.text.count - 1))
                XCTAssertNil(Self.inflate(plain.deflated, dictionary: [], length: plain.text.count + 1))
            }
        }
    }

    func testThreadsInflatingAtOnceEachGetTheirBlocks() throws {
        let dictionary = Array("a love story of the star war in the city of man ".utf8)
        let coded = try blocks(count: 16, dictionary: dictionary, seed: 3)
        let threads = 8, rounds = 200
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                let block = coded[(thread * 7 + round) % coded.count]
                if Self.inflate(block.deflated, dictionary: dictionary, length: block.text.count) != block.text {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        XCTAssertEqual(failures.load(ordering: .relaxed), 0, "blocks inflated to other bytes while threads shared the codec")
    }
}
