import Foundation
import XCTest

/// A program on `PATH` that a test drives (bash, zsh, fish, man, groff): found, or the test is skipped with a
/// message saying what to install; under CI (env `CI` set) a missing tool fails the test, as `.ci/run` installs
/// them.
enum ExternalTool {
    /// The path of `name` on `PATH`, or `nil`.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The path of `name`, else a skip (or, under CI, a failure) that says to install `package`.
    static func require(_ name: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        if let found = find(name) { return found }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("CI needs \(name) for this test (apt-get install \(package))", file: file, line: line)
        }
        throw XCTSkip("\(name) not found: install \(package) to run this test")
    }
}
