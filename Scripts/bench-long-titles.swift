// Times one query of K words in-process, for Scripts/bench-long-titles.sh: compiled with Sources/MovieSearch into
// one module (`swiftc -O`), so that it calls `MovieIndex.search` directly (the CLI caps a query line at 1 MiB,
// and a process per query would time its start-up, not the query).
//
//   bench-long-titles <cache> <K> <runs>
//
// The query is the words 0..<K of `LongTitleWords.word`, as Scripts/bench-long-titles.sh writes the title of the
// cache's one movie. Prints the median time of `runs` searches in seconds and the answer's total, which must be 1.

/// Word `n` of the bijective base-26 numbering a, b, …, z, aa, ab, …: the same words as the script's catalog.
enum LongTitleWords {
    static func word(_ n: Int) -> String {
        var n = n + 1, letters: [UInt8] = []
        while n > 0 {
            n -= 1
            letters.append(UInt8(ascii: "a") + UInt8(n % 26))
            n /= 26
        }
        return String(decoding: letters.reversed(), as: UTF8.self)
    }
}

@main
enum LongQueryBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let count = Int(arguments[2]), let runs = Int(arguments[3]), runs > 0 else {
            print("usage: bench-long-titles <cache> <K> <runs>")
            return
        }
        let index = try MovieIndex(path: arguments[1])
        let query = (0..<count).map(LongTitleWords.word).joined(separator: " ")
        var times: [Double] = []
        var total = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let result = try index.search(query)
            times.append((ContinuousClock.now - start) / .seconds(1))
            total = result.total
        }
        times.sort()
        print(times[times.count / 2], total)
    }
}
