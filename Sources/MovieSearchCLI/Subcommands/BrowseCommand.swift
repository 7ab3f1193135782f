import MovieSearchCatalog
import MovieSearchCommandLine
import MovieSearchFavorites
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPhotos
import MovieSearchPlatform
import MovieSearchQuery

/// `moviesearch browse [--cache <file>] [--favorites <file> | --no-save] [--typos auto|off] [--year …] [--genre …]
/// [--cast …] [--min-rating …] [--min-critic …] [--color …] [--photos-dir <dir>] [--flickr-key <key>] [--print]`:
/// search as you type in the terminal, with details, the top list and favorites, under filters given at start or
/// on the filter line (Ctrl-G, `BrowseFilterLine`).
///
/// The driver of the interactive program: it opens what the session needs before it takes the terminal (so that a
/// bad cache or favorites file is one line on a screen left as it was), then loops: one event from the terminal
/// (`TerminalSession.nextEvent`), one step of the pure `BrowseModel`, one frame (`FrameWriter`, one write with only
/// the rows that changed). Favorites are saved after every toggle, atomically. The terminal is restored on every
/// way out: quitting, Ctrl-C, a thrown error, and every signal whose default is to end the process (SIGTERM,
/// SIGHUP, SIGQUIT, SIGUSR1, … : `Syscalls.Signal.terminating`), which then ends it (status 128 + n).
struct BrowseCommand: Subcommand {
    static let name = "browse"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "Search as you type in the terminal; details, the top list and favorites.",
        discussion: """
            Keys: type to search; Backspace or Ctrl-H deletes back, Ctrl-U clears the query, Ctrl-W deletes the \
            word before the cursor, Left and Right move in the query; Up/Down, Ctrl-P/Ctrl-N or Ctrl-K/Ctrl-J move \
            the selection, PgUp/PgDn page, Home/End jump; Enter opens the movie's details (on a '… more' row, all \
            of that year's matches); Tab marks or unmarks the selected movie as a favorite and moves down; Ctrl-T \
            goes Search → Top 15 → Critics' 15 (when the catalog has critics' ratings) → Favorites; Ctrl-G opens \
            the filter line (genre:Drama year:1990..1999 cast:Tom Hanks rating:7 critic:8; Tab completes a \
            genre, Enter applies, an empty line clears the filters, Esc cancels); Esc goes back, clears the \
            query, and quits when it is empty; Ctrl-C \
            quits (status 130); Ctrl-Z stops browse as a job, with the rest of its pipeline (fg brings it back; \
            ignored where the shell has no job control).
            Filters: --year, --genre, --cast, --min-rating and --min-critic are in force from the start, for the \
            search, its years and the top lists, as for query and top; the filter line starts with them. The \
            summary line shows the filters in force in brackets ([Drama · 2010–2012]), and notes a genre or cast \
            name that no movie has.
            Favorites are kept in $XDG_DATA_HOME/moviesearch/favorites.json (~/.local/share when XDG_DATA_HOME is \
            unset), written after every change; query, top and show mark them with ♥.
            The screen is drawn on the terminal (/dev/tty), so that with --print standard output holds only the \
            chosen movie: moviesearch browse --print | jq .title
            """,
        usageForms: [
            UsageForm([.optional(CacheLocation.option),
                       .alternatives(FavoritesLocation.option, FavoritesLocation.noSave)]
                + .optionals([SearchOptions.typos] + FilterOptions.arguments
                    + [ColorChoice.option, photosDirectory, FlickrKey.option, FlickrOptions.endpoint,
                       FlickrOptions.offline, printsChoice])),
        ],
        arguments: [CacheLocation.option, FavoritesLocation.option, FavoritesLocation.noSave, SearchOptions.typos]
            + FilterOptions.arguments + [ColorChoice.option, photosDirectory, FlickrKey.option, FlickrOptions.endpoint,
                    FlickrOptions.offline, printsChoice])

    static let photosDirectory = Option<FilePath>(
        "photos-dir", valueName: "dir",
        help: "A folder of saved Flickr answers named <id>.json, used before the cache and Flickr: the details page "
            + "lists the movie's photo URLs (fetched in the background with a key).")
    static let printsChoice = Flag(
        "print",
        help: "Enter on a movie prints its 'show --json' line on standard output and quits, for pipelines.")

    var cache: FilePath?
    var favoritesPath: FilePath?
    var savesFavorites: Bool
    var typos: TypoTolerance
    var filters: FilterOptions
    var color: ColorChoice
    var photosDirectory: FilePath?
    var flickrKey: String?
    var flickrEndpoint: String?
    var offline: Bool
    var printsChoice: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        cache = arguments[CacheLocation.option]
        favoritesPath = arguments[FavoritesLocation.option]
        savesFavorites = !arguments[FavoritesLocation.noSave]
        typos = arguments[SearchOptions.typos]
        filters = FilterOptions(arguments)
        color = arguments[ColorChoice.option]
        photosDirectory = arguments[Self.photosDirectory]
        flickrKey = arguments[FlickrKey.option]
        flickrEndpoint = arguments[FlickrOptions.endpoint]
        offline = arguments[FlickrOptions.offline]
        printsChoice = arguments[Self.printsChoice]
        if let favoritesPath, !savesFavorites {
            throw UsageError("give --favorites <file> or --no-save, not both (got '\(favoritesPath)' and --no-save)")
        }
    }

    func run(_ context: CommandContext) throws {
        // The terminal is opened first (not yet taken): without one, the answer is that browse needs one, whatever
        // else is wrong. Then everything that can fail on bad input fails before the terminal is taken, as one line
        // on a screen left as it was: the cache, then the favorites file (one named with --favorites that cannot
        // be read is an error; the default one gives a read-only session).
        let session: TerminalSession
        switch Result(catching: { () throws(TerminalError) in try TerminalSession.open() }) {
        case .success(let opened): session = opened
        case .failure(.noTerminal): throw CommandExit(status: 2, message: TerminalError.noTerminal.description)
        case .failure(let error): throw error
        }
        let index = try CacheLocation.open(cache, context)
        let opened = try FavoritesLocation.open(favoritesPath, noSave: !savesFavorites, index: index, context)
        var favorites = opened.session
        let readOnlyReason = opened.readOnlyReason
        let key = FlickrKey.given(flickrKey, context.environment) ?? FlickrPhotos.placeholderAPIKey
        // Colour follows `--color` as for `query`; the screen is the terminal whatever standard output is.
        let allowsColor = color.allowsEscapes(outputIsTerminal: true, environment: context.environment)
        let size = session.size
        // Photos saved, cached, or fetched in the background (a byte on the wake pipe says one came in).
        let wake = try Syscalls.makeNonBlockingPipe().get()
        defer {
            Syscalls.closeDescriptor(wake.read)
            Syscalls.closeDescriptor(wake.write)
        }
        session.wakeDescriptor = wake.read
        let fetches = BrowsePhotoFetches(
            source: FlickrOptions.source(key: flickrKey, endpoint: flickrEndpoint, offline: offline,
                                         savedFolder: photosDirectory, environment: context.environment),
            wakeWriteDescriptor: wake.write)
        var model = BrowseModel(
            index: index, favorites: favorites.store.ids, missingFavorites: favorites.store.missing, typos: typos,
            filters: filters.filters, color: allowsColor,
            printsChoice: printsChoice, flickrKey: key, photos: { fetches.photos(of: $0) },
            columns: size.columns, rows: size.rows)
        model.statusMessage = readOnlyReason
        // Posters kept by `serve` or `show --fetch` (TMDb's, by title and year): named on the details page, never
        // asked for from here.
        let posters = TMDbOptions.source(key: nil, endpoint: nil, offline: true, environment: context.environment)
        model.keptPoster = { posters.cachedPoster(title: $0.title, year: $0.year)?.path }

        try session.enter()
        defer { session.restore() }
        var writer = FrameWriter(withColor: allowsColor)
        var chosen: Int?
        loop: while true {
            // The size the model was last given (at start, then on each SIGWINCH): no ioctl per key.
            try session.write(writer.frame(model.screen(columns: model.columns, rows: model.rows)))
            switch try session.nextEvent() {
            case .wake:
                model.updatePhotos(fetches.takeFinished())
            case .resize:
                let size = session.size
                model.resize(columns: size.columns, rows: size.rows)
                writer.invalidate()
            case .terminate(let signal):
                // SIGTERM, SIGHUP (also a terminal that went away), SIGQUIT, SIGUSR1…: the process ends by that
                // signal, as it would have without browse's handlers (status 128 + n), but after the deferred
                // restore has given the terminal back.
                throw CommandExit(signal: signal)
            case .key(.control("z")):
                // Ctrl-Z, which raw mode delivers as a byte: stop as a shell's job would, with the rest of the
                // pipeline, the terminal given back; the session redraws everything on `fg` (its next event is
                // `.resize`). Ignored without job control (nothing could continue browse).
                try session.suspend()
            case .key(let key):
                switch model.handle(key) {
                case .none:
                    break
                case .quit(let status):
                    if status == 0 { break loop }
                    throw CommandExit(status: status)  // Ctrl-C's 130: the deferred restore runs first
                case .print(let id):
                    chosen = id
                    break loop
                case .favoriteChanged(let id, let isFavorite):
                    model.statusMessage = save(id, isFavorite, in: &favorites, readOnlyReason: readOnlyReason)
                    if model.favorites != favorites.store.ids { model.favorites = favorites.store.ids }
                    if model.missingFavorites != favorites.store.missing {
                        model.missingFavorites = favorites.store.missing
                    }
                }
            }
        }
        // The screen is given back before the answer is printed, so that `browse --print` in a terminal leaves
        // the line below the prompt it came from.
        session.restore()
        if let chosen {
            let movie = try index.movie(id: chosen)
            context.standardOutput.line(
                bytes: MovieJSON.object(movie, scales: index.ratingScales, posterSize: PosterSize.defaultSize,
                                       favorite: favorites.store.isFavorite(chosen)).bytes)
        }
    }

    /// Applies a toggle the model made and saves it (`FavoritesSession`: read again, changed and saved under the
    /// file's lock, so that a change made meanwhile by another process, `favorites add` or a second `browse`, is
    /// kept and the session then shows the file's favorites). Returns the status line to show: why favorites are
    /// not saved (`readOnlyReason`, or the error of this save, the change then kept for this session only), or
    /// `nil` when all is well. A file that became unreadable or foreign is left as it is.
    private func save(_ id: Int, _ isFavorite: Bool, in favorites: inout FavoritesSession,
                      readOnlyReason: String?) -> String? {
        let movie: Movie
        do {
            movie = try favorites.index.movie(id: id)
        } catch {
            return BrowseModel.message(error)
        }
        do {
            if isFavorite { try favorites.add(movie) } else { try favorites.remove(id: id) }
            return readOnlyReason
        } catch {
            return "favorites not saved: \(error)"
        }
    }
}
