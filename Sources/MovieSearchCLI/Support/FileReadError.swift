/// A file (or standard input) the user named that could not be read.
struct FileReadError: Error, CustomStringConvertible {
    /// What the file was for (`queries`, `Flickr response`).
    var role: String
    /// The path as given, or `<stdin>`.
    var path: String
    var cause: SystemError

    var description: String { "cannot read \(role) \(path): \(cause)" }
}
