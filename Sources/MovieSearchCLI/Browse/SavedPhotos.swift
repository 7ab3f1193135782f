/// A movie's Flickr photos as its details page shows them on the photos line: saved in `browse --photos-dir`,
/// cached, or being fetched in the background.
enum SavedPhotos: Equatable, Sendable {
    /// No folder, or no `<id>.json` in it, nothing cached, and Flickr not asked (no key, or `--offline`).
    case none
    /// Flickr is being asked, in the background: the page shows the answer when it comes, without a key press.
    case fetching
    /// Flickr was asked and failed: why (one line).
    case failed(String)
    /// The photo URLs of the response (none, for a response without photos).
    case urls([String])
    /// The response is there but cannot be used, and why ("7.json: it is a FIFO (named pipe), not a regular
    /// file"): a line of its own on the page rather than a frozen screen or a silent "none".
    case unreadable(String)
}
