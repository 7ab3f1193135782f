/// One HTTP GET: what `FlickrPhotoSource` asks Flickr through. `ProgramFetcher` runs `moviesearch-fetch` (libcurl);
/// tests may give a fake.
///
///     let body = try fetcher.fetch("https://api.flickr.com/services/rest/?…", limits: .flickr)
public protocol HTTPFetching: Sendable {
    /// The body of a 2xx answer to a GET of `url`, within `limits`; a `FetchFailure` otherwise. Must return by
    /// the limits' total time (plus a little): a fetch never hangs its caller.
    func fetch(_ url: String, limits: FetchLimits) throws(FetchFailure) -> [UInt8]

    /// The status and body of the answer to a GET of `url` with these extra `headers` (`Name: value` each),
    /// whatever its status (TMDb explains a 401 in its body), within `limits`; a `FetchFailure` when there is no
    /// whole answer. The default (for fakes that only know `fetch`) sends no headers and has no body but a 2xx's.
    func fetchAnyStatus(_ url: String, headers: [String], limits: FetchLimits) throws(FetchFailure)
        -> (status: Int, body: [UInt8])
}

extension HTTPFetching {
    public func fetchAnyStatus(_ url: String, headers: [String], limits: FetchLimits) throws(FetchFailure)
        -> (status: Int, body: [UInt8])
    {
        do {
            return (200, try fetch(url, limits: limits))
        } catch {
            if case let .status(code) = error { return (code, []) }
            throw error
        }
    }
}
