/// A file path as the system knows it: raw bytes, not text.
///
/// ```swift
/// let path = FilePath(bytes: Array("lat".utf8) + [0xE9] + Array(".mscache".utf8))
/// print(path)  // lat\xE9.mscache
/// ```
///
/// File names on Linux are any bytes but `/` and NUL, so a name need not be valid UTF-8 (`lat\xE9.mscache`, written
/// by a Latin-1 tool). A Swift `String` repairs such bytes to U+FFFD, and a path rebuilt from it names another
/// file; this type keeps the bytes as they came (from `argv`, `getenv` or `readdir`) and hands them unchanged to
/// `open`, `rename` and `stat`. Only `description`, for messages, turns them into text, with each byte that is not
/// part of valid UTF-8 shown as `\xE9`. Like swift-system's `FilePath`, but with only what this package needs.
package struct FilePath: Hashable, Sendable, CustomStringConvertible {
    /// The bytes of the path, without a terminating NUL (and never with one inside: see `init(bytes:)`).
    package private(set) var bytes: [UInt8]

    /// The path with these bytes. A NUL byte cannot be part of a path (C ends the string there), so the bytes stop
    /// at the first one, as the C library would read them.
    package init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// The same for an array, the usual case. Not generic, so that a caller in another module (the CLI, for every
    /// path on its command line) runs code compiled for arrays rather than generic code that asks the runtime for
    /// the sequence's types, a cost each short-lived process would pay at start-up.
    package init(bytes: [UInt8]) {
        if let nul = bytes.firstIndex(of: 0) { self.bytes = Array(bytes[..<nul]) } else { self.bytes = bytes }
    }

    /// The path spelled by `string` in UTF-8.
    package init(_ string: String) {
        self.init(bytes: string.utf8)
    }

    /// Whether the path has no bytes (which names no file).
    package var isEmpty: Bool { bytes.isEmpty }

    /// The path as text for messages: valid UTF-8 as it is, each other byte as `\xHH` (upper-case hex), the way
    /// `ls -b` and git show such names. A backslash stays a backslash, so the text of a valid path is the path.
    package var description: String {
        var text = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            let validCount = Self.validUTF8Prefix(rest)
            text += String(decoding: rest.prefix(validCount), as: UTF8.self)
            rest = rest.dropFirst(validCount)
            if let byte = rest.first {
                text += "\\x" + Self.hexDigits(byte)
                rest = rest.dropFirst()
            }
        }
        return text
    }

    /// Calls `body` with the path as a NUL-terminated C string, for the C library's file calls.
    package func withCString<Result, Failure: Error>(
        _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var terminated = bytes
        terminated.append(0)
        let outcome = terminated.withUnsafeBytes { raw -> Swift.Result<Result, Failure> in
            do throws(Failure) {
                return .success(try body(raw.baseAddress!.assumingMemoryBound(to: CChar.self)))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    // MARK: Folder and file name

    /// The path cut after its last slash: the folder with its trailing slash (empty for the current folder), and
    /// the file name (empty when the path ends with a slash).
    package var split: (folder: FilePath, name: FilePath) {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (FilePath(bytes: []), self) }
        return (FilePath(bytes: bytes[...slash]), FilePath(bytes: bytes[(slash + 1)...]))
    }

    /// Whether the path starts at the root folder.
    package var isAbsolute: Bool { bytes.first == UInt8(ascii: "/") }

    /// This path followed by `other`'s bytes (no slash added).
    package static func + (path: FilePath, other: FilePath) -> FilePath {
        FilePath(bytes: path.bytes + other.bytes)
    }

    /// This path followed by the UTF-8 of `suffix` (no slash added).
    package static func + (path: FilePath, suffix: String) -> FilePath {
        FilePath(bytes: path.bytes + Array(suffix.utf8))
    }

    /// The path with the extension of its file name replaced by `newExtension` (`a/b.json` → `a/b.mscache`), or
    /// with `.newExtension` appended when the name has none (`movies`, `.hidden`, `a.d/movies`). Works on bytes, so
    /// the rest of the name is kept exactly.
    package func replacingExtension(with newExtension: String) -> FilePath {
        let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        if let dot = bytes[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot != nameStart {
            return FilePath(bytes: bytes[..<dot]) + ".\(newExtension)"
        }
        return self + ".\(newExtension)"
    }

    // MARK: Escaping

    /// How many bytes at the start of `bytes` form complete, valid UTF-8 characters.
    private static func validUTF8Prefix(_ bytes: ArraySlice<UInt8>) -> Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let length = UTF8.validSequenceLength(in: bytes, at: index)
            guard length > 0 else { break }
            index += length
        }
        return index - bytes.startIndex
    }

    private static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }
}
