import MovieSearchCatalog
import MovieSearchCommandLine
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPhotos
import MovieSearchPlatform
import MovieSearchQuery

/// `moviesearch photos <id> [--cache <file>] [--response <file|->] [--flickr-key <key>] [--json]`: the Flickr
/// request for a movie's photos and, from a saved response, the photo URLs. Never opens a network connection.
struct PhotosCommand: Subcommand {
    static let name = "photos"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Print the Flickr photo search request for a movie, and the photo URLs of a saved answer.",
        discussion: """
            On a terminal the photo URLs come in two columns when they fit; otherwise one per line. Photos of the \
            answer that lack a field are skipped, with a warning that counts them.
            """,
        arguments: [id, CacheLocation.option, response, FlickrKey.option, json])

    static let id = Argument<Int>("id", rule: .movieID, help: "The movie's id, as 'query --json' prints it.")
    /// The largest Flickr response read: a page of 500 photos is about 100 KB, and a response is read whole.
    static let maximumResponseBytes = 16 << 20

    static let response = Option<FilePath>(
        "response", valueName: "file|-",
        help: "A saved answer to the request (Flickr photos.search, JSON): a file, or '-' for standard input; "
            + "at most \(FileReader.byteLimitDescription(maximumResponseBytes)).")
    static let json = JSONOutput.flag(members: PhotosOutput.members.helpList)

    var id: Int
    var cache: FilePath?
    var responsePath: FilePath?
    var flickrKey: String?
    var printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = arguments[Self.id]!
        cache = arguments[CacheLocation.option]
        responsePath = arguments[Self.response]
        flickrKey = arguments[FlickrKey.option]
        printsJSON = arguments[Self.json]
    }

    func run(_ context: CommandContext) throws {
        let movie = try CacheLocation.open(cache, context).movie(id: id)
        // Errors and warnings name standard input as the library does.
        let source = responsePath.map { $0 == FilePath("-") ? "<stdin>" : $0.description }
        // The response is read before the key's note is given, so that a response that cannot be read is one
        // line of error and nothing else.
        let list = try responsePath.map { try readPhotos($0, source: source!, context) }
        let request = FlickrPhotos.searchURL(title: movie.title, apiKey: FlickrKey.resolve(flickrKey, context))
        var photos: PhotoList?
        if let list, let source {
            if list.skipped > 0 {
                context.warning("skipped \(TextLayout.count(list.skipped, "photo", "photos")) with a missing or bad "
                    + "field in \(source)")
            }
            photos = list
        }

        let out = context.standardOutput
        if printsJSON { return out.line(bytes: PhotosOutput.json(movie, request: request, photos: photos).bytes) }
        PhotosOutput.write(movie, request: request, photos: photos, width: context.terminal.width, to: out)
    }

    /// The photos of the response at `path` (`-`: standard input), read as a stream and checked as it arrives,
    /// so that one that is not JSON fails at its first bad byte and one past `maximumResponseBytes` fails there.
    /// The file is opened without waiting for a writer: a FIFO that no one writes to is an error at once, not a
    /// process frozen in `open` (a pipe that has a writer, `--response <(curl …)`, reads as a stream).
    private func readPhotos(_ path: FilePath, source: String, _ context: CommandContext) throws -> PhotoList {
        let input: JSONInput
        do {
            input = path == FilePath("-")
                ? try context.standardInput.json(maximumBytes: Self.maximumResponseBytes)
                : try JSONInput.read(path: path, maximumBytes: Self.maximumResponseBytes, waitingForAWriter: false)
        } catch {
            throw FileReadError(role: "Flickr response", path: source, cause: error,
                                note: error == .tooLarge(Self.maximumResponseBytes) ? "the most a response may hold" : nil)
        }
        if input.bytes.isEmpty, path != FilePath("-"), case let .success(status) = Syscalls.status(
            ofPath: path, followingLinks: true), status.kind == .notRegular(.fifo) {
            throw FileReadError(role: "Flickr response", path: source,
                                cause: FileReader.Failure.notARegularFile(.fifo),
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
