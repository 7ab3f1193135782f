import Foundation
import XCTest
import TestSupport

/// `favorites` and the ♥ of `query`, `top` and `show`, run on the built binary: the file they share, the marks,
/// a rebuilt cache, and files that must never be overwritten.
final class FavoritesEndToEndTests: XCTestCase {
    /// A cache and a data home of this test; `file` is the default favorites file in it.
    private struct Setup {
        var cache: String
        var dataHome: String
        var file: String { dataHome + "/moviesearch/favorites.json" }
        var environment: [String: String] { ["XDG_DATA_HOME": dataHome] }

        func run(_ arguments: [String], input: String = "", file: StaticString = #filePath,
                 line: UInt = #line) throws -> BinaryRun {
            try BinaryRun.run(arguments + ["--cache", cache], input: Data(input.utf8), environment: environment,
                              file: file, line: line)
        }
    }

    private static let catalog = """
        [{"title":"The Dark Knight Rises","year":2012,"rating":5},
         {"title":"Dark Shadows","year":2012,"rating":3},
         {"title":"Heat","year":1995,"rating":4},
         {"title":"Gone Girl","year":2014,"rating":4}]
        """

    private func setup(_ catalog: String = FavoritesEndToEndTests.catalog) throws -> Setup {
        let folder = try TestPaths.temporaryFolder(self).path
        let catalogPath = try temporaryFile("movies.json", catalog)
        return Setup(cache: try indexedCache(catalogPath), dataHome: folder + "/data")
    }

    private func mode(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    // MARK: favorites add, list, remove

    func testAddListRemoveAndTheFileTheyWrite() throws {
        let setup = try setup()
        let add = try setup.run(["favorites", "add", "2"])
        XCTAssertEqual(add.status, 0, add.standardError)
        XCTAssertEqual(add.standardOutput, "Added 2 Heat (1995) to the favorites (\(setup.file)).\n")
        XCTAssertEqual(try setup.run(["favorites", "add", "0"]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: setup.file, encoding: .utf8), """
            {"version":1,"favorites":[
            {"id":2,"title":"Heat","year":1995},
            {"id":0,"title":"The Dark Knight Rises","year":2012}
            ]}

            """)
        // The default location's folders are created with mode 0700.
        XCTAssertEqual(try mode(setup.dataHome), 0o700)
        XCTAssertEqual(try mode(setup.dataHome + "/moviesearch"), 0o700)

        let again = try setup.run(["favorites", "add", "2"])
        XCTAssertEqual(again.standardOutput, "2 Heat (1995) is a favorite already (\(setup.file)).\n")

        let list = try setup.run(["favorites", "list"])
        XCTAssertEqual(list.status, 0, list.standardError)
        XCTAssertEqual(list.standardOutput, """
            2 favorites:
              5/5  2012  0  The Dark Knight Rises
              4/5  1995  2  Heat

            """)
        let json = try setup.run(["favorites", "--json"])
        XCTAssertEqual(json.standardOutput, """
            {"favorites":[{"id":0,"title":"The Dark Knight Rises","year":2012,"rating":5,"rating_scale":5,"genres":[],"cast":[],\
            "favorite":true,"missing":false},{"id":2,"title":"Heat","year":1995,"rating":4,"rating_scale":5,"genres":[],"cast":[],\
            "favorite":true,"missing":false}]}

            """)

        let remove = try setup.run(["favorites", "remove", "2", "--json"])
        XCTAssertEqual(remove.status, 0, remove.standardError)
        XCTAssertEqual(remove.standardOutput,
                       #"{"id":2,"title":"Heat","year":1995,"rating":4,"rating_scale":5,"genres":[],"cast":[],"favorite":false,"removed":true}"#
                        + "\n")
        XCTAssertEqual(try setup.run(["favorites", "--json"]).standardOutput.components(separatedBy: #""id":"#).count, 2)
        let none = try setup.run(["favorites", "remove", "2"])
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.standardOutput, "No favorite has id 2 (\(setup.file)): nothing to remove.\n")
    }

    /// With --json, every outcome of add and remove is one JSON object on standard output, nothing on standard
    /// error; `added`/`removed` say whether the file changed.
    func testEveryAddAndRemoveOutcomeIsJSON() throws {
        let setup = try setup()
        try FileManager.default.createDirectory(atPath: setup.dataHome + "/moviesearch",
                                                withIntermediateDirectories: true)
        // A favorite of an older catalog, no longer in this cache.
        try Data(#"{"version":1,"favorites":[{"id":50,"title":"Gone","year":1990}]}"#.utf8)
            .write(to: URL(fileURLWithPath: setup.file))
        let heat = #""id":2,"title":"Heat","year":1995,"rating":4,"rating_scale":5,"genres":[],"cast":[]"#
        let cases: [(arguments: [String], output: String)] = [
            (["favorites", "add", "2"], "{\(heat),\"favorite\":true,\"added\":true}"),
            (["favorites", "add", "2"], "{\(heat),\"favorite\":true,\"added\":false}"),
            (["favorites", "remove", "2"], "{\(heat),\"favorite\":false,\"removed\":true}"),
            (["favorites", "remove", "2"], "{\(heat),\"favorite\":false,\"removed\":false}"),
            (["favorites", "remove", "99"], #"{"id":99,"favorite":false,"removed":false}"#),
            // A missing favorite saved with id 50 is not removed by `remove 50`: that id names no movie now.
            (["favorites", "remove", "50"], #"{"id":50,"favorite":false,"removed":false}"#),
            (["favorites", "list"],
             #"{"favorites":[{"id":50,"title":"Gone","year":1990,"missing":true,"reason":"no movie of 1990 is titled so"}]}"#),
            (["favorites", "remove", "--missing"],
             #"{"removed":[{"id":50,"title":"Gone","year":1990,"missing":true,"reason":"no movie of 1990 is titled so"}]}"#),
            (["favorites", "remove", "--missing"], #"{"removed":[]}"#),
            (["favorites", "list"], #"{"favorites":[]}"#),
        ]
        for (arguments, output) in cases {
            let run = try setup.run(arguments + ["--json"])
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.standardError)")
            XCTAssertEqual(run.standardError, "", "\(arguments)")
            XCTAssertEqual(run.standardOutput, output + "\n", "\(arguments)")
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)), "\(arguments)")
        }
    }

    func testAddingAnIDTheCacheDoesNotHoldFailsAndWritesNothing() throws {
        let setup = try setup()
        let run = try setup.run(["favorites", "add", "99"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines.count, 1, run.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: setup.file))
    }

    func testAnExplicitFileIsUsedAndItsFolderIsNotCreated() throws {
        let setup = try setup()
        let folder = try TestPaths.temporaryFolder(self).path
        let mine = folder + "/mine.json"
        XCTAssertEqual(try setup.run(["favorites", "add", "3", "--favorites", mine]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: mine))
        XCTAssertFalse(FileManager.default.fileExists(atPath: setup.file), "the default file is not touched")
        let query = try setup.run(["query", "gone", "--favorites", mine])
        XCTAssertTrue(query.standardOutput.contains("Gone Girl ♥"), query.standardOutput)

        let missingFolder = folder + "/no/such/folder/f.json"
        let run = try setup.run(["favorites", "add", "3", "--favorites", missingFolder])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorLines, ["moviesearch: cannot save favorites: cannot create a temporary file beside "
            + "\(missingFolder): No such file or directory; the favorites file was left as it was"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/no"))
    }

    /// Many `favorites add` at once, each of another movie: every one is in the file afterwards. Each reads the
    /// file, adds and saves under the folder's lock (the first changes of a new data home make the folder first,
    /// to have a lock); without it, saves made from the same old file drop each other's movie.
    func testSimultaneousAddsAreAllKept() throws {
        let count = 16
        let catalog = "[" + (0..<count).map { #"{"title":"Movie \#($0)","year":2000}"# }.joined(separator: ",") + "]"
        let setup = try setup(catalog)
        for round in 0..<4 {
            // Even rounds are the first changes of a new data home (no folder to lock yet), odd ones find the folder.
            try? FileManager.default.removeItem(atPath: round % 2 == 0 ? setup.dataHome + "/moviesearch" : setup.file)
            try addAtOnce(count, setup, round: round) { _ in [] }
            XCTAssertEqual(try listedIDs(setup, []), Set(0..<count), "round \(round)")
        }
    }

    /// Runs `favorites add 0` … `add <count - 1>` at once, each with the arguments `extra` gives for its id, in
    /// `setup`'s data home; each must succeed.
    private func addAtOnce(_ count: Int, _ setup: Setup, round: Int, _ extra: (Int) -> [String]) throws {
        let binary = try ChildProcess.binary()
        let processes = (0..<count).map { id in
            let process = ChildProcess.configured(binary, ["favorites", "add", "\(id)", "--cache", setup.cache] + extra(id))
            process.environment?[ChildProcess.dataHomeVariable] = setup.dataHome
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        for process in processes {
            ChildProcess.waitForExit(process)
            XCTAssertEqual(process.terminationStatus, 0, "round \(round)")
        }
    }

    /// The ids `favorites list --json` (with `arguments`) lists.
    private func listedIDs(_ setup: Setup, _ arguments: [String]) throws -> Set<Int> {
        let list = try setup.run(["favorites", "list", "--json"] + arguments)
        let object = try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [String: Any]
        return Set((object?["favorites"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int })
    }

    /// Adds at once through two names of one file, a symbolic link in another folder and its target: every one is
    /// kept, and the link stays a link. The lock is the folder of the file a save replaces (the link resolved);
    /// the link's own folder would give each name a lock of its own, and about half the adds were lost.
    func testSimultaneousAddsThroughALinkAndItsTargetAreAllKept() throws {
        let count = 20
        let catalog = "[" + (0..<count).map { #"{"title":"Movie \#($0)","year":2000}"# }.joined(separator: ",") + "]"
        let setup = try setup(catalog)
        let folder = try TestPaths.temporaryFolder(self).path
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/symA", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder + "/symB", withIntermediateDirectories: true)
        // A relative link, resolved against the link's folder as `open` resolves it.
        try manager.createSymbolicLink(atPath: folder + "/symB/link.json", withDestinationPath: "../symA/f.json")
        let names = [folder + "/symA/f.json", folder + "/symB/link.json"]
        for round in 0..<2 {
            try? manager.removeItem(atPath: names[0])
            try addAtOnce(count, setup, round: round) { id in ["--favorites", names[id % 2]] }
            XCTAssertEqual(try listedIDs(setup, ["--favorites", names[1]]), Set(0..<count), "round \(round)")
            XCTAssertEqual(try manager.destinationOfSymbolicLink(atPath: names[1]), "../symA/f.json",
                           "the link stays a link")
        }
    }

    // MARK: Marks in query, top and show

    func testQueryTopAndShowMarkFavorites() throws {
        let setup = try setup()
        XCTAssertEqual(try setup.run(["favorites", "add", "0"]).status, 0)

        let query = try setup.run(["query", "dark"])
        XCTAssertEqual(query.status, 0, query.standardError)
        XCTAssertEqual(query.standardOutput, """
            "dark": 2 matches in 1 year

            2012 · 2 matches
              5/5  The Dark Knight Rises ♥
              3/5  Dark Shadows

            """)
        let json = try setup.run(["query", "dark", "--json"])
        XCTAssertTrue(json.standardOutput.contains(#""title":"The Dark Knight Rises","year":2012,"rating":5,"rating_scale":5,"genres":[],"cast":[],"favorite":true,"typos":0"#), json.standardOutput)
        XCTAssertTrue(json.standardOutput.contains(#""title":"Dark Shadows","year":2012,"rating":3,"rating_scale":5,"genres":[],"cast":[],"favorite":false,"typos":0"#), json.standardOutput)

        let batch = try setup.run(["query", "--stdin"], input: "dark kni\nheat\n")
        let lines = batch.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].contains(#""favorite":true"#), String(lines[0]))
        XCTAssertTrue(lines[1].contains(#""favorite":false"#), String(lines[1]))

        let top = try setup.run(["top", "--limit", "2"])
        XCTAssertEqual(top.standardOutput, """
            The 2 best-rated movies of 4:
              1.  5/5  2012  The Dark Knight Rises ♥
              2.  4/5  1995  Heat

            """)

        let show = try setup.run(["show", "0"])
        XCTAssertTrue(show.standardOutput.hasPrefix("The Dark Knight Rises ♥\n"), show.standardOutput)
        XCTAssertTrue(try setup.run(["show", "1"]).standardOutput.hasPrefix("Dark Shadows\n"))
        XCTAssertTrue(try setup.run(["show", "0", "--json"]).standardOutput.hasSuffix(#","favorite":true}"# + "\n"))
        XCTAssertTrue(try setup.run(["show", "2", "--json"]).standardOutput.hasSuffix(#","favorite":false}"# + "\n"))
    }

    // MARK: Files that must not be overwritten

    /// A damaged, foreign or newer file: add and remove fail with one line and leave it byte for byte; reading
    /// commands warn once and go on without marks.
    func testCorruptForeignAndNewerFilesAreNeverOverwritten() throws {
        let setup = try setup()
        try FileManager.default.createDirectory(atPath: setup.dataHome + "/moviesearch", withIntermediateDirectories: true)
        let contents = [
            (#"{"version":1,"favorites":[{"id":0,"title":"The Dark Knight Rises","year":2012}"#, "not a valid favorites file"),
            (#"{"theme":"dark"}"#, "not a moviesearch favorites file"),
            (#"{"version":3,"favorites":[{"id":0,"title":"The Dark Knight Rises","year":2012,"stars":5}]}"#,
             "favorites file version 3 is not supported"),
        ]
        for (content, words) in contents {
            let bytes = Data(content.utf8)
            try bytes.write(to: URL(fileURLWithPath: setup.file))
            for action in [["add", "1"], ["remove", "0"]] {
                let run = try setup.run(["favorites"] + action)
                XCTAssertEqual(run.status, 1, "\(action): \(run.standardError)")
                XCTAssertEqual(run.errorLines.count, 1, run.standardError)
                XCTAssertTrue(run.standardError.hasPrefix("moviesearch: \(setup.file): \(words)"), run.standardError)
                XCTAssertTrue(run.standardError.contains("left as it is"), run.standardError)
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: setup.file)), bytes, "byte for byte")
            }
            for command in [["query", "dark"], ["top"], ["show", "0", "--flickr-key", "k"], ["favorites"], ["query", "dark", "--json"]] {
                let run = try setup.run(command)
                XCTAssertEqual(run.status, 0, "\(command): \(run.standardError)")
                XCTAssertEqual(run.errorLines.count, 1, "\(command): one warning: \(run.standardError)")
                XCTAssertTrue(run.standardError.hasPrefix("moviesearch: warning: \(setup.file): \(words)"), run.standardError)
                XCTAssertFalse(run.standardOutput.contains("♥"), run.standardOutput)
                XCTAssertFalse(run.standardOutput.contains(#""favorite":true"#), run.standardOutput)
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: setup.file)), bytes, "byte for byte")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: setup.dataHome + "/moviesearch"),
                           ["favorites.json"], "no temporary file left")
        }
    }

    /// A folder the tool may not write to (mode 0500; as root, which writes anywhere, the tool runs as nobody on
    /// a folder nobody owns): one line, exit 1, the previous file as it was.
    func testUnwritableFolderGivesOneLineAndLosesNothing() throws {
        let setup = try setup()
        XCTAssertEqual(try setup.run(["favorites", "add", "0"]).status, 0)
        let folder = setup.dataHome + "/moviesearch"
        let before = try Data(contentsOf: URL(fileURLWithPath: setup.file))
        let binary = try ChildProcess.binary()
        var command = [binary, "favorites", "add", "1", "--cache", setup.cache]
        if geteuid() == 0 {
            // Root writes into any folder: the tool runs as nobody, through setpriv.
            let setpriv = try Requirement.tool("setpriv", package: "util-linux")
            // nobody must reach the cache and the folders on the way (temporary folders are 0755).
            for path in [setup.dataHome, folder, setup.file] {
                try FileManager.default.setAttributes([.ownerAccountID: 65534], ofItemAtPath: path)
            }
            command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + command
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder) }
        let outcome = try ChildProcess.run(command[0], Array(command.dropFirst()), environment: setup.environment)
        XCTAssertTrue(outcome.exited(1), outcome.summary)
        XCTAssertEqual(outcome.errorLines, ["moviesearch: cannot save favorites: cannot create a temporary file beside "
            + "\(setup.file): Permission denied; the favorites file was left as it was"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: setup.file)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["favorites.json"])
        // Reading still works there.
        let list = try ChildProcess.run(command[0], Array(command.dropFirst()).map { $0 == "add" ? "list" : $0 }
            .filter { $0 != "1" }, environment: setup.environment)
        XCTAssertTrue(list.exited(0), list.summary)
        XCTAssertTrue(list.standardOutput.contains("The Dark Knight Rises"), list.standardOutput)
    }

    // MARK: A rebuilt cache

    /// The catalog changes and the cache is rebuilt: a favorite whose id now holds another movie is found by title
    /// and year and marked there; one no longer in the catalog is listed as missing, marks nothing, and stays in
    /// the file through later changes.
    func testAfterARebuildMovedFavoritesAreFoundAndGoneOnesKept() throws {
        let setup = try setup()
        XCTAssertEqual(try setup.run(["favorites", "add", "0"]).status, 0)  // The Dark Knight Rises
        XCTAssertEqual(try setup.run(["favorites", "add", "3"]).status, 0)  // Gone Girl
        let changed = """
            [{"title":"Dark Shadows","year":2012,"rating":3},
             {"title":"Heat","year":1995,"rating":4},
             {"title":"The Dark Knight Rises","year":2012,"rating":5},
             {"title":"Collateral","year":2004,"rating":4}]
            """
        let catalog = try temporaryFile("changed.json", changed)
        let rebuild = try BinaryRun.run(["index", catalog, "-o", setup.cache])
        XCTAssertEqual(rebuild.status, 0, rebuild.standardError)

        let list = try setup.run(["favorites"])
        XCTAssertEqual(list.status, 0, list.standardError)
        XCTAssertEqual(list.standardOutput, """
            2 favorites, 1 not in this cache:
                  5/5  2012  2  The Dark Knight Rises
              missing  2014  -  Gone Girl  (saved as id 3; not in this cache: no movie of 2014 is titled so)

            """)
        let query = try setup.run(["query", "dark"])
        XCTAssertTrue(query.standardOutput.contains("5/5  The Dark Knight Rises ♥\n"), query.standardOutput)
        XCTAssertTrue(query.standardOutput.contains("3/5  Dark Shadows\n"), query.standardOutput)
        let json = try setup.run(["favorites", "--json"])
        XCTAssertTrue(json.standardOutput.contains(
            #"{"id":3,"title":"Gone Girl","year":2014,"missing":true,"reason":"no movie of 2014 is titled so"}"#),
                      json.standardOutput)

        XCTAssertEqual(try setup.run(["favorites", "add", "3"]).status, 0)  // Collateral, now at id 3
        XCTAssertEqual(try String(contentsOfFile: setup.file, encoding: .utf8), """
            {"version":1,"favorites":[
            {"id":2,"title":"The Dark Knight Rises","year":2012},
            {"id":3,"title":"Gone Girl","year":2014},
            {"id":3,"title":"Collateral","year":2004}
            ]}

            """)
        // `remove 3` removes the movie of this cache, never the missing entry saved with id 3, even when asked
        // twice; `remove --missing` drops that one on purpose.
        XCTAssertEqual(try setup.run(["favorites", "remove", "3"]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: setup.file, encoding: .utf8).contains("Gone Girl"))
        let again = try setup.run(["favorites", "remove", "3"])
        XCTAssertEqual(again.standardOutput, "No favorite has id 3 (\(setup.file)): nothing to remove.\n")
        XCTAssertTrue(try String(contentsOfFile: setup.file, encoding: .utf8).contains("Gone Girl"))
        let dropped = try setup.run(["favorites", "remove", "--missing"])
        XCTAssertEqual(dropped.standardOutput, "Removed 1 missing favorite (\(setup.file)):\n  2014  Gone Girl\n")
        XCTAssertFalse(try String(contentsOfFile: setup.file, encoding: .utf8).contains("Gone Girl"))
    }

    /// An IMDb-like rebuild: every id shifts and many titles are alike in one year. Favorites saved with their
    /// IMDb ids follow their movies; one whose IMDb id is gone is listed as missing, with the reason, and never
    /// becomes another "Episode #1.1" of that year; `remove <id>` of a movie that is no favorite removes nothing.
    func testAfterAShiftingRebuildFavoritesFollowTheirIMDbIDs() throws {
        func catalog(_ rows: [(String, String)]) -> String {
            "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres\n"
                + rows.map { "\($0.0)\ttvEpisode\t\($0.1)\t\($0.1)\t0\t2005\t\\N\t30\tDrama\n" }.joined()
        }
        let first = try temporaryFile("first.tsv", catalog(
            [("tt0000001", "Episode #1.1"), ("tt0000002", "Episode #1.1"), ("tt0000003", "Episode #1.1")]))
        let folder = try TestPaths.temporaryFolder(self).path
        let cache = folder + "/imdb.mscache"
        let setup = Setup(cache: cache, dataHome: folder + "/data")
        XCTAssertEqual(try BinaryRun.run(["index", first, "-o", cache, "--title-types", "all"]).status, 0)
        XCTAssertEqual(try setup.run(["favorites", "add", "1"]).status, 0)  // tt0000002
        XCTAssertEqual(try setup.run(["favorites", "add", "2"]).status, 0)  // tt0000003
        XCTAssertTrue(try String(contentsOfFile: setup.file, encoding: .utf8).contains(#""imdb_id":"tt0000002""#))

        // A new dump: two new episodes first (every id shifts by two), tt0000003 gone.
        let second = try temporaryFile("second.tsv", catalog(
            [("tt0000008", "Episode #1.1"), ("tt0000009", "Episode #1.1"), ("tt0000001", "Episode #1.1"),
             ("tt0000002", "Episode #1.1")]))
        XCTAssertEqual(try BinaryRun.run(["index", second, "-o", cache, "--title-types", "all"]).status, 0)
        let list = try setup.run(["favorites"])
        XCTAssertEqual(list.standardOutput, """
            2 favorites, 1 not in this cache:
              unrated  2005  3  Episode #1.1
              missing  2005  -  Episode #1.1  (saved as id 2; not in this cache: no movie has IMDb id tt0000003; \
            the 4 movies of 2005 titled so have other ids)

            """)
        let query = try setup.run(["query", "episode", "--json", "--per-year", "10"])
        XCTAssertEqual(query.standardOutput.components(separatedBy: #""favorite":true"#).count - 1, 1,
                       query.standardOutput)
        // Id 2 is tt0000001 now, never a favorite: `remove 2` removes nothing, the missing entry stays.
        let remove = try setup.run(["favorites", "remove", "2"])
        XCTAssertTrue(remove.standardOutput.hasPrefix("No favorite has id 2"), remove.standardOutput)
        XCTAssertTrue(try String(contentsOfFile: setup.file, encoding: .utf8).contains(#""imdb_id":"tt0000003""#))
    }

    /// The tests' own runs never see the developer's favorites: `BinaryRun` gives each an empty data home.
    func testRunsWithoutADataHomeOfTheirOwnSeeNoFavorites() throws {
        let cache = try indexedCache(try temporaryFile("movies.json", Self.catalog))
        let added = try BinaryRun.run(["favorites", "add", "0", "--cache", cache])
        XCTAssertEqual(added.status, 0, added.standardError)
        let listed = try BinaryRun.run(["favorites", "--cache", cache])
        XCTAssertTrue(listed.standardOutput.hasPrefix("No favorites yet"), "a new data home per run: \(listed.standardOutput)")
    }
}
