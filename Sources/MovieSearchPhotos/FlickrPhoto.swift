/// One photo of a photos.search answer, with the addresses a page needs (SPEC.md, "Flickr photos").
///
///     let photo = list.photos[0]
///     photo.url                 // http://farm66.static.flickr.com/65535/53247432398_3c5b1e2f4a.jpg
///     photo.imageURL(size: "w") // https://live.staticflickr.com/65535/53247432398_3c5b1e2f4a_w.jpg
///     photo.pageURL             // https://www.flickr.com/photos/12345678@N00/53247432398
public struct FlickrPhoto: Sendable, Equatable {
    /// The photo's id, server and secret: ASCII letters and digits (checked when the answer is read).
    public var id: String, server: String, secret: String
    /// The farm number.
    public var farm: Int
    /// The owner's NSID (`12345678@N00`), when the answer gave one of ASCII letters, digits, `@`, `_` and `-`.
    public var owner: String?

    /// Creates a photo from its checked parts.
    public init(id: String, owner: String?, secret: String, server: String, farm: Int) {
        self.id = id
        self.owner = owner
        self.secret = secret
        self.server = server
        self.farm = farm
    }

    /// `http://farm{farm}.static.flickr.com/{server}/{id}_{secret}.jpg`, the form the original apps were given.
    public var url: String { "http://farm\(farm).static.flickr.com/\(server)/\(id)_\(secret).jpg" }

    /// `https://live.staticflickr.com/{server}/{id}_{secret}_{size}.jpg`, the https address Flickr documents
    /// today; `w` is 400 px on the longest side, `z` 640.
    public func imageURL(size: String = "w") -> String {
        "https://live.staticflickr.com/\(server)/\(id)_\(secret)_\(size).jpg"
    }

    /// The photo's page on Flickr: `https://www.flickr.com/photos/{owner}/{id}`, or Flickr's short form by id
    /// alone (`https://www.flickr.com/photo.gne?id={id}`, which redirects there) when the owner is unknown.
    public var pageURL: String {
        if let owner { return "https://www.flickr.com/photos/\(owner)/\(id)" }
        return "https://www.flickr.com/photo.gne?id=\(id)"
    }
}
