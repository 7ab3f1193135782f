import Foundation
import TestSupport
import XCTest

/// SPEC.md "Tokens" applied literally by Python's `unicodedata` and `str.casefold()`: an implementation that
/// shares no code or table with `Tokenizer`, to compare it with.
///
/// Strings travel as hexadecimal UTF-8, one per line, through files, so that no JSON or pipe encoding can alter a
/// scalar on the way and a large batch cannot deadlock a pipe.
enum PythonTokenizer {
    /// The spec, step by step. The first output line is the Unicode version of `unicodedata`.
    static let script = #"""
        import sys, unicodedata

        APOSTROPHES = {"\u0027", "\u2018", "\u2019", "\u02bc"}

        def decompose_without_nonspacing_marks(s):  # steps 1 and 3
            return "".join(c for c in unicodedata.normalize("NFKD", s) if unicodedata.category(c) != "Mn")

        def is_token_character(c):  # step 5
            category = unicodedata.category(c)
            return category[0] in "LN" or category in ("Mc", "Me")

        def tokens(s):
            s = decompose_without_nonspacing_marks(s)
            s = s.casefold()
            s = decompose_without_nonspacing_marks(s)
            s = "".join(c for c in s if c not in APOSTROPHES)
            result, token = [], ""
            for c in s:
                if is_token_character(c):
                    token += c
                elif token:
                    result.append(token)
                    token = ""
            if token:
                result.append(token)
            return result

        with open(sys.argv[1], encoding="ascii") as source, open(sys.argv[2], "w", encoding="ascii") as out:
            out.write(unicodedata.unidata_version + "\n")
            for line in source:
                text = bytes.fromhex(line.strip()).decode("utf-8")
                out.write(" ".join(t.encode("utf-8").hex() for t in tokens(text)) + "\n")
        """#

    /// Python's tokens of each string, as UTF-8 bytes.
    ///
    /// Throws `XCTSkip` when `python3` is missing or its Unicode version is not `unicodeVersion` (the comparison
    /// would then be meaningless), unless the environment variable `CI` is set: there, that is a failure
    /// (`Requirement`).
    static func tokens(of strings: [String], unicodeVersion: String) throws -> [[[UInt8]]] {
        let python = try Requirement.tool("python3")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("moviesearch-tokens-\(ProcessInfo.processInfo.processIdentifier)-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptFile = directory.appendingPathComponent("tokens.py")
        let input = directory.appendingPathComponent("input.txt")
        let output = directory.appendingPathComponent("output.txt")
        let errors = directory.appendingPathComponent("errors.txt")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        try strings.map { hex(Array($0.utf8)) + "\n" }.joined().write(to: input, atomically: true, encoding: .ascii)
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw Failure(description: "cannot create \(errors.path)")
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scriptFile.path, input.path, output.path]
        let errorHandle = try FileHandle(forWritingTo: errors)
        process.standardError = errorHandle
        try process.run()
        ChildProcess.waitForExit(process)
        try errorHandle.close()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failure(description: "python3 failed with status \(process.terminationStatus): \(message)")
        }

        var lines = try String(contentsOf: output, encoding: .ascii).components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard let version = lines.first else { throw Failure(description: "python3 wrote nothing") }
        guard version == unicodeVersion else {
            let mismatch = "python3's unicodedata is Unicode \(version), the tables are Unicode \(unicodeVersion)"
            throw Requirement.unmet(mismatch + ": use a python3 of that version, or regenerate the tables with it")
        }
        guard lines.count == strings.count + 1 else {
            throw Failure(description: "python3 answered \(lines.count - 1) lines for \(strings.count) strings")
        }
        return try lines.dropFirst().map { line in
            try line.split(separator: " ").map { token in
                guard let bytes = bytes(hex: token) else { throw Failure(description: "bad output line: \(line)") }
                return bytes
            }
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = UInt8(String(UnicodeScalar(digits[i])), radix: 16),
                  let low = UInt8(String(UnicodeScalar(digits[i + 1])), radix: 16) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// Python could not give an answer to compare with.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
