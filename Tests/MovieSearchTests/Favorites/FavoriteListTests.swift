import Foundation
import MovieSearch
@testable import MovieSearchFavorites
import TestSupport
import XCTest

/// The favorites file format (versions 1 and 2) and `FavoritesFile`: what is read, what is refused and why, and how it
/// is written.
final class FavoriteListTests: XCTestCase {
    private let rises = Favorite(id: 745, title: "The Dark Knight Rises", year: 2012)
    private let quoted = Favorite(id: 0, title: "Say \"Hi\" \\ Ünïcödé 千と千尋\n", year: -5)

    private func list(_ text: String) throws(FavoritesError) -> FavoriteList {
        try FavoriteList(jsonBytes: Array(text.utf8), source: "f.json")
    }

    private func assertRefused(_ text: String, _ expected: FavoritesError, file: StaticString = #filePath,
                               line: UInt = #line) {
        XCTAssertThrowsError(try list(text), file: file, line: line) { error in
            XCTAssertEqual(error as? FavoritesError, expected, file: file, line: line)
        }
    }

    // MARK: Format

    /// A version 1 file of one favorite (id, title, year), all on one line, reads back that favorite.
    func testAVersion1FileReads() throws {
        let read = try list(#"{"version":1,"favorites":[{"id":745,"title":"The Dark Knight Rises","year":2012}]}"#)
        XCTAssertEqual(read.entries, [rises])
    }

    func testWrittenBytesAreOneEntryALineAndReadBack() throws {
        let original = FavoriteList(entries: [rises, quoted, Favorite(id: 3, title: "", year: 2020)])
        let bytes = original.jsonBytes()
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{\"version\":1,\"favorites\":[\n{\"id\":745,\"title\":\"The Dark Knight Rises\",\"year\":2012},\n"), text)
        XCTAssertTrue(text.hasSuffix("\n]}\n"), text)
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 5, "one line per entry, the title's line feed escaped")
        XCTAssertEqual(try FavoriteList(jsonBytes: bytes), original)
        // Other JSON readers agree.
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        XCTAssertEqual(parsed["version"] as? Int, 1)
        XCTAssertEqual((parsed["favorites"] as? [[String: Any]])?[1]["title"] as? String, quoted.title)
    }

    func testEmptyListRoundTrips() throws {
        XCTAssertEqual(String(decoding: FavoriteList().jsonBytes(), as: UTF8.self), "{\"version\":1,\"favorites\":[]}\n")
        XCTAssertEqual(try FavoriteList(jsonBytes: FavoriteList().jsonBytes()), FavoriteList())
    }

    func testMalformedJSONIsCorruptWithLineAndColumn() {
        assertRefused("{\"version\":1,\n\"favorites\":[", .corrupt(
            path: "f.json", reason: "malformed JSON at line 2, column 14: unexpected end of input, expected a value or ']'"))
        XCTAssertThrowsError(try FavoriteList(jsonBytes: [0xFF, 0xFE, 0x00])) {
            guard case .corrupt? = $0 as? FavoritesError else { return XCTFail("\($0)") }
        }
    }

    func testOtherJSONIsForeign() {
        assertRefused("[1,2]", .foreign(path: "f.json", reason: "it holds an array, not an object"))
        assertRefused(#"{"movies":[]}"#, .foreign(path: "f.json", reason: #"it has no "version" and "favorites" members"#))
        assertRefused(#"{"favorites":[]}"#, .foreign(path: "f.json", reason: #"it has no "version" and "favorites" members"#))
        assertRefused(#"{"version":"1","favorites":[]}"#,
                      .foreign(path: "f.json", reason: #"its "version" is a string, not an integer"#))
    }

    func testOtherVersionsAreRefused() {
        assertRefused(#"{"version":3,"favorites":[]}"#, .unsupportedVersion(path: "f.json", version: "3"))
        assertRefused(#"{"version":0,"favorites":[]}"#, .unsupportedVersion(path: "f.json", version: "0"))
        XCTAssertTrue(FavoritesError.unsupportedVersion(path: "f.json", version: "3").description
            .contains("version 3 is not supported"))
    }

    /// A file of no bytes (`touch favorites.json`), or of white space only, is an empty list, not a damaged file.
    func testAnEmptyFileIsAnEmptyList() throws {
        for text in ["", "\n", " \r\n\t "] {
            XCTAssertEqual(try list(text), FavoriteList(), "\(Array(text.utf8))")
        }
    }

    /// Version 2 keeps each movie's IMDb and TMDb ids, when it has them; a list without any is written as version
    /// 1, which an older moviesearch reads; version 1 knows no ids.
    func testExternalIDsAreKeptInVersionTwo() throws {
        let withIDs = FavoriteList(entries: [
            Favorite(id: 3, title: "Heat", year: 1995, imdbID: "tt0113277", tmdbID: 949),
            Favorite(id: 4, title: "Only IMDb", year: 2001, imdbID: "nm-odd"),
            Favorite(id: 5, title: "None", year: 2002),
        ])
        let text = String(decoding: withIDs.jsonBytes(), as: UTF8.self)
        XCTAssertEqual(text, """
            {"version":2,"favorites":[
            {"id":3,"title":"Heat","year":1995,"imdb_id":"tt0113277","tmdb_id":949},
            {"id":4,"title":"Only IMDb","year":2001,"imdb_id":"nm-odd"},
            {"id":5,"title":"None","year":2002}
            ]}

            """)
        XCTAssertEqual(try FavoriteList(jsonBytes: withIDs.jsonBytes()), withIDs)
        let withoutIDs = FavoriteList(entries: [Favorite(id: 5, title: "None", year: 2002)])
        XCTAssertTrue(String(decoding: withoutIDs.jsonBytes(), as: UTF8.self).hasPrefix(#"{"version":1,"#))
        assertRefused(#"{"version":1,"favorites":[{"id":1,"title":"A","year":2000,"imdb_id":"tt0000001"}]}"#,
                      .corrupt(path: "f.json", reason: #"favorite 1 has a member "imdb_id" that version 1 does not have"#))
        assertRefused(#"{"version":2,"favorites":[{"id":1,"title":"A","year":2000,"imdb_id":7}]}"#,
                      .corrupt(path: "f.json", reason: #"favorite 1: "imdb_id" is not a non-empty string"#))
        assertRefused(#"{"version":2,"favorites":[{"id":1,"title":"A","year":2000,"tmdb_id":-1}]}"#,
                      .corrupt(path: "f.json", reason: #"favorite 1: "tmdb_id" is not an integer from 0 to 4294967295"#))
    }

    /// Strict: whatever version 1 does not hold makes the file corrupt, so that it is never saved over.
    func testEntriesMustBeExactlyIdTitleYear() {
        let cases: [(String, String)] = [
            (#"{"version":1,"favorites":{}}"#, #""favorites" is an object, not an array"#),
            (#"{"version":1,"favorites":[5]}"#, "favorite 1 is a number, not an object"),
            (#"{"version":1,"favorites":[{"title":"A","year":1}]}"#,
             #"favorite 1: "id" is missing or not an integer from 0 to 4294967295"#),
            (#"{"version":1,"favorites":[{"id":-1,"title":"A","year":1}]}"#,
             #"favorite 1: "id" is missing or not an integer from 0 to 4294967295"#),
            (#"{"version":1,"favorites":[{"id":1.5,"title":"A","year":1}]}"#,
             #"favorite 1: "id" is missing or not an integer from 0 to 4294967295"#),
            (#"{"version":1,"favorites":[{"id":1,"title":"A","year":1},{"id":1,"title":5,"year":1}]}"#,
             #"favorite 2: "title" is missing or not a string"#),
            (#"{"version":1,"favorites":[{"id":1,"title":"A","year":"1999"}]}"#,
             #"favorite 1: "year" is missing or not an integer"#),
            (#"{"version":1,"favorites":[{"id":1,"title":"A","year":1,"note":"x"}]}"#,
             #"favorite 1 has a member "note" that version 1 does not have"#),
            (#"{"version":1,"favorites":[{"id":1,"id":2,"title":"A","year":1}]}"#,
             #"favorite 1 has the member "id" twice"#),
            (#"{"version":1,"favorites":[],"owner":"ana"}"#,
             #"the top-level object has a member "owner" that version 1 does not have"#),
        ]
        for (text, reason) in cases { assertRefused(text, .corrupt(path: "f.json", reason: reason)) }
    }

    func testMessagesAreOneLineNamingThePathAndSayingTheFileWasKept() {
        let errors: [FavoritesError] = [
            .corrupt(path: "/x/f.json", reason: "r"), .foreign(path: "/x/f.json", reason: "r"),
            .unsupportedVersion(path: "/x/f.json", version: "3"), .unreadable(path: "/x/f.json", reason: "r"),
            .unwritable(path: "/x/f.json", operation: "write", reason: "r"),
        ]
        for error in errors {
            XCTAssertTrue(error.description.contains("/x/f.json"), error.description)
            XCTAssertTrue(error.description.contains("left as it"), error.description)
            XCTAssertFalse(error.description.contains("\n"))
        }
    }

    // MARK: FavoritesFile

    func testMissingFileIsAnEmptyList() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        XCTAssertEqual(try FavoritesFile.read(path: folder + "/none.json"), FavoriteList())
    }

    func testWriteThenReadCreatingFoldersWithMode0700() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let path = folder + "/a/b/favorites.json"
        let original = FavoriteList(entries: [rises, quoted])
        try FavoritesFile.write(original, to: path, creatingFolder: true)
        XCTAssertEqual(try FavoritesFile.read(path: path), original)
        for created in [folder + "/a", folder + "/a/b"] {
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: created)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o777, 0o700, created)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/a/b"), ["favorites.json"],
                       "no temporary file left")
        // Replaced whole on the next write.
        try FavoritesFile.write(FavoriteList(entries: [rises]), to: path, creatingFolder: false)
        XCTAssertEqual(try FavoritesFile.read(path: path).entries, [rises])
    }

    func testWriteWithoutCreatingFoldersFailsOnAMissingFolder() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        XCTAssertThrowsError(try FavoritesFile.write(FavoriteList(), to: folder + "/nope/f.json", creatingFolder: false)) {
            guard case let .unwritable(path, operation, reason)? = $0 as? FavoritesError else { return XCTFail("\($0)") }
            XCTAssertEqual(path, folder + "/nope/f.json")
            XCTAssertEqual(operation, "create a temporary file beside")
            XCTAssertEqual(reason, "No such file or directory")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/nope"))
    }

    func testAFileWhereAFolderShouldBeIsReported() throws {
        let file = try temporaryFile("plain", "x")
        XCTAssertThrowsError(try FavoritesFile.write(FavoriteList(), to: file + "/sub/f.json", creatingFolder: true)) {
            XCTAssertEqual($0 as? FavoritesError, .unwritable(path: file, operation: "create the folder",
                                                               reason: "a file is there, not a folder"))
        }
    }

    func testFolderFIFOAndHugeFileAreRefusedWithoutHanging() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        XCTAssertThrowsError(try FavoritesFile.read(path: folder)) {
            XCTAssertEqual($0 as? FavoritesError, .unreadable(path: folder, reason: "it is a folder; give a file path"))
        }
        // A FIFO with no writer: opening it for reading would block for ever without O_NONBLOCK.
        let fifo = folder + "/fifo.json"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try FavoritesFile.read(path: fifo)) {
            XCTAssertEqual($0 as? FavoritesError, .unreadable(
                path: fifo, reason: "it is a FIFO (named pipe), not a regular file; give a file path"))
        }
        // A sparse file just over the limit: refused from its size, before any read or allocation.
        let huge = folder + "/huge.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: nil))
        XCTAssertEqual(truncate(huge, off_t(FavoritesFile.maximumBytes + 1)), 0)
        XCTAssertThrowsError(try FavoritesFile.read(path: huge)) {
            XCTAssertEqual($0 as? FavoritesError, .unreadable(path: huge, reason: "larger than 16 MiB"))
        }
    }

    func testWriteRefusesToReplaceAFIFO() throws {
        let fifo = try TestPaths.temporaryFolder(self).path + "/fifo.json"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try FavoritesFile.write(FavoriteList(), to: fifo, creatingFolder: false)) {
            guard case .unwritable? = $0 as? FavoritesError else { return XCTFail("\($0)") }
        }
        var status = stat()
        XCTAssertEqual(lstat(fifo, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO)
    }

    /// The token reader of the usual file (`wellFormedEntries`) reads what the tree reads: lists it wrote, members
    /// in any order, a version after the list, escaped keys (left to the tree), and nothing it would refuse.
    func testTheTokenReaderAgreesWithTheTree() throws {
        var random = SplitMix64(seed: 7)
        for round in 0..<200 {
            let entries = (0..<Int(random.next() % 6)).map { number in
                Favorite(id: Int(random.next() % 5_000), title: ["Heat", "千と千尋", "A \"quoted\" one", "é\u{301}"][number % 4],
                         year: 1900 + Int(random.next() % 130), imdbID: random.next() % 2 == 0 ? "tt\(1_000_000 + round)" : nil,
                         tmdbID: random.next() % 3 == 0 ? round : nil)
            }
            let bytes = FavoriteList(entries: entries).jsonBytes()
            XCTAssertEqual(bytes.withUnsafeBufferPointer(FavoriteList.wellFormedEntries), entries, "round \(round)")
            XCTAssertEqual(try FavoriteList(jsonBytes: bytes).entries, entries)
        }
        let reordered = #"{"favorites":[{"year":2012,"title":"T","id":3,"tmdb_id":4}],"version":2}"#
        XCTAssertEqual(try list(reordered).entries, [Favorite(id: 3, title: "T", year: 2012, tmdbID: 4)])
        XCTAssertNotNil(Array(reordered.utf8).withUnsafeBufferPointer(FavoriteList.wellFormedEntries))
        let escaped = #"{"version":1,"favorites":[{"\u0069d":3,"title":"T","year":2012}]}"#
        XCTAssertEqual(try list(escaped).entries, [Favorite(id: 3, title: "T", year: 2012)])
        for refused in [#"{"version":1,"favorites":[{"id":3,"title":"T","year":2012,"imdb_id":"tt1"}]}"#,
                        #"{"version":2,"favorites":[{"id":3,"id":4,"title":"T","year":2012}]}"#,
                        #"{"version":2,"favorites":[{"id":3,"title":"T","year":2012,"stars":1}]}"#,
                        #"{"version":2,"version":2,"favorites":[]}"#, #"{"version":3,"favorites":[]}"#,
                        #"{"version":2,"favorites":[]} x"#, #"{"version":2,"favorites":[{"id":-1,"title":"T","year":1}]}"#] {
            XCTAssertNil(Array(refused.utf8).withUnsafeBufferPointer(FavoriteList.wellFormedEntries), refused)
            XCTAssertThrowsError(try list(refused), refused)
        }
    }
}
