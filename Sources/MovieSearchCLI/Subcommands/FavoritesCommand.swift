import MovieSearchCatalog
import MovieSearchCommandLine
import MovieSearchFavorites
import MovieSearchJSON
import MovieSearchOutput
import MovieSearchPlatform
import MovieSearchQuery

/// `moviesearch favorites [list|add <id>|remove <id>|remove --missing] [--json] [--favorites <file>]
/// [--cache <file>]`: the favorites, without a terminal (`browse` shows and toggles the same ones).
struct FavoritesCommand: Subcommand {
    static let name = "favorites"
    static let configuration = CommandConfiguration(
        name: name,
        abstract: "List, add or remove favorite movies (the ♥ of browse, query, top and show).",
        discussion: """
            list (the default) prints the favorites newest year first, then best-rated first, and those no \
            longer in the cache as missing, with the reason (a favorite is kept by id, title, year and IMDb and \
            TMDb ids: when the cache is rebuilt from a changed catalog, one whose id now holds another movie is \
            found again by its IMDb id, else its TMDb id, else its title and year when exactly one movie has \
            them; one not found stays in the file). add and remove save the file at once, atomically; remove \
            removes the favorite that is that movie of the cache, remove --missing drops every missing one.
            A favorites file that is damaged or not a favorites file is never overwritten: add and remove fail \
            with one line, list warns and lists nothing.
            """,
        usageForms: [
            UsageForm([.word(Action.list.rawValue, isOptional: true)] + .optionals(options)),
            UsageForm([.word(Action.add.rawValue, isOptional: false), .required(id)] + .optionals(options)),
            UsageForm([.word(Action.remove.rawValue, isOptional: false), .required(id)] + .optionals(options)),
            UsageForm([.word(Action.remove.rawValue, isOptional: false), .required(missing)] + .optionals(options)),
        ],
        arguments: [action, id, missing, FavoritesLocation.option, CacheLocation.option, json])

    /// The options every form takes, in its usage lines' order.
    private static var options: [any ArgumentDeclaration] { [json, FavoritesLocation.option, CacheLocation.option] }

    /// What the command does: a choice, so that the parser names the three words and Tab offers them.
    enum Action: String, ArgumentChoice {
        case list, add, remove
    }

    static let action = Argument<Action>(
        "action", isOptional: true, help: "list (the default), add or remove.")
    static let id = Argument<Int>(
        "id", isOptional: true, rule: .movieID, help: "The movie to add or remove, as 'query --json' prints it.")
    static let missing = Flag(
        "missing", help: "With remove: remove every favorite the cache does not hold (listed as missing).")
    static let json = JSONOutput.flag(
        members: "for list, favorites: each favorite as 'show --json' prints the movie, with favorite true and "
            + "missing false, or, for one missing from the cache, what the file keeps: "
            + FavoritesOutput.missingMembers.helpList(optionalWhen: "the file kept them") + "; for add "
            + "and remove, the movie as 'show --json' prints it, favorite saying its new state, and added or "
            + "removed saying whether the file changed (for an id the cache does not hold, only id, favorite false "
            + "and removed false); for remove --missing, removed: the missing favorites removed, as in list")

    var action: Action
    var id: Int?
    var removesMissing: Bool
    var favorites: FilePath?
    var cache: FilePath?
    var printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let action = arguments[Self.action] ?? .list
        self.action = action
        id = arguments[Self.id]
        removesMissing = arguments[Self.missing]
        if action == .list, let id { throw UsageError("unexpected argument '\(id)': 'list' takes no id") }
        if removesMissing, action != .remove { throw UsageError("'--missing' goes with 'remove' only") }
        if removesMissing, let id { throw UsageError("unexpected argument '\(id)': 'remove --missing' takes no id") }
        if action != .list, id == nil, !removesMissing {
            throw UsageError("missing argument '<id>' for '\(action.rawValue)'")
        }
        favorites = arguments[FavoritesLocation.option]
        cache = arguments[CacheLocation.option]
        printsJSON = arguments[Self.json]
    }

    func run(_ context: CommandContext) throws {
        let index = try CacheLocation.open(cache, context)
        switch action {
        case .list: try list(index, context)
        case .add, .remove: try change(index, context)
        }
    }

    // MARK: list

    private func list(_ index: MovieIndex, _ context: CommandContext) throws {
        let out = context.standardOutput
        var store: FavoriteStore?
        if let location = FavoritesLocation.resolve(favorites, context.environment) {
            do {
                store = try FavoriteStore(list: FavoritesFile.read(location.path), index: index)
            } catch let error as FavoritesError {
                context.warning("\(error)")
            }
        }
        let movies = try AnswerOrder.sorted(store?.favorites.map { try index.movie(id: $0.id) } ?? [])
        let missing = store?.missingWithReasons ?? []
        if printsJSON { return out.line(bytes: FavoritesOutput.listJSON(movies, scales: index.ratingScales, missing: missing).bytes) }
        FavoritesOutput.writeList(movies, scales: index.ratingScales, missing: missing, to: out)
    }

    // MARK: add, remove

    private func change(_ index: MovieIndex, _ context: CommandContext) throws {
        let location = try FavoritesLocation.forWriting(favorites, context)
        // Read, change and save under the lock: another process's change made meanwhile is read, not saved over.
        try FavoritesFile.withLock(location.path, creatingFolder: location.isDefault) {
            try change(index, context, at: location)
        }
    }

    private func change(_ index: MovieIndex, _ context: CommandContext, at location: FavoritesLocation.Location)
        throws
    {
        // A file that cannot be read or understood stops the change here: it is never overwritten.
        var store = try FavoriteStore(list: FavoritesFile.read(location.path), index: index)
        let out = context.standardOutput
        let path = TerminalSafeText.escaped(location.path.description)
        if removesMissing {
            let missing = store.missingWithReasons
            store.removeMissing()
            if !missing.isEmpty {
                try FavoritesFile.write(store.list, to: location.path, creatingFolder: location.isDefault)
            }
            if printsJSON { return out.line(bytes: FavoritesOutput.removedJSON(missing).bytes) }
            if missing.isEmpty {
                return out.line("No favorite is missing from this cache (\(path)): nothing to remove.")
            }
            out.line("Removed \(TextLayout.count(missing.count, "missing favorite", "missing favorites")) (\(path)):")
            for entry in missing {
                out.line("  \(entry.favorite.year)  \(TerminalSafeText.escaped(entry.favorite.title))")
            }
            return
        }
        guard let id else { return }
        switch action {
        case .add:
            let movie = try index.movie(id: id)
            let changed = store.add(movie)
            if changed { try FavoritesFile.write(store.list, to: location.path, creatingFolder: location.isDefault) }
            if printsJSON { return printJSON(movie, scales: index.ratingScales, favorite: true, changed: ("added", changed), out) }
            out.line(changed ? "Added \(describe(movie)) to the favorites (\(path))."
                     : "\(describe(movie)) is a favorite already (\(path)).")
        case .remove:
            guard let removed = store.remove(id: id) else {
                if printsJSON {
                    // Nothing removed is an answer too, in JSON like the others: the movie when the cache holds
                    // it, else only the id.
                    if let movie = try? index.movie(id: id) {
                        return printJSON(movie, scales: index.ratingScales, favorite: false, changed: ("removed", false), out)
                    }
                    return out.line(bytes: FavoritesOutput.changeJSON(id: id).bytes)
                }
                out.line("No favorite has id \(id) (\(path)): nothing to remove.")
                return
            }
            try FavoritesFile.write(store.list, to: location.path, creatingFolder: location.isDefault)
            if printsJSON {
                return printJSON(try index.movie(id: id), scales: index.ratingScales, favorite: false, changed: ("removed", true), out)
            }
            out.line("Removed \(id) \(TerminalSafeText.escaped(removed.title)) (\(removed.year)) from the favorites "
                + "(\(path)).")
        case .list:
            break
        }
    }

    /// A missing favorite as list and remove --missing print it: what the file keeps of it, and why the cache
    /// does not hold it.
    private func describe(_ movie: Movie) -> String {
        "\(movie.id) \(TerminalSafeText.escaped(movie.title)) (\(movie.year))"
    }

    /// The movie as `show --json` prints it, and whether the command changed the file (`changed`: "added" or
    /// "removed"), the text output's "Added …"/"… a favorite already" for scripts.
    private func printJSON(_ movie: Movie, scales: RatingScales, favorite: Bool, changed: (member: String, value: Bool),
                           _ out: TextOutput) {
        out.line(bytes: FavoritesOutput.changeJSON(movie, scales: scales, favorite: favorite, changed: changed).bytes)
    }
}
