import Foundation
import MovieSearch
@testable import MovieSearchCLI
import TestSupport
import XCTest

/// `moviesearch completions bash|zsh|fish`: the scripts are loaded into the real shells. bash's is sourced and its
/// completion function run on command lines (what Tab would offer, `COMPREPLY`); zsh's and fish's are checked for
/// syntax, and fish's answers `complete -C` for real. Then each shell runs interactively in tmux, and Tab is
/// pressed on file names with a space, a quote and glob characters, a folder, a choice, and a genre of the cache
/// (`moviesearch genres`, run by the script), as a person would.
final class CompletionEndToEndTests: XCTestCase {
    private func script(_ shell: String) throws -> String {
        let folder = try TestPaths.temporaryFolder(self)
        let run = try BinaryRun.run(["completions", shell])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardError, "")
        let path = folder.appendingPathComponent("moviesearch.\(shell)").path
        try run.standardOutput.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// What bash's completion function offers for `words` (the last is the word being completed), one per line,
    /// sorted; nothing may be written on standard error.
    private func bashCompletions(_ words: [String], script: String, in folder: String? = nil,
                                 environment: [String: String] = [:]) throws -> [String] {
        let bash = try Requirement.tool("bash")
        let program = """
            source \(quoted(script)) || exit 9
            \(folder.map { "cd \(quoted($0)) || exit 9" } ?? "")
            COMP_WORDS=(\(words.map(quoted).joined(separator: " ")))
            COMP_CWORD=\(words.count - 1)
            COMPREPLY=()
            _moviesearch
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try ChildProcess.run(bash, ["--norc", "--noprofile", "-c", program], environment: environment,
                                       timeLimit: 30)
        XCTAssertTrue(run.exited(0), "\(run.summary) \(run.standardError)")
        XCTAssertEqual(run.standardError, "", "\(words)")
        return run.standardOutput.split(separator: "\n").map(String.init).sorted()
    }

    func testBashCompletesSubcommandsOptionsChoicesAndFiles() throws {
        let path = try script("bash")
        XCTAssertEqual(try bashCompletions(["moviesearch", "q"], script: path), ["query"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "co"], script: path), ["completions"])
        let all = try bashCompletions(["moviesearch", ""], script: path)
        for name in MovieSearchCommand.subcommandNames {
            XCTAssertTrue(all.contains(name), "\(name) missing from \(all)")
        }
        XCTAssertEqual(try bashCompletions(["moviesearch", "--v"], script: path), ["--version"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "query", "--ty"], script: path), ["--typos"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "query", "--typos", ""], script: path), ["auto", "off"])
        // `--typos=o`: bash splits the word at '='.
        XCTAssertEqual(try bashCompletions(["moviesearch", "query", "--typos", "=", "o"], script: path), ["off"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "query", "--color", "a"], script: path),
                       ["always", "auto"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "show", "3", "--poster-size", "w1"], script: path),
                       ["w154", "w185"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "index", "x.json", "--format", "c"], script: path), ["csv"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "completions", ""], script: path), ["bash", "fish", "zsh"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "help", "sh"], script: path), ["show"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "favorites", ""], script: path), ["add", "list", "remove"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "favorites", "r"], script: path), ["remove"])
        // Numbers, query texts and movie ids: nothing (not file names).
        let folder = try TestPaths.temporaryFolder(self)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("movies.json").path, contents: Data())
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("movies.mscache").path, contents: Data())
        XCTAssertEqual(try bashCompletions(["moviesearch", "show", ""], script: path, in: folder.path), [])
        XCTAssertEqual(try bashCompletions(["moviesearch", "photos", ""], script: path, in: folder.path), [])
        XCTAssertEqual(try bashCompletions(["moviesearch", "query", ""], script: path, in: folder.path), [])
        XCTAssertEqual(try bashCompletions(["moviesearch", "query", "--per-year", ""], script: path, in: folder.path), [])
        // Paths: file names, for an option and for `index`'s catalog, also after an option and its value.
        XCTAssertEqual(try bashCompletions(["moviesearch", "query", "--cache", "movies.m"], script: path,
                                           in: folder.path), ["movies.mscache"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "index", "--format", "json", "mo"], script: path,
                                           in: folder.path), ["movies.json", "movies.mscache"])
        XCTAssertEqual(try bashCompletions(["moviesearch", "index", "movies.json", "-o", "movies.ms"], script: path,
                                           in: folder.path), ["movies.mscache"])
        // Options of the subcommand given, and `--help`.
        let options = try bashCompletions(["moviesearch", "show", "--"], script: path)
        XCTAssertTrue(options.contains("--json") && options.contains("--cache") && options.contains("--help"),
                      "\(options)")
        XCTAssertFalse(options.contains("--typos"), "\(options)")
    }

    /// Genres with a space, a quote, accents and control characters (shown escaped, as `genres` prints them).
    private static let genreCatalog = Catalog(movies: [
        Movie(id: 0, title: "Alien", year: 1979, rating: 8.5, genres: ["Science Fiction", "Horror"]),
        Movie(id: 1, title: "Amélie", year: 2001, rating: 8.3, genres: ["Comédie", "Drama"]),
        Movie(id: 2, title: "School of Rock", year: 2003, rating: 7.2, genres: ["Rock 'n' Roll", "Documentary"]),
        Movie(id: 3, title: "Evil", year: 2020, rating: 1, genres: ["Evil\u{1B}[2J"]),
    ])

    /// A cache of `genreCatalog` and the environment that puts the tested `moviesearch` on `PATH` (the scripts
    /// run it by name).
    private func genreCache() throws -> (cache: String, environment: [String: String]) {
        let cache = try TestPaths.temporaryFolder(self).appendingPathComponent("genres.mscache").path
        _ = try CacheWriter.write(Self.genreCatalog, to: cache)
        let binary = URL(fileURLWithPath: try ChildProcess.binary()).deletingLastPathComponent().path
        return (cache, ["PATH": binary + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
    }

    func testGenresListsTheCatalogsGenresOneALineEscaped() throws {
        let (cache, _) = try genreCache()
        let run = try BinaryRun.run(["genres", "--cache", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput.split(separator: "\n").map(String.init),
                       ["Comédie", "Documentary", "Drama", #"Evil\e[2J"#, "Horror", "Rock 'n' Roll", "Science Fiction"])
        let missing = try BinaryRun.run(["genres", "--cache", cache + ".missing"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.standardOutput, "")
    }

    /// bash offers the genres of the cache named on the command line (`--cache f`, `--cache=f`) that start with the
    /// word, case aside, quoted as bash needs; after `--genre=` too; nothing, silently, without a cache.
    func testBashOffersTheCachesGenresForGenre() throws {
        let path = try script("bash")
        let (cache, environment) = try genreCache()
        func offered(_ words: [String]) throws -> [String] {
            try bashCompletions(["moviesearch"] + words, script: path, environment: environment)
        }
        XCTAssertEqual(try offered(["query", "dark", "--cache", cache, "--genre", "Dr"]), ["Drama"])
        XCTAssertEqual(try offered(["top", "--cache", cache, "--genre", "d"]), ["Documentary", "Drama"])
        XCTAssertEqual(try offered(["browse", "--cache", "=", cache, "--genre", "sci"]), [#"Science\ Fiction"#])
        XCTAssertEqual(try offered(["bench", "--cache", cache, "--genre", "=", "R"]), [#"Rock\ \'n\'\ Roll"#])
        XCTAssertEqual(try offered(["query", "x", "--cache", cache, "--genre", #"Science\ F"#]), [#"Science\ Fiction"#])
        XCTAssertEqual(try offered(["query", "x", "--cache", cache, "--genre", "\"Sci"]), ["\"Science Fiction\""])
        XCTAssertEqual(try offered(["query", "x", "--cache", cache, "--genre", "Com"]), ["Comédie"])
        XCTAssertEqual(try offered(["query", "x", "--cache", cache, "--genre", "Ev"]), [#"Evil\\e\[2J"#])
        XCTAssertEqual(try offered(["query", "x", "--cache", cache, "--genre", "zz"]), [])
        // Every genre for an empty word; none without a cache, and nothing on standard error.
        XCTAssertEqual(try offered(["query", "x", "--cache", cache, "--genre", ""]).count, 7)
        XCTAssertEqual(try offered(["query", "x", "--cache", cache + ".missing", "--genre", "D"]), [])
        XCTAssertEqual(try bashCompletions(["moviesearch", "query", "x", "--genre", "D"], script: path,
                                           environment: environment.merging(
                                               ["MOVIESEARCH_CACHE": cache + ".missing"]) { $1 }), [])
        // Other options still offer their own values; --cast offers nothing.
        XCTAssertEqual(try offered(["query", "x", "--cache", cache, "--cast", "D"]), [])
        XCTAssertEqual(try offered(["query", "x", "--cache", cache, "--typos", "o"]), ["off"])
    }

    func testZshScriptParses() throws {
        let zsh = try Requirement.tool("zsh")
        let path = try script("zsh")
        let run = try ChildProcess.run(zsh, ["-n", path], timeLimit: 30)
        XCTAssertTrue(run.exited(0), "\(run.summary) \(run.standardError)")
        XCTAssertEqual(run.standardError, "")
        // Loaded after compinit, it registers itself for moviesearch.
        let loaded = try ChildProcess.run(zsh, ["-f", "-c", """
            autoload -Uz compinit && compinit -u -D && source \(quoted(path)) && print -r -- $_comps[moviesearch]
            """], timeLimit: 30)
        XCTAssertTrue(loaded.exited(0), "\(loaded.summary) \(loaded.standardError)")
        XCTAssertEqual(loaded.standardOutput, "_moviesearch\n")
    }

    func testFishScriptParsesAndCompletes() throws {
        let fish = try Requirement.tool("fish")
        let path = try script("fish")
        let syntax = try ChildProcess.run(fish, ["--no-execute", path], timeLimit: 30)
        XCTAssertTrue(syntax.exited(0), "\(syntax.summary) \(syntax.standardError)")

        func complete(_ line: String) throws -> [String] {
            let run = try ChildProcess.run(fish, ["--no-config", "-c", "source \(quoted(path)); complete -C \(quoted(line))"],
                                           environment: ["HOME": try TestPaths.temporaryFolder(self).path],
                                           timeLimit: 30)
            XCTAssertTrue(run.exited(0), "\(run.summary) \(run.standardError)")
            return run.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
        }
        XCTAssertEqual(try complete("moviesearch qu"), ["query"])
        XCTAssertEqual(try complete("moviesearch query --typos "), ["auto", "off"])
        XCTAssertEqual(try complete("moviesearch completions "), ["bash", "fish", "zsh"])
        XCTAssertEqual(try complete("moviesearch favorites "), ["add", "list", "remove"])
        XCTAssertEqual(try complete("moviesearch show "), [])
        XCTAssertTrue(try complete("moviesearch query --").contains("--per-year"))
        // --genre: the genres of the command line's cache; nothing without one.
        let (cache, environment) = try genreCache()
        func completeGenre(_ line: String) throws -> [String] {
            let run = try ChildProcess.run(fish, ["--no-config", "-c", "source \(quoted(path)); complete -C \(quoted(line))"],
                                           environment: environment.merging(
                                               ["HOME": try TestPaths.temporaryFolder(self).path]) { $1 },
                                           timeLimit: 30)
            XCTAssertTrue(run.exited(0), "\(run.summary) \(run.standardError)")
            XCTAssertEqual(run.standardError, "", line)
            return run.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
        }
        XCTAssertEqual(try completeGenre("moviesearch query x --cache \(cache) --genre "),
                       ["Comédie", "Documentary", "Drama", #"Evil\e[2J"#, "Horror", "Rock 'n' Roll", "Science Fiction"])
        XCTAssertEqual(try completeGenre("moviesearch top --cache=\(cache) --genre Dr"), ["Drama"])
        XCTAssertEqual(try completeGenre("moviesearch browse --cache \(cache).missing --genre D"), [])
    }

    // MARK: Tab in a real shell

    /// The names the Tab tests complete: a space, a quote, glob characters, and a folder with a space.
    private static let awkwardNames = ["my movies.json", "it's here.json", "star*[x].json"]

    /// A folder holding `awkwardNames` and the folder `sub dir`, and `moviesearch` on `PATH` there.
    private func awkwardFolder() throws -> (folder: String, path: String) {
        let folder = try TestPaths.temporaryFolder(self).path
        for name in Self.awkwardNames { try Data().write(to: URL(fileURLWithPath: folder + "/" + name)) }
        try FileManager.default.createDirectory(atPath: folder + "/sub dir", withIntermediateDirectories: true)
        let binary = URL(fileURLWithPath: try ChildProcess.binary()).deletingLastPathComponent().path
        return (folder, binary + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"))
    }

    /// Types each of `lines` into `shell`, started in `folder` with `setup` run first, presses Tab, and returns the
    /// command line the shell shows then (the prompt is `$ `), one per line typed.
    private func tabCompleted(_ shell: [String], setup: String, lines: [String], folder: String,
                              environment: [String: String]) throws -> [String] {
        let session = try TmuxSession(test: self, shell, environment: environment, columns: 150, rows: 40)
        try session.waitUntil("the shell's first prompt") { $0.contains { !$0.isEmpty } }
        session.type(setup)
        session.press("Enter")
        try session.waitForText("ready")
        var completed: [String] = []
        for line in lines {
            session.type(line)
            session.press("Tab")
            // The line grows past what was typed once the shell has completed it.
            let screen = try session.waitUntil("\(line) completed") { screen in
                guard let last = screen.last(where: { $0.hasPrefix("$ ") }) else { return false }
                return last.count > 2 + line.count && last.hasPrefix("$ " + line.prefix(18))
            }
            let prompt = try XCTUnwrap(screen.last { $0.hasPrefix("$ ") }, "no prompt line")
            completed.append(String(prompt.dropFirst(2)).trimmingCharacters(in: .whitespaces))
            session.press("C-u")
            try session.waitUntil("line cleared") { $0.last(where: { $0.hasPrefix("$") }) == "$" }
        }
        return completed
    }

    private static let typedLines = ["moviesearch index my", "moviesearch index it", "moviesearch index st",
                                     "moviesearch index su", "moviesearch query dark --typos o",
                                     "moviesearch query dark --genre scien"]

    /// What Tab makes of `typedLines`, in every shell.
    private static let completedLines = [
        #"moviesearch index my\ movies.json"#, #"moviesearch index it\'s\ here.json"#,
        #"moviesearch index star\*\[x\].json"#, #"moviesearch index sub\ dir/"#, "moviesearch query dark --typos off",
        #"moviesearch query dark --genre Science\ Fiction"#,
    ]

    /// bash: Tab after `index my` gives the whole name `my\ movies.json`, not `my` and `movies.json` as two words
    /// (the script used to split compgen's output at spaces), and quotes and glob characters come back escaped.
    func testBashTabCompletesNamesWithSpacesQuotesAndGlobs() throws {
        let bash = try Requirement.tool("bash")
        let (folder, path) = try awkwardFolder()
        let script = try script("bash")
        let completed = try tabCompleted(
            ["/usr/bin/env", "-C", folder, "PS1=$ ", bash, "--norc", "--noprofile"],
            setup: "source \(quoted(script)); echo ready", lines: Self.typedLines, folder: folder,
            environment: ["PATH": path, "MOVIESEARCH_CACHE": try genreCache().cache])
        XCTAssertEqual(completed, Self.completedLines)
    }

    /// zsh, its completion system started with no user files (`zsh -f`, `compinit`), the script on `fpath`.
    func testZshTabCompletesNamesWithSpacesQuotesAndGlobs() throws {
        let zsh = try Requirement.tool("zsh")
        let (folder, path) = try awkwardFolder()
        let functions = try TestPaths.temporaryFolder(self).path
        try Data(try String(contentsOfFile: try script("zsh"), encoding: .utf8).utf8)
            .write(to: URL(fileURLWithPath: functions + "/_moviesearch"))
        let completed = try tabCompleted(
            ["/usr/bin/env", "-C", folder, "PS1=$ ", zsh, "-f"],
            setup: "fpath=(\(quoted(functions)) $fpath); autoload -Uz compinit; compinit -u; PS1='$ '; echo ready",
            lines: Self.typedLines, folder: folder, environment: ["PATH": path, "MOVIESEARCH_CACHE": try genreCache().cache])
        XCTAssertEqual(completed, Self.completedLines)
    }

    /// fish, with no configuration of the user's (`--no-config`, a home of the test's own).
    func testFishTabCompletesNamesWithSpacesQuotesAndGlobs() throws {
        let fish = try Requirement.tool("fish")
        let (folder, path) = try awkwardFolder()
        let home = try TestPaths.temporaryFolder(self).path
        let completed = try tabCompleted(
            ["/usr/bin/env", "-C", folder, fish, "--no-config"],
            setup: "source \(quoted(try script("fish"))); function fish_prompt; echo -n '$ '; end; echo ready",
            lines: Self.typedLines, folder: folder,
            environment: ["PATH": path, "MOVIESEARCH_CACHE": try genreCache().cache, "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"])
        XCTAssertEqual(completed, Self.completedLines)
    }
}
