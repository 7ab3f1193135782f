import MovieSearch

/// `--flickr-key <key>`, and the key used without it: `FLICKR_API_KEY`, else a visible placeholder, so that the
/// printed request URL still shows its shape.
enum FlickrKey {
    static let option = Option<String>(
        "flickr-key", valueName: "key",
        help: "The Flickr API key to put in the request URL. Default: FLICKR_API_KEY, else a placeholder.")

    static let environmentVariable = "FLICKR_API_KEY"

    /// The key to use: `given`, else the environment's, else the placeholder (with a note saying so). An empty key
    /// (`--flickr-key ''`) is no key, as an empty `FLICKR_API_KEY` is: a request with `api_key=` would only fail
    /// later, at Flickr.
    static func resolve(_ given: String?, _ context: CommandContext) -> String {
        if let given, !given.isEmpty { return given }
        if let named = context.environment[environmentVariable] { return named }
        context.note("no Flickr API key (pass --flickr-key <key> or set \(environmentVariable)): "
            + "the request URL holds the placeholder \(FlickrPhotos.placeholderAPIKey)")
        return FlickrPhotos.placeholderAPIKey
    }
}
