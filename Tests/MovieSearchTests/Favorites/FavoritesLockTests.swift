import Foundation
import MovieSearch
@testable import MovieSearchFavorites
@testable import MovieSearchPlatform
import TestSupport
import XCTest

/// `FavoritesFile.withLock`: one change at a time per favorites folder, a bounded wait, the folder made first for a
/// change that will make it, and no lock where there is no folder to hold it. (`FavoritesEndToEndTests.testSimultaneousAddsAreAllKept` runs it across processes.)
final class FavoritesLockTests: XCTestCase {
    /// A `flock` is held by an open description: a second `open` of the same folder in this process contends with
    /// the first as another process would.
    private func holdLock(on folder: String) throws -> Int32 {
        let descriptor = try Syscalls.openFolder(FilePath(folder)).get()
        XCTAssertEqual(try Syscalls.tryLockExclusively(descriptor).get(), true)
        return descriptor
    }

    func testALockHeldElsewhereMakesAChangeWaitThenFailWithNothingDone() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let held = try holdLock(on: folder)
        defer { Syscalls.closeDescriptor(held) }
        var ran = false
        XCTAssertThrowsError(try FavoritesFile.withLock(FilePath(folder + "/favorites.json"), waitMilliseconds: 50) {
            ran = true
        }) { error in
            XCTAssertEqual(error as? FavoritesError, .busy(path: folder + "/favorites.json"))
            XCTAssertTrue("\(error)".contains("nothing was changed, try again"), "\(error)")
        }
        XCTAssertFalse(ran)
    }

    func testAChangeRunsOnceTheOtherLetsGo() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let held = try holdLock(on: folder)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            Thread.sleep(forTimeInterval: 0.1)
            Syscalls.closeDescriptor(held)
            release.signal()
        }
        let value = try FavoritesFile.withLock(FilePath(folder + "/favorites.json"), waitMilliseconds: 10_000) { 42 }
        XCTAssertEqual(value, 42)
        release.wait()
        // And the lock is let go when the change ends: the next one takes it at once.
        XCTAssertEqual(try FavoritesFile.withLock(FilePath(folder + "/favorites.json"), waitMilliseconds: 0) { 7 }, 7)
    }

    func testTheLockIsLetGoWhenTheChangeThrows() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        struct Failure: Error {}
        XCTAssertThrowsError(try FavoritesFile.withLock(FilePath(folder + "/f.json")) { throw Failure() })
        let descriptor = try holdLock(on: folder)
        Syscalls.closeDescriptor(descriptor)
    }

    func testWithoutTheFolderTheChangeRunsUnlocked() throws {
        let folder = try TestPaths.temporaryFolder(self).path + "/not-yet"
        XCTAssertEqual(try FavoritesFile.withLock(path: folder + "/favorites.json") { "ran" }, "ran")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "a change that will not create it must not")
    }

    /// The first change of a new data home makes the folders the save would make, then holds the folder's lock:
    /// another change at the same time waits (here: fails at once, with a zero wait) instead of running unlocked.
    func testAChangeThatCreatesTheFolderMakesItFirstAndHoldsItsLock() throws {
        let folder = try TestPaths.temporaryFolder(self).path + "/data/moviesearch"
        let path = FilePath(folder + "/favorites.json")
        let ran = try FavoritesFile.withLock(path, creatingFolder: true) { () throws -> Bool in
            var status = stat()
            XCTAssertEqual(stat(folder, &status), 0, "the folder is made before the change runs")
            XCTAssertEqual(UInt32(status.st_mode & 0o777), FavoritesFile.folderMode)
            XCTAssertThrowsError(try FavoritesFile.withLock(path, creatingFolder: true, waitMilliseconds: 0) {}) {
                XCTAssertEqual($0 as? FavoritesError, .busy(path: path.description))
            }
            return true
        }
        XCTAssertTrue(ran)
    }
}
