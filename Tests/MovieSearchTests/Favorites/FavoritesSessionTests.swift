import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchFavorites
@testable import MovieSearchPlatform
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// `FavoritesSession`: each change read, applied and saved under the lock, with the outcome it reports; an
/// unreadable file refused or read-only as the policy says, and never written.
final class FavoritesSessionTests: XCTestCase {
    private let movies = [
        Movie(id: 0, title: "The Dark Knight Rises", year: 2012, rating: 5),
        Movie(id: 1, title: "Heat", year: 1995, rating: 4),
        Movie(id: 2, title: "Gone Girl", year: 2014, rating: 4),
    ]
    /// A favorite of a movie the cache does not hold.
    private let gone = Favorite(id: 7, title: "Amélie", year: 2001)

    private func fixture() throws -> (index: MovieIndex, path: String) {
        let index = try Fixtures.index(Catalog(movies: movies), self)
        return (index, try TestPaths.temporaryFolder(self).path + "/favorites.json")
    }

    private func open(_ path: String, _ index: MovieIndex, _ policy: FavoritesSession.UnreadablePolicy = .fail)
        throws -> FavoritesSession
    {
        try FavoritesSession.open(.file(FilePath(path), createsFolder: false), index: index, ifUnreadable: policy)
    }

    private func savedIDs(_ path: String) throws -> [Int] {
        try FavoritesFile.read(path: path).entries.map(\.id)
    }

    private func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func testAddSavesOnlyWhatChangesAndSaysWhetherItChanged() throws {
        let (index, path) = try fixture()
        var session = try open(path, index)
        let added = try session.add(movies[1])
        XCTAssertEqual(added, FavoriteChange(action: .add, id: 1, movie: movies[1], entry: Favorite(movies[1])))
        XCTAssertTrue(added.changed)
        XCTAssertTrue(added.isFavorite)
        XCTAssertEqual(try savedIDs(path), [1])
        XCTAssertTrue(session.store.isFavorite(1))
        // Unchanged: not saved again (a file the session would write otherwise, with a leading space, keeps it).
        try Data(" ".utf8 + FavoriteList(entries: [Favorite(movies[1])]).jsonBytes())
            .write(to: URL(fileURLWithPath: path))
        let before = try bytes(path)
        let again = try session.add(movies[1])
        XCTAssertFalse(again.changed)
        XCTAssertNil(again.entry)
        XCTAssertEqual(try bytes(path), before)
    }

    func testRemoveReportsTheEntryTheMovieOrNeither() throws {
        let (index, path) = try fixture()
        try FavoritesFile.write(FavoriteList(entries: [Favorite(movies[0]), Favorite(movies[2])]), to: path,
                                creatingFolder: false)
        var session = try open(path, index)
        let removed = try session.remove(id: 2)
        XCTAssertEqual(removed, FavoriteChange(action: .remove, id: 2, movie: movies[2], entry: Favorite(movies[2])))
        XCTAssertFalse(removed.isFavorite)
        XCTAssertEqual(try savedIDs(path), [0])
        let notOne = try session.remove(id: 1)
        XCTAssertEqual(notOne, FavoriteChange(action: .remove, id: 1, movie: movies[1], entry: nil),
                       "a movie of the cache that is no favorite")
        let noMovie = try session.remove(id: 99)
        XCTAssertEqual(noMovie, FavoriteChange(action: .remove, id: 99, movie: nil, entry: nil),
                       "an id no movie of the cache has")
        XCTAssertEqual(try savedIDs(path), [0])
    }

    func testToggleAddsThenRemoves() throws {
        let (index, path) = try fixture()
        var session = try open(path, index)
        XCTAssertEqual(try session.toggle(movies[0]).action, .add)
        XCTAssertEqual(try savedIDs(path), [0])
        let second = try session.toggle(movies[0])
        XCTAssertEqual(second, FavoriteChange(action: .remove, id: 0, movie: movies[0], entry: Favorite(movies[0])))
        XCTAssertEqual(try savedIDs(path), [])
        XCTAssertFalse(session.store.isFavorite(0))
    }

    func testRemoveMissingReturnsThemWithReasonsAndSavesOnlyWhenThereWereSome() throws {
        let (index, path) = try fixture()
        try FavoritesFile.write(FavoriteList(entries: [gone, Favorite(movies[1])]), to: path, creatingFolder: false)
        var session = try open(path, index)
        let removed = try session.removeMissing()
        XCTAssertEqual(removed.map(\.favorite), [gone])
        XCTAssertFalse(removed[0].reason.isEmpty)
        XCTAssertEqual(try savedIDs(path), [1])
        let before = try bytes(path)
        XCTAssertEqual(try session.removeMissing(), [])
        XCTAssertEqual(try bytes(path), before)
    }

    /// Each change reads the file again: what another process saved meanwhile is kept, and the session shows it.
    func testAChangeKeepsWhatAnotherProcessSavedMeanwhile() throws {
        let (index, path) = try fixture()
        var session = try open(path, index)
        try FavoritesFile.write(FavoriteList(entries: [Favorite(movies[2])]), to: path, creatingFolder: false)
        try session.add(movies[0])
        XCTAssertEqual(try savedIDs(path), [2, 0])
        XCTAssertEqual(session.store.ids, [0, 2])
    }

    func testAnUnreadableFileFailsWithFailAndIsReadOnlyAndEmptyWithReadOnly() throws {
        let (index, path) = try fixture()
        try Data("{oops".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try open(path, index, .fail)) {
            guard case .corrupt? = $0 as? FavoritesError else { return XCTFail("\($0)") }
        }
        var session = try open(path, index, .readOnly)
        guard case let .corrupt(file, _)? = session.unreadable else {
            return XCTFail("\(String(describing: session.unreadable))")
        }
        XCTAssertEqual(file, path)
        XCTAssertTrue("\(session.unreadable!)".hasPrefix("\(path): not a valid favorites file"))
        XCTAssertFalse(session.savesChanges)
        XCTAssertEqual(session.store.ids, [])
        XCTAssertTrue(try session.add(movies[0]).changed, "changed in the session")
        XCTAssertTrue(session.store.isFavorite(0))
        XCTAssertEqual(try bytes(path), Data("{oops".utf8), "never written")
    }

    /// A file that became unreadable after opening: the change is refused, kept in the session, the file left.
    func testAFileThatBecameUnreadableRefusesTheChangeAndKeepsIt() throws {
        let (index, path) = try fixture()
        var session = try open(path, index)
        try Data("[]".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try session.add(movies[1])) {
            guard case .foreign? = $0 as? FavoritesError else { return XCTFail("\($0)") }
        }
        XCTAssertTrue(session.store.isFavorite(1))
        XCTAssertEqual(try bytes(path), Data("[]".utf8))
    }

    /// Another process holding the folder's lock (a `flock` of a second open description contends as another
    /// process would): the change waits, then fails as busy with nothing saved.
    func testALockHeldElsewhereFailsTheChangeWithNothingSaved() throws {
        let (index, path) = try fixture()
        try FavoritesFile.write(FavoriteList(entries: [Favorite(movies[2])]), to: path, creatingFolder: false)
        var session = try open(path, index)
        session.lockWaitMilliseconds = 20
        let held = try Syscalls.openFolder(FilePath(path).split.folder).get()
        defer { Syscalls.closeDescriptor(held) }
        XCTAssertEqual(try Syscalls.tryLockExclusively(held).get(), true)
        XCTAssertThrowsError(try session.add(movies[0])) {
            XCTAssertEqual($0 as? FavoritesError, .busy(path: path))
        }
        XCTAssertEqual(try savedIDs(path), [2])
        XCTAssertTrue(session.store.isFavorite(0), "the change holds in the session, unsaved")
    }

    func testAMemorySessionChangesWithoutAFile() throws {
        let (index, path) = try fixture()
        var session = try FavoritesSession.open(.memory(FavoriteList(entries: [Favorite(movies[1])])), index: index,
                                                ifUnreadable: .fail)
        XCTAssertFalse(session.savesChanges)
        XCTAssertTrue(try session.add(movies[2]).changed)
        XCTAssertEqual(session.store.ids, [1, 2])
        XCTAssertEqual(session.storage, .memory(session.store.list))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        // A file session taken into memory (`--no-save`) stops writing.
        try FavoritesFile.write(FavoriteList(), to: path, creatingFolder: false)
        var detached = try open(path, index).inMemory()
        try detached.add(movies[0])
        XCTAssertEqual(try savedIDs(path), [])
        XCTAssertTrue(detached.store.isFavorite(0))
    }
}
