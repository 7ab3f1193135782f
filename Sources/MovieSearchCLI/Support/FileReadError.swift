/// A file (or standard input) the user named that could not be read.
struct FileReadError: Error, CustomStringConvertible {
    /// What the file was for (`queries`, `Flickr response`).
    var role: String
    /// The path as given, or `<stdin>`.
    var path: String
    /// Why: a failed system call, a limit the input went past (its description is the message).
    var cause: any Error & CustomStringConvertible
    /// What the message adds after the cause ("the most a response may hold"), if anything.
    var note: String? = nil

    var description: String { "cannot read \(role) \(path): \(cause)" + (note.map { ", " + $0 } ?? "") }
}
