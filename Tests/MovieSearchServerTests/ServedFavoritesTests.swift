import Foundation
import MovieSearch
import MovieSearchServer
import TestSupport
import XCTest

/// `ServedFavorites.ids(in:)` of a favorites file: the marks follow the file's bytes, whether it was read again
/// because it is young or its status vouched for it because it settled; and what a mark costs, printed.
final class ServedFavoritesTests: XCTestCase {
    private static let catalog = Catalog(movies: [
        Movie(id: 0, title: "Amelia", year: 2009, rating: 3),
        Movie(id: 1, title: "Avatar", year: 2009, rating: 4),
    ])

    private var cache: ServedCache!
    private var path = ""

    override func setUpWithError() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        _ = try CacheWriter.write(Self.catalog, to: folder + "/test.mscache")
        cache = try ServedCache(path: FilePath(folder + "/test.mscache"))
        path = folder + "/favorites.json"
    }

    /// The favorites file holding movie `id` alone.
    private func bytes(favorite id: Int) -> [UInt8] {
        FavoriteList(entries: [Favorite(Self.catalog.movies[id])]).jsonBytes()
    }

    /// Rewrites the file in place (same inode): truncated, then the bytes.
    private func rewrite(_ bytes: [UInt8]) {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }, bytes.count)
        close(descriptor)
    }

    /// A file that settled (its status alone then vouches for it) and is then rewritten in place with an entry of
    /// the same length: the next mark sees the change (by its change time), and so does the one after a rewrite
    /// made while it was young (by its bytes), however close together the writes are.
    ///
    /// The settled time short (40 ms, still some ten ticks of the kernel's file times), and each wait for the file to
    /// settle twice that.
    func testASettledFileRewrittenInPlaceIsSeenAtOnce() throws {
        let favorites = ServedFavorites(.file(FilePath(path), isDefault: false), settledTime: .milliseconds(40),
                                        warn: { XCTFail("warned: \($0)") })
        XCTAssertEqual(bytes(favorite: 0).count, bytes(favorite: 1).count)
        rewrite(bytes(favorite: 1))
        usleep(80_000)
        for round in 0..<6 {
            let id = round % 2
            XCTAssertEqual(favorites.ids(in: cache.snapshot()), [1 - id], "round \(round), settled")
            XCTAssertEqual(favorites.ids(in: cache.snapshot()), [1 - id], "round \(round), settled, again")
            rewrite(bytes(favorite: id))
            XCTAssertEqual(favorites.ids(in: cache.snapshot()), [id], "round \(round), just rewritten")
            rewrite(bytes(favorite: 1 - id))
            XCTAssertEqual(favorites.ids(in: cache.snapshot()), [1 - id], "round \(round), rewritten back")
            rewrite(bytes(favorite: id))
            XCTAssertEqual(favorites.ids(in: cache.snapshot()), [id], "round \(round), and again")
            usleep(80_000)
        }
    }

    /// What one mark costs with a settled file (one `stat`) and with a young one (a `stat` and a read), for a
    /// file of 1 and of 1,000 favorites. Printed, not asserted (machines are noisy).
    func testTheCostOfAMarkIsPrinted() throws {
        let snapshot = cache.snapshot()
        for count in [1, 1000] {
            let list = FavoriteList(entries: (0..<count).map {
                $0 == 0 ? Favorite(Self.catalog.movies[0]) : Favorite(id: 100 + $0, title: "Gone \($0)", year: 2000)
            })
            rewrite(list.jsonBytes())
            let young = ServedFavorites(.file(FilePath(path), isDefault: false), warn: { _ in })
            let settled = ServedFavorites(.file(FilePath(path), isDefault: false), settledTime: .zero, warn: { _ in })
            for (name, favorites) in [("young", young), ("settled", settled)] {
                XCTAssertTrue(favorites.ids(in: snapshot).contains(0))
                let rounds = 300
                let start = ContinuousClock.now
                for _ in 0..<rounds { XCTAssertTrue(favorites.ids(in: snapshot).contains(0)) }
                let each = (ContinuousClock.now - start) / rounds
                print("ServedFavorites.ids, \(count) favorites (\(list.jsonBytes().count) bytes), \(name) file: "
                    + "\(each) per mark")
            }
        }
    }
}
