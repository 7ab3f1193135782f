import Foundation
@testable import MovieSearchCLI
import TestSupport
import XCTest

/// `moviesearch man` prints a man page that `man -l` (else groff or mandoc) renders, naming every subcommand and
/// every option the parser knows.
final class ManPageEndToEndTests: XCTestCase {
    /// The page rendered as plain text by whichever formatter is installed.
    private func rendered(_ page: String, language: String = "C.UTF-8") throws -> String {
        let folder = try TestPaths.temporaryFolder(self)
        let path = folder.appendingPathComponent("moviesearch.1").path
        try page.write(toFile: path, atomically: true, encoding: .utf8)
        let command: (String, [String])
        if let man = Requirement.findTool("man") {
            command = (man, ["-l", path])
        } else if let groff = Requirement.findTool("groff") {
            command = (groff, ["-man", "-Tutf8", path])
        } else if let mandoc = Requirement.findTool("mandoc") {
            command = (mandoc, ["-Tutf8", path])
        } else {
            throw Requirement.unmet("none of man, groff and mandoc found on PATH: install man-db to run this test")
        }
        // Wide, plain text: no pager, no hyphenation across lines that would split an option's name.
        let run = try ChildProcess.run(command.0, command.1,
                                       environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "250",
                                                     "MAN_KEEP_FORMATTING": "", "LANG": language, "LC_ALL": language],
                                       timeLimit: 60)
        XCTAssertTrue(run.exited(0), "\(run.summary) \(run.standardError)")
        XCTAssertFalse(run.standardError.contains("warning"), run.standardError)
        // Overstrike bold/underline (`x\bx`) removed, in case the formatter used it.
        var plain = ""
        for character in run.standardOutput {
            if character == "\u{8}" { if !plain.isEmpty { plain.removeLast() } } else { plain.append(character) }
        }
        return plain
    }

    func testTheManPageRendersEverySubcommandAndOption() throws {
        let run = try BinaryRun.run(["man"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.hasPrefix(".\\\""), String(run.standardOutput.prefix(80)))
        XCTAssertTrue(run.standardOutput.contains(".TH MOVIESEARCH 1"))
        let text = try rendered(run.standardOutput)
        XCTAssertTrue(text.contains("NAME"), text)
        XCTAssertTrue(text.contains("moviesearch - search a movie catalog offline"), text)

        // Every subcommand and option, as `--help` lists them: read from each subcommand's help, rendered in-process
        // (the text only; spawning the binary once a subcommand added nothing but time).
        let overview = MovieSearchCommand.run(arguments: ["--help"]).standardOutput
        let names = overview.components(separatedBy: "SUBCOMMANDS:\n")[1]
            .split(separator: "\n").prefix { !$0.isEmpty }
            .compactMap { line -> String? in
                line.hasPrefix("  ") && !line.hasPrefix("   ") ? String(line.split(separator: " ")[0]) : nil
            }
        XCTAssertEqual(names, MovieSearchCommand.subcommands.map { $0.name }, overview)
        for name in names {
            XCTAssertTrue(text.contains("moviesearch \(name)"), "no 'moviesearch \(name)' in the page")
            let help = MovieSearchCommand.run(arguments: [name, "--help"]).standardOutput
            let options = help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "[" || $0 == "]" })
                .filter { $0.hasPrefix("--") && $0.count > 2 }
                .map { String($0.prefix { $0 != "=" && $0 != "." && $0 != "'" && $0 != ")" }) }
            XCTAssertFalse(options.isEmpty, help)
            for option in Set(options) {
                XCTAssertTrue(text.contains(option), "\(name): \(option) missing from the man page")
            }
        }
        XCTAssertTrue(text.contains("EXIT STATUS"), text)
        XCTAssertTrue(text.contains("MOVIESEARCH_CACHE"), text)
    }

    /// The page is ASCII roff: every character past ASCII (the ♥, …, →) written as groff's `\[uXXXX]`, so that
    /// `man` renders ♥ in a UTF-8 locale and, under `LANG=C`, an ASCII stand-in rather than raw bytes as mojibake.
    func testThePageIsASCIIAndRendersInEveryLocale() throws {
        let page = try BinaryRun.run(["man"]).standardOutput
        let notASCII = page.unicodeScalars.filter { !$0.isASCII }
        XCTAssertTrue(notASCII.isEmpty, "raw non-ASCII in the page: \(String(String.UnicodeScalarView(notASCII)))")
        XCTAssertTrue(page.contains("\\[u2665]"), "the ♥ is escaped")
        let utf8 = try rendered(page)
        XCTAssertTrue(utf8.contains("♥"), utf8)
        let plain = try rendered(page, language: "C")
        XCTAssertFalse(plain.isEmpty)
        XCTAssertTrue(plain.unicodeScalars.allSatisfy(\.isASCII),
                      "non-ASCII under LANG=C: \(plain.unicodeScalars.filter { !$0.isASCII }.map { "U+\(String($0.value, radix: 16))" })")
        XCTAssertTrue(plain.contains("favorite"), plain)
    }
}
