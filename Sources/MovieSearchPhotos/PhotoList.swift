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
    /// The photos themselves, in the same order as `urls` (empty for a list built from URLs alone).
    public var photos: [FlickrPhoto]

    /// Creates a list from its parts.
    ///
    ///     let empty = PhotoList(urls: [], skipped: 0)
    public init(urls: [String], skipped: Int) {
        self.urls = urls
        self.skipped = skipped
        photos = []
    }

    /// Two lists are equal when their URLs and skipped counts are: what a list built from URLs alone can say.
    /// (The owners, the one part of a photo its URL does not hold, are left out.)
    public static func == (left: PhotoList, right: PhotoList) -> Bool {
        left.urls == right.urls && left.skipped == right.skipped
    }

    /// A list of these photos, their URLs from them.
    public init(photos: [FlickrPhoto], skipped: Int) {
        self.photos = photos
        urls = photos.map(\.url)
        self.skipped = skipped
    }
}
