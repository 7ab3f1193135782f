import MovieSearchOutput

/// The page's `Content-Security-Policy`, sent with every answer of `serve`: its own script and style only; images
/// from itself and from the hosts a poster or a photo URL may name (`PosterSize.allowedHosts`, Flickr's static
/// hosts), over https, never from a host a catalog chose; `data:` for the page's own placeholder images.
///
///     default-src 'self'; img-src 'self' https://image.tmdb.org https://*.static.flickr.com https://live.staticflickr.com data:
package enum ContentSecurityPolicy {
    /// The hosts Flickr serves photos from: `farm{n}.static.flickr.com` (the URLs the API gives) and
    /// `live.staticflickr.com` (its https address, `FlickrPhoto.imageURL(size:)`).
    package static let flickrImageHosts = ["*.static.flickr.com", "live.staticflickr.com"]

    /// The header's value.
    package static let value = "default-src 'self'; img-src 'self' "
        + (PosterSize.allowedHosts + flickrImageHosts).map { "https://" + $0 }.joined(separator: " ") + " data:"
}
