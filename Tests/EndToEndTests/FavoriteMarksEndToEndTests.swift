import Foundation
import XCTest
import TestSupport

/// The ♥ marks of `serve` (`/api/movies/<id>`, `/api/search`) after the favorites file changed in ways that keep
/// its size, and often its inode and timestamps: a remove then an add of a movie whose entry has the same length
/// (Amelia for Avatar, both 2009), by the CLI or by rewriting the file in place. Each change is followed at once by
/// the requests, several rounds, so that inode reuse and same-tick timestamps get their chances.
final class FavoriteMarksEndToEndTests: XCTestCase {
    private static let catalog = """
        [{"title":"Amelia","year":2009,"rating":3},
         {"title":"Avatar","year":2009,"rating":4}]
        """

    private struct Setup {
        var cache: String
        var favorites: String
        var server: ServeProcess

        func cli(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
            let run = try BinaryRun.run(arguments + ["--cache", cache, "--favorites", favorites], file: file,
                                        line: line)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.standardError)", file: file, line: line)
        }

        /// Checks that `favorite` (an id) is marked and the other is not, in both movies' answers and in searches
        /// for them; and that `/api/favorites` agrees.
        func assertMarks(favorite: Int, _ round: String, file: StaticString = #filePath, line: UInt = #line) throws {
            for id in [0, 1] {
                let answer = try server.request("/api/movies/\(id)")
                XCTAssertEqual(answer.status, 200, answer.text, file: file, line: line)
                XCTAssertTrue(answer.text.contains(#""favorite":\#(id == favorite)"#),
                              "\(round): movie \(id) in \(answer.text)", file: file, line: line)
            }
            for (id, title) in [(0, "Amelia"), (1, "Avatar")] {
                let search = try server.request("/api/search?q=\(title.lowercased())")
                XCTAssertTrue(search.text.range(of: #""title":"\#(title)","year":2009,"rating":\d,"rating_scale":5,"genres":\[\],"#
                    + #""cast":\[\],"favorite":\#(id == favorite)"#, options: .regularExpression) != nil,
                              "\(round): \(title) in \(search.text)", file: file, line: line)
            }
            let list = try server.request("/api/favorites")
            XCTAssertTrue(list.text.contains(#""id":\#(favorite),"#), "\(round): \(list.text)", file: file, line: line)
        }
    }

    private func setup() throws -> Setup {
        let cache = try indexedCache(try temporaryFile("movies.json", Self.catalog))
        let favorites = try TestPaths.temporaryFolder(self).path + "/favorites.json"
        let server = try ServeProcess(self, ["--cache", cache, "--listen", "127.0.0.1:0", "--quiet",
                                             "--favorites", favorites])
        return Setup(cache: cache, favorites: favorites, server: server)
    }

    func testARemoveThenAnAddOfTheSameLengthIsSeenAtOnce() throws {
        let setup = try setup()
        try setup.cli(["favorites", "add", "0"])
        try setup.assertMarks(favorite: 0, "start")
        var sizes: Set<Int> = []
        for round in 1...6 {
            let (old, new) = round % 2 == 1 ? (0, 1) : (1, 0)
            try setup.cli(["favorites", "remove", "\(old)"])
            try setup.cli(["favorites", "add", "\(new)"])
            sizes.insert(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: setup.favorites)[.size] as? Int))
            try setup.assertMarks(favorite: new, "round \(round)")
        }
        XCTAssertEqual(sizes.count, 1, "the two files should have the same size, or the test proves nothing")
    }

    func testAnInPlaceRewriteOfTheSameLengthIsSeenAtOnce() throws {
        let setup = try setup()
        // The file as the CLI writes it for each of the two movies.
        var contents: [Data] = []
        for id in [0, 1] {
            try setup.cli(["favorites", "add", "\(id)"])
            try setup.cli(["favorites", "remove", "\(1 - id)"])
            contents.append(try Data(contentsOf: URL(fileURLWithPath: setup.favorites)))
        }
        XCTAssertEqual(contents[0].count, contents[1].count)
        XCTAssertNotEqual(contents[0], contents[1])
        try setup.assertMarks(favorite: 1, "start")
        for round in 1...20 {
            let favorite = round % 2 == 1 ? 0 : 1
            // Truncated and written again: the same inode and size, the times perhaps within one tick.
            let descriptor = open(setup.favorites, O_WRONLY | O_TRUNC)
            XCTAssertGreaterThanOrEqual(descriptor, 0, String(cString: strerror(errno)))
            let written = contents[favorite].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            XCTAssertEqual(written, contents[favorite].count)
            close(descriptor)
            try setup.assertMarks(favorite: favorite, "round \(round)")
        }
    }
}
