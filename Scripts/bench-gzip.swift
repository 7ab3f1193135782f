// Times gzip decoding through `CatalogInput` (the system's zlib), for Scripts/bench-gzip.sh: compiled with
// Sources/MovieSearch into one module (`swiftc -O`), so that it reads the file exactly as `index` does, with nothing
// else timed (no parsing, no cache).
//
//   bench-gzip <file.gz> <runs> <buffer bytes>
//
// Prints, for each run, the decoded bytes and the time; then the best and median rates in MB/s (10^6 bytes) of
// decoded and of compressed bytes.

@main
enum GzipBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let runs = Int(arguments[2]), runs > 0, let size = Int(arguments[3]), size > 0
        else {
            print("usage: bench-gzip <file.gz> <runs> <buffer bytes>")
            return
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var seconds: [Double] = []
        var decoded = 0, compressed = 0
        for run in 1...runs {
            let clock = ContinuousClock()
            let start = clock.now
            let input = try CatalogInput(path: FilePath(arguments[1]))
            guard input.isGzip else {
                print("\(arguments[1]) is not gzip")
                return
            }
            var total = 0
            while true {
                let count = try input.read(into: buffer)
                if count == 0 { break }
                total += count
            }
            let elapsed = clock.now - start
            let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            seconds.append(time)
            decoded = total
            compressed = input.fileSize
            print("run \(run): \(total) bytes decoded in \(rounded(time, 3)) s")
        }
        seconds.sort()
        let best = seconds[0], median = seconds[seconds.count / 2]
        print("decoded \(rounded(Double(decoded) / 1e6, 1)) MB from \(rounded(Double(compressed) / 1e6, 1)) MB, "
            + "buffer \(size) bytes")
        print("best   \(rounded(Double(decoded) / 1e6 / best, 0)) MB/s decoded, "
            + "\(rounded(Double(compressed) / 1e6 / best, 0)) MB/s compressed")
        print("median \(rounded(Double(decoded) / 1e6 / median, 0)) MB/s decoded, "
            + "\(rounded(Double(compressed) / 1e6 / median, 0)) MB/s compressed")
    }

    /// `value` with `places` decimals, as text.
    static func rounded(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * scale).rounded()
        if places == 0 { return String(Int(scaled)) }
        let whole = Int(scaled) / Int(scale), fraction = Int(scaled) % Int(scale)
        let digits = String(fraction)
        return "\(whole)." + String(repeating: "0", count: places - digits.count) + digits
    }
}
