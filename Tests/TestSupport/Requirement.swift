import Foundation
import XCTest

/// What a test needs from the machine it runs on, beyond the package itself: a program (`tmux`, `bash`, `zsh`,
/// `fish`, `script`, `man`, `setsid`, `python3`, …), the shared data in `../shared`, a pseudo-terminal.
///
/// A test asks for it before using it, and gets its path:
///
///     let tmux = try Requirement.tool("tmux")
///     let script = try Requirement.tool("script", package: "bsdutils")
///     let catalog = try Requirement.sharedData("data/movies.json")
///
/// When the need is not met, the test is skipped with a message saying what is missing and how to get it
/// (`XCTSkip`). When the environment variable `CI` is set, it fails instead (it throws `Unmet`): `.ci/run`
/// installs every program these tests use and runs beside `../shared`, so there a skip would only hide a test that
/// never ran.
package enum Requirement {
    /// Whether this is a CI run: the environment variable `CI` is set, to anything.
    private static var isCI: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil
    }

    /// The path of the program `name` on `PATH`.
    ///
    /// - Parameters:
    ///   - name: The program's file name, looked up as a shell would.
    ///   - package: What to install to get it (the Debian package, as `.ci/run` installs it); `name` if omitted.
    ///   - file: The file the skip is reported in: the caller's.
    ///   - line: The line the skip is reported at: the caller's.
    /// - Returns: The first executable file called `name` in the folders of `PATH`.
    /// - Throws: `XCTSkip` when there is none, `Unmet` when there is none and `CI` is set.
    package static func tool(_ name: String, package: String? = nil, file: StaticString = #filePath,
                             line: UInt = #line) throws -> String {
        if let path = findTool(name) { return path }
        throw unmet("\(name) not found on PATH: install \(package ?? name) to run this test", file: file, line: line)
    }

    /// The path of the program `name` on `PATH`, or `nil`: for a test that can use any of several programs, and
    /// asks `tool(_:package:)` for the one it prefers when none is there.
    package static func findTool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The path of `relative` (for example `data/movies.json`) inside the shared data, `SharedData.folder`.
    ///
    /// - Throws: `XCTSkip` when there is no such file, `Unmet` when there is none and `CI` is set; `file` and
    ///   `line` say where the skip is reported.
    package static func sharedData(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let path = SharedData.folder.appendingPathComponent(relative).path
        if FileManager.default.fileExists(atPath: path) { return path }
        throw unmet("\(path) not found: this test needs the project's shared data in ../shared beside the package",
                    file: file, line: line)
    }

    /// The error to throw for any other need this machine does not meet: `XCTSkip` with `message`, or `Unmet` when
    /// `CI` is set.
    ///
    /// - Parameters:
    ///   - message: What is missing and, where it helps, how to get it, as one line.
    ///   - file: The file the skip is reported in: the caller's.
    ///   - line: The line the skip is reported at: the caller's.
    package static func unmet(_ message: String, file: StaticString = #filePath, line: UInt = #line) -> any Error {
        isCI ? Unmet(message: message) : XCTSkip(message, file: file, line: line)
    }

    /// A need of a test that a CI run does not meet: thrown, it fails the test with this description.
    package struct Unmet: Error, CustomStringConvertible {
        /// What is missing, as the skip outside CI would say it.
        package var message: String

        package var description: String {
            "\(message) (CI is set: CI must provide what every test needs)"
        }
    }
}
