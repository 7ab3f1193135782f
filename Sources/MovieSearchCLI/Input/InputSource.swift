import MovieSearchInput
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPlatform

/// Standard input, or a file read the same way: an open descriptor, or bytes given by a test.
enum InputSource {
    case fileDescriptor(Int32)
    case bytes([UInt8])

    /// The catalog it holds (`index -`) as an input for `CatalogDecoder`: read as a stream, gzip decoded.
    var catalogInput: CatalogInput {
        switch self {
        case let .fileDescriptor(fd): CatalogInput(descriptor: fd)
        case let .bytes(bytes): CatalogInput(bytes: bytes)
        }
    }

    /// The identity of what it reads (the file, when standard input is redirected from one; a pipe's or a
    /// terminal's device and inode never equal a file's), or `nil` for bytes given by a test.
    var fileIdentity: FileIdentity? {
        switch self {
        case let .fileDescriptor(fd): FileIdentity.of(descriptor: fd)
        case .bytes: nil
        }
    }

    /// The JSON document it holds, read as a stream and checked as it arrives (see `JSONInput.read`), at
    /// most `maximumBytes` long.
    func json(maximumBytes: Int) throws(FileFailure) -> JSONInput {
        switch self {
        case let .fileDescriptor(fd):
            return try JSONInput.read(descriptor: fd, maximumBytes: maximumBytes)
        case let .bytes(bytes):
            if bytes.count > maximumBytes { throw .tooLarge(maximumBytes) }
            return JSONInput(bytes: bytes, badByte: nil)
        }
    }

    /// Calls `body` with each line, without its line feed or a trailing carriage return, until it returns false.
    /// An empty line is a line; the end of input after a final line feed is not. Reads in chunks, holding no more
    /// than one line and one chunk at a time; a line longer than `maximumLineBytes` (not counting its line
    /// feed) stops the reading with `.lineTooLong`, before more of it is read.
    ///
    /// `beforeWaiting` runs each time every line read so far has been handled and more must be read: the moment
    /// to flush answers, so that a script that writes one line and waits for its answer gets it, while a large
    /// batch still goes out in big writes.
    func forEachLine(maximumLineBytes: Int, _ body: (String) -> Bool, beforeWaiting: () -> Void) -> LineReadFailure? {
        var reader = LineSplitter(maximumLineBytes: maximumLineBytes)
        switch self {
        case let .bytes(bytes):
            switch reader.feed(bytes[...], body) {
            case .goOn: return reader.finish(body)
            case .stop: return nil
            case let .failed(failure): return failure
            }
        case let .fileDescriptor(fd):
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count: Int
                switch chunk.withUnsafeMutableBytes({ Syscalls.readSome(fd, into: $0) }) {
                case let .success(read): count = read
                case let .failure(error): return .system(error)
                }
                if count == 0 { break }
                switch reader.feed(chunk[0..<count], body) {
                case .goOn: break
                case .stop: return nil
                case let .failed(failure): return failure
                }
                beforeWaiting()
            }
            return reader.finish(body)
        }
    }
}

/// Why `InputSource.forEachLine`, or a caller bounding what it gathers, stopped reading lines.
enum LineReadFailure: Error, Equatable, CustomStringConvertible {
    /// A read failed.
    case system(SystemError)
    /// Line `line` (counting from 1) holds more than `limit` bytes.
    case lineTooLong(line: Int, limit: Int)
    /// More than `limit` lines.
    case tooManyLines(limit: Int)
    /// More than `limit` bytes of lines in all.
    case tooManyBytes(limit: Int)

    var description: String {
        switch self {
        case let .system(error):
            return error.description
        case let .lineTooLong(line, limit):
            return "line \(TextLayout.grouped(line)) is longer than \(FileReader.byteLimitDescription(limit)), "
                + "the most a query may hold"
        case let .tooManyLines(limit):
            return "more than \(TextLayout.grouped(limit)) queries"
        case let .tooManyBytes(limit):
            return "more than \(FileReader.byteLimitDescription(limit)) of queries"
        }
    }
}

/// Cuts a stream of bytes into lines, carrying a partial line from one chunk to the next.
private struct LineSplitter {
    let maximumLineBytes: Int
    private var partial: [UInt8] = []
    /// The number of the line being read, from 1.
    private var line = 1

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    enum Outcome {
        /// Every complete line was handled; more may follow.
        case goOn
        /// `body` asked to stop.
        case stop
        case failed(LineReadFailure)
    }

    /// Passes each complete line of `chunk` to `body`.
    mutating func feed(_ chunk: ArraySlice<UInt8>, _ body: (String) -> Bool) -> Outcome {
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            guard partial.count + (newline - start) <= maximumLineBytes else { return tooLong() }
            let goesOn: Bool
            if partial.isEmpty {
                goesOn = body(Self.text(chunk[start..<newline]))
            } else {
                partial.append(contentsOf: chunk[start..<newline])
                goesOn = body(Self.text(partial[...]))
                partial.removeAll(keepingCapacity: true)
            }
            guard goesOn else { return .stop }
            line += 1
            start = newline + 1
        }
        guard partial.count + (chunk.endIndex - start) <= maximumLineBytes else { return tooLong() }
        partial.append(contentsOf: chunk[start...])
        return .goOn
    }

    /// Passes the last line, if the input did not end with a line feed.
    mutating func finish(_ body: (String) -> Bool) -> LineReadFailure? {
        if !partial.isEmpty { _ = body(Self.text(partial[...])) }
        partial.removeAll()
        return nil
    }

    private func tooLong() -> Outcome {
        .failed(.lineTooLong(line: line, limit: maximumLineBytes))
    }

    private static func text(_ line: ArraySlice<UInt8>) -> String {
        let end = line.last == 0x0D ? line.endIndex - 1 : line.endIndex
        return String(decoding: line[line.startIndex..<end], as: UTF8.self)
    }
}
