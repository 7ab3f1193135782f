import Foundation
import XCTest
import TestSupport

/// Runs the built `moviesearch` with arguments and environment values given as raw bytes, which need not be valid
/// UTF-8 (`Process` takes `String`s, so it cannot pass a file name such as `lat\xE9.mscache`). Also creates,
/// renames and checks files by raw name.
enum RawBinaryRun {
    /// The bytes of `text` in UTF-8, for building raw arguments: `bytes("lat") + [0xE9] + bytes(".mscache")`.
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Runs the binary with `arguments` (raw bytes each) and the test's environment minus the variables that change
    /// what the tool reads (and `XDG_DATA_HOME` an empty folder of this run), plus `environment` (raw values). Standard input is empty; output goes through files.
    static func run(_ arguments: [[UInt8]], environment: [String: [UInt8]] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> BinaryRun {
        let binary = try ChildProcess.binary(file: file, line: line)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviesearch-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputPath = folder.appendingPathComponent("stdout").path
        let errorPath = folder.appendingPathComponent("stderr").path

        // As `ChildProcess`: favorites default to an empty folder of this run, unless `environment` names one.
        let dataHome = folder.appendingPathComponent("data-home")
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        var inherited = ProcessInfo.processInfo.environment
        inherited[ChildProcess.dataHomeVariable] = dataHome.path
        var variables: [[UInt8]] = inherited
            .filter { !ChildProcess.ignoredVariables.contains($0.key) && environment[$0.key] == nil }
            .map { bytes("\($0.key)=\($0.value)") }
        variables += environment.map { bytes($0.key + "=") + $0.value }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv = [bytes(binary)] + arguments
        var pid = pid_t()
        let spawned = withCStrings(argv) { argvPointers in
            withCStrings(variables) { environmentPointers in
                posix_spawn(&pid, binary, &actions, nil, argvPointers, environmentPointers)
            }
        }
        guard spawned == 0 else {
            XCTFail("posix_spawn failed: \(String(cString: strerror(spawned)))", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        XCTAssertTrue(exited, "moviesearch was killed by signal \(status & 0x7F)", file: file, line: line)
        return BinaryRun(status: exited ? (status >> 8) & 0xFF : -1,
                         standardOutput: try String(contentsOfFile: outputPath, encoding: .utf8),
                         standardError: try String(contentsOfFile: errorPath, encoding: .utf8))
    }

    /// Calls `body` with a NULL-terminated array of C strings holding `strings`.
    private static func withCStrings<Result>(
        _ strings: [[UInt8]], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { string in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: string.count + 1)
            for (offset, byte) in string.enumerated() { pointer[offset] = CChar(bitPattern: byte) }
            pointer[string.count] = 0
            return pointer
        } + [nil]
        defer { for pointer in pointers { pointer?.deallocate() } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Whether a file exists at the raw path `path`.
    static func exists(_ path: [UInt8]) -> Bool {
        withCStrings([path]) { access($0[0]!, F_OK) == 0 }
    }

    /// Renames the file at the raw path `from` to the raw path `to`.
    static func rename(_ from: [UInt8], to: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        #if canImport(Glibc)
        let result = withCStrings([from, to]) { Glibc.rename($0[0]!, $0[1]!) }
        #else
        let result = withCStrings([from, to]) { Darwin.rename($0[0]!, $0[1]!) }
        #endif
        XCTAssertEqual(result, 0, "rename failed: \(String(cString: strerror(errno)))", file: file, line: line)
    }

    /// The contents of the file at the raw path `path`.
    static func contents(_ path: [UInt8]) throws -> Data {
        let descriptor = withCStrings([path]) { open($0[0]!, O_RDONLY) }
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readDataToEndOfFile()
    }
}
