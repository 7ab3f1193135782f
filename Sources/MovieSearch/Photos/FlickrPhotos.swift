/// Flickr photo URLs, built offline (SEARCH-SPEC, "Flickr photos"). (STUB: being implemented; signatures are final.)
public enum FlickrPhotos {
    /// Shown in place of an API key when none was given, so that a built URL is visibly incomplete.
    public static let placeholderAPIKey = "YOUR_FLICKR_API_KEY"

    /// The photos.search request URL for `title`, with the title percent-encoded as a query value.
    public static func searchURL(title: String, apiKey: String) -> String {
        "https://api.flickr.com/services/rest/?method=flickr.photos.search"
            + "&api_key=\(PercentEncoding.queryValue(apiKey))&format=json&nojsoncallback=1"
            + "&text=\(PercentEncoding.queryValue(title))&page=1&per_page=10"
    }

    /// The photo URLs of a saved photos.search response, in the response's order. Throws `FlickrError`.
    public static func photos(fromResponse bytes: [UInt8], source: String) throws -> PhotoList {
        fatalError("not implemented yet")
    }
}

/// The photos of one photos.search response.
public struct PhotoList: Sendable, Equatable {
    /// `http://farm{farm}.static.flickr.com/{server}/{id}_{secret}.jpg`, in the response's order.
    public var urls: [String]
    /// Photos left out because a field was missing or of the wrong type.
    public var skipped: Int

    /// Creates a list from its parts.
    public init(urls: [String], skipped: Int) {
        self.urls = urls
        self.skipped = skipped
    }
}
