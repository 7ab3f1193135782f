import MovieSearchPlatform

/// One word of the command line: its bytes as the system passed them, and its text.
///
/// A file name need not be valid UTF-8, and `CommandLine.arguments` repairs such bytes to U+FFFD, which names
/// another file. The parser matches options by `text` and hands path values on as `bytes`, unchanged.
package struct ArgumentWord: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The bytes of the word, as in `argv`.
    package var bytes: [UInt8]
    /// The word as text, each byte that is not part of valid UTF-8 repaired to U+FFFD.
    package var text: String

    /// The word of these bytes, as `argv` holds them.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// The word of this text: its UTF-8 bytes.
    package init(_ text: String) {
        bytes = Array(text.utf8)
        self.text = text
    }

    /// A word written in the source (tests: `run(["top"], context)`).
    package init(stringLiteral text: String) {
        self.init(text)
    }

    /// The word for messages: bytes that are not valid UTF-8 shown as `\xE9`.
    package var displayText: String { FilePath(bytes: bytes).description }

    /// The part of the word after its first `skipping` bytes (ASCII ones the parser matched: `-o`, `--cache=`).
    func dropping(_ skipping: Int) -> ArgumentWord {
        ArgumentWord(bytes: Array(bytes.dropFirst(skipping)))
    }

    /// The words of this process's command line after the program name, from `argv` itself.
    package static func processArguments() -> [ArgumentWord] {
        let count = Int(CommandLine.argc)
        guard count > 1 else { return [] }
        return (1..<count).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return ArgumentWord(bytes: []) }
            return ArgumentWord(bytes: Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument))))
        }
    }

    /// The length of a C string, without importing the C library here.
    private static func strlen(_ string: UnsafePointer<CChar>) -> Int {
        var count = 0
        while string[count] != 0 { count += 1 }
        return count
    }
}
