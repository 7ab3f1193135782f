import MovieSearch
@testable import MovieSearchCatalog
import TestSupport
import XCTest

/// Splitting records and fields: the quoting rules at their edges, line numbers, and the same answer whatever the
/// sizes of the reads.
final class DelimitedRecordReaderTests: XCTestCase {
    /// Every record of `text` as its fields' texts and the line it starts on, read `step` bytes at a time.
    private func records(_ text: String, quoting: Bool = true, separator: Character = ",", step: Int = 1 << 20)
        throws -> [(fields: [String], line: Int)] {
        let separatorByte = try XCTUnwrap(separator.asciiValue, "the separator must be ASCII")
        var reader = DelimitedRecordReader(source: "t", separator: separatorByte, quoting: quoting)
        var input = TrickleByteSource(text, step: step)
        var found: [(fields: [String], line: Int)] = []
        while try reader.next(from: &input) {
            found.append(((0..<reader.fieldCount).map { String(decoding: reader.field($0), as: UTF8.self) },
                          reader.line))
        }
        return found
    }

    func testQuotesOnlyQuoteAtTheStartOfAField() throws {
        let text = "a\"b,\"c\"d,\"e\"\"f\",\"\",\"\"\"\"\n"
        for step in [1, 2, 1 << 20] {
            let found = try records(text, step: step)
            XCTAssertEqual(found.map(\.fields), [[#"a"b"#, "cd", #"e"f"#, "", #"""#]], "step \(step)")
        }
    }

    func testLinesCountQuotedBreaksAndSkippedEmptyLines() throws {
        let text = "h1,h2\r\n\r\n\"x\ny\",1\n\nlast,2"
        for step in [1, 3, 1 << 20] {
            let found = try records(text, step: step)
            XCTAssertEqual(found.map(\.fields), [["h1", "h2"], ["x\ny", "1"], ["last", "2"]], "step \(step)")
            XCTAssertEqual(found.map(\.line), [1, 3, 6], "step \(step)")
        }
    }

    func testTabSeparatedKeepsQuotesAsCharacters() throws {
        let found = try records("\"a\tb\"\t\"\"\n", quoting: false, separator: "\t")
        XCTAssertEqual(found.map(\.fields), [["\"a", "b\"", "\"\""]])
    }

    func testAQuotedFieldPastTheSixtyFourth() throws {
        var fields = (0..<70).map { "f\($0)" }
        fields[66] = "\"g, \"\"h\"\"\""
        let found = try records(fields.joined(separator: ",") + "\n")
        XCTAssertEqual(found.first?.fields.count, 70)
        XCTAssertEqual(found.first?.fields[66], #"g, "h""#)
        XCTAssertEqual(found.first?.fields[69], "f69")
    }

    func testAByteOrderMarkOnlyAtTheStart() throws {
        let found = try records("\u{FEFF}a\n\u{FEFF}b\n")
        XCTAssertEqual(found.map(\.fields), [["a"], ["\u{FEFF}b"]])
    }

    /// Random text of the characters that matter (quotes, separators, CR, LF, `\\N`) read whole and read in pieces
    /// of 1 to 7 bytes: the same records and lines, or the same error, every time; never a trap or a hang.
    func testRandomTextSplitsTheSameWhateverTheReads() throws {
        var random = SplitMix64(seed: 11)
        let alphabet: [Character] = ["\"", ",", "\t", "\n", "\r", "a", "b", "\\", "N", " ", "é"]
        var outcomes = (records: 0, errors: 0)
        for round in 0..<300 {
            let text = String((0..<Int.random(in: 0...60, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            for quoting in [true, false] {
                let separator: Character = quoting ? "," : "\t"
                let whole = Result { try records(text, quoting: quoting, separator: separator) }
                let step = 1 + round % 7
                let pieces = Result { try records(text, quoting: quoting, separator: separator, step: step) }
                switch (whole, pieces) {
                case let (.success(a), .success(b)):
                    outcomes.records += a.count
                    XCTAssertEqual(a.map(\.fields), b.map(\.fields), "\(text.debugDescription) step \(step)")
                    XCTAssertEqual(a.map(\.line), b.map(\.line), "\(text.debugDescription) step \(step)")
                case let (.failure(a), .failure(b)):
                    outcomes.errors += 1
                    XCTAssertEqual(a as? CatalogError, b as? CatalogError, text.debugDescription)
                default:
                    XCTFail("\(text.debugDescription) step \(step): \(whole) vs \(pieces)")
                }
            }
        }
        // Both kinds of outcome were seen: the comparisons above were not all of empty inputs.
        XCTAssertGreaterThan(outcomes.records, 300)
        XCTAssertGreaterThan(outcomes.errors, 20)
    }
}
