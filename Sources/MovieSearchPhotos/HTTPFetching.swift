/// One HTTP GET: what `FlickrPhotoSource` asks Flickr through. `ProgramFetcher` runs `moviesearch-fetch` (libcurl);
/// tests may give a fake.
///
///     let body = try fetcher.fetch("https://api.flickr.com/services/rest/?…", limits: .flickr)
public protocol HTTPFetching: Sendable {
    /// The body of a 2xx answer to a GET of `url`, within `limits`; a `FetchFailure` otherwise. Must return by
    /// the limits' total time (plus a little): a fetch never hangs its caller.
    func fetch(_ url: String, limits: FetchLimits) throws(FetchFailure) -> [UInt8]
}
