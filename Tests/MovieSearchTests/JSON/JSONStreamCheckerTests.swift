import MovieSearch
@testable import MovieSearchJSON
import XCTest

/// `JSONStreamChecker` must flag a byte exactly when `JSONReader` would report a fault that no later byte can
/// mend, whatever the chunks the bytes come in, and the bytes up to a few past the flagged one must give the
/// same error as the whole input.
final class JSONStreamCheckerTests: XCTestCase {
    /// Documents that use every part of the grammar: nesting, escapes, every UTF-8 length, every number form.
    static let seeds: [[UInt8]] = [
        Array(#"[{"title":"Am\u00e9lie \"2\"","year":2001,"rating":8.3,"cast":["A\\B","Ж"],"genres":[]}]"#.utf8),
        Array(#"{"movies":[{"title":"€ 𝄞 é","year":-0.5e+3,"x":[true,false,null,{}]}],"n":1E2}"#.utf8),
        [0xEF, 0xBB, 0xBF] + Array(" [ 0 , -1.25 , 10e-2 , \"\\/\\b\\f\\n\\r\\t\\uD83D\" ]\r\n".utf8),
        Array("\"top\"".utf8),
        Array("123".utf8),
        Array("{ }".utf8),
    ]

    /// Bytes to put in the place of, or before, each byte of a seed: structure, number parts, escapes, and every
    /// kind of UTF-8 byte (continuation, lead of each length, bytes never in UTF-8, surrogate and overlong leads).
    static let replacements: [UInt8] = Array(#"x]}[{,:"\0.eE-+1 tfnu/"#.utf8)
        + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]

    /// Every seed with one byte replaced, one byte inserted, or cut short: thousands of inputs, valid and not.
    static func variants() -> [[UInt8]] {
        var result: [[UInt8]] = []
        for seed in seeds {
            result.append(seed)
            for index in seed.indices {
                result.append(Array(seed[..<index]))
                for byte in replacements {
                    var replaced = seed
                    replaced[index] = byte
                    result.append(replaced)
                    var inserted = seed
                    inserted.insert(byte, at: index)
                    result.append(inserted)
                }
            }
        }
        return result
    }

    /// The checker's verdict on `bytes` fed in chunks of `chunkSize`.
    static func check(_ bytes: [UInt8], chunkSize: Int) -> Int? {
        var checker = JSONStreamChecker()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            let verdict = bytes.withUnsafeBufferPointer { checker.feed(UnsafeBufferPointer(rebasing: $0[start..<end])) }
            if let verdict { return verdict }
            start = end
        }
        return nil
    }

    static func parseError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    func testAgreesWithTheReaderOnEveryVariant() {
        var flagged = 0
        for input in Self.variants() {
            let verdict = Self.check(input, chunkSize: input.count + 1)
            let whole = Self.parseError(input)
            if let verdict {
                flagged += 1
                guard let whole else {
                    XCTFail("flagged byte \(verdict) of a valid document: \(Array(input))")
                    continue
                }
                XCTAssertLessThanOrEqual(whole.offset, verdict, "\(Array(input))")
                let prefix = Array(input.prefix(verdict + JSONStreamChecker.lookahead))
                XCTAssertEqual(Self.parseError(prefix), whole, "the prefix words the error otherwise: \(Array(input))")
            } else if let whole {
                // Only the end of the input can show this fault: more bytes could have mended it.
                let endOnly = whole.reason.contains("end of input") || whole.reason.contains("unterminated string")
                    || whole.reason.contains("holds no JSON value") || whole.reason.contains("invalid literal")
                    || (whole.offset == 0 && input.count < 3 && input.first == 0xEF)
                XCTAssertTrue(endOnly, "not flagged, yet \(whole) in \(Array(input))")
            }
        }
        XCTAssertGreaterThan(flagged, 1000, "the variants should hold many malformed inputs")
    }

    func testVerdictDoesNotDependOnChunkSizes() {
        for seed in Self.seeds {
            for input in [seed, seed + Array("x".utf8), Array(seed.dropLast()) + [0x00], [0xEF, 0xBB, 0x41] + seed] {
                let whole = Self.check(input, chunkSize: input.count + 1)
                for size in 1...input.count {
                    XCTAssertEqual(Self.check(input, chunkSize: size), whole, "chunks of \(size): \(Array(input))")
                }
            }
        }
    }

    func testZeroBytesFailAtTheFirstOne() {
        XCTAssertEqual(Self.check([UInt8](repeating: 0, count: 100), chunkSize: 7), 0)
        XCTAssertEqual(Self.check(Array("[1,2,".utf8) + [0, 0, 0], chunkSize: 1), 5)
    }

    func testNestingDeeperThanTheReaderAllowsIsFlaggedAtTheBracket() {
        let input = [UInt8](repeating: UInt8(ascii: "["), count: JSONReader.maximumDepth + 10)
        XCTAssertEqual(Self.check(input, chunkSize: 64), JSONReader.maximumDepth)
        XCTAssertEqual(Self.parseError(input)?.offset, JSONReader.maximumDepth)
    }

    func testLaterCallsRepeatTheFirstFailure() {
        var checker = JSONStreamChecker()
        let bad = Array("[1 2]".utf8)
        XCTAssertEqual(bad.withUnsafeBufferPointer { checker.feed($0) }, 3)
        XCTAssertEqual(Array("[]".utf8).withUnsafeBufferPointer { checker.feed($0) }, 3)
    }
}
