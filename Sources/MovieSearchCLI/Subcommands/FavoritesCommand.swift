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
        // A file that cannot be read is a warning and an empty list: listing never fails because of it.
        let session = try FavoritesLocation.resolve(favorites, context.environment).map {
            try FavoritesSession.open($0.storage, index: index, ifUnreadable: .readOnly)
        }
        if let error = session?.unreadable { context.warning("\(error)") }
        let store = session?.store
        let movies = try AnswerOrder.sorted(store?.favorites.map { try index.movie(id: $0.id) } ?? [])
        let missing = store?.missingWithReasons ?? []
        if printsJSON { return out.line(bytes: FavoritesOutput.listJSON(movies, scales: index.ratingScales, missing: missing).bytes) }
        FavoritesOutput.writeList(movies, scales: index.ratingScales, missing: missing, to: out)
    }

    // MARK: add, remove

    private func change(_ index: MovieIndex, _ context: CommandContext) throws {
        let location = try FavoritesLocation.forWriting(favorites, context)
        // A file that cannot be read or understood stops the change: it is never overwritten.
        var session = try FavoritesSession.open(location.storage, index: index, ifUnreadable: .fail)
        let out = context.standardOutput
        let path = location.path.description
        if removesMissing {
            let missing = try session.removeMissing()
            if printsJSON { return out.line(bytes: FavoritesOutput.removedJSON(missing).bytes) }
            return FavoriteChangeText.writeRemoved(missing, path: path, to: out)
        }
        guard let id else { return }
        let change = switch action {
        case .add: try session.add(index.movie(id: id))
        case .remove, .list: try session.remove(id: id)
        }
        if printsJSON { return out.line(bytes: FavoritesOutput.changeJSON(change, scales: index.ratingScales).bytes) }
        FavoriteChangeText.write(change, path: path, to: out)
    }
}
