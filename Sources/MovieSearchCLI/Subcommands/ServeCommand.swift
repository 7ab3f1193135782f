import MovieSearchCommandLine
import MovieSearchFavorites
import MovieSearchHTTP
import MovieSearchOutput
import MovieSearchPhotos
import MovieSearchPlatform
import MovieSearchQuery
import MovieSearchServer

/// `moviesearch serve [--cache <file>] [--listen <host:port>] [--favorites <file> | --no-save] [--photos-dir <dir>]
/// [--typos auto|off] [--max-connections N] [--allow-host <names>] [--cors-origin <origin>] [--flickr-key <key>]
/// [--flickr-endpoint <url>] [--tmdb-key <key>] [--tmdb-endpoint <url>] [--offline] [--quiet]`: the HTTP JSON API
/// (`MovieSearchServer`), until SIGTERM, SIGINT or SIGQUIT.
///
/// The main thread starts the event loops, then waits on a self-pipe for the signals (`ServeSignal`), looking at
/// the cache file four times a second in between (`ServedCache.reloadIfChanged`): a new cache is served within
/// 250 ms of its rename (once every block of it is checked), at once on SIGHUP, and one copied over the served file
/// in place within 250 ms of the copy's end (503s meanwhile).
struct ServeCommand: Subcommand {
    static let name = "serve"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Serve the HTTP JSON API: search, movies, top lists, photos and favorites, as the --json output.",
        discussion: """
            Endpoints: GET /api/search?q=<words>&per_year=<K>&typos=auto|off, GET /api/movies/<id>, \
            GET /api/movies/<id>/poster (the catalog's poster, else TMDb's found by title and year with a TMDb key), \
            GET /api/top?by=rating|critic&limit=<N>, GET /api/photos/<id>, GET /api/favorites, \
            PUT and DELETE /api/favorites/<id>, GET /healthz. Each answers what the matching command prints with \
            --json; errors are {"error": "<one line>"} with their HTTP status.
            It listens on loopback unless --listen names another address (then it warns), answers only requests \
            whose Host is this server (421 otherwise: DNS rebinding), and refuses writes from another site's pages \
            (403). A new cache written by 'moviesearch index' to the same path is served within a second, without \
            a failed request; one that fails its checks is refused (the old one kept, /healthz "degraded"). A cache \
            written over in place (cp, truncate) is answered with 503 until it is complete and checked. SIGTERM, \
            SIGINT or SIGQUIT: stops accepting, finishes requests in flight, exits 0. SIGHUP: looks at the cache and \
            the favorites at once (a closing terminal cuts no request). SIGUSR1: one status line on standard error. \
            SIGUSR2: nothing.
            """,
        usageForms: [
            UsageForm([.optional(CacheLocation.option), .optional(listen),
                       .alternatives(FavoritesLocation.option, FavoritesLocation.noSave)]
                + .optionals([photosDirectory, SearchOptions.typos, maxConnections, allowHost, corsOrigin,
                              FlickrKey.option, FlickrOptions.endpoint, TMDbOptions.key, TMDbOptions.endpoint,
                              FlickrOptions.offline, quiet])),
        ],
        arguments: [CacheLocation.option, listen, FavoritesLocation.option, FavoritesLocation.noSave, photosDirectory,
                    SearchOptions.typos, maxConnections, allowHost, corsOrigin, FlickrKey.option,
                    FlickrOptions.endpoint, TMDbOptions.key, TMDbOptions.endpoint, FlickrOptions.offline, quiet])

    static let defaultAddress = "127.0.0.1:8080"
    /// The environment variable that shortens the grace period a stop gives the requests in flight (milliseconds,
    /// 100 to 1,000; the default is 1 s): for tests of a stop with a client that never finishes its request, which
    /// would otherwise wait the full second.
    static let graceVariable = "MOVIESEARCH_SERVE_GRACE_MS"
    static let listen = Option<String>(
        "listen", valueName: "host:port",
        help: "Where to listen: an IPv4 address, [IPv6] or localhost, and a port (0: any free port). "
            + "Default: \(defaultAddress).")
    static let photosDirectory = Option<FilePath>(
        "photos-dir", valueName: "dir",
        help: "A folder of saved Flickr answers named <id>.json, for /api/photos/<id> before the cache and Flickr.")
    static let maxConnectionsRange = 1...1_000_000
    static let maxConnections = DefaultedOption<Int>(
        "max-connections", valueName: "N", range: maxConnectionsRange, default: 1024,
        help: "Connections open at once; more get 503")
    static let allowHost = Option<String>(
        "allow-host", valueName: "names",
        help: "Other names clients may reach this server by, comma-separated (a proxy's or this machine's name), "
            + "for the Host check.")
    static let corsOrigin = Option<String>(
        "cors-origin", valueName: "origin",
        help: "One other web origin whose pages may call the API (http://host:port): CORS headers for it only.")
    static let quiet = Flag("quiet", help: "No access log line per request on standard error.")

    var cache: FilePath?
    var address: SocketAddress
    var favoritesPath: FilePath?
    var savesFavorites: Bool
    var photosDirectory: FilePath?
    var typos: TypoTolerance
    var maxConnections: Int
    var allowedHosts: Set<String>
    var corsOrigin: String?
    var flickrKey: String?
    var flickrEndpoint: String?
    var tmdbKey: String?
    var tmdbEndpoint: String?
    var offline: Bool
    var logsRequests: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        cache = arguments[CacheLocation.option]
        let listenText = arguments[Self.listen] ?? Self.defaultAddress
        guard let address = SocketAddress(parsing: listenText) else {
            throw UsageError("--listen takes host:port with an IPv4 address, [IPv6] or localhost, and a port from "
                + "0 to 65535, not '\(listenText)'")
        }
        self.address = address
        favoritesPath = arguments[FavoritesLocation.option]
        savesFavorites = !arguments[FavoritesLocation.noSave]
        if let favoritesPath, !savesFavorites {
            throw UsageError("give --favorites <file> or --no-save, not both (got '\(favoritesPath)' and --no-save)")
        }
        photosDirectory = arguments[Self.photosDirectory]
        typos = arguments[SearchOptions.typos]
        maxConnections = arguments[Self.maxConnections]
        allowedHosts = Set((arguments[Self.allowHost] ?? "").split(separator: ",").map {
            String($0.filter { $0 != " " }).lowercased()
        }.filter { !$0.isEmpty })
        if let origin = arguments[Self.corsOrigin] {
            do {
                corsOrigin = try RequestPolicy.checkedCORSOrigin(origin)
            } catch {
                throw UsageError("--cors-origin takes \(RequestPolicy.InvalidOrigin.expected), not '\(error.text)'")
            }
        }
        flickrKey = arguments[FlickrKey.option]
        flickrEndpoint = arguments[FlickrOptions.endpoint]
        tmdbKey = arguments[TMDbOptions.key]
        tmdbEndpoint = arguments[TMDbOptions.endpoint]
        offline = arguments[FlickrOptions.offline]
        logsRequests = !arguments[Self.quiet]
    }

    func run(_ context: CommandContext) throws {
        let cachePath = try CacheLocation.resolve(cache, context)
        let served = try ServedCache(path: cachePath)
        // The first line on standard error is the address (scripts read it to find the port): warnings about the
        // favorites file wait until it is written.
        var favoritesWarnings: [String] = []
        let storage = try favoritesStorage(served.snapshot(), context, warnings: &favoritesWarnings)
        // Warnings from the server's worker threads go straight to standard error, one write each (the context's
        // buffered output belongs to this thread).
        let favorites = ServedFavorites(storage, warn: { text in
            let line = Array("moviesearch: warning: \(TerminalSafeText.escapedMessage(text))\n".utf8)
            _ = line.withUnsafeBytes { Syscalls.writeAll(2, $0) }
        })
        var api = APIResponder.Configuration(flickrKey: FlickrKey.given(flickrKey, context.environment)
            ?? FlickrPhotos.placeholderAPIKey)
        api.typos = typos
        api.photosDirectory = photosDirectory
        // Photos are fetched (with a key) by the server's `.network` workers, through `moviesearch-fetch`.
        api.photoSource = FlickrOptions.source(key: flickrKey, endpoint: flickrEndpoint, offline: offline,
                                               savedFolder: photosDirectory, environment: context.environment)
        // Posters the catalog does not give: TMDb's, by title and year, through the same fetcher and cache.
        api.posterSource = TMDbOptions.source(key: tmdbKey, endpoint: tmdbEndpoint, offline: offline,
                                              environment: context.environment)
        var http = HTTPServer.Configuration(address: address)
        http.maxConnections = maxConnections
        http.allowedHosts = allowedHosts
        http.corsOrigin = corsOrigin
        if let grace = context.environment.positiveNumber(Self.graceVariable, clampedTo: 100...1_000) {
            http.shutdownGrace = .milliseconds(grace)
        }
        // The access log goes to standard error from a thread of its own: a standard error nobody reads drops log
        // lines (counted in a warning), never stalls the answers.
        let accessLog = logsRequests ? try AccessLog.standardError() : nil
        http.accessLog = accessLog
        http.commonHeaders = [
            .init(name: "X-Content-Type-Options", value: "nosniff"),
            .init(name: "Content-Security-Policy", value: ContentSecurityPolicy.value),
        ]
        let server = try HTTPServer(
            configuration: http,
            responder: APIResponder(cache: served, favorites: favorites, configuration: api))

        // The signals are caught before the loops start, so that a SIGTERM sent as soon as the line below is read is
        // never the default action (which would end the process with requests in flight). SIGHUP (a terminal that
        // closed, or `kill -HUP` to reload), SIGQUIT and SIGUSR1/2 would end it as well by default: each is given a
        // meaning here instead (`ServeSignal`).
        let pipe = try Syscalls.makeNonBlockingPipe().get()
        let saved = try Syscalls.installSignalPipe(ServeSignal.caught, writeDescriptor: pipe.write).get()
        defer {
            Syscalls.restoreSignalActions(saved)
            _ = Syscalls.closeDescriptor(pipe.read)
            _ = Syscalls.closeDescriptor(pipe.write)
        }
        try server.start()
        let started = ContinuousClock.now
        let count = served.snapshot().index.movieCount
        context.standardError.line("moviesearch: serving \(TextLayout.count(count, "movie", "movies")) at "
            + "http://\(server.boundAddress)/")
        if server.descriptorLimit < maxConnections + 16 {
            context.warning("this process may open \(server.descriptorLimit) files (ulimit -n), fewer than "
                + "--max-connections \(maxConnections): connections past the limit wait to be accepted")
        }
        if !address.isLoopback {
            context.warning("listening on \(server.boundAddress), not a loopback address: anyone who can reach this "
                + "machine can search and change favorites")
        }
        for warning in favoritesWarnings { context.warning(warning) }
        context.standardError.flush()
        waiting: while true {
            var signals = ServeSignal.Received()
            switch Syscalls.waitUntilReadable([pipe.read], timeoutMilliseconds: 250) {
            case .success(let ready?) where ready[0]:
                signals = ServeSignal.take(from: pipe.read)
            case .success:
                break  // a quarter of a second passed, or a signal interrupted the wait (its byte is read next time)
            case .failure:
                Syscalls.sleep(milliseconds: 250)  // the pipe cannot be waited on: do not spin, look again soon
            }
            if let stop = signals.stop {
                if stop != Syscalls.Signal.terminate && stop != Syscalls.Signal.interrupt {
                    context.note("\(ServeSignal.name(stop)): finishing the requests in flight, then stopping")
                }
                break waiting
            }
            if signals.reload {
                // SIGHUP: the cache file and the favorites looked at now, not at the next tick.
                context.note("SIGHUP: reloading the cache and the favorites")
                favorites.forgetMarks()
            }
            if signals.status {
                let snapshot = served.snapshot()
                let movies = TextLayout.count(snapshot.index.movieCount, "movie", "movies")
                let reloads = TextLayout.count(snapshot.generation, "reload", "reloads")
                let seconds = (ContinuousClock.now - started).components.seconds
                let path = TerminalSafeText.escapedMessage(cachePath.description)
                context.standardError.line("moviesearch: status: serving \(movies) from \(path) at "
                    + "http://\(server.boundAddress)/, up \(seconds) s, \(reloads) of the cache")
            }
            switch served.reloadIfChanged() {
            case .reloaded(let movies)?:
                context.note("serving the new cache \(cachePath): \(TextLayout.count(movies, "movie", "movies"))")
            case .failed(let reason)?:
                context.warning("the new cache at \(cachePath) cannot be served, still serving the previous one: "
                    + reason)
            case .unavailable(let reason)?:
                context.warning("the cache \(cachePath) was written over in place (replace it by renaming a new "
                    + "file into place): answering 503 until a complete cache is there: " + reason)
            case nil:
                if signals.reload { context.note("the cache at \(cachePath) is the one served") }
            }
            context.standardError.flush()
        }
        server.stop()
        server.wait()
        accessLog?.close(waiting: .milliseconds(500))
    }

    /// The favorites file, or (`--no-save`, or no place for one) a list in memory read from it once; `warnings`
    /// receives what the user should be told (printed after the first line).
    private func favoritesStorage(_ snapshot: ServedCache.Snapshot, _ context: CommandContext,
                                  warnings: inout [String]) throws -> ServedFavorites.Storage
    {
        guard let location = FavoritesLocation.resolve(favoritesPath, context.environment) else {
            warnings.append("\(FavoritesError.noLocation); favorites are kept in memory")
            return .memory(FavoriteList())
        }
        // A file named with --favorites that cannot be read is an error; the default one is served, never
        // written (each change answers the error).
        let session = try FavoritesSession.open(location.storage, index: snapshot.index,
                                                ifUnreadable: location.isDefault ? .readOnly : .fail)
        if let error = session.unreadable { warnings.append("\(error)") }
        return savesFavorites ? .file(location.path, isDefault: location.isDefault) : .memory(session.store.list)
    }
}
