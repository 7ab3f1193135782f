import MovieSearch
@testable import MovieSearchPlatform
import XCTest

final class FilePathTests: XCTestCase {
    private func path(_ parts: [UInt8]...) -> FilePath { FilePath(bytes: parts.joined()) }
    private func b(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testDescriptionEscapesOnlyBytesThatAreNotUTF8() {
        XCTAssertEqual(FilePath("films/Amélie 北京 🎬.json").description, "films/Amélie 北京 🎬.json")
        XCTAssertEqual(FilePath(#"a\xE9"#).description, #"a\xE9"#, "a backslash stays a backslash")
        XCTAssertEqual(path(b("lat"), [0xE9], b(".mscache")).description, #"lat\xE9.mscache"#)
        XCTAssertEqual(path([0xFF, 0xFE]).description, #"\xFF\xFE"#)
        // Overlong, surrogate, above U+10FFFF, cut short at the end, a lone continuation byte.
        XCTAssertEqual(path([0xC0, 0x80]).description, #"\xC0\x80"#)
        XCTAssertEqual(path([0xED, 0xA0, 0x80]).description, #"\xED\xA0\x80"#)
        XCTAssertEqual(path([0xF4, 0x90, 0x80, 0x80]).description, #"\xF4\x90\x80\x80"#)
        XCTAssertEqual(path(b("x"), [0xE2, 0x82]).description, #"x\xE2\x82"#)
        XCTAssertEqual(path([0x80], b("é")).description, #"\x80é"#)
        XCTAssertEqual(path([0xE2, 0x82, 0xAC]).description, "€")
    }

    func testBytesStopAtNUL() {
        XCTAssertEqual(path(b("a"), [0], b("b")).bytes, b("a"))
    }

    func testCStringHoldsTheBytesUnchanged() {
        let raw = b("out") + [0xE9] + b(".mscache")
        let copied = FilePath(bytes: raw).withCString { pointer in
            (0..<raw.count + 1).map { UInt8(bitPattern: pointer[$0]) }
        }
        XCTAssertEqual(copied, raw + [0])
    }

    func testSplitAndExtensionWorkOnBytes() {
        let latin1 = path(b("dir"), [0xE9], b("/caf"), [0xE9], b(".json"))
        XCTAssertEqual(latin1.split.folder.bytes, b("dir") + [0xE9] + b("/"))
        XCTAssertEqual(latin1.split.name.bytes, b("caf") + [0xE9] + b(".json"))
        XCTAssertEqual(latin1.replacingExtension(with: "mscache").bytes, b("dir") + [0xE9] + b("/caf") + [0xE9] + b(".mscache"))
        XCTAssertEqual(FilePath("a.d/movies").replacingExtension(with: "mscache"), FilePath("a.d/movies.mscache"))
        XCTAssertEqual(FilePath(".hidden").replacingExtension(with: "mscache"), FilePath(".hidden.mscache"))
        XCTAssertEqual(FilePath("plain").split.folder, FilePath(""))
    }

    func testTheTemporaryFileOfANonUTF8NameKeepsItsBytes() {
        let destination = path(b("/tmp/out"), [0xE9], b(".mscache"))
        let temporary = AtomicFileWriter.temporaryPath(beside: destination)
        let name = temporary.split.name.bytes
        XCTAssertEqual(temporary.split.folder, FilePath("/tmp/"))
        XCTAssertNotNil(AtomicFileWriter.temporaryOwner(name, of: b("out") + [0xE9] + b(".mscache")),
                        FilePath(bytes: name).description)
    }
}
