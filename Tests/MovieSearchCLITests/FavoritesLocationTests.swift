import Foundation
import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// Where favorites are kept without `--favorites` (the XDG base directory rules), and the `favorites` command run
/// in-process with an environment the test controls.
final class FavoritesLocationTests: XCTestCase {
    private func defaultPath(_ environment: [String: String]) -> String? {
        FavoritesLocation.defaultPath(.fixed(environment))?.description
    }

    func testXDGDataHomeWhenAbsolute() {
        XCTAssertEqual(defaultPath(["XDG_DATA_HOME": "/data", "HOME": "/home/ana"]), "/data/moviesearch/favorites.json")
        XCTAssertEqual(defaultPath(["XDG_DATA_HOME": "/data/"]), "/data/moviesearch/favorites.json")
    }

    /// Unset, empty or relative: `$HOME/.local/share`, as the specification says.
    func testHomeWhenXDGDataHomeIsUnsetEmptyOrRelative() {
        for dataHome in [nil, "", "data", "./data", "~/data"] as [String?] {
            var environment = ["HOME": "/home/ana"]
            environment["XDG_DATA_HOME"] = dataHome
            XCTAssertEqual(defaultPath(environment), "/home/ana/.local/share/moviesearch/favorites.json", "\(dataHome ?? "nil")")
        }
        XCTAssertEqual(defaultPath(["HOME": "/"]), "/.local/share/moviesearch/favorites.json")
    }

    func testNoDefaultWithoutHome() {
        XCTAssertNil(defaultPath([:]))
        XCTAssertNil(defaultPath(["XDG_DATA_HOME": "relative", "HOME": ""]))
    }

    func testGivenPathWinsAndIsNotTheDefault() {
        let environment = Environment.fixed(["XDG_DATA_HOME": "/data"])
        XCTAssertEqual(FavoritesLocation.resolve(FilePath("mine.json"), environment),
                       FavoritesLocation.Location(path: FilePath("mine.json"), isDefault: false))
        XCTAssertEqual(FavoritesLocation.resolve(nil, environment),
                       FavoritesLocation.Location(path: FilePath("/data/moviesearch/favorites.json"), isDefault: true))
    }

    // MARK: In-process runs

    /// The environment a run reads: the data home in a temporary folder.
    private func environment() throws -> (values: [String: String], file: String) {
        let dataHome = try TestPaths.temporaryFolder(self).path + "/data"
        return (["XDG_DATA_HOME": dataHome], dataHome + "/moviesearch/favorites.json")
    }

    func testAddListRemoveInProcessUseTheDataHome() throws {
        let (values, file) = try environment()
        let cache = ["--cache", TestPaths.sampleCache]
        let added = MovieSearchCommand.run(arguments: ["favorites", "add", "32"] + cache, environment: values)
        XCTAssertEqual(added.status, 0, added.standardError)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file))
        let listed = MovieSearchCommand.run(arguments: ["favorites", "--json"] + cache, environment: values)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any])
        let favorites = try XCTUnwrap(object["favorites"] as? [[String: Any]])
        XCTAssertEqual(favorites.map { $0["id"] as? Int }, [32])
        XCTAssertEqual(favorites.first?["missing"] as? Bool, false)
        XCTAssertEqual(favorites.first?["favorite"] as? Bool, true)
        let removed = MovieSearchCommand.run(arguments: ["favorites", "remove", "32"] + cache, environment: values)
        XCTAssertEqual(removed.status, 0, removed.standardError)
        XCTAssertEqual(try FavoritesFile.read(path: file), FavoriteList())
    }

    /// With no HOME and no XDG_DATA_HOME, reading commands have no favorites and changing ones fail with one line.
    func testNoLocationAtAll() {
        let cache = ["--cache", TestPaths.sampleCache]
        let listed = MovieSearchCommand.run(arguments: ["favorites"] + cache)
        XCTAssertEqual(listed.status, 0, listed.standardError)
        XCTAssertTrue(listed.standardOutput.hasPrefix("No favorites yet"), listed.standardOutput)
        let added = MovieSearchCommand.run(arguments: ["favorites", "add", "1"] + cache)
        XCTAssertEqual(added.status, 1)
        XCTAssertEqual(added.standardError, "moviesearch: \(FavoritesError.noLocation)\n")
    }

    func testUsageErrors() {
        for arguments in [["favorites", "add"], ["favorites", "remove"], ["favorites", "list", "3"],
                          ["favorites", "toggle", "3"], ["favorites", "add", "-1"]] {
            let run = MovieSearchCommand.run(arguments: arguments + ["--cache", TestPaths.sampleCache])
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains("Usage: moviesearch favorites"), run.standardError)
        }
    }
}

/// `FavoritesLocation.open`, what `browse` starts with: saving, read-only, or refusing.
final class FavoritesLocationOpenTests: XCTestCase {
    private func context(_ environment: [String: String]) -> CommandContext {
        CommandContext(standardOutput: TextOutput(.memory), standardError: TextOutput(.memory),
                       standardInput: .bytes([]), environment: .fixed(environment), terminal: Terminal(width: nil))
    }

    func testOpenSavesToTheDefaultFileAndNotWithNoSave() throws {
        let dataHome = try TestPaths.temporaryFolder(self).path + "/data"
        let index = try MovieIndex(path: TestPaths.sampleCache)
        let context = context(["XDG_DATA_HOME": dataHome])
        var opened = try FavoritesLocation.open(nil, noSave: false, index: index, context)
        XCTAssertNil(opened.readOnlyReason)
        XCTAssertTrue(opened.session.savesChanges)
        XCTAssertTrue(try opened.session.toggle(index.movie(id: 5)).isFavorite)
        let file = dataHome + "/moviesearch/favorites.json"
        XCTAssertEqual(try FavoritesFile.read(path: file).entries.map(\.id), [5])

        var session = try FavoritesLocation.open(nil, noSave: true, index: index, context)
        XCTAssertTrue(session.session.store.isFavorite(5), "--no-save still reads the file")
        XCTAssertFalse(session.session.savesChanges)
        XCTAssertNil(session.readOnlyReason)
        XCTAssertFalse(try session.session.toggle(index.movie(id: 5)).isFavorite)
        XCTAssertFalse(session.session.store.isFavorite(5), "changed in the session")
        XCTAssertEqual(try FavoritesFile.read(path: file).entries.map(\.id), [5], "not written")
    }

    func testACorruptDefaultFileIsReadOnlyAndAGivenOneRefused() throws {
        let dataHome = try TestPaths.temporaryFolder(self).path + "/data"
        try FileManager.default.createDirectory(atPath: dataHome + "/moviesearch", withIntermediateDirectories: true)
        let file = dataHome + "/moviesearch/favorites.json"
        try Data("{oops".utf8).write(to: URL(fileURLWithPath: file))
        let index = try MovieIndex(path: TestPaths.sampleCache)
        let context = context(["XDG_DATA_HOME": dataHome])
        let opened = try FavoritesLocation.open(nil, noSave: false, index: index, context)
        XCTAssertFalse(opened.session.savesChanges)
        XCTAssertTrue(opened.readOnlyReason?.hasPrefix("favorites are read-only: \(file): not a valid favorites file") == true,
                      opened.readOnlyReason ?? "nil")
        XCTAssertThrowsError(try FavoritesLocation.open(FilePath(file), noSave: false, index: index, context)) {
            guard case .corrupt? = $0 as? FavoritesError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), Data("{oops".utf8))
    }

    func testNoLocationIsReadOnly() throws {
        let index = try MovieIndex(path: TestPaths.sampleCache)
        let opened = try FavoritesLocation.open(nil, noSave: false, index: index, context([:]))
        XCTAssertFalse(opened.session.savesChanges)
        XCTAssertEqual(opened.readOnlyReason, FavoritesError.noLocation.description)
    }
}
