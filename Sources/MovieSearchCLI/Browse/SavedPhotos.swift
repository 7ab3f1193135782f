/// A movie's saved Flickr response in `browse --photos-dir`, as its details page shows it on the photos line.
enum SavedPhotos: Equatable, Sendable {
    /// No folder, or no `<id>.json` in it.
    case none
    /// The photo URLs of the response (none, for a response without photos).
    case urls([String])
    /// The response is there but cannot be used, and why ("7.json: it is a FIFO (named pipe), not a regular
    /// file"): a line of its own on the page rather than a frozen screen or a silent "none".
    case unreadable(String)
}
