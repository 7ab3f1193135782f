import MovieSearch
@testable import MovieSearchCLI
import XCTest

final class DefaultOutputPathTests: XCTestCase {
    func testTheExtensionIsReplacedOrAppended() {
        let cases = [
            ("a/b.json", "a/b.mscache"),
            ("movies.json", "movies.mscache"),
            ("/tmp/x/movies.JSON", "/tmp/x/movies.mscache"),
            ("movies.tar.json", "movies.tar.mscache"),
            ("movies", "movies.mscache"),
            ("a.d/movies", "a.d/movies.mscache"),
            (".hidden", ".hidden.mscache"),
            ("dir/.hidden", "dir/.hidden.mscache"),
            ("trailing.", "trailing.mscache"),
            ("../shared/data/movies.json", "../shared/data/movies.mscache"),
        ]
        for (catalog, expected) in cases {
            XCTAssertEqual(IndexCommand.defaultOutputPath(for: FilePath(catalog)), FilePath(expected), catalog)
        }
    }
}
