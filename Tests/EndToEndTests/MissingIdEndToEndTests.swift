import Foundation
import XCTest
import TestSupport

/// `show` and `photos` with an id the cache does not hold say which ids it does hold, also when invalid movies were
/// skipped (their ids are missing, and the last id is not the movie count less one).
final class MissingIdEndToEndTests: XCTestCase {
    func testShowSaysWhichIdsACacheWithSkippedMoviesHolds() throws {
        // Ids 0 to 9 with 1, 5 and 7 invalid: 7 movies, the last id 9.
        let movies = (0..<10).map { id in
            [1, 5, 7].contains(id) ? #"{"title": "Bad \#(id)"}"# : #"{"title": "Movie \#(id)", "year": 2000}"#
        }
        let catalog = try temporaryFile("skips.json", "[" + movies.joined(separator: ",") + "]")
        let cache = catalog + ".mscache"
        XCTAssertEqual(try BinaryRun.run(["index", catalog, "--skip-invalid", "-o", cache]).status, 0)
        XCTAssertEqual(try BinaryRun.run(["show", "4", "--cache", cache]).status, 0, "id 4 exists")
        for (command, id) in [("show", "5"), ("show", "10"), ("photos", "7")] {
            let run = try BinaryRun.run([command, id, "--cache", cache])
            XCTAssertEqual(run.status, 1)
            XCTAssertEqual(run.errorLines, ["moviesearch: no movie with id \(id): ids run from 0 to 9, with 3 missing"])
        }
    }

    func testACacheWithoutGapsSaysNoneAreMissing() throws {
        let catalog = try temporaryFile("plain.json", #"[{"title": "A", "year": 2000}, {"title": "B", "year": 2001}]"#)
        XCTAssertEqual(try BinaryRun.run(["index", catalog, "-o", catalog + ".mscache"]).status, 0)
        let run = try BinaryRun.run(["show", "2", "--cache", catalog + ".mscache"])
        XCTAssertEqual(run.errorLines, ["moviesearch: no movie with id 2: ids run from 0 to 1"])
    }
}
