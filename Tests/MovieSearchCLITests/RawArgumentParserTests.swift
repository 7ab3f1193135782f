@testable import MovieSearchCLI
@testable import MovieSearchCommandLine
import MovieSearch
import XCTest

/// The parser on words that are not valid UTF-8: path values keep their bytes in every form of a value, and
/// messages show those bytes escaped.
final class RawArgumentParserTests: XCTestCase {
    private static let catalog = Argument<FilePath>("catalog", help: "A path.")
    private static let output = Option<FilePath>("output", short: "o", valueName: "file", help: "Where.")
    private static let count = Option<Int>("count", valueName: "N", help: "How many.")

    private let parser = ArgumentParser([catalog.definition, output.definition, count.definition])
    private let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".json".utf8)
    private let output: [UInt8] = Array("out".utf8) + [0xE9, 0xFF]

    private func word(_ bytes: [UInt8]) -> ArgumentWord { ArgumentWord(bytes: bytes) }
    private func word(_ text: String) -> ArgumentWord { ArgumentWord(text) }

    func testPathsKeepTheirBytesInEveryForm() throws {
        let forms: [[ArgumentWord]] = [
            [word(latin1), word("--output"), word(output)],
            [word(latin1), word(Array("--output=".utf8) + output)],
            [word("-o"), word(output), word(latin1)],
            [word(latin1), word(Array("-o".utf8) + output)],
        ]
        for words in forms {
            let parsed = try parser.parse(words)
            XCTAssertEqual(parsed[Self.catalog]?.bytes, latin1, "\(words)")
            XCTAssertEqual(parsed[Self.output]?.bytes, output, "\(words)")
        }
    }

    func testMessagesShowBytesEscaped() {
        XCTAssertThrowsError(try parser.parse([word(latin1), word(Array("--count=".utf8) + [0xE9])])) { error in
            XCTAssertEqual(error as? UsageError,
                           UsageError(#"invalid value '\xE9' for '--count <N>': expected a whole number"#))
        }
        XCTAssertThrowsError(try parser.parse([word(latin1), word(output)])) { error in
            XCTAssertEqual(error as? UsageError, UsageError(#"unexpected argument 'out\xE9\xFF'"#))
        }
    }

    func testAnEmptyPathIsRefused() {
        for words in [[word(""), word("-o"), word("x")], [word("a"), word("--output=")], [word("a"), word("-o"), word("")]] {
            XCTAssertThrowsError(try parser.parse(words)) { error in
                XCTAssertTrue((error as? UsageError)?.message.hasSuffix("expected a file path (not empty)") == true,
                              "\(error)")
            }
        }
    }
}
