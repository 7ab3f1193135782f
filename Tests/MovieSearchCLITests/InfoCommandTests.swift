import Foundation
import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchIndex
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// `moviesearch info` in-process: its text and JSON for a cache of the small fixture, and the one-line errors for
/// what is not a cache this build reads.
final class InfoCommandTests: XCTestCase {
    private func cache(_ catalog: Catalog = Fixtures.small) throws -> String {
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("small.mscache").path
        _ = try CacheWriter.write(catalog, to: path)
        return path
    }

    /// Thousands separators off: `1,234` → 1234.
    private func number(_ text: Substring) -> Int? { Int(text.replacingOccurrences(of: ",", with: "")) }

    func testTheTextListsEverySectionLargestFirstAndGroupsThatAddUp() throws {
        let path = try cache()
        let layout = try MovieIndex(path: path).layout
        let result = MovieSearchCommand.run(arguments: ["info", "--cache", path])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardError, "")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let size = layout.fileLength
        XCTAssertEqual(lines[0], "\(path): format version \(CacheFormat.version), \(TextLayout.grouped(size)) bytes "
            + "(\(TextLayout.byteSize(size))), checksum blocks of 4,096 bytes")
        XCTAssertEqual(lines[1], "16 movies, \(layout.termCount) terms, 7 years")
        // The columns are as wide as their widest figure: the header's words, whatever the spaces between them.
        XCTAssertEqual(lines[2].split(separator: " "), ["section", "kind", "width", "entries", "bytes", "%", "holds"])
        let rows = Array(lines[3..<(3 + layout.sections.count)])
        var seen: [String] = []
        var previous = Int.max
        for row in rows {
            let fields = row.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: true)
            XCTAssertEqual(fields.count, 7, row)
            let section = try XCTUnwrap(layout.sections.first { $0.tag == fields[0] }, row)
            seen.append(section.tag)
            XCTAssertEqual(String(fields[1]), section.kind.rawValue, row)
            XCTAssertEqual(String(fields[2]), section.kind == .packed ? String(section.width) : "-", row)
            XCTAssertEqual(number(fields[3]), section.count, row)
            XCTAssertEqual(number(fields[4]), section.length, row)
            XCTAssertEqual(String(fields[6].drop { $0 == " " }), section.summary, row)
            XCTAssertLessThanOrEqual(section.length, previous, "largest first: \(row)")
            previous = section.length
        }
        XCTAssertEqual(Set(seen).count, layout.sections.count)
        XCTAssertEqual(lines[3 + rows.count], "")
        // One line per group (no unknown sections, so no line for them), which add up to the file's size.
        let totals = Array(lines[(4 + rows.count)...].filter { !$0.isEmpty })
        XCTAssertEqual(totals.map { $0.prefix { $0 != ":" } }, ["search", "records", "top lists", "filters", "file structure"])
        let sum = totals.compactMap { line in
            line.split(separator: ": ", maxSplits: 1).last.flatMap { self.number($0.prefix { $0 != " " }) }
        }.reduce(0, +)
        XCTAssertEqual(sum, size)
        XCTAssertEqual(totals[4], "file structure: \(TextLayout.grouped(layout.bytes(in: .structure))) bytes "
            + "(\(CacheLayoutText.percent(layout.bytes(in: .structure), of: size)) %): header 64, "
            + "directory \(TextLayout.grouped(32 * layout.sections.count)), "
            + "padding \(TextLayout.grouped(layout.paddingLength)), "
            + "checksums \(TextLayout.grouped(layout.checksumLength))")
    }

    func testTheJSONHasTheDeclaredMembersAndAddsUp() throws {
        let path = try cache()
        let layout = try MovieIndex(path: path).layout
        let result = MovieSearchCommand.run(arguments: ["info", "--json", "--cache", path])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardOutput.hasSuffix("}\n"))
        XCTAssertEqual(result.standardOutput.filter { $0 == "\n" }.count, 1)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        guard case .object(let parsed) = try JSONParser.parse(Array(result.standardOutput.utf8.dropLast())) else {
            return XCTFail(result.standardOutput)
        }
        XCTAssertEqual(parsed.members.map(\.key), CacheLayoutJSON.members.map(\.name))
        XCTAssertEqual(object["version"] as? Int, Int(CacheFormat.version))
        XCTAssertEqual(object["file_bytes"] as? Int, layout.fileLength)
        XCTAssertEqual(object["block_size"] as? Int, 4096)
        XCTAssertEqual(object["movie_count"] as? Int, 16)
        XCTAssertEqual(object["year_count"] as? Int, 7)
        let sections = try XCTUnwrap(object["sections"] as? [[String: Any]])
        XCTAssertEqual(sections.map { $0["tag"] as? String }, layout.sections.map(\.tag))
        for section in sections {
            XCTAssertEqual(section.keys.sorted(), CacheLayoutJSON.sectionMembers.map(\.name).sorted())
        }
        let groups = try XCTUnwrap(object["groups"] as? [String: Int])
        XCTAssertEqual(Set(groups.keys), ["search", "records", "top_lists", "filters", "structure", "unknown"])
        XCTAssertEqual(groups.values.reduce(0, +), layout.fileLength)
        let sectionBytes = sections.compactMap { $0["bytes"] as? Int }.reduce(0, +)
        let structure = try XCTUnwrap(object["structure"] as? [String: Int])
        XCTAssertEqual(structure.values.reduce(0, +), groups["structure"])
        XCTAssertEqual(sectionBytes + structure.values.reduce(0, +), layout.fileLength)
    }

    /// A missing file, a file that is not a cache, and a cache of another format version: one line each, status 1,
    /// the version's in the words every command uses (`CacheError.unsupportedVersion`).
    func testInfoOfWhatIsNotACacheOfThisVersion() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let missing = folder + "/missing.mscache"
        let catalog = folder + "/movies.json"
        try Data(#"[{"title":"Heat","year":1995}]"#.utf8).write(to: URL(fileURLWithPath: catalog))
        var forged = try CacheWriter.encode(Fixtures.small)
        forged[8] = 6  // the version field, little-endian: refused before any checksum is compared
        let old = folder + "/old.mscache"
        try Data(forged).write(to: URL(fileURLWithPath: old))
        for (path, message) in [
            (missing, "cannot open cache \(missing): No such file or directory"),
            (catalog, "\(catalog) is not a moviesearch cache; give --cache a file built by 'moviesearch index "
                + "<catalog.json>'"),
            (old, "\(old) is a cache of format version 6, this moviesearch reads version \(CacheFormat.version); "
                + "rebuild it with 'moviesearch index'"),
        ] {
            for json in [false, true] {
                let result = MovieSearchCommand.run(arguments: ["info", "--cache", path] + (json ? ["--json"] : []))
                XCTAssertEqual(result.status, 1, path)
                XCTAssertEqual(result.standardOutput, "", path)
                XCTAssertEqual(result.standardError, "moviesearch: \(message)\n", path)
            }
        }
    }
    /// A section of a tag this version does not know (a newer writer's; here the TMDb ids renamed to bytes with an
    /// escape and a backslash) is listed, its tag escaped, under "unknown sections", and the groups still add up.
    func testAnUnknownSectionIsListedEscaped() throws {
        let catalog = Catalog(movies: [Movie(id: 0, title: "Heat", year: 1995, rating: 8.3, tmdbID: 949)])
        var bytes = try CacheWriter.encode(catalog)
        let sections = Int(bytes.u32(at: CacheFormat.HeaderField.sectionCount))
        let entry = try XCTUnwrap((0..<sections).map { CacheFormat.headerSize + $0 * CacheFormat.directoryEntrySize }
            .first { bytes.u32(at: $0) == CacheFormat.Tag.tmdbIDs.code })
        bytes.replaceSubrange(entry..<(entry + 4), with: [UInt8(ascii: "T"), 0x1B, UInt8(ascii: "\\"), 0xE9])
        // Sealed again, as a writer would: the metadata checksum covers the directory, the header's the header.
        let directory = Array(bytes[CacheFormat.headerSize..<(CacheFormat.headerSize + sections * 32)])
        let tableStart = Int(bytes.u64(at: CacheFormat.HeaderField.blockTableOffset))
        let metadata = XXHash64.hash(Array(bytes[tableStart...]), seed: XXHash64.hash(directory))
        bytes.replaceSubrange(48..<56, with: (0..<8).map { UInt8(truncatingIfNeeded: metadata >> (8 * $0)) })
        let header = XXHash64.hash(Array(bytes[0..<56]))
        bytes.replaceSubrange(56..<64, with: (0..<8).map { UInt8(truncatingIfNeeded: header >> (8 * $0)) })
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("newer.mscache").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let result = MovieSearchCommand.run(arguments: ["info", "--cache", path])
        XCTAssertEqual(result.status, 0, result.standardError)
        let row = try XCTUnwrap(result.standardOutput.split(separator: "\n").first { $0.hasPrefix("T\\x1B") })
        XCTAssertTrue(row.hasPrefix(#"T\x1B\x5C\xE9  packed "#), String(row))
        XCTAssertTrue(row.hasSuffix("  unknown to this version"), String(row))
        XCTAssertFalse(result.standardOutput.unicodeScalars.contains("\u{1B}"))
        let unknown = try XCTUnwrap(result.standardOutput.split(separator: "\n").last, result.standardOutput)
        XCTAssertTrue(unknown.hasPrefix("unknown sections: "), result.standardOutput)

        let json = MovieSearchCommand.run(arguments: ["info", "--json", "--cache", path]).standardOutput
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let tags = (object["sections"] as? [[String: Any]] ?? []).compactMap { $0["tag"] as? String }
        XCTAssertTrue(tags.contains(#"T\x1B\x5C\xE9"#), "\(tags)")
        let groups = try XCTUnwrap(object["groups"] as? [String: Int])
        XCTAssertGreaterThan(groups["unknown"] ?? 0, 0)
        XCTAssertEqual(groups.values.reduce(0, +), bytes.count)
    }
}
