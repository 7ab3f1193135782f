import MovieSearchCatalog
import MovieSearchCommandLine
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPhotos
import MovieSearchPlatform
import MovieSearchQuery

/// `moviesearch photos <id> [--cache <file>] [--response <file|->] [--photos-dir <dir>] [--flickr-key <key>]
/// [--flickr-endpoint <url>] [--offline] [--refresh] [--json]`: the Flickr request for a movie's photos and the
/// photo URLs: from a response given, else from `--photos-dir`, the cache, or Flickr itself (with a key), through
/// the one `FlickrPhotoSource` that `serve` and `browse` use too.
struct PhotosCommand: Subcommand {
    static let name = "photos"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Print the Flickr photo search request for a movie, and its photo URLs (fetched with a key).",
        discussion: """
            With a key (--flickr-key, else FLICKR_API_KEY) Flickr is asked for a title it has no answer for, and \
            the answer is kept in $XDG_CACHE_HOME/moviesearch (~/.cache/moviesearch) for 7 days; a saved answer in \
            --photos-dir comes first. On a terminal the photo URLs come in two columns when they fit; otherwise \
            one per line. Photos of the answer that lack a field are skipped, with a warning that counts them.
            """,
        arguments: [id, CacheLocation.option, response, photosDirectory, FlickrKey.option, FlickrOptions.endpoint,
                    FlickrOptions.offline, refresh, json])

    static let id = Argument<Int>("id", rule: .movieID, help: "The movie's id, as 'query --json' prints it.")
    static let response = Option<FilePath>(
        "response", valueName: "file|-",
        help: "A saved answer to the request (Flickr photos.search, JSON): a file, or '-' for standard input; "
            + "at most \(FileReader.byteLimitDescription(FlickrPhotos.maximumResponseBytes)).")
    static let photosDirectory = Option<FilePath>(
        "photos-dir", valueName: "dir",
        help: "A folder of saved Flickr answers named <id>.json, used before the cache and Flickr.")
    static let refresh = Flag("refresh", help: "Ask Flickr again, even for a title whose answer is cached.")
    static let json = JSONOutput.flag(members: PhotosOutput.members.helpList)

    var id: Int
    var cache: FilePath?
    var responsePath: FilePath?
    var flickrKey: String?
    var photosDirectory: FilePath?
    var endpoint: String?
    var offline: Bool
    var refresh: Bool
    var printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = arguments[Self.id]!
        cache = arguments[CacheLocation.option]
        responsePath = arguments[Self.response]
        flickrKey = arguments[FlickrKey.option]
        photosDirectory = arguments[Self.photosDirectory]
        endpoint = arguments[FlickrOptions.endpoint]
        offline = arguments[FlickrOptions.offline]
        refresh = arguments[Self.refresh]
        printsJSON = arguments[Self.json]
        if refresh, offline { throw UsageError("--refresh asks Flickr, which --offline forbids: give one of them") }
    }

    func run(_ context: CommandContext) throws {
        let movie = try CacheLocation.open(cache, context).movie(id: id)
        // Errors and warnings name standard input as the library does.
        let source = responsePath.map { $0 == FilePath("-") ? "<stdin>" : $0.description }
        // The response is read before the key's note is given, so that a response that cannot be read is one
        // line of error and nothing else.
        let given = try responsePath.map { try readPhotos($0, source: source!, context) }
        let photoSource = FlickrOptions.source(key: flickrKey, endpoint: endpoint, offline: offline,
                                               savedFolder: photosDirectory, environment: context.environment)
        let request = photoSource.request(title: movie.title)
        var photos: PhotoList?
        if let given, let source {
            if given.skipped > 0 {
                context.warning("skipped \(TextLayout.count(given.skipped, "photo", "photos")) with a missing or bad "
                    + "field in \(source)")
            }
            photos = given
        } else {
            // A failure is its one line (Flickr's refusal, no answer in time, …) and status 1.
            let answer = try photoSource.photos(movieID: movie.id, title: movie.title, refresh: refresh)
            photos = answer.list
            if let note = answer.note { context.warning(note) }
            if answer.origin == .stale { context.warning("showing the cached answer, older than 7 days") }
            if answer.origin == .none {
                _ = FlickrKey.resolve(flickrKey, context)  // its note, when there is no key
                if offline { context.note("--offline, and no answer for this title is saved or cached") }
            }
            if let list = answer.list, list.skipped > 0 {
                context.warning("skipped \(TextLayout.count(list.skipped, "photo", "photos")) with a missing or bad "
                    + "field in Flickr's answer")
            }
        }

        let out = context.standardOutput
        if printsJSON { return out.line(bytes: PhotosOutput.json(movie, request: request, photos: photos).bytes) }
        PhotosOutput.write(movie, request: request, photos: photos, width: context.terminal.width, to: out)
    }

    /// The photos of the response at `path` (`-`: standard input), read as a stream and checked as it arrives,
    /// so that one that is not JSON fails at its first bad byte and one past `FlickrPhotos.maximumResponseBytes`
    /// fails there.
    /// The file is opened without waiting for a writer: a FIFO that no one writes to is an error at once, not a
    /// process frozen in `open` (a pipe that has a writer, `--response <(curl …)`, reads as a stream).
    private func readPhotos(_ path: FilePath, source: String, _ context: CommandContext) throws -> PhotoList {
        let input: JSONInput
        do {
            input = path == FilePath("-")
                ? try context.standardInput.json(maximumBytes: FlickrPhotos.maximumResponseBytes)
                : try JSONInput.read(path: path, maximumBytes: FlickrPhotos.maximumResponseBytes, waitingForAWriter: false)
        } catch {
            throw FileReadError(role: "Flickr response", path: source, cause: error,
                                note: error == .tooLarge(FlickrPhotos.maximumResponseBytes) ? "the most a response may hold" : nil)
        }
        if input.bytes.isEmpty, path != FilePath("-"), case let .success(status) = Syscalls.status(
            ofPath: path, followingLinks: true), status.kind == .notRegular(.fifo) {
            throw FileReadError(role: "Flickr response", path: source,
                                cause: FileFailure.notARegularFile(.fifo),
                                note: "and no program was writing to it (use '-' to read standard input)")
        }
        guard let badByte = input.badByte else {
            return try FlickrPhotos.photos(fromResponse: input.bytes, source: source)
        }
        // The read stopped at a bad byte: the reader's own error at or before it, else (the bytes kept end too soon
        // for it to see the fault) the bad byte itself. Never a response read in part.
        do {
            _ = try FlickrPhotos.photos(fromResponse: input.bytes, source: source)
        } catch let error as FlickrError {
            guard case let .malformedJSON(_, _, _, offset, _) = error, !input.reportsError(at: offset) else { throw error }
        }
        let (line, column) = input.location(of: badByte)
        throw FlickrError.malformedJSON(source: source, line: line, column: column, offset: badByte,
                                        reason: JSONInput.badByteReason)
    }
}
