/// The photos of one photos.search response.
///
///     let list = try FlickrPhotos.photos(fromResponse: bytes, source: path)
///     for url in list.urls { print(url) }
public struct PhotoList: Sendable, Equatable {
    /// `http://farm{farm}.static.flickr.com/{server}/{id}_{secret}.jpg`, in the response's order.
    public var urls: [String]
    /// Photos left out because they were not objects, or a field was missing, of the wrong type or unusable in a
    /// URL (see `FlickrPhotos.photos(fromResponse:source:)`).
    public var skipped: Int

    /// Creates a list from its parts.
    ///
    ///     let empty = PhotoList(urls: [], skipped: 0)
    public init(urls: [String], skipped: Int) {
        self.urls = urls
        self.skipped = skipped
    }
}
