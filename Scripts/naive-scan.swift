// The naive anchor of Scripts/compare: search a catalog the way apps usually do it, in plain Swift and Foundation.
//
//     swiftc -O Scripts/naive-scan.swift -o naive-scan
//     naive-scan --catalog movies.json --queries queries.txt [--passes 5] [--per-year 5] [--answers out.jsonl]
//                [--max-seconds S]
//
// Open (timed): read the file, decode it once with JSONDecoder, and fold every title once:
// `folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)` (lower case, accents removed:
// "Brüno" -> "bruno"), apostrophes (' ‘ ’ ʼ) removed ("Don't" -> "dont"), then cut into words at every character
// outside `CharacterSet.alphanumerics` (Unicode L*, M*, N*). Queries get the same treatment.
// Query (timed, each call on its own, monotonic clock): a linear scan keeping the movies where every query word is a
// prefix (`String.hasPrefix`) of some title word (no query word: every movie), grouped by year with
// `Dictionary(grouping:by:)`, years sorted newest first, each year's movies sorted by rating descending (unrated
// last, then id) and cut to K, with the per-year counts and the total.
// Differences from SEARCH-SPEC: Foundation's folding instead of NFKD + full case folding (ß, ligatures such as "ﬁ",
// "½" may fold differently), `String` comparison by Characters (grapheme clusters) rather than by code points.
//
// Prints one JSON object with the keys of `moviesearch bench --json`; `--answers` writes the warm-up pass's answers
// as JSON lines shaped like `moviesearch query --stdin` (movie ids only).

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Movie: Decodable {
    let title: String
    let year: Int
    let rating: Double?
}

struct Catalog: Decodable {
    let movies: [Movie]
}

struct Entry {
    let id: Int
    let year: Int
    let rating: Double?
    let words: [String]
}

struct YearGroup {
    let year: Int
    let count: Int
    let ids: [Int]
}

struct Answer {
    let total: Int
    let years: [YearGroup]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("naive-scan: \(message)\n".utf8))
    exit(1)
}

func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

let separators = CharacterSet.alphanumerics.inverted
let apostrophes: [String] = ["'", "\u{2018}", "\u{2019}", "\u{02BC}"]

func words(_ text: String) -> [String] {
    var folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    for apostrophe in apostrophes { folded = folded.replacingOccurrences(of: apostrophe, with: "") }
    return folded.components(separatedBy: separators).filter { !$0.isEmpty }
}

func search(_ query: String, in entries: [Entry], perYear: Int) -> Answer {
    let queryWords = words(query)
    let matches = entries.filter { entry in
        queryWords.allSatisfy { word in entry.words.contains { $0.hasPrefix(word) } }
    }
    let byYear = Dictionary(grouping: matches, by: \.year)
    let years = byYear.keys.sorted(by: >).map { year -> YearGroup in
        let movies = byYear[year]!.sorted { a, b in
            switch (a.rating, b.rating) {
            case let (x?, y?): return x != y ? x > y : a.id < b.id
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.id < b.id
            }
        }
        return YearGroup(year: year, count: movies.count, ids: movies.prefix(perYear).map(\.id))
    }
    return Answer(total: matches.count, years: years)
}

func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func jsonLine(_ query: String, _ answer: Answer) -> String {
    let years = answer.years.map { group in
        "{\"year\":\(group.year),\"count\":\(group.count),\"movies\":["
            + group.ids.map { "{\"id\":\($0)}" }.joined(separator: ",") + "]}"
    }
    return "{\"query\":\(jsonString(query)),\"total\":\(answer.total),\"years\":[\(years.joined(separator: ","))]}"
}

// MARK: - Arguments

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard name.hasPrefix("--"), let value = arguments.popFirst() else { fail("usage: see the head of naive-scan.swift") }
    options[String(name.dropFirst(2))] = value
}
guard let catalogPath = options["catalog"], let queriesPath = options["queries"] else {
    fail("--catalog and --queries are required")
}
let passes = Int(options["passes"] ?? "5") ?? 5
let perYear = Int(options["per-year"] ?? "5") ?? 5
let maxSeconds = options["max-seconds"].flatMap(Double.init)

guard let queryData = FileManager.default.contents(atPath: queriesPath) else { fail("cannot read \(queriesPath)") }
var queries = String(decoding: queryData, as: UTF8.self).components(separatedBy: "\n")
if queries.last == "" { queries.removeLast() }

// MARK: - Open: decode once, fold once

let openStart = nanoseconds()
guard let catalogData = FileManager.default.contents(atPath: catalogPath) else { fail("cannot read \(catalogPath)") }
let movies: [Movie]
do {
    if catalogData.first(where: { !Set<UInt8>([0x20, 0x0A, 0x0D, 0x09]).contains($0) }) == UInt8(ascii: "[") {
        movies = try JSONDecoder().decode([Movie].self, from: catalogData)
    } else {
        movies = try JSONDecoder().decode(Catalog.self, from: catalogData).movies
    }
} catch {
    fail("\(catalogPath): \(error)")
}
let entries = movies.enumerated().map { id, movie in
    Entry(id: id, year: movie.year, rating: movie.rating, words: words(movie.title))
}
let openNanoseconds = nanoseconds() - openStart

// MARK: - Warm-up pass (its answers are the ones written), then timed passes

var answerLines: [String] = []
answerLines.reserveCapacity(queries.count)
for query in queries {
    answerLines.append(jsonLine(query, search(query, in: entries, perYear: perYear)))
}
if let path = options["answers"] {
    let text = answerLines.joined(separator: "\n") + (answerLines.isEmpty ? "" : "\n")
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { fail("cannot write \(path)") }
}

var samples: [UInt64] = []
samples.reserveCapacity(queries.count * max(passes, 0))
var passesRun = 0
let timedStart = nanoseconds()
var sink = 0
for _ in 0..<max(passes, 0) {
    for query in queries {
        let start = nanoseconds()
        let answer = search(query, in: entries, perYear: perYear)
        samples.append(nanoseconds() - start)
        sink &+= answer.total
    }
    passesRun += 1
    if let maxSeconds, Double(nanoseconds() - timedStart) / 1e9 > maxSeconds { break }
}

// MARK: - Figures

samples.sort()
func percentile(_ p: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let rank = max(0, Int((p / 100 * Double(samples.count)).rounded(.up)) - 1)
    return Double(samples[rank]) / 1000
}
let total = samples.reduce(0, +)
/// Peak resident memory: VmHWM, which starts afresh at exec (getrusage's ru_maxrss carries the parent's peak across
/// fork and exec on Linux), else ru_maxrss.
func peakResidentBytes() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    {
        return kilobytes * 1024
    }
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024  // Linux: kilobytes
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)  // Darwin: bytes
    #endif
}
let maxRSSBytes = peakResidentBytes()
let figures: [(String, String)] = [
    ("queries", "\(queries.count)"),
    ("passes", "\(passesRun)"),
    ("p50_us", "\(percentile(50))"),
    ("p90_us", "\(percentile(90))"),
    ("p99_us", "\(percentile(99))"),
    ("max_us", "\(Double(samples.last ?? 0) / 1000)"),
    ("mean_us", "\(samples.isEmpty ? 0 : Double(total) / Double(samples.count) / 1000)"),
    ("qps", "\(total == 0 ? 0 : Double(samples.count) / (Double(total) / 1e9))"),
    ("open_us", "\(Double(openNanoseconds) / 1000)"),
    ("cache_bytes", "\(catalogData.count)"),
    ("peak_rss_bytes", "\(maxRSSBytes)"),
    ("checksum", "\(sink)"),
]
print("{" + figures.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
