import MovieSearchCommandLine
import MovieSearchPhotos

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
        if let key = Self.given(given, context.environment) { return key }
        context.note("no Flickr API key (pass --flickr-key <key> or set \(environmentVariable)): "
            + "the request URL holds the placeholder \(FlickrPhotos.placeholderAPIKey)")
        return FlickrPhotos.placeholderAPIKey
    }

    /// The key given or named by the environment, without the placeholder's note: `nil` when there is none (for
    /// `browse`, which has no line to print a note on once it holds the terminal).
    static func given(_ given: String?, _ environment: Environment) -> String? {
        if let given, !given.isEmpty { return given }
        return environment[environmentVariable]
    }
}
