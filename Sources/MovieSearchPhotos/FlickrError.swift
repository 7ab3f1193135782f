import MovieSearchJSON

/// Why a saved Flickr response gave no photo list. Each case names the source (a file path, or a label such as
/// `<stdin>`), and its `description` is one line that tells the user what went wrong and what to look at.
///
///     do {
///         let list = try FlickrPhotos.photos(fromResponse: bytes, source: path)
///     } catch let error as FlickrError {
///         print("error: \(error)")    // "photos.json: Flickr refused the request: error 100, Invalid API Key …"
///     }
public enum FlickrError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Flickr answered `"stat":"fail"`: the request was refused, with Flickr's own `code` and `message`.
    case apiFailure(source: String, code: Int, message: String)
    /// The bytes are not JSON. `line` and `column` count from 1 (columns in Unicode scalars); `offset` is the
    /// byte offset from 0.
    case malformedJSON(source: String, line: Int, column: Int, offset: Int, reason: String)
    /// Valid JSON, but not shaped as a photos.search response (not an object, no `photos` object, no `photo`
    /// array, an unknown `stat`).
    case unexpectedShape(source: String, reason: String)

    /// One line for the user, starting with the source: `"heat.json: Flickr refused the request: error 100, …"`.
    public var description: String {
        switch self {
        case let .apiFailure(source, code, message):
            // Flickr's words as they are, unless they hold a control character (a line break): then quoted as a
            // JSON string, so that the error stays one line.
            let message = message.isEmpty ? "no message"
                : message.unicodeScalars.contains { $0.value < 0x20 } ? JSONWriter.quoted(message) : message
            // Code 100 is the one a user of this tool meets, and the one they can fix themselves.
            let hint = code == 100 ? " (check the Flickr API key)" : ""
            return "\(source): Flickr refused the request: error \(code), \(message)\(hint)"
        case let .malformedJSON(source, line, column, offset, reason):
            return "\(source): not a Flickr response: malformed JSON at line \(line), column \(column) "
                + "(byte \(offset)): \(reason)"
        case let .unexpectedShape(source, reason):
            return "\(source): not a Flickr photos.search response: \(reason)"
        }
    }
}
