/// Standard input: the process's own, or bytes given by a test.
enum InputSource {
    case fileDescriptor(Int32)
    case bytes([UInt8])

    /// Everything left to read.
    func readAll() -> Result<[UInt8], SystemError> {
        switch self {
        case let .fileDescriptor(fd): System.readAll(fd)
        case let .bytes(bytes): .success(bytes)
        }
    }

    /// Calls `body` with each line, without its line feed or a trailing carriage return, until it returns false.
    /// An empty line is a line; the end of input after a final line feed is not.
    ///
    /// `beforeWaiting` runs each time every line read so far has been handled and more must be read: the moment
    /// to flush answers, so that a script that writes one line and waits for its answer gets it, while a large
    /// batch still goes out in big writes.
    func forEachLine(_ body: (String) -> Bool, beforeWaiting: () -> Void) -> SystemError? {
        switch self {
        case let .bytes(bytes):
            var reader = LineSplitter()
            if reader.feed(bytes[...], body) { reader.finish(body) }
            return nil
        case let .fileDescriptor(fd):
            var reader = LineSplitter()
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { System.readSome(fd, into: $0) }
                if count < 0 { return SystemError(code: Int32(-count)) }
                if count == 0 { break }
                guard reader.feed(chunk[0..<count], body) else { return nil }
                beforeWaiting()
            }
            reader.finish(body)
            return nil
        }
    }
}

/// Cuts a stream of bytes into lines, carrying a partial line from one chunk to the next.
private struct LineSplitter {
    private var partial: [UInt8] = []

    /// Passes each complete line of `chunk` to `body`; false as soon as `body` does.
    mutating func feed(_ chunk: ArraySlice<UInt8>, _ body: (String) -> Bool) -> Bool {
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            let goesOn: Bool
            if partial.isEmpty {
                goesOn = body(Self.text(chunk[start..<newline]))
            } else {
                partial.append(contentsOf: chunk[start..<newline])
                goesOn = body(Self.text(partial[...]))
                partial.removeAll(keepingCapacity: true)
            }
            guard goesOn else { return false }
            start = newline + 1
        }
        partial.append(contentsOf: chunk[start...])
        return true
    }

    mutating func finish(_ body: (String) -> Bool) {
        if !partial.isEmpty { _ = body(Self.text(partial[...])) }
        partial.removeAll()
    }

    private static func text(_ line: ArraySlice<UInt8>) -> String {
        let end = line.last == 0x0D ? line.endIndex - 1 : line.endIndex
        return String(decoding: line[line.startIndex..<end], as: UTF8.self)
    }
}
