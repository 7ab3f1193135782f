import MovieSearch

/// `--flickr-key <key>`, and the key used without it: `FLICKR_API_KEY`, else a visible placeholder, so that the
/// printed request URL still shows its shape.
enum FlickrKey {
    static let option = Option<String>(
        "flickr-key", valueName: "key",
        help: "The Flickr API key to put in the request URL. Default: FLICKR_API_KEY, else a placeholder.")

    static let environmentVariable = "FLICKR_API_KEY"

    static func resolve(_ given: String?, _ context: CommandContext) -> String {
        if let given { return given }
        if let named = context.environment[environmentVariable] { return named }
        context.note("no Flickr API key (pass --flickr-key <key> or set \(environmentVariable)): "
            + "the request URL holds the placeholder \(FlickrPhotos.placeholderAPIKey)")
        return FlickrPhotos.placeholderAPIKey
    }
}
